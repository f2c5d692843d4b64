# Helpers of the tests that calibrate on published nccl-tests tables
# (calibrate_published.sh, calibrate_more.sh); sourced after lib.sh, with
# $T the test's folder.

# switch NPUS GBPS: $T/net.yml, one switch dimension, 250 ns per hop
switch() {
    printf 'topology: [ Switch ]\nnpus_count: [ %s ]\nbandwidth: [ %s ]\nlatency: [ 250.0 ]\n' "$1" "$2" >"$T/net.yml"
}

# $T/no-nvls.json: the nccl model without NVLink SHARP (any GPU but
# H100/H200/B200/GB200/GB300 on NVSwitch)
printf '{"scheduling-policy": "LIFO", "collective-optimization": "baseline", "preferred-dataset-splits": 1,
 "all-reduce-implementation": ["nccl"], "nccl": {"nvls": 0}}\n' >"$T/no-nvls.json"

# check "FILE..." POINTS RANKS BIG SMALL [calibrate options]: calibrate the
# files (paths) on $T/net.yml into $T/p; the report has POINTS rows, all on
# RANKS ranks, and its largest |error| is at most BIG % from 1 MiB up and
# SMALL % below.
check() {
    f=$1 points=$2 ranks=$3 big=$4 small=$5
    shift 5
    rm -rf "$T/p"
    # shellcheck disable=SC2086 # f may list several files
    expect_ok "$VIMANA" calibrate $f --topology "$T/net.yml" -o "$T/p" "$@"
    expect_eq "$(cat "$T/out")" "vimana calibrate: $points points fitted; preset in $T/p (fit-report.md: per-size errors)" \
        "$f: rows read"
    awk -F'|' -v f="$f" -v n="$points" -v r="$ranks" -v big="$big" -v small="$small" '
        $5 ~ /^ *[0-9]+ *$/ { rows++; if ($4 + 0 != r) { print f ": row of " $4 " ranks"; bad = 1 }
            e = $11 + 0; if (e < 0) e = -e
            if ($5 + 0 >= 1048576) { if (e > wb) wb = e } else if (e > ws) ws = e }
        END { if (rows != n) { print f ": " rows " rows"; bad = 1 }
            if (wb > big || ws > small) { print f ": largest error " wb " % from 1 MiB up, " ws " % below"; bad = 1 }
            exit bad }' "$T/p/fit-report.md" || fail "$f: report"
}
