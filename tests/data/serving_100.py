#!/usr/bin/env python3
"""Writes tests/data/serving_100.txt: 100 requests of an LLM service for
`vimana-et generate inference --arrivals` (tests/e2e/gen_inference_serving.sh).
Poisson arrivals at 50 requests/s (exponential gaps, mean 20 ms, whole
microseconds), prompts uniform in 32..1024 tokens, outputs uniform in
8..64 tokens; Python's Mersenne Twister with seed 30 (issue 30), so the
file is the same on every Python 3.
Run: python3 tests/data/serving_100.py > tests/data/serving_100.txt"""
import random

rng = random.Random(30)
t = 0
print("# 100 requests: Poisson arrivals at 50/s, prompts 32..1024, outputs 8..64 tokens")
print("# written by tests/data/serving_100.py (seed 30)")
print("# arrival (us), prompt tokens, output tokens")
for _ in range(100):
    print(f"{t}, {rng.randint(32, 1024)}, {rng.randint(8, 64)}")
    t += int(rng.expovariate(50.0) * 1e6)
