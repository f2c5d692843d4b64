#!/bin/sh
# Issue 12's cross-validation acceptance, through `vimana xval`, on every
# backend the tree builds (ns3_shim only when configure found ns-3):
#  - an uncongested 1-D ring all-reduce: all within 5 % of analytical;
#  - an incast (direct all-to-all on a Switch): every congestion-modelling
#    backend is slower than analytical;
#  - one large point-to-point message: within 2 % of analytical, which is
#    exactly latency + size / bandwidth.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
IN="$VIMANA_SRCDIR/inputs"
mkdir "$TEST_TMP/tmp"
TMPDIR="$TEST_TMP/tmp"
export TMPDIR

BACKENDS=analytical,congestion_aware,garnet
[ -e "$VIMANA_BUILDDIR/backends/ns3_shim/ns3_shim.la" ] && BACKENDS="$BACKENDS,ns3_shim"

"$VIMANA_ET" generate all-reduce --npus 8 --size 1MiB --out "$TEST_TMP/ar" >/dev/null || fail "generate all-reduce"
"$VIMANA_ET" generate all-to-all --npus 8 --size 1MiB --out "$TEST_TMP/a2a" >/dev/null || fail "generate all-to-all"
"$VIMANA_ET" generate send-recv --npus 2 --src 0 --dst 1 --size 64MiB --out "$TEST_TMP/p2p" >/dev/null ||
    fail "generate point-to-point"
RING2="$TEST_TMP/ring2.yml"
printf 'topology: [ Ring ]\nnpus_count: [ 2 ]\nbandwidth: [ 50.0 ]\nlatency: [ 500.0 ]\n' >"$RING2"

xval() { # WORKLOAD SYSTEM NETWORK [OPTIONS]
    w=$1 sys=$2 net=$3
    shift 3
    "$VIMANA" xval --workload-configuration="$w" --system-configuration="$IN/system/$sys" \
        --network-configuration="$net" --backends="$BACKENDS" --timeout=120 "$@"
}
# rows CSV: "backend ratio" of each backend that ran.
rows() { awk -F, 'NR > 1 && $2 == "ok" { print $1, $6 }' "$1"; }
count() { echo "$BACKENDS" | tr ',' '\n' | wc -l; }

# ---- uncongested ring: everyone within 5 % ----------------------------------
expect_ok xval "$TEST_TMP/ar" ring.json "$IN/network/ring8.yml" --tolerance=0.05 --csv="$TEST_TMP/ring.csv"
expect_eq "$(rows "$TEST_TMP/ring.csv" | wc -l)" "$(count)" "ring: every backend ran"
expect_eq "$(awk -F, 'NR == 2 { print $1, $4 }' "$TEST_TMP/ring.csv")" "analytical 117780" "ring: analytical"

# ---- incast: slower than analytical ------------------------------------------
expect_ok xval "$TEST_TMP/a2a" direct.json "$IN/network/switch8.yml" --csv="$TEST_TMP/incast.csv"
expect_eq "$(rows "$TEST_TMP/incast.csv" | wc -l)" "$(count)" "incast: every backend ran"
slow=$(rows "$TEST_TMP/incast.csv" | awk '$1 != "analytical" && $2 > 1.0 { n++ } END { print n + 0 }')
expect_eq "$slow" "$(($(count) - 1))" "incast: every congestion-modelling backend is slower than analytical"

# The divergence report compares the links of every backend but analytical
# (which has no link statistics): the Switch's 16 links, each in every one.
expect_eq "$(grep '^links: ' "$TEST_TMP/out")" \
    "links: the 10 of 16 that differ most (busy-ticks spread, then worst-queue difference); analytical: no link statistics" \
    "incast: links compared"
expect_eq "$(awk -F, 'NR > 1 { print $6 }' "$TEST_TMP/incast.links.csv" | sort | uniq -c | awk '{ print $1 }' | sort -u)" 16 \
    "incast: every link of every backend with link statistics in the links CSV"
expect_eq "$(awk -F, 'NR > 1 && !seen[$6]++ { k++ } END { print k }' "$TEST_TMP/incast.links.csv")" "$(($(count) - 1))" \
    "incast: the backends with link statistics"

# ---- one large message: within 2 % of latency + size / bandwidth -------------
# 64 MiB over 50 GB/s (2^30 bytes) and 500 ns: 500 + 2^26 / 53.687 = 1250500
# ticks, which is what analytical gives.
expect_ok xval "$TEST_TMP/p2p" ring.json "$RING2" --tolerance=0.02 --csv="$TEST_TMP/p2p.csv"
expect_eq "$(awk -F, 'NR == 2 { print $1, $4 }' "$TEST_TMP/p2p.csv")" "analytical 1250500" "p2p: analytical"
expect_eq "$(rows "$TEST_TMP/p2p.csv" | wc -l)" "$(count)" "p2p: every backend ran"
finish
