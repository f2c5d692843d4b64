#!/bin/sh
# Before/after benchmark of the message path (issue 11: matching, packet
# engine, event queue) on the congestion-aware direct all-to-all, 16 MiB
# on a Switch of N NPUs (default 1024), where about N*(N-1) messages are in
# flight at once. Run from a build tree after `make`:
#
#   ../bench/match_bench.sh snapshot DIR     copy this build's simulator
#                                            (binary, libraries, backends) to DIR
#   ../bench/match_bench.sh compare DIR [N] [REPS]
#                                            run DIR's copy and this build in
#                                            turn, REPS times each (default 3)
#   ../bench/match_bench.sh callgrind DIR [N]
#                                            instructions of both (valgrind;
#                                            use a small N such as 256)
#
# Snapshot before changing the code, rebuild, then compare. Each run prints
# user CPU seconds, peak RSS, messages + system events and user ns per
# message+event; both outputs are checked equal (the run-stats line aside).
# Runs alternate so that both see the same load on a shared machine: the
# load average is printed first; compare CPU time, not wall time.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(pwd)
dir=${BENCH_DIR:-/tmp/vimana-bench}
mode=${1:-}
[ -x "$build/.libs/vimana" ] || { echo "run from a built tree (no .libs/vimana here)" >&2; exit 2; }

. "$src/bench/snapshot.sh"

# A snapshot of this build, so that both sides run the same way.
current=$(mktemp -d "${TMPDIR:-/tmp}/match_bench.XXXXXX")
trap 'rm -rf "$current"' EXIT
[ "$mode" = snapshot ] && { bench_snapshot "${2:?usage: match_bench.sh snapshot DIR}"; exit 0; }
before=${2:?usage: match_bench.sh compare|callgrind DIR [N] [REPS]}
[ -x "$before/vimana" ] || { echo "$before: not a snapshot (run 'match_bench.sh snapshot $before' first)" >&2; exit 2; }
npus=${3:-1024}
reps=${4:-3}
bench_snapshot "$current"

mkdir -p "$dir"
prefix="$dir/a2a16m_$npus"
[ -f "$prefix.$((npus - 1)).et" ] ||
    "$build/vimana-et" generate all-to-all --npus "$npus" --size 16MiB --out "$prefix" >/dev/null
net="$dir/sw$npus.yml"
printf 'topology: [ Switch ]\nnpus_count: [ %s ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\n' "$npus" >"$net"

sim() { # SNAPSHOT [TOOL...]: runs the case, stdout to $out, stderr to $err
    snap=$1
    shift
    bench_sim "$snap" "$@" "$snap/vimana" \
        --workload-configuration="$prefix" --system-configuration="$src/inputs/system/direct.json" \
        --network-configuration="$net" --network-backend=congestion_aware --run-stats >"$out" 2>"$err" ||
        { echo "match_bench: $snap failed:" >&2; cat "$err" >&2; exit 1; }
}

out="$current/out"
err="$current/err"
echo "load: $(uptime)"
case $mode in
compare)
    i=0
    while [ "$i" -lt "$reps" ]; do
        for side in before after; do
            [ "$side" = before ] && snap=$before || snap=$current
            sim "$snap" /usr/bin/time -f 'TIME %U %M'
            grep -v '^TIME\|messages+events' "$err" >>"$out" || true
            # "... N messages, M system events ..." and "TIME user maxrss_kb"
            awk -v side="$side" -v n="$npus" '
                /messages\+events/ { for (i = 1; i <= NF; i++) { if ($(i+1) == "messages,") m = $i; if ($(i+1) == "system") e = $i } }
                /^TIME/ { u = $2; rss = $3 }
                END { printf "%-6s N=%s: user %.2f s, peak RSS %.1f MiB, %d messages + %d events, %.0f ns per message+event\n",
                             side, n, u, rss / 1024, m, e, u * 1e9 / (m + e) }' "$err"
            cp "$out" "$current/$side.out"
        done
        cmp -s "$current/before.out" "$current/after.out" || { echo "outputs differ" >&2; exit 1; }
        i=$((i + 1))
    done
    echo "outputs equal"
    ;;
callgrind)
    for side in before after; do
        [ "$side" = before ] && snap=$before || snap=$current
        sim "$snap" valgrind --tool=callgrind --callgrind-out-file="$current/cg.$side"
        printf '%-6s N=%s: %s instructions\n' "$side" "$npus" \
            "$(grep -o 'Collected : [0-9]*' "$err" | grep -o '[0-9]*$')"
    done
    ;;
*)
    echo "usage: match_bench.sh snapshot DIR | compare DIR [N] [REPS] | callgrind DIR [N]" >&2
    exit 2
    ;;
esac
