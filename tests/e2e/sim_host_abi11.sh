#!/bin/sh
# The host side of network ABI 1.1 and 1.2 (network_api.h), through the test
# backends of tests/backends/host11.c: a network of `npus=N` NPUs where a
# message takes 1000 ticks; `count=FILE` makes the backend write, at fini,
# how many events ran after its injected fault and how many stop() dropped.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
G="$VIMANA_SRCDIR/tests/data/golden-inputs"
T="$TEST_TMP"
B="$VIMANA_BUILDDIR/tests/backends"
run() { # MODULE WORKLOAD NPUS [ARGS...]
    module=$1 workload=$2 npus=$3
    shift 3
    "$VIMANA" --workload-configuration="$G/workload/$workload/$workload" \
        --system-configuration="$G/system/ring.json" --network-configuration="$G/network/ring$npus.yml" \
        --network-backend="$B/$module.la" --backend-options="npus=$npus,count=$T/count" "$@"
}
only_line() { # WHAT: stderr holds exactly one line
    expect_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "$1: lines on stderr"
}

# 1.0 and 1.1 backends both load and run: SEND 1 MiB 0 -> 1 is one
# message of 1000 ticks, so both NPUs finish at 1000.
for m in host10_ok host11_ok; do
    expect_ok run $m send_0to1_1MiB_2 2
    expect_eq "$(grep -c 'finished, 1000 cycles' "$T/out")" 2 "$m: both NPUs finish at 1000"
done

# A ring all-reduce of 1 MiB on 8 NPUs (endpoint delay 10, one active chunk
# per dimension) starts with one message per NPU, all sent at t = 10 and
# all arriving at t = 1010: 8 arrival events in one tick. The backend breaks
# the first one; the other 7 are still queued.
#
# host->failed from the backend: one line naming the backend, the message
# escaped; the host calls stop(), so none of the 7 runs (they are dropped).
expect_error 'vimana: error: network backend host11_failed failed: host11: link 0 lost its message\n(injected)' \
    run host11_failed ar_1MiB_8 8
only_line failed
expect_eq "$(cat "$T/count")" "faults=1 stopped=1 ran_after_fault=0 dropped=7" "failed: stop() ends the run at once"

# A failure the host finds (an unknown token) stops a 1.1 backend the same way ...
expect_error 'vimana: error: network backend host11_bad_token broke the network API contract: delivered an unknown message (token 1099511627776)' \
    run host11_bad_token ar_1MiB_8 8
only_line "1.1 bad token"
expect_eq "$(cat "$T/count")" "faults=1 stopped=1 ran_after_fault=0 dropped=7" "1.1: stop() ends the run at once"
# ... while a 1.0 backend (no stop) drains the queue behind the host's guards:
# the 7 arrivals run and are ignored; same error line.
expect_error 'vimana: error: network backend host10_bad_token broke the network API contract: delivered an unknown message (token 1099511627776)' \
    run host10_bad_token ar_1MiB_8 8
only_line "1.0 bad token"
expect_eq "$(cat "$T/count")" "faults=1 stopped=0 ran_after_fault=7 dropped=0" "1.0: the queue drains"

# Capabilities: a 3-dimensional network on a backend without MULTI_DIM.
expect_error "vimana: error: $G/network/ring2.yml: network backend 'host11_multi_dim' does not support multi-dimensional networks (3 dimensions); use a backend with the MULTI_DIM capability, e.g. analytical" \
    run host11_multi_dim send_0to1_1MiB_2 2
only_line multi_dim
# LINK_STATS and the link functions must agree (refused at load).
expect_error "vimana: error: $B/.libs/host11_cap_no_fn.so: backend 'host11_cap_no_fn' advertises VIMANA_CAP_LINK_STATS but does not implement num_links() and link_stats()" \
    run host11_cap_no_fn send_0to1_1MiB_2 2
only_line cap_no_fn
expect_error "vimana: error: $B/.libs/host11_fn_no_cap.so: backend 'host11_fn_no_cap' implements num_links() and link_stats() but does not advertise VIMANA_CAP_LINK_STATS" \
    run host11_fn_no_cap send_0to1_1MiB_2 2
