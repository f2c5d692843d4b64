#!/bin/sh
# `vimana sweep`: a bad command line or sweep file is one line on stderr
# naming the file, the line and what is wrong, exit status 2, and nothing
# runs (no results folder is made).
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
IN="$VIMANA_SRCDIR/inputs"
cd "$TEST_TMP" || exit 1
cp "$IN/system/ring.json" "$IN/network/ring8.yml" .
BASE='workload: w\nsystem: ring.json\nnetwork: ring8.yml\n'

# bad "TEXT" "exact stderr line": TEXT (printf format) as s.yaml.
bad() {
    printf "$1" >s.yaml
    expect_error "$2" "$VIMANA" sweep s.yaml --out out
    [ -d out ] && fail "a results folder after: $2"
    [ "$(wc -l <"$TEST_TMP/err")" -eq 1 ] || fail "more than one line for: $2"
}
bad "${BASE}axes:\n  system.all-reduce-implementaton: [[ring]]\n" \
    "vimana sweep: error: s.yaml:5: system.all-reduce-implementaton: no key 'all-reduce-implementaton' in ring.json (an axis may only change a key the file has)"
bad "${BASE}axes:\n  network.bandwith: [[1]]\n" \
    "vimana sweep: error: s.yaml:5: network.bandwith: no key 'bandwith' in ring8.yml (an axis may only change a key the file has)"
bad "${BASE}axes:\n  netwrk.x: [[1]]\n" \
    "vimana sweep: error: s.yaml:5: unknown axis 'netwrk.x' (expected system.KEY, network.KEY, generate.KEY, system, network, backend, workload or jobs-file)"
bad "${BASE}axes:\n  backend: [a, [b]]\n" \
    "vimana sweep: error: s.yaml:5: backend: expected a single value (a name or a path)"
bad "${BASE}axes: [\n" "vimana sweep: error: s.yaml:5: did not find expected node content"
bad "${BASE}bakend: y\naxes:\n  backend: [a]\n" \
    "vimana sweep: error: s.yaml:4: unknown key 'bakend' (expected workload, generate, system, network, memory, backend, options, axes, points, plot, jobs or slurm)"
bad "workload: w\nsystem: ring.json\naxes:\n  backend: [a]\n" \
    "vimana sweep: error: s.yaml:1: missing key 'network' (the base run; or an axis 'network' that every point sets)"
bad "${BASE}axes:\n  backend: [a, a]\n" "vimana sweep: error: s.yaml:5: backend: value 'a' given twice"
bad "${BASE}axes:\n  backend: []\n" "vimana sweep: error: s.yaml:5: backend: expected a non-empty list of values"
bad "${BASE}axes:\n  backend: [a]\npoints:\n  - {backend: a}\n" \
    "vimana sweep: error: s.yaml:6: give either axes (a grid) or points (a list), not both"
bad "${BASE}points:\n  - {backend: a}\n  - {backend: b, backend: c}\n" \
    "vimana sweep: error: s.yaml:6: axis 'backend' given twice in one point"
bad "${BASE}options: [--report=x.json]\naxes:\n  backend: [a]\n" \
    "vimana sweep: error: s.yaml:4: options: --report is set by the sweep (use the keys or an axis)"
bad "${BASE}options: [--bogus=1]\naxes:\n  backend: [a]\n" \
    "vimana sweep: error: s.yaml:4: options: unknown option '--bogus' (see vimana --help)"
bad "${BASE}plot: finish:nope\naxes:\n  backend: [a]\n" "vimana sweep: error: s.yaml:4: plot: no axis 'nope' in the sweep"
bad "${BASE}plot: speed:backend\naxes:\n  backend: [a]\n" \
    "vimana sweep: error: s.yaml:4: plot: unknown metric 'speed' (expected finish, finish_sum, exposed_mean, wall_seconds or peak_memory_kib)"
bad "${BASE}jobs: 0\naxes:\n  backend: [a]\n" "vimana sweep: error: s.yaml:4: jobs: expected a number of parallel runs from 1 to 4096"
bad "" "vimana sweep: error: s.yaml: empty sweep file (expected a mapping: workload, system, network, axes ...)"
bad "${BASE}" "vimana sweep: error: s.yaml:1: no axes and no points: nothing to sweep"
bad "workload: w\nsystem: nosuch.json\nnetwork: ring8.yml\naxes:\n  system.x: [1]\n" \
    "vimana sweep: error: nosuch.json: cannot open: No such file or directory"
echo '{' >bad.json
bad "workload: w\nsystem: bad.json\nnetwork: ring8.yml\naxes:\n  system.x: [1]\n" \
    "vimana sweep: error: bad.json: line 2, column 1: expected a key in double quotes, got the end of the file"
echo '[1]' >bad.json
bad "workload: w\nsystem: bad.json\nnetwork: ring8.yml\naxes:\n  system.x: [1]\n" \
    "vimana sweep: error: bad.json: not a system JSON (expected a JSON object)"
# A key given twice: vimana refuses the file, so the sweep does too (json-c
# kept the last value and the points' copies lost the other; issue 29 §5).
printf '{"endpoint-delay": 10,\n "endpoint-delay": 20}\n' >bad.json
bad "workload: w\nsystem: bad.json\nnetwork: ring8.yml\naxes:\n  system.endpoint-delay: [1]\n" \
    "vimana sweep: error: bad.json: line 2, column 2: duplicate key 'endpoint-delay' (first given at line 1, column 2)"
# A control byte from the file is escaped: the message stays one line.
bad "${BASE}axes:\n  \"system.a\\\\nb\": [1]\n" \
    "vimana sweep: error: s.yaml:5: system.a\\nb: no key 'a\\nb' in ring.json (an axis may only change a key the file has)"

# The command line.
expect_error "vimana sweep: error: missing --out DIR (see vimana sweep --help)" "$VIMANA" sweep s.yaml
expect_error "vimana sweep: error: missing the sweep file (see vimana sweep --help)" "$VIMANA" sweep --out o
expect_error "vimana sweep: error: --jobs: expected a number from 1 to 4096, got 'x'" "$VIMANA" sweep s.yaml --out o --jobs x
expect_error "vimana sweep: error: nosuch.yaml: cannot open: No such file or directory" "$VIMANA" sweep nosuch.yaml --out o
expect_error "vimana sweep: error: .: is a directory, expected a file" "$VIMANA" sweep . --out o
expect_error "vimana sweep: error: unexpected argument '--bogus' (see vimana sweep --help)" "$VIMANA" sweep s.yaml --bogus
printf "${BASE}axes:\n  backend: [a]\n" >s.yaml
expect_error "vimana sweep: error: --plot: no axis 'x' in the sweep" "$VIMANA" sweep s.yaml --out o --plot finish:x
expect_ok "$VIMANA" sweep --help
grep -q '^Usage: vimana sweep SPEC.yaml --out DIR' "$TEST_TMP/out" || fail "--help"
# The man page documents every option of `vimana sweep --help`.
help_in_man SWEEPS sweep
expect_ok "$VIMANA" --help
grep -q 'vimana sweep SPEC.yaml' "$TEST_TMP/out" || fail "vimana --help names sweep"
finish
