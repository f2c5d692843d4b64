#!/bin/sh
# The PyTorch path end to end with no extra flag: `vimana-et link` ->
# `vimana-et convert pytorch` -> `vimana` on the two-rank data-parallel
# fixtures of tests/data/trace_link (see its README.md for the traces).
#
# `link` renumbers ids from 0, so the process root becomes node 0 and the
# thread root names it in ctrl_deps; the converter removes the process root
# as dangling (no data dependency on it). Without --compat it must also leave
# out that ctrl_deps entry, or `vimana` refuses the trace.
#
# Expected cycles (ring2: 50 GB/s, 500 ns; system ring.json; 1 us = 1000
# cycles, a 0 us node takes 1 cycle), rank 0:
#   thread root 0..1, metadata at 1 (zero time), ProfilerStep 1..2,
#   aten::mm (CPU, 50 us) 2..50002, then gemm (GPU, 400 us) 50002..450002;
#   the CPU chain allreduce_ 10 + record_param_comms 10 + nccl:all_reduce 60
#   ends at 130002, where the NCCL all-reduce (4 MiB) and aten::add_ (30 us,
#   to 160002) start. The add kernel (GPU, 20 us) waits for the GPU slot
#   until the gemm ends: 450002..470002. aten::item (5 us) has
#   sync_dep [9, 11] (the NCCL and add kernels): 470002..475002.
#   The all-reduce: 4 chunks of 1 MiB, each two ring messages of 512 KiB:
#   net = trunc(500 + 524288 / 53.6870912) = 10265, reduction
#   R = 3 * trunc(524288 / 50) = 31455 (local-mem-bw 50), endpoint delay 10:
#   chunk = 10 + (10265 + 10 + 31455) + (10265 + 10) = 52015, all 4 = 208060,
#   done at 338062, well before 470002.
#   Wall 475002; GPU busy 400000 + 20000 = 420000, so exposed communication
#   = 475002 - 420000 = 55002. Rank 1 (nccl:all_reduce 55 us, then a 5 us
#   nccl:coalesced) reaches aten::add_ at 130002 too: the same numbers.
# With --compat the reference's ctrl_deps are kept: `vimana` refuses them,
# and with --drop-missing-deps runs without the sync_dep (a Vimana addition
# that --compat also turns off): aten::item ends at 165002 and the wall is
# the add kernel's end, 470002; exposed 470002 - 420000 = 50002.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

DATA="$VIMANA_SRCDIR/tests/data/trace_link"
GOLDEN="$VIMANA_SRCDIR/tests/data/golden-inputs"
SIM_ARGS="--system-configuration=$GOLDEN/system/ring.json --network-configuration=$GOLDEN/network/ring2.yml"

for r in 0 1; do
    expect_ok "$VIMANA_ET" link --host-trace "$DATA/dp_rank${r}_host.json" \
        --device-trace "$DATA/dp_rank${r}_kineto.json" --output "$TEST_TMP/linked.$r.json"
    expect_ok "$VIMANA_ET" convert pytorch --input "$TEST_TMP/linked.$r.json" --output "$TEST_TMP/dp.$r.et"
    expect_eq "$(cat "$TEST_TMP/err")" "vimana-et convert pytorch: note: $TEST_TMP/linked.$r.json: dropped 1 dependency on a node removed as dangling (ctrl_deps of node 1 on node 0); --compat keeps it" "rank $r: note on stderr"
    expect_ok "$VIMANA_ET" convert pytorch --compat --input "$TEST_TMP/linked.$r.json" --output "$TEST_TMP/compat.$r.et"
    expect_eq "$(cat "$TEST_TMP/err")" "" "rank $r: --compat notes nothing"
done

expect_ok "$VIMANA_ET" validate "$TEST_TMP/dp"
expect_eq "$(cat "$TEST_TMP/out")" "$TEST_TMP/dp: valid (2 files, 25 nodes)" "validate"

# shellcheck disable=SC2086
expect_ok "$VIMANA" --workload-configuration="$TEST_TMP/dp" $SIM_ARGS
for r in 0 1; do
    expect_eq "$(grep "^sys\[$r\] finished" "$TEST_TMP/out")" \
        "sys[$r] finished, 475002 cycles, exposed communication 55002 cycles." "rank $r cycles"
    expect_eq "$(grep "^sys\[$r\], GPU time" "$TEST_TMP/out")" "sys[$r], GPU time: 420000" "rank $r GPU time"
    expect_eq "$(grep "^sys\[$r\], Comm time" "$TEST_TMP/out")" "sys[$r], Comm time: 208060" "rank $r Comm time"
done

# shellcheck disable=SC2086
expect_error "vimana: error: $TEST_TMP/compat.0.et: node 1 ([pytorch|profiler|execution_trace|thread]) depends on node 0, which is not in the file (--drop-missing-deps ignores such dependencies)" \
    "$VIMANA" --workload-configuration="$TEST_TMP/compat" $SIM_ARGS
# shellcheck disable=SC2086
expect_ok "$VIMANA" --drop-missing-deps --workload-configuration="$TEST_TMP/compat" $SIM_ARGS
for r in 0 1; do
    expect_eq "$(grep "^sys\[$r\] finished" "$TEST_TMP/out")" \
        "sys[$r] finished, 470002 cycles, exposed communication 50002 cycles." "rank $r cycles, --compat"
done

finish
