#!/bin/sh
# The reduced simulation is exact (issue 14, docs/symmetry.md): on every
# golden case and on a seeded random set of symmetric workloads (1-D to
# 3-D networks of Ring, FullyConnected and Switch dimensions, ring, direct
# or halving-doubling per dimension, the four collectives, sizes, splits, active chunks,
# scheduling, collective optimisation, endpoint delay, compute around the
# collectives, two collectives in parallel or in sequence, --report as JSON,
# CSV or none), each NPU's report is line for line the full simulation's
# (--no-symmetry), and so is the --report file but for the order of the
# collective records that end in the same tick. The reduced run prints the NPUs in NPU order; the full
# run prints them as they finish within the last tick, so the per-NPU
# blocks are compared, not their order. SYMMETRY_SEED and SYMMETRY_CASES
# pick another random set.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"
seed=${SYMMETRY_SEED:-14}
cases=${SYMMETRY_CASES:-40}

. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/symmetry_compare.sh"

# Every golden case of the analytical backend (tests/data/golden, or ../shared),
# each with the symmetry mode it gets.
on_golden=0
if [ -d "$REF/golden/cases" ]; then
    for c in "$REF"/golden/cases/*.case; do
        grep -q '^backend = analytical$' "$c" || continue
        key() { sed -n "s/^$1 = //p" "$c"; }
        base=$(dirname "$c")
        abs() { case $1 in /*) echo "$1" ;; ?*) echo "$base/$1" ;; esac; }
        set -- --workload-configuration="$(abs "$(key workload)")" --system-configuration="$(abs "$(key system)")" \
            --network-configuration="$(abs "$(key network)")" --remote-memory-configuration="$(abs "$(key memory)")" \
            --network-backend=analytical
        [ -n "$(key comm_group)" ] && set -- "$@" --comm-group-configuration="$(abs "$(key comm_group)")"
        # shellcheck disable=SC2046
        [ -n "$(key flags)" ] && set -- "$@" $(key flags)
        # every golden case with --report (JSON): it does not change stdout
        ( cd "$T" && REPORT=json compare "golden $(basename "$c")" "" "$@" )
        [ -n "${SYMMETRY_VERBOSE:-}" ] && grep '^vimana: symmetry' "$T/reduced.err" | cut -c1-60 >&2
        grep -q '^vimana: symmetry: on ' "$T/reduced.err" && on_golden=$((on_golden + 1))
    done
    # Most analytical golden cases are symmetric and run reduced.
    [ "$on_golden" -ge 10 ] || fail "only $on_golden golden cases ran the reduced simulation"
fi

# Random cases: one line each of
#   DIMS TOPOLOGIES ALGORITHMS KIND SIZE SPLITS ACTIVE POLICY OPT DELAY COMPUTE REPORT
awk -v seed="$seed" -v n="$cases" 'BEGIN {
    srand(seed)
    split("Ring FullyConnected Switch", topo, " ")
    split("all-reduce all-gather reduce-scatter all-to-all", kind, " ")
    for (c = 0; c < n; c++) {
        dims = 1 + int(rand() * 3)
        counts = ""; topos = ""; algos = ""; bws = ""; lats = ""
        hd = 0
        for (d = 0; d < dims; d++) {
            # halving-doubling on a power of two (2 to 32, 8 or 4 NPUs)
            a = rand(); algo = a < 0.4 ? "ring" : a < 0.65 ? "direct" : "halvingDoubling"
            if (algo == "halvingDoubling") {
                size = 2 ^ (1 + int(rand() * (dims == 1 ? 5 : dims == 2 ? 3 : 2))); hd = 1
            } else
                size = dims == 1 ? 2 + int(rand() * 31) : 2 + int(rand() * (dims == 2 ? 7 : 3))
            counts = counts (d ? "," : "") size
            topos = topos (d ? "," : "") topo[1 + int(rand() * 3)]
            algos = algos (d ? "," : "") algo
            bws = bws (d ? "," : "") (25 * (1 + int(rand() * 8)))
            lats = lats (d ? "," : "") (100 * int(rand() * 10))
        }
        # halving-doubling has no all-to-all
        printf "%s %s %s %s %s %s %s %s %s %s %s %s %s %s\n", counts, topos, algos, bws, lats,
            kind[1 + int(rand() * (hd ? 3 : 4))], 65536 * (1 + int(rand() * 64)) + 1024 * int(rand() * 64),
            1 + int(rand() * 8), 1 + int(rand() * 3), rand() < 0.5 ? "LIFO" : "FIFO",
            rand() < 0.5 ? "baseline" : "localBWAware", int(rand() * 20), int(rand() * 5),
            (r = rand()) < 0.2 ? "none" : r < 0.5 ? "csv" : "json"
    }
}' >"$T/cases"
i=0
while read -r counts topos algos bws lats kind size splits active policy opt delay compute report; do
    i=$((i + 1))
    npus=$(echo "$counts" | tr ',' '\n' | awk '{ p = (NR == 1 ? $1 : p * $1) } END { print p }')
    q() { echo "$1" | sed 's/\([A-Za-z][A-Za-z]*\)/"\1"/g; s/,/, /g'; }
    printf 'topology: [ %s ]\nnpus_count: [ %s ]\nbandwidth: [ %s ]\nlatency: [ %s ]\n' "$(echo "$topos" | sed 's/,/, /g')" \
        "$(echo "$counts" | sed 's/,/, /g')" "$(echo "$bws" | sed 's/,/, /g')" "$(echo "$lats" | sed 's/,/, /g')" >"$T/net.yml"
    a=$(q "$algos")
    a2a=$(q "$(echo "$algos" | sed 's/halvingDoubling/ring/g')") # never run with halving-doubling
    cat >"$T/sys.json" <<JSON
{"scheduling-policy": "$policy", "endpoint-delay": $delay, "active-chunks-per-dimension": $active,
 "preferred-dataset-splits": $splits, "all-reduce-implementation": [$a], "all-gather-implementation": [$a],
 "reduce-scatter-implementation": [$a], "all-to-all-implementation": [$a2a],
 "collective-optimization": "$opt", "local-mem-bw": 50}
JSON
    "$VIMANA_ET" generate "$kind" --npus "$npus" --size "$size" --single-file --out "$T/w$i/w" >/dev/null ||
        fail "case $i: generate"
    wl="$T/w$i/w"
    if [ "$compute" -gt 0 ]; then
        # 1: compute, then the collective; 2: ... and compute after it;
        # 3: a second, independent collective (another kind and size) in
        # parallel with the first; 4: the second after the first.
        "$VIMANA_ET" json "$wl.et" | python3 -c '
import json, sys
shape, seed, hd = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "1"
doc = json.load(sys.stdin)
coll = doc["nodes"][0]
coll["id"] = "0"
def comp(i, us, deps):
    return {"id": str(i), "name": "c%d" % i, "type": "COMP_NODE", "duration_micros": str(us),
            "attr": [{"name": "is_cpu_op", "bool_val": False}], "data_deps": deps}
nodes = [comp(100, 7, []), dict(coll, data_deps=["100"])]
if shape == 2:
    nodes.append(comp(101, 3, ["0"]))
if shape >= 3:
    other = json.loads(json.dumps(coll))
    other["id"] = "1"
    other["name"] = "second"
    for a in other["attr"]:
        if a["name"] == "comm_type":
            kinds = [0, 2, 6, 7]  # ALL_REDUCE, ALL_GATHER, ALL_TO_ALL, REDUCE_SCATTER
            if hd:  # halving-doubling has no all-to-all
                kinds = [0, 2, 7]
            a["int64_val"] = str(kinds[(kinds.index(int(a.get("int64_val", "0"))) + 1 + seed % 3) % len(kinds)])
        if a["name"] == "comm_size":
            a["int64_val"] = str(int(a["int64_val"]) // 2 + 4096 * (seed % 5))
    other["data_deps"] = ["0"] if shape == 4 else []
    nodes.append(other)
    nodes.append(comp(101, 2, ["1", "0"]))
doc["nodes"] = nodes
json.dump(doc, sys.stdout)' "$compute" "$i" "$(case $algos in *halvingDoubling*) echo 1 ;; *) echo 0 ;; esac)" >"$T/w.json" && "$VIMANA_ET" from-json "$T/w.json" -o "$wl.et" >/dev/null ||
            fail "case $i: compute nodes"
    fi
    [ "$report" = none ] && report=
    REPORT=$report compare "case $i (seed $seed: $counts $topos $algos $kind $size splits $splits active $active $policy $opt delay $delay compute $compute report ${report:-none})" \
        on --workload-configuration="$wl" --system-configuration="$T/sys.json" --network-configuration="$T/net.yml"
    # the records compared last (JSON, or the CSV's collectives table) were there
    [ -z "$report" ] || [ -s "$T/rf" ] || fail "case $i: --report has no collective records"
done <"$T/cases"
expect_eq "$i" "$cases" "random cases run"
finish
