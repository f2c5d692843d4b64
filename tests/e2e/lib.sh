# Shared helpers for the end-to-end shell tests. Source it first:
#   . "$VIMANA_SRCDIR/tests/e2e/lib.sh"
# The test harness exports VIMANA_BUILDDIR, VIMANA_SRCDIR, VIMANA_SHARED and
# VIMANA_BACKEND_PATH (see Makefile.am).
set -u

: "${VIMANA_BUILDDIR:=$(pwd)}"
: "${VIMANA_SRCDIR:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${VIMANA_SHARED:=$VIMANA_SRCDIR/../shared}"
VIMANA_ET="$VIMANA_BUILDDIR/vimana-et"
VIMANA="$VIMANA_BUILDDIR/vimana"
# In a libtool build ./vimana is a wrapper script that puts .libs on the
# library path and runs .libs/vimana. Starting that bash script costs about
# 50 ms a call, as much as the sanitizers' own start and leak check, and the
# suite makes thousands of calls: do what the wrapper does, once.
if [ -x "$VIMANA_BUILDDIR/.libs/vimana" ] && [ -x "$VIMANA_BUILDDIR/.libs/vimana-et" ] &&
    [ ! -e "$VIMANA_BUILDDIR/.libs/lt-vimana" ] && [ ! -e "$VIMANA_BUILDDIR/.libs/lt-vimana-et" ]; then
    VIMANA_ET="$VIMANA_BUILDDIR/.libs/vimana-et"
    VIMANA="$VIMANA_BUILDDIR/.libs/vimana"
    LD_LIBRARY_PATH="$VIMANA_BUILDDIR/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export LD_LIBRARY_PATH
fi

TEST_TMP=$(mktemp -d "${TMPDIR:-/tmp}/vimana-test.XXXXXX")
trap 'rm -rf "$TEST_TMP"' EXIT
TEST_FAILURES=0

fail() {
    echo "FAIL: $*" >&2
    TEST_FAILURES=$((TEST_FAILURES + 1))
}

# Ends the test: 1 if any check failed, else 0.
finish() {
    if [ "$TEST_FAILURES" -ne 0 ]; then
        echo "$TEST_FAILURES check(s) failed" >&2
        exit 1
    fi
    exit 0
}

# Reference data. tests/data/corpus and tests/data/golden hold the part of
# ../shared/corpus and ../shared/golden that the tests use, in the same
# layout (tests/data/README.md), so that every test runs from the project
# alone. $REF is the root to read: ../shared when it is there (the tests that
# loop over a folder then take every case it has, the checks on files the
# tree does not carry run too), else tests/data.
VIMANA_DATA=$VIMANA_SRCDIR/tests/data
if [ -d "$VIMANA_SHARED/golden" ] && [ -d "$VIMANA_SHARED/corpus" ]; then
    HAVE_SHARED=1
    REF=$VIMANA_SHARED
else
    HAVE_SHARED=0
    REF=$VIMANA_DATA
fi
have_shared() { [ "$HAVE_SHARED" -eq 1 ]; }

# The simulator's inputs of the golden cases: workload/, system/, network/
# and memory/ (tests/data/golden-inputs).
GOLDEN_INPUTS=$VIMANA_DATA/golden-inputs

# sim_run WORKLOAD SYSTEM NETWORK [FLAGS...]: vimana on the workload prefix
# WORKLOAD with the system file SYSTEM and the network file NETWORK (the
# names of its variables keep clear of the tests' own).
sim_run() {
    sim_w=$1 sim_s=$2 sim_n=$3
    shift 3
    "$VIMANA" --workload-configuration="$sim_w" --system-configuration="$sim_s" --network-configuration="$sim_n" "$@"
}

# sim_golden PREFIX SYSTEM NETWORK [FLAGS...]: vimana on the workload PREFIX
# with the golden inputs' system/SYSTEM and network/NETWORK.
sim_golden() {
    prefix=$1 sys=$2 net=$3
    shift 3
    sim_run "$prefix" "$GOLDEN_INPUTS/system/$sys" "$GOLDEN_INPUTS/network/$net" "$@"
}

