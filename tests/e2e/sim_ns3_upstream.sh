#!/bin/sh
# Upstream astra-network-ns3's own config.txt and 8_nodes_1_switch
# topology (tests/data/upstream-ns3, byte for byte) run on ns3_shim
# unchanged, from any working directory: the config's TOPOLOGY_FILE
# (../../scratch/topology/...) resolves from its folder. The run equals the
# topology file given directly with the options the config means, which
# one info line names with the keys that have no effect here. A key asking
# for what the shim does not model is refused in one line.
# Skipped (77) without the shim.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"
need_ns3
SYS="$VIMANA_SRCDIR/inputs/system/ring.json"
UP="$VIMANA_SRCDIR/tests/data/upstream-ns3/scratch"
CONF="$UP/config/config.txt"
TOPO="$UP/topology/8_nodes_1_switch_topology.txt"
"$VIMANA_ET" generate all-to-all --npus 8 --size 1MiB --out "$T/a2a/a" >/dev/null || fail "generate all-to-all"

# finish NETWORK [OPTIONS]: NPU 0's finish on stdout; stderr in $T/err
finish_of() {
    n=$1
    shift
    "$VIMANA" --workload-configuration="$T/a2a/a" --system-configuration="$SYS" --network-configuration="$n" \
        --network-backend=ns3_shim --report="$T/r.json" "$@" 2>"$T/err" |
        sed -n 's/^sys\[0\] finished, \([0-9]*\) cycles.*/\1/p'
}

# Upstream's sample: CC_MODE 12 (no rate control upstream either), PFC
# (always on in upstream's switches), its 32 MiB switch over 8 ports, the
# 400 Gb/s ECN entries (800 and 3200 KB of 1000 bytes, 0.2), 1000-byte
# packets, completion at the last ACK.
OPTS="packet=1000,cc=none,completion=ack,pfc=on,buffer=4194304,ecn_kmin=800000,ecn_kmax=3200000,ecn_pmax=0.2"
got=$(finish_of "$CONF")
[ -n "$got" ] || fail "upstream config.txt run: $(cat "$T/err")"
grep -qF "vimana: ns3: info: $CONF: read as upstream's config.txt ($OPTS); no effect here: USE_DYNAMIC_PFC_THRESHOLD, FLOW_FILE," \
    "$T/err" || fail "info line: $(cat "$T/err")"
grep -qF '"ecn_marks": ' "$T/r.json" || fail "no ecn_marks in the link records"
want=$(finish_of "$TOPO" --backend-options="$OPTS")
expect_eq "$got" "$want" "config.txt against the topology file with the options it means"
# the same from inside the config's folder, as upstream runs it
got2=$(cd "$UP/config" && finish_of config.txt)
expect_eq "$got2" "$got" "config.txt from its own folder"
# the user's --backend-options come after the config's: packet=4096 wins
got3=$(finish_of "$CONF" --backend-options=packet=4096)
want3=$(finish_of "$TOPO" --backend-options="$OPTS,packet=4096")
expect_eq "$got3" "$want3" "config.txt with the user's packet=4096"
[ "$got3" != "$got" ] || fail "packet=4096 changed nothing ($got3)"

# Refused in one line, naming the file and line.
mkdir -p "$T/up/config" "$T/up/topology"
cp "$TOPO" "$T/up/topology/8_nodes_1_switch_topology.txt"
sed 's/^CC_MODE 12/CC_MODE 7/; s|\.\./\.\./scratch/topology|../topology|' "$CONF" >"$T/up/config/timely.txt"
expect_error "vimana: error: $T/up/config/timely.txt:15: CC_MODE 7 (TIMELY) is not modelled by ns3_shim: use 1 (DCQCN), 3 (HPCC) or a mode without rate control" \
    "$VIMANA" --workload-configuration="$T/a2a/a" --system-configuration="$SYS" \
    --network-configuration="$T/up/config/timely.txt" --network-backend=ns3_shim
# A link of 10^8 Tbps (the topology allows up to 10^9) is 10^20 bit/s: the
# message names that rate, not a 64-bit wrap of it (it said 9223372036854775808;
# issue 29 §5).
sed 's|\.\./\.\./scratch/topology|../topology|' "$CONF" >"$T/up/config/fast.txt"
sed 's/^8 0 400Gbps/8 0 100000000Tbps/' "$TOPO" >"$T/up/topology/8_nodes_1_switch_topology.txt"
expect_error "vimana: error: $T/up/config/fast.txt:54: KMIN_MAP has no entry for 100000000000000000000 bit/s, the rate of the topology's link 0 (upstream needs one for every link speed)" \
    "$VIMANA" --workload-configuration="$T/a2a/a" --system-configuration="$SYS" \
    --network-configuration="$T/up/config/fast.txt" --network-backend=ns3_shim
finish
