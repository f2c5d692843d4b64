#!/bin/sh
# Rebuilds the multi-node DGX presets (run from the repository root after a
# build): dgx-a100/ and dgx-h100/, each a system.json fitted by `vimana
# calibrate` to public nccl-tests tables on the network the preset is for --
# [Switch, Switch], 8 GPUs on NVSwitch a node, one NIC per GPU -- plus its
# network.yml (two nodes; any [8, N/8] runs with the same system.json),
# fit-report.md and fit.svg.
#   dgx-a100: NVLink 3 at 300 GB/s, HDR InfiniBand 200 Gb/s = 25 GB/s a GPU;
#             fitted to tests/data/nccl-tests/a100-16gpu-2node-ndv4_all_reduce_perf.txt
#             (2 Azure ND A100 v4 nodes, 8 x HDR a node); A100 has no NVLink SHARP.
#   dgx-h100: NVLink 4 at 450 GB/s, NDR 400 Gb/s = 50 GB/s a GPU; fitted jointly
#             to one DGX H100's 8-GPU sweep (inputs/presets/hgx-h100/measured/,
#             its 8 ranks run on the node's NVSwitch), an HGX H100 node's
#             all-gather and reduce-scatter and a 2-node H200 sweep with
#             one 400 Gb/s NIC a GPU (tests/data/nccl-tests/h200-16gpu-2node_...;
#             H200's NVLink is H100's).
set -eu
VIMANA=${VIMANA:-./vimana}
data=tests/data/nccl-tests
here=inputs/presets
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

network() { # NVLINK_GBPS NIC_GBPS
    printf '# Two DGX nodes: 8 GPUs on NVSwitch (first dimension), one NIC a GPU between the\n'
    printf '# nodes (second). For N GPUs write npus_count: [ 8, N/8 ]; system.json stays.\n'
    printf '# One node (8 GPUs): the first dimension alone, [ Switch ], [ 8 ].\n'
    printf 'topology: [ Switch, Switch ]\nnpus_count: [ 8, 2 ]\nbandwidth: [ %s, %s ]\nlatency: [ 250.0, 1000.0 ]\n' "$1" "$2"
}

printf '{"scheduling-policy": "LIFO", "collective-optimization": "baseline", "preferred-dataset-splits": 1,
 "all-reduce-implementation": ["nccl"], "nccl": {"nvls": 0}}\n' >"$tmp/no-nvls.json"
mkdir -p "$here/dgx-a100" "$here/dgx-h100"
network 300.0 25.0 >"$here/dgx-a100/network.yml"
network 450.0 50.0 >"$here/dgx-h100/network.yml"
# --nvlink-busbw: NCCL's ring over NVLink moves data at most at NCCL's own
# NVLink rate (A100: 12 links x 20 GB/s; H100: 18 x 20.6), below the links'
# nominal one; without the ceiling the two-node tables, whose rings the NIC
# limits, let the fit put NVLink's ring anywhere (0.95 of 300 GB/s: the
# 8-GPU tensor-parallel collectives 27 % too fast)
"$VIMANA" calibrate "$data/a100-16gpu-2node-ndv4_all_reduce_perf.txt" --topology "$here/dgx-a100/network.yml" \
    --system "$tmp/no-nvls.json" -o "$tmp/a100" --nvlink-busbw a100
"$here/with-ranks.sh" "$here/hgx-h100/measured/dgx-h100-8gpu_all_reduce_perf.txt" 8 >"$tmp/dgx-h100-8gpu_all_reduce_perf.txt"
# From the HGX-H100 preset (one node, 2 - 8 GPUs, NCCL's tuner): first the
# two-node table alone, then it, the node's all-reduce and an HGX H100
# node's all-gather and reduce-scatter (tests/data/nccl-tests/h100-8gpu-hgx_*:
# the node's rings, which its all-reduce, run by NVLS, does not show)
# together, each under NCCL's NVLink ceiling, so that NVLS (not a ring
# faster than NCCL's) carries the node's large all-reduces
"$VIMANA" calibrate "$data/h200-16gpu-2node_all_reduce_perf.txt" --topology "$here/dgx-h100/network.yml" \
    --system "$here/hgx-h100/system.json" -o "$tmp/h200" --nvlink-busbw h100 --max-error off
"$VIMANA" calibrate "$data/h200-16gpu-2node_all_reduce_perf.txt" "$tmp/dgx-h100-8gpu_all_reduce_perf.txt" \
    "$data/h100-8gpu-hgx_all_gather_perf.txt" "$data/h100-8gpu-hgx_reduce_scatter_perf.txt" \
    --topology "$here/dgx-h100/network.yml" --system "$tmp/h200/system.json" -o "$tmp/h100" --nvlink-busbw h100
# the GPU's peak (vimana --breakdown reports the FLOP/s reached against it)
# and HBM bandwidth; neither changes a collective
sed 's/"local-mem-bw": 3350,/"local-mem-bw": 2039,\n    "peak-perf": 312,/' "$tmp/a100/system.json" >"$tmp/a100/s.json"
sed 's/"local-mem-bw": 3350,/"local-mem-bw": 3350,\n    "peak-perf": 989,/' "$tmp/h100/system.json" >"$tmp/h100/s.json"
for m in a100 h100; do
    mv "$tmp/$m/s.json" "$tmp/$m/system.json"
    cp "$tmp/$m/system.json" "$tmp/$m/fit.svg" "$here/dgx-$m/"
    # name the files as the preset holds them, not the temporary copies
    sed "s|$tmp/$m/||g; s|$tmp/||g; s|^Topology: [^ ]*|Topology: network.yml|" "$tmp/$m/fit-report.md" >"$here/dgx-$m/fit-report.md"
done
