#!/bin/sh
# The packet- and flit-level backends (issue 28). Run from a build tree after
# `make bench`:   ../bench/backends_bench.sh [BEFORE_BUILD] [small|all]
#   ns3_shim: the 64 MiB ring all-reduce on a Ring of 64 (2,064,384
#     packet-hops of 4 KiB): packet-hops per CPU second;
#   garnet: the 64-NPU incasts of tests/e2e/sim_garnet_incast.sh (16 KiB and,
#     with `all`, 1 MiB messages into one port of a Switch of 64);
#   `all` also: the 1 MiB ring all-reduce on a Ring of 1024 on every backend.
# With BEFORE_BUILD (another build tree), each case runs on both builds,
# alternately, and their outputs are compared: the figures to compare are
# the CPU times of one run, not of runs on different days.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
build=$(pwd)
before=
case "${1:-}" in
    small|all|'') ;;
    *) before=$(cd "$1" && pwd); shift ;;
esac
which=${1:-small}
dir=${BENCH_DIR:-/tmp/vimana-bench}
mkdir -p "$dir"
[ -x "$build/bench/bench_run" ] || { echo "run 'make bench' in the build tree first" >&2; exit 2; }

ring() { # N: a Ring of N NPUs with ring8.yml's links
    sed "s/npus_count: .*/npus_count: [ $1 ]/" "$src/inputs/network/ring8.yml" >"$dir/ring$1.yml"
}

incast() { # BYTES: NPUs 1..63 send BYTES each to NPU 0
    out="$dir/incast$1/in"
    [ -f "$out.63.et" ] && return 0
    mkdir -p "$dir/incast$1"
    python3 - "$1" "$out" <<'PY'
import json, sys
size, out = int(sys.argv[1]), sys.argv[2]
def node(i, kind, src):
    return {"id": i, "name": "%s_%d_0" % (kind.lower(), src), "type": "COMM_%s_NODE" % kind,
            "attr": [{"name": "is_cpu_op", "bool_val": False}, {"name": "comm_src", "int32_val": src},
                     {"name": "comm_dst", "int32_val": 0}, {"name": "comm_tag", "int32_val": 0},
                     {"name": "comm_size", "uint64_val": size}]}
for r in range(64):
    nodes = [node(i - 1, "RECV", i) for i in range(1, 64)] if r == 0 else [node(0, "SEND", r)]
    json.dump({"global_metadata": {"version": "0.0.4"}, "nodes": nodes}, open("%s.%d.json" % (out, r), "w"))
PY
    r=0
    while [ "$r" -lt 64 ]; do
        "$build/vimana-et" from-json "$out.$r.json" -o "$out.$r.et" >/dev/null
        r=$((r + 1))
    done
}

# one LABEL BUILD OUT ARGS...: one run, timed; its stdout in OUT
one() {
    label=$1 tree=$2 out=$3
    shift 3
    BENCH_SHOW_OUTPUT=1 "$build/bench/bench_run" "$label" "$tree/vimana" "$@" >"$out"
}

# case LABEL ARGS...: the run on this build (and on BEFORE_BUILD, then
# this build again), outputs compared
case_() {
    label=$1
    shift
    if [ -n "$before" ]; then
        one "$label (before)" "$before" "$dir/before.out" "$@"
        one "$label (after)" "$build" "$dir/after.out" "$@"
        one "$label (before)" "$before" "$dir/before.out" "$@"
        cmp -s "$dir/before.out" "$dir/after.out" || echo "$label: the outputs differ" >&2
    else
        one "$label" "$build" "$dir/after.out" "$@"
    fi
    sed -n 's/^summary: /  /p' "$dir/after.out" >&2
}

[ -f "$dir/ar64m_64.63.et" ] ||
    "$build/vimana-et" generate all-reduce --npus 64 --size 64MiB --out "$dir/ar64m_64" >/dev/null
ring 64
if [ -f "$build/backends/ns3_shim/ns3_shim.la" ]; then
    case_ "ns3_shim, 64 MiB ring all-reduce, Ring 64 (2,064,384 packet-hops)" \
        --workload-configuration="$dir/ar64m_64" --system-configuration="$src/inputs/system/ring.json" \
        --network-configuration="$dir/ring64.yml" --network-backend=ns3_shim
fi
incast 16384
case_ "garnet, 64-NPU incast of 16 KiB" --workload-configuration="$dir/incast16384/in" \
    --system-configuration="$src/inputs/system/ring.json" \
    --network-configuration="$src/tests/data/garnet/switch64.yml" --network-backend=garnet
[ "$which" = all ] || exit 0
incast 1048576
case_ "garnet, 64-NPU incast of 1 MiB" --workload-configuration="$dir/incast1048576/in" \
    --system-configuration="$src/inputs/system/ring.json" \
    --network-configuration="$src/tests/data/garnet/switch64.yml" --network-backend=garnet
[ -f "$dir/ar1m_r1024.1023.et" ] ||
    "$build/vimana-et" generate all-reduce --npus 1024 --size 1MiB --out "$dir/ar1m_r1024" >/dev/null
ring 1024
for b in analytical congestion_aware garnet ns3_shim; do
    [ "$b" != ns3_shim ] || [ -f "$build/backends/ns3_shim/ns3_shim.la" ] || continue
    case_ "$b, 1 MiB ring all-reduce, Ring 1024" --workload-configuration="$dir/ar1m_r1024" \
        --system-configuration="$src/inputs/system/ring.json" --network-configuration="$dir/ring1024.yml" \
        --network-backend="$b"
done
