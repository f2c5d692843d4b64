#!/bin/sh
# Times `vimana-et link` on a synthetic host ET + Kineto pair.
#   bench/bench_trace_link.sh BUILDDIR [SIZE [GENERATOR OPTIONS...]]
# SIZE is the total input size (K/M/G suffixes, default 1G). The pair and the
# output are written under ${TMPDIR:-/tmp} and removed at exit.
set -eu
build=${1:?usage: bench_trace_link.sh BUILDDIR [SIZE [--threads N] [--fractional]]}
size=${2:-1G}
[ $# -ge 2 ] && shift 2 || shift $#
dir=$(mktemp -d "${TMPDIR:-/tmp}/bench_trace_link.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM

"$build/bench/bench_trace_link_gen" --size "$size" "$@" "$dir/pair"
host=$(wc -c <"$dir/pair_host.json")
kineto=$(wc -c <"$dir/pair_kineto.json")
/usr/bin/time -v "$build/vimana-et" link --host-trace "$dir/pair_host.json" --device-trace "$dir/pair_kineto.json" \
    --output "$dir/out.json" --log-level info 2>"$dir/time.txt"
out=$(wc -c <"$dir/out.json")
grep 'vimana-et link:' "$dir/time.txt" || true
wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time.txt")
rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time.txt")
echo "input: host $host B + kineto $kineto B = $((host + kineto)) B; output: $out B"
echo "wall: $wall; peak RSS: $rss KiB ($((rss * 1024 * 100 / (host + kineto)))% of the input size)"
