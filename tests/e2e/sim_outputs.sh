#!/bin/sh
# vimana's own outputs: --timeline in trace-event units (microseconds, exact
# decimals) with a name for every process and track, --timeline and
# --report valid UTF-8 JSON whatever bytes a node name holds, and
# --logging-folder's log.log and err.log.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
G="$VIMANA_SRCDIR/tests/data/golden-inputs"
D="$VIMANA_SRCDIR/tests/data/bad-inputs"
T="$TEST_TMP"
P2P="$G/workload/send_0to1_1MiB_2/send_0to1_1MiB_2"
has() { # FILE TEXT
    grep -qF -- "$2" "$1" || fail "$1 lacks: $2"
}

# 1 MiB from NPU 0 to 1 on ring2: 500 + 19531 ticks = 20.031 us, from t = 0.
expect_ok sim_golden "$P2P" ring.json ring2.yml --timeline="$T/p2p.json"
has "$T/p2p.json" '{"name":"send_0_1","cat":"communication","ph":"X","ts":0,"dur":20.031,"pid":0,"tid":3,"args":{"node":0,"type":"COMM_SEND_NODE"}}'
has "$T/p2p.json" '{"name":"recv_0_1","cat":"communication","ph":"X","ts":0,"dur":20.031,"pid":1,"tid":10,"args":{"node":0,"type":"COMM_RECV_NODE"}}'
grep -q displayTimeUnit "$T/p2p.json" && fail "displayTimeUnit makes Perfetto read ts as nanoseconds"

# All-reduce on the DGX H100 network: four chunks at once, on four lanes per NPU.
expect_ok sim_golden "$G/workload/ar_1MiB_64/ar_1MiB_64" DGX_H100.json DGX_H100-32.yml --timeline="$T/dgx.json"
python3 - "$T/dgx.json" <<'PY' || fail "timeline track names and units"
import json, re, sys
text = open(sys.argv[1], encoding="utf-8").read()
ev = json.loads(text)["traceEvents"]
named = {(e["pid"], e["tid"]) for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
procs = {e["pid"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
used = {(e["pid"], e["tid"]) for e in ev if e["ph"] == "X"}
assert len(used) == 160 and {t for _, t in used} == {3, 100, 101, 102, 103}, sorted(used)[:8]
assert not used - named, sorted(used - named)[:8]
assert {p for p, _ in used} <= procs
names = {e["args"]["name"] for e in ev if e["ph"] == "M" and e["pid"] == 5}
assert {"NPU 5", "chunks", "chunks (lane 1)", "chunks (lane 3)"} <= names, names
# microseconds as exact decimals: at most three digits, no trailing zero
nums = re.findall(r'"(?:ts|dur)":([0-9.]+)', text)
assert nums and all(re.fullmatch(r"[0-9]+(\.[0-9]{0,2}[1-9])?", n) for n in nums), [n for n in nums if "." in n][:5]
PY

# A node name with a quote, a backslash, control bytes and the bytes ff fe
# (not UTF-8): written escaped, \udcXX for each stray byte as vimana-et json does.
NAME='"q\"uo\\te\u000anew,line\u0001\udcff\udcfe"'
(cd "$D/S-non-utf8-name-in-timeline" && sim_golden wl ring.json ring2.yml --timeline="$T/u.json" --report="$T/u_report.json") \
    >"$T/out" 2>"$T/err" || fail "non-UTF-8 name run: $(cat "$T/err")"
python3 -c 'import json, sys; [json.load(open(f, encoding="utf-8")) for f in sys.argv[1:]]' "$T/u.json" "$T/u_report.json" ||
    fail "outputs are not valid UTF-8 JSON"
has "$T/u.json" "{\"name\":$NAME,\"cat\":\"compute\",\"ph\":\"X\",\"ts\":0,\"dur\":5,\"pid\":0,\"tid\":1,"
has "$T/u_report.json" "{\"npu\": 0, \"node\": 2, \"name\": $NAME, \"type\": \"ALL_REDUCE\","

# --logging-folder: created with its parents; log.log holds what the run printed, err.log its errors.
expect_ok sim_golden "$P2P" ring.json ring2.yml --logging-folder="$T/logs/run1"
cmp -s "$T/out" "$T/logs/run1/log.log" || fail "log.log differs from the run's output"
[ -f "$T/logs/run1/err.log" ] && [ ! -s "$T/logs/run1/err.log" ] || fail "err.log of a clean run"
expect_error "vimana: error: deadlock: $D/F5-send-without-recv/wl.0.et: a SEND nobody receives: NPU 0 node 1 (send1) sent 1048576 bytes to NPU 1 with tag 0; no RECV on NPU 1 matched it by t = 20031" \
    sim_golden "$D/F5-send-without-recv/wl" ring.json ring2.yml --logging-folder="$T/logs/run2"
cmp -s "$T/err" "$T/logs/run2/err.log" || fail "err.log lacks the error line"
expect_eq "$(tail -n 1 "$T/logs/run2/log.log")" "$(cat "$T/err")" "log.log ends with the error line"
expect_eq "$(grep -c finished "$T/logs/run2/log.log")" 2 "log.log holds the report"
: >"$T/file"
expect_error "vimana: error: --logging-folder: $T/file: not a directory" \
    sim_golden "$P2P" ring.json ring2.yml --logging-folder="$T/file"
finish
