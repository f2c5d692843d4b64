#!/bin/sh
# `vimana xval`: one workload on several backends, each in its own process.
# The deterministic columns (status, NPUs, finish, sum, ratio) and the SVG
# are compared exactly; wall time and memory vary from run to run, so only
# their presence is checked. Test modules of tests/backends stand for
# backends that fail to load, fail in the run or hang.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
B="$VIMANA_BUILDDIR/tests/backends"
IN="$VIMANA_SRCDIR/inputs"
P="vimana xval"
# The runs' reports go to a temporary folder: none may be left behind.
mkdir "$TEST_TMP/tmp"
TMPDIR="$TEST_TMP/tmp"
export TMPDIR

"$VIMANA_ET" generate all-reduce --npus 8 --size 1MiB --out "$TEST_TMP/ar" >/dev/null || fail "generate all-reduce"
"$VIMANA_ET" generate all-to-all --npus 8 --size 1MiB --out "$TEST_TMP/a2a" >/dev/null || fail "generate all-to-all"
"$VIMANA_ET" generate all-reduce --npus 2 --size 1MiB --out "$TEST_TMP/ar2" >/dev/null || fail "generate 2 NPUs"
RING2="$TEST_TMP/ring2.yml"
printf 'topology: [ Ring ]\nnpus_count: [ 2 ]\nbandwidth: [ 50.0 ]\nlatency: [ 500.0 ]\n' >"$RING2"

ring() { "$VIMANA" xval --workload-configuration="$TEST_TMP/ar" --system-configuration="$IN/system/ring.json" \
    --network-configuration="$IN/network/ring8.yml" "$@"; }
incast() { "$VIMANA" xval --workload-configuration="$TEST_TMP/a2a" --system-configuration="$IN/system/direct.json" \
    --network-configuration="$IN/network/switch8.yml" "$@"; }
two() { "$VIMANA" xval --workload-configuration="$TEST_TMP/ar2" --system-configuration="$IN/system/ring.json" \
    --network-configuration="$RING2" "$@"; }

# deterministic FILE: the table's first six columns (the rest vary).
deterministic() { awk '{ print $1, $2, $3, $4, $5, $6 }' "$1"; }
# csv_fixed FILE: the CSV without cpu_seconds, wall_seconds and peak_memory_kib.
csv_fixed() { cut -d, -f1-6,10 "$1"; }
# json_fixed FILE: the JSON with those three values replaced by "X".
json_fixed() {
    sed 's/"cpu_seconds": [0-9.]*/"cpu_seconds": X/; s/"wall_seconds": [0-9.]*/"wall_seconds": X/
         s/"peak_memory_kib": [0-9]*/"peak_memory_kib": X/' "$1"
}

# ---- an uncongested ring: both backends agree, even with tolerance 0 ------
expect_ok ring --backends=analytical,congestion_aware --tolerance=0 --csv="$TEST_TMP/r.csv" \
    --json="$TEST_TMP/r.json" --plot="$TEST_TMP/r.svg"
expect_eq "$(deterministic "$TEST_TMP/out")" "backend status npus finish finish_sum ratio
analytical ok 8 117780 942240 1.000000
congestion_aware ok 8 117780 942240 1.000000" "ring table"
expect_eq "$(head -1 "$TEST_TMP/out")" \
    "backend           status  npus  finish  finish_sum     ratio  cpu_s  wall_s  peak_mib" "ring table header"
# CPU and wall time (seconds, 3 decimals) and peak memory (MiB, 1 decimal) are there.
expect_eq "$(awk 'NR > 1 && $7 ~ /^[0-9]+\.[0-9][0-9][0-9]$/ && $8 ~ /^[0-9]+\.[0-9][0-9][0-9]$/ &&
    $9 ~ /^[0-9]+\.[0-9]$/' "$TEST_TMP/out" | wc -l)" 2 "ring table: CPU and wall time and memory"
expect_eq "$(cat "$TEST_TMP/err")" "" "ring: stderr"
expect_eq "$(csv_fixed "$TEST_TMP/r.csv")" "backend,status,npus,finish,finish_sum,ratio,error
analytical,ok,8,117780,942240,1.000000,
congestion_aware,ok,8,117780,942240,1.000000," "ring CSV"
expect_eq "$(awk -F, 'NR > 1 && $7 ~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]$/ &&
    $8 ~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]$/ && $9 ~ /^[1-9][0-9]*$/' \
    "$TEST_TMP/r.csv" | wc -l)" 2 "ring CSV: CPU and wall time and memory"
