#!/usr/bin/env python3
"""How much of the data-sheet HBM bandwidth LLM decode reaches on the GPU at
hand (docs/inference.md, "Decode against the weights").

Measures, with CUDA events, bf16 and the median of timed repetitions:
  copy    a device-to-device copy of 2 GiB (bytes read + written);
  read    a sum over 4 GiB (bytes read);
  gemv    x[B, K] @ W[K, N] for the weight matrices of one layer of the
          70B-class model of docs/inference.md (H 8192, 8 KV heads of 128,
          F 28672, GeLU MLP) and its LM head (V 32000), batch B = 1 and 8:
          weight bytes over the time. Each shape cycles through enough
          copies of W to exceed the L2 cache many times over, so every
          call reads its weights from HBM;
  layer   one decode layer's four GEMMs back to back, replayed as a CUDA
          graph (no launch gaps), the way a serving engine runs them;
  model   (with --model) the whole 70B-class decode step's GEMMs: 80 layers
          and the LM head, 93 GiB of bf16 weights, one CUDA graph (needs a
          GPU of more than 100 GB: an H200).
Prints one line a measurement and the fraction of PEAK_TBS (the data sheet:
4.8 for an H200, 3.35 for an H100 SXM; default: from the device name).

    python3 bench/gpu/decode_bandwidth.py [--model] [PEAK_TBS]
"""
import statistics
import sys

import torch

H, KV, F, V = 8192, 8 * 128, 28672, 32000
LAYER = [("q", H, H), ("kv", H, 2 * KV), ("o", H, H), ("mlp_up", H, F), ("mlp_down", F, H)]
L2_BYTES = 64 << 20


def peak_tbs():
    args = [a for a in sys.argv[1:] if a != "--model"]
    if args:
        return float(args[0])
    name = torch.cuda.get_device_name()
    return 4.8 if "H200" in name else 3.35 if "H100" in name else float("nan")


def timed(fn, reps=20, warm=3):
    for _ in range(warm):
        fn()
    torch.cuda.synchronize()
    out = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        out.append(a.elapsed_time(b) / 1e3)
    return statistics.median(out)


def report(what, nbytes, seconds, peak):
    tbs = nbytes / seconds / 1e12
    print(f"{what:28s} {nbytes / 2**20:10.1f} MiB {seconds * 1e6:10.1f} us {tbs:6.3f} TB/s {tbs / peak:6.3f} of peak")
    return tbs


def weights(k, n):
    copies = max(1, -(-8 * L2_BYTES // (k * n * 2)))
    return [torch.randn(k, n, device="cuda", dtype=torch.bfloat16) for _ in range(copies)]


def gemv(name, k, n, batch, peak):
    ws = weights(k, n)
    x = torch.randn(batch, k, device="cuda", dtype=torch.bfloat16)
    i = [0]

    def call():
        torch.matmul(x, ws[i[0] % len(ws)])
        i[0] += 1
    return report(f"gemv {name} B={batch}", k * n * 2, timed(call, reps=50), peak)


def layer(batch, peak):
    sets = [[torch.randn(k, n, device="cuda", dtype=torch.bfloat16) for _, k, n in LAYER] for _ in range(3)]
    x = torch.randn(batch, H, device="cuda", dtype=torch.bfloat16)
    xf = torch.randn(batch, F, device="cuda", dtype=torch.bfloat16)
    graph = torch.cuda.CUDAGraph()
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        for _ in range(2):
            for ws in sets:
                for (name, k, n), w in zip(LAYER, ws):
                    torch.matmul(xf if k == F else x, w)
        torch.cuda.synchronize()
        with torch.cuda.graph(graph):
            for ws in sets:
                for (name, k, n), w in zip(LAYER, ws):
                    torch.matmul(xf if k == F else x, w)
    nbytes = 3 * sum(k * n * 2 for _, k, n in LAYER)
    return report(f"layer x3 graph B={batch}", nbytes, timed(graph.replay, reps=30), peak)


def model(batch, peak, n_layers=80):
    layers = [[torch.randn(k, n, device="cuda", dtype=torch.bfloat16) for _, k, n in LAYER] for _ in range(n_layers)]
    head = torch.randn(H, V, device="cuda", dtype=torch.bfloat16)
    x = torch.randn(batch, H, device="cuda", dtype=torch.bfloat16)
    xf = torch.randn(batch, F, device="cuda", dtype=torch.bfloat16)

    def step():
        for ws in layers:
            for (name, k, n), w in zip(LAYER, ws):
                torch.matmul(xf if k == F else x, w)
        torch.matmul(x, head)
    graph = torch.cuda.CUDAGraph()
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):
        step()
        step()
        torch.cuda.synchronize()
        with torch.cuda.graph(graph):
            step()
    nbytes = n_layers * sum(k * n * 2 for _, k, n in LAYER) + H * V * 2
    return report(f"model {n_layers} layers B={batch}", nbytes, timed(graph.replay, reps=10), peak)


def main():
    peak = peak_tbs()
    print(f"device {torch.cuda.get_device_name()}, peak {peak} TB/s, torch {torch.__version__}")
    src = torch.empty(2 << 30, dtype=torch.uint8, device="cuda")
    dst = torch.empty_like(src)
    report("copy 2 GiB (read+write)", 2 * src.numel(), timed(lambda: dst.copy_(src)), peak)
    del src, dst
    big = torch.ones(2 << 30, dtype=torch.bfloat16, device="cuda")
    report("read: sum of 4 GiB", big.numel() * 2, timed(lambda: big.sum()), peak)
    del big
    for batch in (1, 8):
        for name, k, n in LAYER + [("lm_head", H, V)]:
            gemv(name, k, n, batch, peak)
        layer(batch, peak)
    if "--model" in sys.argv[1:]:
        torch.cuda.empty_cache()
        for batch in (1, 8):
            model(batch, peak)


if __name__ == "__main__":
    main()
