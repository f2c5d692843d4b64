#!/bin/sh
# The 64-NPU incast (issue 28 §2): NPUs 1..63 each send 1 MiB to NPU 0 at
# once on a Switch of 64 (tests/data/garnet/switch64.yml: 50 GB/s =
# 53.687 B/ns, 500 ns), garnet with its default options against ns3_shim
# (skipped when ns3_shim is not built). The derivation, and why the
# message is 1 MiB: backends/garnet_stub/README.md, "The 64-NPU incast".
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"
SYS="$VIMANA_SRCDIR/inputs/system/ring.json"
NET="$VIMANA_SRCDIR/tests/data/garnet/switch64.yml"

# incast N BYTES PREFIX: ranks 1..N-1 each send BYTES to rank 0, which
# posts the N-1 receives.
incast() {
    mkdir -p "$(dirname "$3")"
    python3 - "$1" "$2" "$3" <<'PY' || return 1
import json, sys
n, size, out = int(sys.argv[1]), sys.argv[2], sys.argv[3]
def node(i, kind, src):
    return {"id": i, "name": "%s_%d_0" % (kind.lower(), src), "type": "COMM_%s_NODE" % kind,
            "attr": [{"name": "is_cpu_op", "bool_val": False}, {"name": "comm_src", "int32_val": src},
                     {"name": "comm_dst", "int32_val": 0}, {"name": "comm_tag", "int32_val": 0},
                     {"name": "comm_size", "uint64_val": size}]}
for r in range(n):
    nodes = [node(i - 1, "RECV", i) for i in range(1, n)] if r == 0 else [node(0, "SEND", r)]
    json.dump({"global_metadata": {"version": "0.0.4"}, "nodes": nodes}, open("%s.%d.json" % (out, r), "w"))
PY
    r=0
    while [ "$r" -lt "$1" ]; do
        "$VIMANA_ET" from-json "$3.$r.json" -o "$3.$r.et" >/dev/null || return 1
        r=$((r + 1))
    done
}

finish_of() { # BACKEND [OPTIONS]: the largest "finished, N cycles"
    b=$1
    shift
    "$VIMANA" --workload-configuration="$T/in/in" --system-configuration="$SYS" --network-configuration="$NET" \
        --network-backend="$b" "$@" >"$T/out" 2>"$T/err" || { fail "run $b $*: $(cat "$T/err")"; echo 0; return; }
    sed -n 's/^sys\[[0-9]*\] finished, \([0-9]*\) cycles.*/\1/p' "$T/out" | sort -n | tail -n 1
}

incast 64 1048576 "$T/in/in" || fail "incast workload"

# garnet, default options (packet_flits=max, vcs=4, eject_flits=auto): the
# link from the switch to NPU 0 carries 63 x 65536 flits, at least
# 63 x 1048576 / 53.687 = 1230470 cycles, after the first hop (1 + 500 + 1)
# and before the last (500: NPU 0's NI takes a flit as it arrives):
# 1231472 at the least. Its 4 VCs add the credit round trips between rounds
# of 4 messages: 1236003.
gar=$(finish_of garnet)
expect_eq "$gar" 1236003 "64-NPU incast, garnet"
[ "$gar" -ge 1231472 ] || fail "incast: garnet ($gar) beats the bound of the switch's link to NPU 0 (1231472)"

# ns3_shim (no congestion control): 1232142; garnet within 20 % of it.
if [ -e "$VIMANA_BUILDDIR/backends/ns3_shim/ns3_shim.la" ]; then
    ns3=$(finish_of ns3_shim)
    expect_eq "$ns3" 1232142 "64-NPU incast, ns3_shim"
    awk -v a="$gar" -v b="$ns3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d * 100 <= 20 * b) }' ||
        fail "incast: garnet $gar is not within 20 % of ns3_shim $ns3"
else
    echo "ns3_shim not built: the comparison with it is skipped"
fi

finish