only_line fn_no_cap
# A dimension bandwidth that is not a finite positive number.
expect_error "vimana: error: $G/network/ring2.yml: network backend 'host11_bad_bw' reports a bandwidth of nan GB/s for dimension 0 (it must be finite and greater than 0)" \
    run host11_bad_bw send_0to1_1MiB_2 2
only_line bad_bw

# --report's "network" record holds the backend's answers, not the YAML's:
# host11 reports 2e6 GB/s (its messages take 1000 ticks whatever their
# size) where ring2.yml says 50. No LINK_STATS: no links.
expect_ok run host11_ok send_0to1_1MiB_2 2 --report="$T/h.json"
grep -qxF '"network": {"dimensions": [{"dim": 0, "npus": 2, "bandwidth_gbps": 2000000}]}' "$T/h.json" ||
    fail "host11 network record: $(grep network "$T/h.json")"
grep -q '"links"' "$T/h.json" && fail "links without VIMANA_CAP_LINK_STATS"
expect_ok run host11_ok send_0to1_1MiB_2 2 --report="$T/h.csv"
[ -e "$T/h.links.csv" ] && fail "links table without VIMANA_CAP_LINK_STATS"

# Per-link records from congestion_aware (VIMANA_CAP_LINK_STATS), SEND 1 MiB
# from NPU 0 to NPU 3 on Ring 8 (50 GB/s = 50 * 2^30 / 1e9 bytes per ns,
# latency 500 ns): the shortest way is clockwise, 3 hops over the links
# 0->1, 1->2, 2->3, each carrying one message of 1048576 bytes and busy for
# trunc(1048576 / 53.6870912) = trunc(19531.25) = 19531 ticks (the run ends
# at 3 x trunc(500 + 19531.25) = 60093, as the golden case says). The other
# 13 of the 16 directed links carried nothing and are left out. Utilisation
# = busy_ticks / end tick = 19531 / 60093 = 0.32501289..., rounded half up
# to 6 places: 0.325013. congestion_aware has no device_name(): the host's
# names "npuK"; one message per link, so no message waited (ABI 1.2: 0).
send03() { # REPORT
    "$VIMANA" --workload-configuration="$G/workload/send_0to3_1MiB_8/send_0to3_1MiB_8" \
        --system-configuration="$G/system/ring.json" --network-configuration="$G/network/ring8.yml" \
        --network-backend=congestion_aware --report="$1"
}
expect_ok send03 "$T/ca.json"
expect_tail "$T/ca.json" "congestion_aware links (JSON)" <<'JSON'
"network": {"dimensions": [{"dim": 0, "npus": 8, "bandwidth_gbps": 50}], "num_links": 16},
"links": [
{"src_device": 0, "dst_device": 1, "bytes": 1048576, "messages": 1, "busy_ticks": 19531, "utilisation": 0.325013, "src": "npu0", "dst": "npu1", "max_queue_ticks": 0, "queue_ticks": 0, "ecn_marks": 0, "pause_ticks": 0},
{"src_device": 1, "dst_device": 2, "bytes": 1048576, "messages": 1, "busy_ticks": 19531, "utilisation": 0.325013, "src": "npu1", "dst": "npu2", "max_queue_ticks": 0, "queue_ticks": 0, "ecn_marks": 0, "pause_ticks": 0},
{"src_device": 2, "dst_device": 3, "bytes": 1048576, "messages": 1, "busy_ticks": 19531, "utilisation": 0.325013, "src": "npu2", "dst": "npu3", "max_queue_ticks": 0, "queue_ticks": 0, "ecn_marks": 0, "pause_ticks": 0}
]
}
JSON
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$T/ca.json" || fail "report is not JSON"
expect_ok send03 "$T/ca.csv"
printf 'src_device,dst_device,bytes,messages,busy_ticks,utilisation,src,dst,max_queue_ticks,queue_ticks,ecn_marks,pause_ticks\n0,1,1048576,1,19531,0.325013,npu0,npu1,0,0,0,0\n1,2,1048576,1,19531,0.325013,npu1,npu2,0,0,0,0\n2,3,1048576,1,19531,0.325013,npu2,npu3,0,0,0,0\n' \
    >"$T/want.csv"
