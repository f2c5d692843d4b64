# One line per node of an ET given as `vimana-et json` on stdin: id, kind,
# name, the figures the transformer tests check, data deps. Used by
# tests/e2e/gen_transformer*.sh.
import json, sys
TYPES = {"COMP_NODE": "COMP", "COMM_COLL_NODE": "COLL", "COMM_SEND_NODE": "SEND", "COMM_RECV_NODE": "RECV"}
COLL = {"0": "AR", "2": "AG", "6": "A2A", "7": "RS"}
for n in json.load(sys.stdin)["nodes"]:
    a = {x["name"]: next(v for k, v in x.items() if k != "name") for x in n.get("attr", [])}
    t = TYPES[n["type"]]
    if t == "COMP":
        what = "ops=%s bytes=%s us=%s" % (a["num_ops"], a["tensor_size"], n.get("duration_micros", "0"))
    elif t == "COLL":
        what = "%s size=%s pg=%s" % (COLL[str(a["comm_type"])], a["comm_size"], a["pg_name"])
    else:
        what = "%s->%s tag=%s size=%s" % (a["comm_src"], a["comm_dst"], a["comm_tag"], a["comm_size"])
    print(n.get("id", "0"), t, n["name"], what, "deps=" + ",".join(n.get("data_deps", [])))
