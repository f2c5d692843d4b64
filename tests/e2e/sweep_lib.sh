# Helpers shared by the `vimana sweep` tests (sweep*.sh). Source it after
# lib.sh:
#   . "$VIMANA_SRCDIR/tests/e2e/sweep_lib.sh"

# sweep_ok SPEC DIR SUMMARY WHAT [FLAGS...]: `vimana sweep SPEC --out DIR
# FLAGS...` succeeds and prints exactly the line "vimana sweep: SUMMARY;
# results in DIR/results.csv" (WHAT names the check).
sweep_ok() {
    sw_spec=$1 sw_dir=$2 sw_summary=$3 sw_what=$4
    shift 4
    expect_ok "$VIMANA" sweep "$sw_spec" --out "$sw_dir" "$@"
    expect_eq "$(cat "$TEST_TMP/out")" "vimana sweep: $sw_summary; results in $sw_dir/results.csv" "$sw_what"
}

# rewritten DIR MARKER: the result files of the sweep in DIR newer than the
# file MARKER, as "./0002/result.json ./0003/result.json " (what a restart
# ran again).
rewritten() {
    (cd "$1/points" && find . -name result.json -newer "$2" | sort | tr '\n' ' ')
}

# slurm_sweep DIR SLURM: copies the sweep inputs into DIR and writes
# DIR/s.yaml, the sweep that the --slurm tests submit: 3 bandwidths x 2
# all-reduce implementations (6 points), with the line `slurm: SLURM`.
slurm_sweep() {
    sweep_inputs "$1" || fail "copy the sweep inputs"
    cat >"$1/s.yaml" <<YAML
workload: ar_1MiB_8
system: ring.json
network: ring8.yml
axes:
  network.bandwidth: [[25], [50], [100]]
  system.all-reduce-implementation: [[ring], [direct]]
slurm: $2
YAML
}

# mask CSV: the sweep's results.csv with the wall time and memory columns
# masked (W, M), the two that vary from run to run.
mask() { sed 's/,[0-9]*\.[0-9]\{6\},[1-9][0-9]*,/,W,M,/' "$1"; }
