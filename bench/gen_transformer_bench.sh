#!/bin/sh
# `vimana-et generate transformer` speed (issue 13): one training iteration of
# GPT-3 175B (96 layers, h 12288, 96 heads, F 4h, s 2048, V 51200, b 1,
# B 1536) on TP 8 x PP 8 x DP 16 = 1024 ranks, about 9.6 million nodes and
# 945 MB of ETs. Reports wall time, CPU time (user + system), peak RSS and
# nodes/s, and the machine's load. Run from a build tree:
#   sh ../bench/gen_transformer_bench.sh [VIMANA_ET [BEFORE_VIMANA_ET]]
# With a second binary (e.g. an older build) both are timed in the same run
# and their outputs compared byte for byte. Outputs go to $BENCH_DIR
# (default /tmp/vimana-bench) and are removed afterwards. Needs python3.
set -eu
build=$(pwd)
[ -x "$build/bench/bench_run" ] || { echo "run 'make bench' in the build tree first" >&2; exit 2; }
et=${1:-./vimana-et}
before=${2:-}
dir=${BENCH_DIR:-/tmp/vimana-bench}/gen_transformer
ARGS="--layers 96 --hidden 12288 --heads 96 --ffn 49152 --seq 2048 --vocab 51200 --micro-batch 1 --global-batch 1536 --tp 8 --pp 8 --dp 16"

# LABEL OUT-PREFIX VIMANA-ET: runs the generator once, prints the figures.
# Python times it (wall; user + system CPU of the child and its children)
# through bench_run, whose child's peak RSS is the generator's own (a child
# forked straight from Python would report Python's).
measure() {
    rm -rf "$(dirname "$2")"
    sync # the other run's gigabyte being written back would slow this one
    # shellcheck disable=SC2086
    python3 - "$1" "$build/bench/bench_run" "$1" "$3" generate transformer $ARGS --out "$2" <<'PY'
import os, re, subprocess, sys, time
label, cmd = sys.argv[1], sys.argv[2:]
t0 = time.monotonic()
child = subprocess.Popen(cmd, stderr=subprocess.PIPE)
err = child.stderr.read().decode()
_, status, ru = os.wait4(child.pid, 0)
wall = time.monotonic() - t0
if status != 0:
    sys.exit("%s: the generator failed: %s" % (label, err.strip()))
rss = re.search(r"peak RSS ([0-9.]+) MiB", err).group(1)
with open("/proc/loadavg") as f:
    load = f.read().split()[0]
print("%s: wall %.2f s, CPU %.2f s (user %.2f + sys %.2f), peak RSS %s MiB, load %s"
      % (label, wall, ru.ru_utime + ru.ru_stime, ru.ru_utime, ru.ru_stime, rss, load))
with open(os.environ["BENCH_WALL"], "w") as f:
    f.write("%.6f\n" % wall)
PY
}

nodes_per_second() { # PREFIX WALL-FILE LABEL
    nodes=$("$et" validate "$1" | sed -n 's/.*files, \([0-9]*\) nodes.*/\1/p')
    awk -v n="$nodes" -v w="$(cat "$2")" -v l="$3" 'BEGIN { printf "%s: %d nodes, %.2f M nodes/s\n", l, n, n / w / 1e6 }'
}

mkdir -p "$dir"
uptime
# The binary under test first: a run writing next to a gigabyte another run
# has just written pays several times the system time.
BENCH_WALL="$dir/after.wall" measure after "$dir/after/gpt" "$et"
if [ -n "$before" ]; then
    BENCH_WALL="$dir/before.wall" measure before "$dir/before/gpt" "$before"
fi
nodes_per_second "$dir/after/gpt" "$dir/after.wall" after
if [ -n "$before" ]; then
    nodes_per_second "$dir/after/gpt" "$dir/before.wall" before
    r=0
    while [ $r -lt 1024 ]; do
        cmp -s "$dir/before/gpt.$r.et" "$dir/after/gpt.$r.et" || { echo "rank $r: outputs differ" >&2; exit 1; }
        r=$((r + 1))
    done
    cmp -s "$dir/before/gpt.groups.json" "$dir/after/gpt.groups.json" || { echo "groups differ" >&2; exit 1; }
    echo "outputs identical (1024 ETs and the groups file)"
fi
rm -rf "$dir"