cmp -s "$T/want.csv" "$T/ca.links.csv" || fail "congestion_aware links (CSV): $(cat "$T/ca.links.csv")"

# ABI 1.2 (host12_ok: link k is NPU k -> the switch, device N; the j-th
# message on a link waited 100 x j ticks; names "gpuK" and 'sw,"0"').
# A ring all-reduce of 1 MiB on 8 NPUs: 4 chunks x 2 x 7 ring steps = 56
# messages of 1 MiB / 32 = 32768 bytes per NPU (1835008 bytes), 1000 busy
# ticks each (56000); the run ends at 111620 (utilisation 56000 / 111620 =
# 0.5017022... -> 0.501702). Waits: the longest 100 x 56 = 5600, in all
# 100 x (1 + ... + 56) = 100 x 1596 = 159600.
ar8() { # MODULE REPORT
    "$VIMANA" --workload-configuration="$G/workload/ar_1MiB_8/ar_1MiB_8" \
        --system-configuration="$G/system/ring.json" --network-configuration="$G/network/ring8.yml" \
        --network-backend="$B/$1.la" --backend-options=npus=8 --report="$2"
}
expect_ok ar8 host12_ok "$T/h12.json"
grep -qxF '{"src_device": 0, "dst_device": 8, "bytes": 1835008, "messages": 56, "busy_ticks": 56000, "utilisation": 0.501702, "src": "gpu0", "dst": "sw,\"0\"", "max_queue_ticks": 5600, "queue_ticks": 159600, "ecn_marks": null, "pause_ticks": null},' \
    "$T/h12.json" || fail "1.2 link record: $(grep -m1 src_device "$T/h12.json")"
expect_eq "$(grep -c '"src_device"' "$T/h12.json")" 8 "1.2: one record per link"
python3 -c 'import json, sys; l = json.load(open(sys.argv[1]))["links"][7]; assert l["src"] == "gpu7" and l["dst"] == "sw,\"0\"", l' \
    "$T/h12.json" || fail "1.2 report: names do not read back through a JSON parser"
# CSV (RFC 4180): the name with a comma and quotes is quoted, quotes doubled.
expect_ok ar8 host12_ok "$T/h12.csv"
expect_eq "$(head -n 2 "$T/h12.links.csv")" 'src_device,dst_device,bytes,messages,busy_ticks,utilisation,src,dst,max_queue_ticks,queue_ticks,ecn_marks,pause_ticks
0,8,1835008,56,56000,0.501702,gpu0,"sw,""0""",5600,159600,,' "1.2 links CSV"
python3 -c 'import csv, sys; r = list(csv.reader(open(sys.argv[1]))); assert len(r) == 9 and all(len(x) == 12 for x in r) and r[8][7] == "sw,\"0\"", r' \
    "$T/h12.links.csv" || fail "1.2 links CSV does not read back through a CSV parser"

# The same backend built as ABI 1.1 (host11_links) fills the device_name
# slot and the 1.2 counters anyway: the host reads neither. Default names
# (NPUs first, then switches), and the waits are unknown: null / empty.
expect_ok ar8 host11_links "$T/h11.json"
grep -qxF '{"src_device": 0, "dst_device": 8, "bytes": 1835008, "messages": 56, "busy_ticks": 56000, "utilisation": 0.501702, "src": "npu0", "dst": "switch0", "max_queue_ticks": null, "queue_ticks": null, "ecn_marks": null, "pause_ticks": null},' \
    "$T/h11.json" || fail "1.1 link record: $(grep -m1 src_device "$T/h11.json")"
expect_ok ar8 host11_links "$T/h11.csv"
expect_eq "$(sed -n 2p "$T/h11.links.csv")" '0,8,1835008,56,56000,0.501702,npu0,switch0,,,,' "1.1 links CSV"

# A device name the host refuses (a newline): one line naming the backend.
expect_error 'vimana: error: network backend host12_bad_name: device_name(8) returned a name with byte 0x0a at offset 2 (names are printable ASCII)' \
    ar8 host12_bad_name "$T/bad.json"
only_line bad_name
finish