expect_eq "$(json_fixed "$TEST_TMP/r.json")" "{
\"generator\": \"vimana $("$VIMANA" --version | sed -n 's/^vimana \([^ ]*\) .*/\1/p')\",
\"baseline\": \"analytical\",
\"tolerance\": 0,
\"backends\": [
{\"backend\": \"analytical\", \"status\": \"ok\", \"npus\": 8, \"finish\": 117780, \"finish_sum\": 942240, \"ratio\": 1.000000, \"cpu_seconds\": X, \"wall_seconds\": X, \"peak_memory_kib\": X, \"error\": null},
{\"backend\": \"congestion_aware\", \"status\": \"ok\", \"npus\": 8, \"finish\": 117780, \"finish_sum\": 942240, \"ratio\": 1.000000, \"cpu_seconds\": X, \"wall_seconds\": X, \"peak_memory_kib\": X, \"error\": null}
]
}" "ring JSON"
cat >"$TEST_TMP/want.svg" <<'EOF'
<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="760" height="136" viewBox="0 0 760 136" font-family="sans-serif" font-size="12">
<rect width="760" height="136" fill="#ffffff"/>
<text x="16" y="28" font-size="16" font-weight="bold">Finish time per network backend</text>
<text x="16" y="48">ticks (1 tick = 1 ns) of the last NPU to finish; ratios to analytical, tolerance 0</text>
<g><title>analytical</title>
<text x="200" y="77" text-anchor="end">analytical</text>
<rect x="208" y="64" width="360" height="18" fill="#7f7f7f"/>
<text x="574" y="77">117780 (1.000000)</text></g>
<g><title>congestion_aware</title>
<text x="200" y="105" text-anchor="end">congestion_aware</text>
<rect x="208" y="92" width="360" height="18" fill="#2c7bb6"/>
<text x="574" y="105">117780 (1.000000)</text></g>
<line x1="568" y1="58" x2="568" y2="114" stroke="#000000" stroke-dasharray="4 3"/>
</svg>
EOF
cmp -s "$TEST_TMP/r.svg" "$TEST_TMP/want.svg" || fail "ring SVG differs: $(diff "$TEST_TMP/want.svg" "$TEST_TMP/r.svg")"
expect_eq "$(ls "$TMPDIR")" "" "temporary files left behind"

# Options also take their value as the next argument, as vimana's do.
expect_ok ring --backends analytical --csv "$TEST_TMP/r1.csv"
expect_eq "$(csv_fixed "$TEST_TMP/r1.csv")" "backend,status,npus,finish,finish_sum,ratio,error
analytical,ok,8,117780,942240,1.000000," "value as the next argument"

# ---- an incast: congestion_aware queues at the switch, analytical does not --
expect_error "$P: congestion_aware: finish time 23600 is 3.619632 times analytical's 6520, outside the tolerance 0.05" \
    incast --backends=analytical,congestion_aware --tolerance=0.05 --csv="$TEST_TMP/i.csv" --plot="$TEST_TMP/i.svg"
expect_eq "$(wc -l <"$TEST_TMP/err")" 1 "incast: one line on stderr"
expect_eq "$(deterministic "$TEST_TMP/out")" "backend status npus finish finish_sum ratio
analytical ok 8 6520 52160 1.000000
congestion_aware outside 8 23600 188800 3.619632" "incast table"
expect_eq "$(csv_fixed "$TEST_TMP/i.csv")" "backend,status,npus,finish,finish_sum,ratio,error
analytical,ok,8,6520,52160,1.000000,
congestion_aware,outside,8,23600,188800,3.619632," "incast CSV"
# The slower backend's bar is the full 360 pixels, red; the baseline's
# 360 * 6520 / 23600 = 99.5 -> 99 (rounded to whole pixels).
grep -qF '<rect x="208" y="64" width="99" height="18" fill="#7f7f7f"/>' "$TEST_TMP/i.svg" || fail "incast SVG: baseline bar"
grep -qF '<rect x="208" y="92" width="360" height="18" fill="#d7191c"/>' "$TEST_TMP/i.svg" || fail "incast SVG: red bar"
# The band is |ratio - 1| <= tolerance: 2.619632 is outside 2.6, inside 2.62.
expect_error "$P: congestion_aware: finish time 23600 is 3.619632 times analytical's 6520, outside the tolerance 2.6" \
    incast --backends=analytical,congestion_aware --tolerance=2.6
expect_ok incast --backends=analytical,congestion_aware --tolerance=2.62
# Without --tolerance the ratios are shown, not checked.
expect_ok incast --backends=analytical,congestion_aware
expect_eq "$(deterministic "$TEST_TMP/out" | tail -1)" "congestion_aware ok 8 23600 188800 3.619632" "no tolerance"
# Another baseline runs first; the baseline is added when not listed.
expect_ok incast --backends=analytical --baseline=congestion_aware
expect_eq "$(deterministic "$TEST_TMP/out")" "backend status npus finish finish_sum ratio
congestion_aware ok 8 23600 188800 1.000000
analytical ok 8 6520 52160 0.276271" "another baseline"

