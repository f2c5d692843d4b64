#!/bin/sh
# Rebuilds the HGX-H100 presets from the measured sweep (run from the
# repository root after a build): 8gpu/ by `vimana calibrate`, then 2gpu/ and
# 4gpu/ with the same fitted parameters on 2 and 4 NPUs of the switch, and
# reference-vs-measured.md, the reference model's error on the same sweep.
set -eu
here=inputs/presets/hgx-h100
VIMANA=${VIMANA:-./vimana}
VIMANA_ET=${VIMANA_ET:-./vimana-et}
measured=$here/measured/dgx-h100-8gpu_all_reduce_perf.txt

# The measured system: 8 GPUs on NVSwitch, NVLink 4 at 450 GB/s per
# direction; 250 ns per hop (GPU -> switch -> GPU: 2 hops).
topology() { # NPUS
    printf 'topology: [ Switch ]\nnpus_count: [ %s ]\nbandwidth: [ 450.0 ]\nlatency: [ 250.0 ]\n' "$1"
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
topology 8 >"$tmp/hgx8.yml"
"$VIMANA" calibrate "$measured" --topology "$tmp/hgx8.yml" -o "$here/8gpu"
# the report names the topology it was given: name the preset's own
sed -i "s|^Topology: $tmp/hgx8.yml|Topology: network.yml|" "$here/8gpu/fit-report.md"
for n in 2 4; do
    mkdir -p "$here/${n}gpu"
    topology "$n" >"$here/${n}gpu/network.yml"
    cp "$here/8gpu/system.json" "$here/${n}gpu/system.json"
done

# system.json for any count 2 - 8: fitted jointly to the 8-GPU sweep and to
# published 2- and 4-GPU H100 sweeps (tests/data/nccl-tests), each run on as
# many NPUs of the switch, so that the per-call constant and the per-step
# latency are told apart; network.yml is the 8-GPU box (write npus_count N
# for N GPUs). The rank count changes which algorithm and protocol are
# fastest, so the model chooses them as NCCL's tuner does (tuner 1: its own
# estimate on the links; the thresholds only bound the choice). The fit
# starts from fit-start.json (the previous joint fit, made with thresholds,
# tuner 1): the cost has many valleys and the defaults settle in a worse one.
# The 4-GPU sweep's rows below 1 MiB are left out: one process drove the 4
# GPUs of a VM, and its per-call constant (24 us) is not the bare-metal
# 2- and 8-GPU boxes' (13 us).
inputs/presets/with-ranks.sh "$measured" 8 >"$tmp/dgx-h100-8gpu_all_reduce_perf.txt"
awk '!/^ +[0-9]+ +[0-9]+ / || $1 + 0 >= 1048576' tests/data/nccl-tests/h100-4gpu_all_reduce_perf.txt \
    >"$tmp/h100-4gpu_all_reduce_perf.txt"
"$VIMANA" calibrate tests/data/nccl-tests/h100-2gpu_all_reduce_perf.txt "$tmp/h100-4gpu_all_reduce_perf.txt" \
    "$tmp/dgx-h100-8gpu_all_reduce_perf.txt" --topology "$tmp/hgx8.yml" --system "$here/fit-start.json" \
    -o "$tmp/any" --max-error 40
cp "$tmp/any/system.json" "$tmp/any/fit.svg" "$here/"
topology 8 >"$here/network.yml"
sed "s|$tmp/any/||g; s|$tmp/||g; s|^Topology: [^ ]*|Topology: network.yml|" "$tmp/any/fit-report.md" >"$here/fit-report.md"

# The reference's validated example on the same sweep: time of NPU 7.
{
    echo "# The reference's validated example against the measured sweep"
    echo
    echo "reference/ (ring, Switch 8 NPUs, 400 GB/s, 936.25 ns, local-mem-bw 3350) simulated by vimana for every"
    echo "size of measured/; measured = the faster of out-of-place and in-place, as vimana calibrate reads it."
    echo
    echo "| size (B) | measured (us) | reference model (us) | error (%) |"
    echo "|---:|---:|---:|---:|"
    grep -v '^#' "$measured" | while read -r size _ _ _ _ t1 _ _ _ t2 _; do
        "$VIMANA_ET" generate all-reduce --npus 8 --size "$size" --single-file --out "$tmp/ar" >/dev/null
        ns=$("$VIMANA" --workload-configuration="$tmp/ar" --system-configuration=$here/reference/system.json \
            --network-configuration=$here/reference/network.yml | sed -n 's/^sys\[7\], Comm time: //p')
        awk -v s="$size" -v a="$t1" -v b="$t2" -v ns="$ns" 'BEGIN {
            m = a < b ? a : b; printf "| %s | %.3f | %.3f | %+.2f |\n", s, m, ns / 1000, (ns / 1000 - m) / m * 100 }'
    done
} >"$here/reference-vs-measured.md"
