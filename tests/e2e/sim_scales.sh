#!/bin/sh
# --compute-scale multiplies compute durations (replayed and roofline) and
# --comm-scale message and collective sizes, each rounded to the nearest
# tick / byte (halves away from zero); 1 changes nothing; anything but a
# finite number > 0 is refused.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
G="$VIMANA_SRCDIR/tests/data/golden-inputs"
T="$TEST_TMP"
P2P="$G/workload/send_0to1_1MiB_2/send_0to1_1MiB_2"
CAC="$G/workload/comp10_ar_comp5_1MiB_8/comp10_ar_comp5_1MiB_8"
finished_all() { # N CYCLES WHAT
    expect_eq "$(grep -c "finished, $2 cycles" "$T/out")" "$1" "$3"
}
# runs_to N CYCLES WHAT PREFIX SYSTEM NETWORK [OPTIONS...]: sim_golden with
# those arguments succeeds, its N NPUs all finished at CYCLES.
runs_to() {
    n=$1 cycles=$2 what=$3
    shift 3
    expect_ok sim_golden "$@"
    finished_all "$n" "$cycles" "$what"
}

# SEND 1 MiB on ring2 (50 GB/s = 53.6870912 B/ns, 500 ns): 500 + floor(2^20 / 53.687...) = 20031.
runs_to 2 20031 "scale 1" "$P2P" ring.json ring2.yml --comm-scale=1 --compute-scale=1
# x2: 2 MiB: 500 + floor(39062.5) = 39562; x0.5: 512 KiB: 500 + floor(9765.6) = 10265.
runs_to 2 39562 "send, --comm-scale=2" "$P2P" ring.json ring2.yml --comm-scale=2
runs_to 2 10265 "send, --comm-scale=0.5" "$P2P" ring.json ring2.yml --comm-scale=0.5
# Compute does not touch messages.
runs_to 2 20031 "send, --compute-scale=3" "$P2P" ring.json ring2.yml --compute-scale=3

# COMP 10 us -> AR 1 MiB -> COMP 5 us on Ring 8: 10000 + 117780 + 5000 = 132780 (golden).
# x2: 20000 + 117780 + 10000 = 147780. x1.03125: 10312.5 -> 10313 and 5156.25 -> 5156: 133249.
runs_to 8 147780 "compute, --compute-scale=2" "$CAC" ring.json ring8.yml --compute-scale=2
runs_to 8 133249 "compute rounding, halves away from zero" "$CAC" ring.json ring8.yml --compute-scale=1.03125
# Roofline COMP nodes (golden: 110000 ticks in all) scale too.
runs_to 2 220000 "roofline, --compute-scale=2" "$G/workload/roofline_2/roofline_2" ring_roofline.json ring2.yml --compute-scale=2
runs_to 2 33000 "roofline, --compute-scale=0.3" "$G/workload/roofline_2/roofline_2" ring_roofline.json ring2.yml --compute-scale=0.3

for v in 0 -1 nan inf abc ''; do
    expect_error "vimana: --comm-scale: expected a finite number greater than 0, got '$v'" \
        sim_golden "$P2P" ring.json ring2.yml --comm-scale="$v"
    expect_error "vimana: --compute-scale: expected a finite number greater than 0, got '$v'" \
        sim_golden "$P2P" ring.json ring2.yml --compute-scale="$v"
done
expect_error "vimana: error: $P2P.0.et: node 0 (send_0_1): comm_size 1048576 times --comm-scale=1e+300 is out of range" \
    sim_golden "$P2P" ring.json ring2.yml --comm-scale=1e300
expect_error "vimana: error: $CAC.0.et: node 1: duration 10000 ns times --compute-scale=1e+300 is out of range" \
    sim_golden "$CAC" ring.json ring8.yml --compute-scale=1e300
finish