# ---- backends that fail: an error row each, exit 1, never a crash ----------
expect_error "$P: $B/abi_wrong_major.la: error: $B/.libs/abi_wrong_major.so: backend ABI 2.0 is not compatible with this vimana (ABI 1.4): major versions differ; rebuild the backend against this vimana's network_api.h" \
    two --backends="analytical,$B/abi_wrong_major.la,$B/host11_failed.la,$B/bad_storm.la,$B/xval_abort.la,$B/template.la" \
    --timeout=1 --json="$TEST_TMP/f.json"
grep -qxF "$P: $B/host11_failed.la: error: network backend host11_failed failed: host11: link 0 lost its message\\n(injected)" \
    "$TEST_TMP/err" || fail "failing run: $(cat "$TEST_TMP/err")"
grep -qxF "$P: $B/bad_storm.la: error: timed out after 1 s (killed)" "$TEST_TMP/err" || fail "timeout: $(cat "$TEST_TMP/err")"
grep -qxF "$P: $B/xval_abort.la: error: killed by signal 6 (Aborted)" "$TEST_TMP/err" || fail "abort: $(cat "$TEST_TMP/err")"
expect_eq "$(wc -l <"$TEST_TMP/err")" 4 "failures: one line each"
expect_eq "$(deterministic "$TEST_TMP/out")" "backend status npus finish finish_sum ratio
analytical ok 2 55100 110200 1.000000
$B/abi_wrong_major.la error - - - -
$B/host11_failed.la error - - - -
$B/bad_storm.la error - - - -
$B/xval_abort.la error - - - -
$B/template.la ok 2 55100 110200 1.000000" "failures table"
expect_eq "$(grep -c '"status": "error", "npus": null, "finish": null, "finish_sum": null, "ratio": null' "$TEST_TMP/f.json")" 4 \
    "failures JSON"
grep -qF "{\"backend\": \"$B/bad_storm.la\", \"status\": \"error\"" "$TEST_TMP/f.json" || fail "failures JSON: bad_storm row"
grep -qF '"error": "timed out after 1 s (killed)"}' "$TEST_TMP/f.json" || fail "failures JSON: timeout error"
expect_eq "$(ls "$TMPDIR")" "" "temporary files left behind after failures"
# A baseline that fails leaves no ratio to check.
ring --backends=congestion_aware --baseline=nowhere --tolerance=0.05 >"$TEST_TMP/out" 2>"$TEST_TMP/err" &&
    fail "a failing baseline exits 0"
grep -q "^$P: nowhere: error: network backend 'nowhere' not found (looked in: " "$TEST_TMP/err" ||
    fail "failing baseline: $(cat "$TEST_TMP/err")"
expect_eq "$(wc -l <"$TEST_TMP/err")" 1 "failing baseline: one line"
expect_eq "$(deterministic "$TEST_TMP/out" | tail -1)" "congestion_aware ok 8 117780 942240 -" "no baseline, no ratio"

# ---- the default list: every backend found, the baseline first --------------
mkdir "$TEST_TMP/mods"
ln -s "$B/.libs/template.so" "$TEST_TMP/mods/zz_template.so"
saved_path=${VIMANA_BACKEND_PATH:-}
VIMANA_BACKEND_PATH="$TEST_TMP/mods:$saved_path"
export VIMANA_BACKEND_PATH
# Whatever else the build holds (a backend may fail here): only the rows
# of the known ones are checked, not the exit status.
ring >"$TEST_TMP/out" 2>"$TEST_TMP/err"
VIMANA_BACKEND_PATH=$saved_path
expect_eq "$(awk 'NR == 2 { print $1 }' "$TEST_TMP/out")" analytical "default list: baseline first"
grep -q '^congestion_aware  *ok  *8  *117780 ' "$TEST_TMP/out" || fail "default list: no congestion_aware row"
grep -q '^zz_template  *ok ' "$TEST_TMP/out" || fail "default list: no module of VIMANA_BACKEND_PATH"

# ---- per-backend options, each backend once, the runs' warnings ------------------
# NAME:K=V goes to NAME only: congestion_aware refuses it (it takes none),
# analytical never sees it
ring --backends=analytical,congestion_aware --backend-options=congestion_aware:x=1 >"$TEST_TMP/out" 2>"$TEST_TMP/err"
expect_eq "$?" 1 "per-backend option: exit status"
expect_eq "$(deterministic "$TEST_TMP/out" | sed -n 2,3p)" "analytical ok 8 117780 942240 1.000000
congestion_aware error - - - -" "per-backend option: rows"
expect_eq "$(cat "$TEST_TMP/err")" \
    "$P: congestion_aware: error: congestion_aware: backend option 'x=1': congestion_aware takes no options" \
    "per-backend option: the refusal"
