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

# deterministic FILE: the finish-time table's first six columns (the rest
# vary); the table ends at the first empty line (the divergence report follows).
deterministic() { awk 'NF == 0 { exit } { print $1, $2, $3, $4, $5, $6 }' "$1"; }
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
],
\"divergence\": {
\"npu\": 0,
\"band\": 0,
\"collectives\": [
{\"node\": 0, \"name\": \"all_reduce_8npus_1MB\", \"type\": \"ALL_REDUCE\", \"bytes\": 1048576, \"durations\": [117780, 117780], \"ratios\": [1.000000, 1.000000], \"outside\": [false, false]}
],
\"first_outside\": null,
\"link_totals\": [{\"backend\": \"congestion_aware\", \"bytes\": 14680064, \"busy_ticks\": 273280, \"max_queue_ticks\": 0}],
\"links\": [
{\"src_device\": 0, \"dst_device\": 1, \"src\": \"npu0\", \"dst\": \"npu1\", \"busy_spread\": 1.000000, \"queue_diff\": 0, \"backends\": [{\"backend\": \"congestion_aware\", \"bytes\": 1835008, \"busy_ticks\": 34160, \"max_queue_ticks\": 0}]},
{\"src_device\": 1, \"dst_device\": 2, \"src\": \"npu1\", \"dst\": \"npu2\", \"busy_spread\": 1.000000, \"queue_diff\": 0, \"backends\": [{\"backend\": \"congestion_aware\", \"bytes\": 1835008, \"busy_ticks\": 34160, \"max_queue_ticks\": 0}]},
{\"src_device\": 2, \"dst_device\": 3, \"src\": \"npu2\", \"dst\": \"npu3\", \"busy_spread\": 1.000000, \"queue_diff\": 0, \"backends\": [{\"backend\": \"congestion_aware\", \"bytes\": 1835008, \"busy_ticks\": 34160, \"max_queue_ticks\": 0}]},
{\"src_device\": 3, \"dst_device\": 4, \"src\": \"npu3\", \"dst\": \"npu4\", \"busy_spread\": 1.000000, \"queue_diff\": 0, \"backends\": [{\"backend\": \"congestion_aware\", \"bytes\": 1835008, \"busy_ticks\": 34160, \"max_queue_ticks\": 0}]},
{\"src_device\": 4, \"dst_device\": 5, \"src\": \"npu4\", \"dst\": \"npu5\", \"busy_spread\": 1.000000, \"queue_diff\": 0, \"backends\": [{\"backend\": \"congestion_aware\", \"bytes\": 1835008, \"busy_ticks\": 34160, \"max_queue_ticks\": 0}]},
{\"src_device\": 5, \"dst_device\": 6, \"src\": \"npu5\", \"dst\": \"npu6\", \"busy_spread\": 1.000000, \"queue_diff\": 0, \"backends\": [{\"backend\": \"congestion_aware\", \"bytes\": 1835008, \"busy_ticks\": 34160, \"max_queue_ticks\": 0}]},
{\"src_device\": 6, \"dst_device\": 7, \"src\": \"npu6\", \"dst\": \"npu7\", \"busy_spread\": 1.000000, \"queue_diff\": 0, \"backends\": [{\"backend\": \"congestion_aware\", \"bytes\": 1835008, \"busy_ticks\": 34160, \"max_queue_ticks\": 0}]},
{\"src_device\": 7, \"dst_device\": 0, \"src\": \"npu7\", \"dst\": \"npu0\", \"busy_spread\": 1.000000, \"queue_diff\": 0, \"backends\": [{\"backend\": \"congestion_aware\", \"bytes\": 1835008, \"busy_ticks\": 34160, \"max_queue_ticks\": 0}]}
]
}
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

# ---- the divergence report: where the backends differ ---------------------------
# The tutorial graph (a 1 MiB all-reduce, node 1, then a 2 MiB all-gather,
# node 2) on a Switch of 8: congestion_aware queues at the switch. With the
# band 1.5 the all-reduce (2.29 times analytical's) is inside it and the
# all-gather (7.34 times) the first outside. ca2 is congestion_aware again
# under another name: a second backend with link statistics, so that the
# links are compared (identical: spread 1, no queue difference).
"$VIMANA_ET" generate three-nodes --npus 8 --out "$TEST_TMP/tn" >/dev/null || fail "generate three-nodes"
mkdir "$TEST_TMP/ca2"
ln -s "$VIMANA_BUILDDIR/backends/congestion_aware/.libs/congestion_aware.so" "$TEST_TMP/ca2/ca2.so"
tutorial() { VIMANA_BACKEND_PATH="$TEST_TMP/ca2:${VIMANA_BACKEND_PATH:-}" "$VIMANA" xval \
    --workload-configuration="$TEST_TMP/tn" --system-configuration="$IN/system/direct.json" \
    --network-configuration="$IN/network/switch8.yml" "$@"; }
tutorial --backends=analytical,congestion_aware,ca2 --tolerance=1.5 --npu=3 --top-links=2 --csv="$TEST_TMP/d.csv" \
    --json="$TEST_TMP/d.json" --divergence-plot="$TEST_TMP/d.svg" >"$TEST_TMP/out" 2>"$TEST_TMP/err"
expect_eq "$?" 1 "divergence: exit status (finish times outside the band)"
expect_eq "$(sed '1,/^$/d' "$TEST_TMP/out")" "collectives of NPU 3: duration in ticks per backend, ratio to analytical (* outside the band 1.5)
node  name            type          bytes  analytical  congestion_aware  ratio         ca2  ratio
   1  All-Reduce-1MB  ALL_REDUCE  1048576       20860             47700  2.286673    47700  2.286673
   2  All-Gather-2MB  ALL_GATHER  2097152       43140            316560  7.337969*  316560  7.337969*
first collective outside the band 1.5: node 2 'All-Gather-2MB' (ALL_GATHER, 2097152 bytes, NPU 3): analytical 43140, congestion_aware 316560 (7.337969), ca2 316560 (7.337969)

links: the 2 of 16 that differ most (busy-ticks spread, then worst-queue difference); analytical: no link statistics
link           backend               bytes  busy_ticks  max_queue  busy_spread  queue_diff
npu0->switch0  congestion_aware   16515072      307580      58590     1.000000           0
               ca2                16515072      307580      58590
npu1->switch0  congestion_aware   16515072      307580      58590     1.000000           0
               ca2                16515072      307580      58590
total          congestion_aware  264241152     4921280      58590
               ca2               264241152     4921280      58590" "divergence report"
expect_eq "$(cat "$TEST_TMP/d.collectives.csv")" "npu,node,name,type,bytes,backend,duration,ratio,outside
3,1,All-Reduce-1MB,ALL_REDUCE,1048576,analytical,20860,1.000000,
3,1,All-Reduce-1MB,ALL_REDUCE,1048576,congestion_aware,47700,2.286673,no
3,1,All-Reduce-1MB,ALL_REDUCE,1048576,ca2,47700,2.286673,no
3,2,All-Gather-2MB,ALL_GATHER,2097152,analytical,43140,1.000000,
3,2,All-Gather-2MB,ALL_GATHER,2097152,congestion_aware,316560,7.337969,yes
3,2,All-Gather-2MB,ALL_GATHER,2097152,ca2,316560,7.337969,yes" "divergence: collectives CSV"
# every link of both backends (16 used), ranked, in the links CSV
expect_eq "$(sed -n '1,3p' "$TEST_TMP/d.links.csv")" \
    "rank,src_device,dst_device,src,dst,backend,bytes,busy_ticks,max_queue_ticks,busy_spread,queue_diff
1,0,8,npu0,switch0,congestion_aware,16515072,307580,58590,1.000000,0
1,0,8,npu0,switch0,ca2,16515072,307580,58590,1.000000,0" "divergence: links CSV"
expect_eq "$(wc -l <"$TEST_TMP/d.links.csv")" 33 "divergence: links CSV, 16 links of 2 backends"
grep -qxF '"first_outside": {"index": 1, "node": 2},' "$TEST_TMP/d.json" || fail "divergence JSON: first_outside"
grep -qxF '{"node": 2, "name": "All-Gather-2MB", "type": "ALL_GATHER", "bytes": 2097152, "durations": [43140, 316560, 316560], "ratios": [1.000000, 7.337969, 7.337969], "outside": [false, true, true]}' \
    "$TEST_TMP/d.json" || fail "divergence JSON: the all-gather"
grep -qF '<line x1="570" y1="60" x2="570" y2="580" stroke="#d7191c" stroke-dasharray="4 3"/>' "$TEST_TMP/d.svg" ||
    fail "divergence SVG: the mark of the first collective outside"
grep -qF '<polyline fill="none" stroke="#1f77b4" stroke-width="2" points="90,271 570,261"/>' "$TEST_TMP/d.svg" ||
    fail "divergence SVG: analytical's durations"
# ratios: 2.286673 and 7.337969 of a panel of 220 pixels up to 10, from y = 580
grep -qF '<polyline fill="none" stroke="#ff7f0e" stroke-width="2" points="90,530 570,419"/>' "$TEST_TMP/d.svg" ||
    fail "divergence SVG: congestion_aware's ratios"
# the band 1 +- 1.5, cut at 0: from 2.5 (y 525) down to 0 (y 580)
grep -qF '<rect x="90" y="525" width="480" height="55" fill="#e0e0e0"/>' "$TEST_TMP/d.svg" ||
    fail "divergence SVG: the band"
# Without --tolerance any difference counts; analytical alone has no links.
tutorial --backends=analytical,congestion_aware >"$TEST_TMP/out" 2>"$TEST_TMP/err"
expect_eq "$(grep -e '^first' -e '^no coll' -e '^links' "$TEST_TMP/out")" "first collective differing (no --tolerance): node 1 'All-Reduce-1MB' (ALL_REDUCE, 1048576 bytes, NPU 0): analytical 20860, congestion_aware 47700 (2.286673)
links: only congestion_aware counts per-link traffic, nothing to compare (analytical: no link statistics)" \
    "divergence without tolerance"
expect_ok tutorial --backends=congestion_aware,ca2 --baseline=congestion_aware --tolerance=0
expect_eq "$(grep -e '^first' -e '^no coll' "$TEST_TMP/out")" "no collective outside the band 0" "divergence: none outside"
# A backend that failed has "-" for each duration and is not named among
# those without link statistics.
tutorial --backends=congestion_aware,"$B/xval_abort.la" --baseline=congestion_aware >"$TEST_TMP/out" 2>"$TEST_TMP/err"
expect_eq "$(sed '1,/^$/d' "$TEST_TMP/out")" "collectives of NPU 0: duration in ticks per backend, ratio to congestion_aware (* any difference: no --tolerance)
node  name            type          bytes  congestion_aware  $B/xval_abort.la  ratio
   1  All-Reduce-1MB  ALL_REDUCE  1048576             47700  $(printf '%*s' $((${#B} + 14)) -)  -
   2  All-Gather-2MB  ALL_GATHER  2097152            316560  $(printf '%*s' $((${#B} + 14)) -)  -
no collective differs (no --tolerance)

links: only congestion_aware counts per-link traffic, nothing to compare" "divergence with a failed backend"
# One backend: nothing to compare, the table alone on standard output; the
# files still get its records.
expect_ok tutorial --backends=analytical --csv="$TEST_TMP/one.csv"
expect_eq "$(wc -l <"$TEST_TMP/out")" 2 "one backend: the table alone"
expect_eq "$(cat "$TEST_TMP/one.collectives.csv")" "npu,node,name,type,bytes,backend,duration,ratio,outside
0,1,All-Reduce-1MB,ALL_REDUCE,1048576,analytical,20860,1.000000,
0,2,All-Gather-2MB,ALL_GATHER,2097152,analytical,43140,1.000000," "one backend: its collectives CSV"
expect_eq "$(cat "$TEST_TMP/one.links.csv")" \
    "rank,src_device,dst_device,src,dst,backend,bytes,busy_ticks,max_queue_ticks,busy_spread,queue_diff" \
    "one backend without link statistics: the links CSV's header"
expect_eq "$(ls "$TMPDIR")" "" "temporary files left behind after the divergence report"

# ---- backends that fail: an error row each, exit 1, never a crash ----------
expect_error "$P: $B/abi_wrong_major.la: error: $B/.libs/abi_wrong_major.so: backend ABI 2.0 is not compatible with this vimana (ABI 1.5): major versions differ; rebuild the backend against this vimana's network_api.h" \
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
usage_error "$P: error: --npu: expected a whole number from 0 to 4294967295, got 'x'" ring --npu=x
usage_error "$P: error: --npu: expected a whole number from 0 to 4294967295, got '-1'" ring --npu=-1
usage_error "$P: error: --npu: expected a whole number from 0 to 4294967295, got '4294967296'" ring --npu=4294967296
usage_error "$P: error: --npu needs a value (--npu=VALUE)" ring --npu=
usage_error "$P: error: --top-links: expected a whole number from 1 to 18446744073709551615, got '0'" \
    ring --top-links=0
usage_error "$P: error: --top-links: expected a whole number from 1 to 18446744073709551615, got '1e3'" \
    ring --top-links=1e3
usage_error "$P: error: $TEST_TMP/none/d.svg: cannot write: No such file or directory" \
    ring --backends=analytical --divergence-plot="$TEST_TMP/none/d.svg"
# --npu beyond the workload's NPUs: known once a run has finished
usage_error "$P: error: --npu=8: the runs have 8 NPUs (0 to 7)" ring --backends=analytical,congestion_aware --npu=8
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