# ref_file PATH: the file PATH (relative to $REF, e.g. corpus/et/x.0.et).
# A large file is kept gzip'd in tests/data (PATH.gz): it is then
# decompressed once under $TEST_TMP/ref/PATH, which keeps its base name.
ref_file() {
    if [ -e "$REF/$1" ] || [ ! -e "$REF/$1.gz" ]; then
        echo "$REF/$1"
        return
    fi
    if [ ! -e "$TEST_TMP/ref/$1" ]; then
        mkdir -p "$TEST_TMP/ref/${1%/*}" && gzip -dc "$REF/$1.gz" >"$TEST_TMP/ref/$1"
    fi
    echo "$TEST_TMP/ref/$1"
}

expect_eq() { # ACTUAL EXPECTED WHAT
    [ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"
}

# expect_error "exact stderr line" CMD ARGS...: the command must exit non-zero
# and print exactly that line (among possibly others) on stderr.
expect_error() {
    want=$1
    shift
    if "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err"; then
        fail "expected failure from: $*"
        return
    fi
    grep -qxF -- "$want" "$TEST_TMP/err" || {
        fail "stderr of '$*' lacks the line: $want"
        sed 's/^/    got: /' "$TEST_TMP/err" >&2
    }
}

# expect_ok CMD ARGS...: the command must succeed; its stdout is left in
# $TEST_TMP/out.
expect_ok() {
    "$@" >"$TEST_TMP/out" 2>"$TEST_TMP/err" || {
        fail "command failed: $*"
        sed 's/^/    stderr: /' "$TEST_TMP/err" >&2
    }
}

# et_from_nodes OUT.et JSON-NODES: writes the trace OUT.et holding the
# nodes given as the items of a JSON list (through vimana-et from-json).
et_from_nodes() {
    printf '{"global_metadata": {"version": "0.0.4"}, "nodes": [%s]}\n' "$2" >"$TEST_TMP/nodes.json"
    "$VIMANA_ET" from-json "$TEST_TMP/nodes.json" -o "$1" || fail "from-json $1"
}

# expect_tail FILE WHAT <<'EOF' ... EOF: the last lines of FILE are exactly
# the text on stdin (as many lines as it has); else a failure naming WHAT
# with those lines of FILE.
expect_tail() {
    cat >"$TEST_TMP/tail.want"
    tail -n "$(wc -l <"$TEST_TMP/tail.want")" "$1" >"$TEST_TMP/tail.got"
    cmp -s "$TEST_TMP/tail.want" "$TEST_TMP/tail.got" || fail "$2: $(cat "$TEST_TMP/tail.got")"
}

# need_ns3: skips the test (exit 77) when configure did not build ns3_shim.
need_ns3() {
    [ -f "$VIMANA_BUILDDIR/backends/ns3_shim/ns3_shim.la" ] || { echo "SKIP: ns3_shim not built (no ns-3)"; exit 77; }
}

# flows NPUS PREFIX SRC:DST...: one workload of NPUS traces PREFIX.N.et in
# which 1 MiB (or $FLOW_SIZE) goes from each SRC to its DST, all sent at
# time 0. Rank r's trace holds its sends and receives (ids 0, 1, ... in the
# order given), or one zero-time compute node when it has none. Needs
# python3 (the test suite's JSON glue).
flows() {
    n=$1 out=$2
    shift 2
    i=0
    for f in "$@"; do
        "$VIMANA_ET" generate send-recv --npus "$n" --src "${f%:*}" --dst "${f#*:}" --size "${FLOW_SIZE:-1MiB}" \
            --out "$TEST_TMP/flow$i/f" >/dev/null || return 1
        i=$((i + 1))
    done
    mkdir -p "$(dirname "$out")"
    r=0
    while [ "$r" -lt "$n" ]; do
        j=0
        : >"$TEST_TMP/list"
        while [ "$j" -lt "$i" ]; do
            "$VIMANA_ET" json "$TEST_TMP/flow$j/f.$r.et" >"$TEST_TMP/flow$j/$r.json" || return 1
            echo "$TEST_TMP/flow$j/$r.json" >>"$TEST_TMP/list"
            j=$((j + 1))
        done
        python3 -c 'import json, sys
docs = [json.load(open(p)) for p in open(sys.argv[1]).read().split()]
comm = [n for d in docs for n in d["nodes"] if n["type"] != "COMP_NODE"]
out = docs[0]
out["nodes"] = comm or docs[0]["nodes"][:1]
for i, n in enumerate(out["nodes"]):
    n["id"] = i
json.dump(out, open(sys.argv[2], "w"))' "$TEST_TMP/list" "$TEST_TMP/m.json" || return 1
        "$VIMANA_ET" from-json "$TEST_TMP/m.json" -o "$out.$r.et" >/dev/null || return 1
        r=$((r + 1))
    done
}

# tf_list ET-FILE: one line per node of the trace (tests/e2e/tf_list.py),
# what the generators' tests compare.
tf_list() {
    "$VIMANA_ET" json "$1" | python3 "$VIMANA_SRCDIR/tests/e2e/tf_list.py"
}

# sweep_inputs DIR: copies what the sweep tests' base run names into DIR:
# the shipped 1 MiB all-reduce on 8 NPUs (ar_1MiB_8), ring.json and
# ring8.yml, so that a sweep file written there starts with
#   workload: ar_1MiB_8 / system: ring.json / network: ring8.yml
sweep_inputs() {
    mkdir -p "$1" &&
        cp "$VIMANA_SRCDIR"/inputs/sweeps/workloads/ar_1MiB_8.*.et "$VIMANA_SRCDIR/inputs/system/ring.json" \
            "$VIMANA_SRCDIR/inputs/network/ring8.yml" "$1/"
}

# groups_json GROUP...: the text of the communicator groups file
# (PREFIX.groups.json) that vimana-et writes for these groups, numbered
# from 1, each given as its ranks ("0 1 2"); the expected file of the
# generators' tests, for cmp against the one written.
groups_json() {
    grp_n=0
    printf '{'
    for grp in "$@"; do
        [ "$grp_n" -gt 0 ] && printf ','
        grp_n=$((grp_n + 1))
        printf '\n  "%d": [%s]' "$grp_n" "$(echo "$grp" | sed 's/ /, /g')"
    done
    printf '\n}\n'
}

# inference_help_documented: every --option of the --help text in
# $TEST_TMP/out (a `vimana-et generate inference` help) is documented in
# the man page's `generate inference` section and in docs/inference.md.
inference_help_documented() {
    sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\&//g' "$VIMANA_SRCDIR/docs/man/vimana-et.1" |
        sed -n '/^\.SS generate inference/,/^\.SS /p' >"$TEST_TMP/man.txt"
    for opt in $(grep -o -- '--[a-z][a-z0-9-]*' "$TEST_TMP/out" | sort -u); do
        grep -qE -- "$opt([^a-z0-9-]|\$)" "$TEST_TMP/man.txt" || fail "the man page's generate inference does not document $opt"
        grep -qE -- "$opt([^a-z0-9-]|\$)" "$VIMANA_SRCDIR/docs/inference.md" || fail "docs/inference.md does not document $opt"
    done
}

# help_in_man SECTION WHAT: docs/man/vimana.1 has the section `.SH SECTION`
# and documents every --option of the --help text in $TEST_TMP/out (WHAT
# names the command in failure messages).
help_in_man() {
    sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\&//g' "$VIMANA_SRCDIR/docs/man/vimana.1" >"$TEST_TMP/man.txt"
    grep -qx "\.SH $1" "$TEST_TMP/man.txt" || fail "docs/man/vimana.1 has no $1 section"
    for opt in $(grep -o -- '--[a-z][a-z0-9-]*' "$TEST_TMP/out" | sort -u); do
        grep -qE -- "$opt([^a-z0-9-]|\$)" "$TEST_TMP/man.txt" || fail "docs/man/vimana.1 does not document $2's $opt"
    done
}