# analytical.so is the baseline analytical: one run
expect_ok ring --backends=analytical.so
expect_eq "$(deterministic "$TEST_TMP/out" | sed 1d)" "analytical.so ok 8 117780 942240 1.000000" "analytical.so once"
# a run's warnings, after its backend's name
sed 's/^latency:/frobnicate: 1\nlatency:/' "$IN/network/ring8.yml" >"$TEST_TMP/ring8w.yml"
expect_ok "$VIMANA" xval --workload-configuration="$TEST_TMP/ar" --system-configuration="$IN/system/ring.json" \
    --network-configuration="$TEST_TMP/ring8w.yml" --backends=analytical,congestion_aware
expect_eq "$(cat "$TEST_TMP/err")" "$P: analytical: warning: $TEST_TMP/ring8w.yml:$(grep -n frobnicate "$TEST_TMP/ring8w.yml" | cut -d: -f1): unknown key 'frobnicate' ignored
$P: congestion_aware: warning: $TEST_TMP/ring8w.yml:$(grep -n frobnicate "$TEST_TMP/ring8w.yml" | cut -d: -f1): unknown key 'frobnicate' ignored" \
    "the runs' warnings"

# ---- usage errors: one line, status 2 ------------------------------------------
usage_error() { # LINE ARGS...
    line=$1
    shift
    expect_error "$line" "$@"
    "$@" >/dev/null 2>&1
    expect_eq "$?" 2 "exit status of: $*"
    expect_eq "$(wc -l <"$TEST_TMP/err")" 1 "lines on stderr of: $*"
}
usage_error "$P: error: unknown option '--frobnicate' (see vimana --help)" ring --frobnicate=1
usage_error "$P: error: missing required option --workload-configuration (see vimana --help)" \
    "$VIMANA" xval --system-configuration="$IN/system/ring.json" --network-configuration="$IN/network/ring8.yml"
usage_error "$P: error: --tolerance: expected a non-negative number, got 'abc'" ring --tolerance=abc
usage_error "$P: error: --tolerance: expected a non-negative number, got '-0.1'" ring --tolerance=-0.1
usage_error "$P: error: --tolerance: expected a non-negative number, got 'inf'" ring --tolerance=inf
usage_error "$P: error: --tolerance needs a value (--tolerance=VALUE)" ring --tolerance=
usage_error "$P: error: --timeout: expected a positive number, got '0'" ring --timeout=0
usage_error "$P: error: --backends: empty name in 'analytical,,congestion_aware'" \
    ring --backends=analytical,,congestion_aware
usage_error "$P: error: --backends: 'analytical' is listed twice (a name with or without .so or .la is one backend)" \
    ring --backends=analytical,analytical
usage_error "$P: error: --backends: 'analytical.so' is listed twice (a name with or without .so or .la is one backend)" \
    ring --backends=analytical,analytical.so
usage_error "$P: error: --backend-options: 'garnet' names no backend of this comparison" \
    ring --backends=analytical,congestion_aware --backend-options=garnet:vcs=64
usage_error "$P: error: --backends: a name is longer than 255 bytes" ring --backends="analytical,$(printf '%0300d' 0)"
usage_error "$P: error: --network-backend cannot be used with xval: use --backends=NAME,..." \
    ring --network-backend=analytical
usage_error "$P: error: --report cannot be used with xval: each run's report is read by xval; use --csv or --json" \
    ring --report "$TEST_TMP/x.json"
usage_error "$P: error: --timeline cannot be used with xval: every run would write the same file" \
    ring --timeline="$TEST_TMP/t.json"
usage_error "$P: error: $TEST_TMP/none/x.csv: cannot write: No such file or directory" \
    ring --backends=analytical --csv="$TEST_TMP/none/x.csv"
usage_error "$P: error: $TEST_TMP: cannot write: Is a directory" ring --backends=analytical --plot="$TEST_TMP"
if [ -w /dev/full ]; then
    ring --backends=analytical >/dev/full 2>"$TEST_TMP/err"
    expect_eq "$?" 2 "exit status with a full standard output"
    expect_eq "$(cat "$TEST_TMP/err")" "$P: error: standard output: write failed" "full standard output"
fi
expect_eq "$(ls "$TMPDIR")" "" "temporary files left behind after usage errors"
expect_ok "$VIMANA" xval --help
grep -q '^Usage: vimana xval ' "$TEST_TMP/out" || fail "xval --help: no usage line"
# The man page documents every option of `vimana xval --help`.
help_in_man CROSS-VALIDATION xval
expect_ok "$VIMANA" --help
grep -q '^       vimana xval ' "$TEST_TMP/out" || fail "vimana --help does not mention xval"
finish
