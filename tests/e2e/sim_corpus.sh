#!/bin/sh
# The converted corpus workloads on both analytical backends give the cycles
# the reference printed (shared/corpus/expected/simulated.md): every row of
# the Ring 8, Switch 8 and Ring 4 tables, the 32-NPU cross-check and the
# PyTorch host-trace conversions.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
C="$REF/corpus"
MD="$C/expected/simulated.md"
SYS="$C/configs/hoti2024-demo2/Ring_sys.json"
MEM="$C/configs/hoti2024-demo2/RemoteMemory.json"

network_file() {
    case "$1" in
        Ring_8) echo "$C/configs/hoti2024-demo2/Ring_8.yml" ;;
        Switch_8) echo "$C/configs/vimana/Switch_8.yml" ;;
        Ring_4) echo "$C/configs/vimana/Ring_4.yml" ;;
        *) echo "unknown network $1" >&2; exit 1 ;;
    esac
}

# check PREFIX SYSTEM NETWORK BACKEND FINISH EXPOSED NPUS
check() {
    if ! "$VIMANA" --workload-configuration="$1" --system-configuration="$2" --network-configuration="$3" \
        --remote-memory-configuration="$MEM" --network-backend="$4" >"$TEST_TMP/run" 2>"$TEST_TMP/err"; then
        fail "$1 on $4: $(tail -n 1 "$TEST_TMP/err")"
        return
    fi
    want="finished, $5 cycles, exposed communication $6 cycles."
    got=$(grep -cF "$want" "$TEST_TMP/run")
    expect_eq "$got" "$7" "$(basename "$1") on $(basename "$3") with $4 ($want)"
}

rows=0
# | group/name | variant | network | CU finish | CU exposed | CA finish | CA exposed |
awk -F'|' '/^\| [A-Za-z0-9_-]+\/[A-Za-z0-9_-]+ \| n[0-9]+p[0-9] \| (Ring_8|Switch_8|Ring_4) \|/ {
    for (i = 2; i <= 8; i++) { gsub(/ |all=/, "", $i) } print $2, $3, $4, $5, $6, $7, $8 }' "$MD" >"$TEST_TMP/rows"
while read -r work variant net cu cu_exp ca ca_exp; do
    name=${work##*/}
    prefix="$C/expected/text/$work/$variant/$name"
    # tests/data carries a subset of the converted workloads
    have_shared || [ -e "$prefix.0.et" ] || continue
    npus=${variant#n}; npus=${npus%p*}
    check "$prefix" "$SYS" "$(network_file "$net")" analytical "$cu" "$cu_exp" "$npus"
    check "$prefix" "$SYS" "$(network_file "$net")" congestion_aware "$ca" "$ca_exp" "$npus"
    rows=$((rows + 1))
done <"$TEST_TMP/rows"
if have_shared; then
    expect_eq "$rows" 72 "rows read from simulated.md"
else
    [ "$rows" -ge 40 ] || fail "only $rows rows of simulated.md checked"
fi

# 32-NPU cross-check on multi-dimensional networks the reference's
# congestion-aware backend refuses. CU numbers are the reference's. CA routes
# dimension-order, store-and-forward: on TPUv4 (Ring x Ring x Ring, ring
# algorithm) every transfer uses one dedicated neighbour link, so CA = CU; on
# DGX H100 (Switch x Switch) a Switch costs two full hops (up-link +
# down-link, serialisation counted twice), so CA is slower: the exact
# figures below, 195355388 >= 195323264.
MLP32="$C/expected/text/micro2024-demo2/MLP_ModelParallel/n32p1/MLP_ModelParallel"
D="$C/configs/micro2024-demo2"
check "$MLP32" "$D/TPUv4.json" "$D/TPUv4-32.yml" analytical 195394300 188300 32
check "$MLP32" "$D/TPUv4.json" "$D/TPUv4-32.yml" congestion_aware 195394300 188300 32
check "$MLP32" "$D/DGX_H100.json" "$D/DGX_H100-32.yml" analytical 195323264 117264 32
check "$MLP32" "$D/DGX_H100.json" "$D/DGX_H100-32.yml" congestion_aware 195355388 149388 32

# PyTorch host-trace conversions on FullyConnected 2: zero-duration CPU nodes
# run one after another, 1 ns each.
FC2="$C/configs/hoti2024-demo3/FullyConnected_2.yml"
zcat "$C/expected/pytorch/host_0/host_0.et.gz" >"$TEST_TMP/host.0.et"
zcat "$C/expected/pytorch/host_1/host_1.et.gz" >"$TEST_TMP/host.1.et"
for backend in analytical congestion_aware; do
    expect_ok "$VIMANA" --workload-configuration="$TEST_TMP/host" --system-configuration="$SYS" \
        --network-configuration="$FC2" --remote-memory-configuration="$MEM" --network-backend=$backend
    expect_eq "$(grep -c 'sys\[0\] finished, 4800 cycles, exposed communication 4800 cycles.' "$TEST_TMP/out")" 1 \
        "host_0 on $backend"
    expect_eq "$(grep -c 'sys\[1\] finished, 4796 cycles, exposed communication 4796 cycles.' "$TEST_TMP/out")" 1 \
        "host_1 on $backend"
    # NPU 1 finishes first and reports first
    expect_eq "$(grep -m1 -o 'sys\[[01]\] finished' "$TEST_TMP/out")" "sys[1] finished" "report order on $backend"
done
cp "$C/expected/pytorch/pt2_et/pt2_et.et" "$TEST_TMP/pt2.0.et"
cp "$C/expected/pytorch/pt2_et/pt2_et.et" "$TEST_TMP/pt2.1.et"
check "$TEST_TMP/pt2" "$SYS" "$FC2" analytical 19 19 2
finish
