#!/bin/sh
# vimana-et generate inference --arrivals (docs/inference.md, "Serving"):
# a 4-request file on a tiny model whose schedule and per-request
# latencies are derived by hand and simulated exactly (--report's
# "serving" object too); the 100-request file tests/data/serving_100.txt
# on a Llama-2-7B-like model (TP 1: the simulator's clock is the
# generator's; TP 2: the all-reduces come on top), with p50 and p99;
# pipeline stages; no serving lines for other workloads; --help against
# the man page; the one-line errors.
. "$VIMANA_SRCDIR/tests/e2e/gen_lib.sh"
H2="--system-configuration=$S/inputs/presets/hgx-h100/2gpu/system.json --network-configuration=$S/inputs/presets/hgx-h100/2gpu/network.yml"

# Tiny: 2 layers, h 64, 4 heads, F 256, V 128 on one H100. Every GEMM fits
# one tile, so a node takes the same whatever the tokens: attention 4 us,
# MLP 6 us, LM head 2 us (listed below); an iteration 2 x (4 + 6) + 2 = 22 us.
TINY="--layers 2 --hidden 64 --heads 4 --ffn 256 --vocab 128 --tp 1 --pp 1"
mkdir -p "$T/tiny"
cat >"$T/tiny/arr.txt" <<'ARR'
# arrival, prompt tokens, output tokens
0      16  3
10us   8   2
15     32  1    # 15 us
2ms    16  2
ARR
# By hand (prefills first; a request arrived by an iteration's start joins it):
#   iter 0 at 0 us: prefill r0                  -> 22: r0's first token
#   iter 1 at 22: prefill r1, r2 (arrived 10, 15) -> 44: their first; r2 done
#   iter 2 at 44: decode r0, r1                 -> 66: r1 done
#   iter 3 at 66: decode r0                     -> 88: r0 done
#   idle 1912 us (nothing runs until r3 at 2000 us)
#   iter 4 at 2000: prefill r3                  -> 2022
#   iter 5 at 2022: decode r3                   -> 2044: r3 done
# TTFT = first token - arrival: r0 22, r1 44 - 10 = 34, r2 44 - 15 = 29,
# r3 22; latency = last token - arrival: r0 88, r1 66 - 10 = 56, r2 29,
# r3 44; TPOT = (last - first) / (output - 1): r0 (88 - 22) / 2 = 33,
# r1 22, r3 22 (r2 has one token: none). TTFT mean 107 / 4 = 26.75, p50
# (2nd of 22 22 29 34) 22, p99 34; TPOT mean 77 / 3 = 25.667, p50 22,
# p99 33; latency mean 217 / 4 = 54.25, p50 (2nd of 29 44 56 88) 44, p99 88.
expect_ok "$ET" generate inference $TINY --arrivals "$T/tiny/arr.txt" --out "$T/tiny/w"
expect_eq "$(sed -n 2p "$T/out")" "serving: 4 requests, 6 iterations (3 prefill, 3 decode), at most 2 sequences an iteration, 56 KV tokens at the peak, idle 1912 us; the generator's clock (compute only) ends at 2044 us" "tiny serving line"
"$ET" json "$T/tiny/w.0.et" >"$T/tiny/j" || fail "json tiny"
python3 -c '
import json, sys
for n in json.load(open(sys.argv[1]))["nodes"]:
    a = {x["name"]: ([v for k, v in x.items() if k != "name"] or [0])[0] for x in n.get("attr", [])}
    keys = ("request", "request_token", "arrival_ns", "prompt_tokens", "output_tokens")
    extra = " ".join(str(a[k]) for k in keys if k in a)
    cpu = " cpu" if a.get("is_cpu_op") else ""
    print(n.get("id", "0"), n["type"] + cpu, n["name"], n.get("duration_micros", "0"), extra)' "$T/tiny/j" >"$T/tiny/list" || fail "list tiny"
expect_eq "$(sed -n '1,12p' "$T/tiny/list")" "0 COMP_NODE iter0_layer0_attn 4 
1 COMP_NODE iter0_layer0_mlp 6 
2 COMP_NODE iter0_layer1_attn 4 
3 COMP_NODE iter0_layer1_mlp 6 
4 COMP_NODE iter0_lm_head 2 
5 METADATA_NODE iter0_req0_first_token 0 0 0 0 16 3
6 COMP_NODE iter1_layer0_attn 4 
7 COMP_NODE iter1_layer0_mlp 6 
8 COMP_NODE iter1_layer1_attn 4 
9 COMP_NODE iter1_layer1_mlp 6 
10 COMP_NODE iter1_lm_head 2 
11 METADATA_NODE iter1_req1_first_token 0 1 0 10000 8 2" "tiny nodes"
expect_eq "$(grep -E 'idle|req' "$T/tiny/list" | sed -n '3,20p')" "12 METADATA_NODE iter1_req2_first_token 0 2 0 15000 32 1
13 METADATA_NODE iter1_req2_last_token 0 2 1 15000 32 1
19 METADATA_NODE iter2_req1_last_token 0 1 1 10000 8 2
25 METADATA_NODE iter3_req0_last_token 0 0 1 0 16 3
26 COMP_NODE cpu iter4_idle 1912 
32 METADATA_NODE iter4_req3_first_token 0 3 0 2000000 16 2
38 METADATA_NODE iter5_req3_last_token 0 3 1 2000000 16 2" "tiny markers and idle node"
expect_ok "$ET" validate "$T/tiny/w"
# two NPUs (the analytical backend needs two) run the same trace: w.et
cp "$T/tiny/w.0.et" "$T/tiny/one.et"
expect_ok "$VIMANA" --workload-configuration="$T/tiny/one" $H2 --report="$T/tiny/r.json"
expect_eq "$(grep -E '^sys\[0\] finished' "$T/out")" "sys[0] finished, 2044000 cycles, exposed communication 1912000 cycles." "tiny finish"
expect_eq "$(grep '^serving:' "$T/out")" "serving: 4 requests, 4 finished (markers of NPU 0)
serving: request 0: arrival 0.000 us, prompt 16, output 3, TTFT 22.000 us, TPOT 33.000 us, latency 88.000 us
serving: request 1: arrival 10.000 us, prompt 8, output 2, TTFT 34.000 us, TPOT 22.000 us, latency 56.000 us
serving: request 2: arrival 15.000 us, prompt 32, output 1, TTFT 29.000 us, latency 29.000 us
serving: request 3: arrival 2000.000 us, prompt 16, output 2, TTFT 22.000 us, TPOT 22.000 us, latency 44.000 us
serving: TTFT mean 26.750 us, p50 22.000 us, p99 34.000 us; TPOT mean 25.667 us, p50 22.000 us, p99 33.000 us; latency mean 54.250 us, p50 44.000 us, p99 88.000 us" "tiny serving report"
expect_eq "$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["serving"]
print(s["npu"], s["requests"], s["finished"], s["ttft"], s["tpot"], s["latency"])
for r in s["per_request"]:
    print(r["request"], r["arrival"], r["first_token"], r["last_token"], r["ttft"], r.get("tpot"), r["latency"])' "$T/tiny/r.json")" \
"0 4 4 {'mean': 26.75, 'p50': 22.0, 'p99': 34.0} {'mean': 25.667, 'p50': 22.0, 'p99': 33.0} {'mean': 54.25, 'p50': 44.0, 'p99': 88.0}
0 0.0 22.0 88.0 22.0 33.0 88.0
1 10.0 44.0 66.0 34.0 22.0 56.0
2 15.0 44.0 44.0 29.0 None 29.0
3 2000.0 2022.0 2044.0 22.0 22.0 44.0" "tiny --report serving"
# The same requests in a CSV report's request table (us; request 2 has
# one output token, so no TPOT).
expect_ok "$VIMANA" --workload-configuration="$T/tiny/one" $H2 --report="$T/tiny/r.csv"
expect_eq "$(cat "$T/tiny/r.requests.csv")" "request,arrival_us,prompt_tokens,output_tokens,first_token_us,last_token_us,ttft_us,tpot_us,latency_us
0,0.000,16,3,22.000,88.000,22.000,33.000,88.000
1,10.000,8,2,44.000,66.000,34.000,22.000,56.000
2,15.000,32,1,44.000,44.000,29.000,,29.000
3,2000.000,16,2,2022.000,2044.000,22.000,22.000,44.000" "tiny request table CSV"

# --max-batch-size 1: r1 waits for r0, r2 for r1 (a full batch decodes)
expect_ok "$ET" generate inference $TINY --arrivals "$T/tiny/arr.txt" --max-batch-size 1 --out "$T/tiny1/w"
expect_eq "$(sed -n 2p "$T/out")" "serving: 4 requests, 8 iterations (4 prefill, 4 decode), at most 1 sequences an iteration, 32 KV tokens at the peak, idle 1868 us; the generator's clock (compute only) ends at 2044 us" "tiny --max-batch-size 1"

# --scheduler mixed: r1 and r2 are prefilled while r0 decodes its second
# token (iteration 1 at 22 us), so r0 ends at 66 us, not 88; the rest as
# above but for r3's idle gap of 2000 - 66 = 1934 us.
expect_ok "$ET" generate inference $TINY --arrivals "$T/tiny/arr.txt" --scheduler mixed --out "$T/mixed/w"
expect_eq "$(sed -n 2p "$T/out")" "serving: 4 requests, 5 iterations (3 prefill, 2 decode only), at most 3 sequences an iteration, 57 KV tokens at the peak, idle 1934 us; the generator's clock (compute only) ends at 2044 us" "mixed serving line"
cp "$T/mixed/w.0.et" "$T/mixed/one.et"
expect_ok "$VIMANA" --workload-configuration="$T/mixed/one" $H2
expect_eq "$(grep '^serving: request 0' "$T/out")" "serving: request 0: arrival 0.000 us, prompt 16, output 3, TTFT 22.000 us, TPOT 22.000 us, latency 66.000 us" "mixed r0"
expect_eq "$(grep '^serving: TTFT' "$T/out")" "serving: TTFT mean 26.750 us, p50 22.000 us, p99 34.000 us; TPOT mean 22.000 us, p50 22.000 us, p99 22.000 us; latency mean 48.750 us, p50 44.000 us, p99 66.000 us" "mixed statistics"

# --scheduler chunked, 12 tokens an iteration (tests/unit/test_inf_serving.c,
# schedule_chunked, derives it): r0's 16-token prompt takes two iterations,
# the first of chunks only (20 us, no LM head); r0's first token at 42 us,
# r1's at 42 (TTFT 32), r2's 32 tokens in chunks of 10, 11 and 11 until
# 108 us (TTFT 93), r3 at 2042 (TTFT 42).
expect_ok "$ET" generate inference $TINY --arrivals "$T/tiny/arr.txt" --scheduler chunked --max-batch-tokens 12 \
    --max-batch-size 4 --out "$T/chunked/w"
expect_eq "$(sed -n 2p "$T/out")" "serving: 4 requests, 8 iterations (7 prefill, 1 decode only), at most 3 sequences an iteration, 39 KV tokens at the peak, idle 1892 us; the generator's clock (compute only) ends at 2064 us" "chunked serving line"
expect_eq "$("$ET" json "$T/chunked/w.0.et" | grep -c '"name": "iter[0-9]*_lm_head"')" 6 "chunked: no LM head in the 2 iterations of chunks only"
cp "$T/chunked/w.0.et" "$T/chunked/one.et"
expect_ok "$VIMANA" --workload-configuration="$T/chunked/one" $H2
expect_eq "$(grep '^serving: TTFT' "$T/out")" "serving: TTFT mean 52.250 us, p50 42.000 us, p99 93.000 us; TPOT mean 22.000 us, p50 22.000 us, p99 22.000 us; latency mean 74.250 us, p50 64.000 us, p99 93.000 us" "chunked statistics"
expect_error "$P: --scheduler: expected prefill-first, mixed or chunked, got 'sarathi'" \
    "$ET" generate inference $TINY --arrivals "$T/tiny/arr.txt" --scheduler sarathi --out "$T/x/w"

# --jobs: the same trace as two jobs on one switch, the second starting at
# 5 ms. The analytical backend shares nothing, so each job's serving lines
# are the single run's: times count from the job's start.
mkdir -p "$T/jobs"
cp "$T/tiny/one.et" "$T/jobs/tiny.et"
cp "$S/inputs/network/switch8.yml" "$S/inputs/presets/hgx-h100/2gpu/system.json" "$T/jobs/"
printf 'network: switch8.yml\nbackend: analytical\njobs:\n  - name: a\n    workload: tiny\n    system: system.json\n    dims: [2]\n    placement: contiguous\n  - name: b\n    workload: tiny\n    system: system.json\n    dims: [2]\n    start: 5000000\n    placement: [4, 5]\n' \
    >"$T/jobs/j.yaml"
expect_ok "$VIMANA" --workload-configuration="$T/tiny/one" $H2
grep '^serving:' "$T/out" >"$T/jobs/single"
(cd "$T/jobs" && "$VIMANA" --jobs j.yaml) >"$T/jobs/out" 2>"$T/jobs/err" || fail "--jobs with serving traces: $(cat "$T/jobs/err")"
expect_eq "$(grep -c '^serving: request' "$T/jobs/out")" 8 "--jobs: both jobs' request lines"
expect_eq "$(sed -n '/^job a: 2 NPUs/,/^job a: finished/p' "$T/jobs/out" | grep '^serving:')" "$(cat "$T/jobs/single")" "--jobs: job a's serving lines"
expect_eq "$(sed -n '/^job b: 2 NPUs/,/^job b: finished/p' "$T/jobs/out" | grep '^serving:')" "$(cat "$T/jobs/single")" "--jobs: job b's serving lines (from its start)"

# Pipeline: the same file on 2 stages (1 layer each): the token ids go
# back to the first stage before each iteration; the last stage's NPU 1
# holds the markers.
expect_ok "$ET" generate inference --layers 2 --hidden 64 --heads 4 --ffn 256 --vocab 128 --tp 1 --pp 2 \
    --arrivals "$T/tiny/arr.txt" --out "$T/pp/w"
expect_ok "$ET" validate "$T/pp/w"
expect_ok "$VIMANA" --workload-configuration="$T/pp/w" $H2
expect_eq "$(grep -E '^serving: [0-9]' "$T/out")" "serving: 4 requests, 4 finished (markers of NPU 1)" "pp markers"

# 100 requests (tests/data/serving_100.py, seed 30) on a Llama-2-7B-like
# model. TP 1: no communication, so the simulated clock is the
# generator's: the run ends where its serving line says (2214476 us).
L7="--layers 32 --hidden 4096 --heads 32 --ffn 11008 --vocab 32000"
expect_ok "$ET" generate inference $L7 --tp 1 --pp 1 --arrivals "$S/tests/data/serving_100.txt" --out "$T/l1/w"
expect_eq "$(sed -n 2p "$T/out")" "serving: 100 requests, 308 iterations (77 prefill, 231 decode), at most 32 sequences an iteration, 17404 KV tokens at the peak, idle 0 us; the generator's clock (compute only) ends at 2214476 us" "100 serving line"
mv "$T/l1/w.0.et" "$T/l1/w.et"
expect_ok "$VIMANA" --workload-configuration="$T/l1/w" $H2 --report="$T/l1/r.json"
expect_eq "$(grep -E '^sys\[0\] finished' "$T/out")" "sys[0] finished, 2214476000 cycles, exposed communication 0 cycles." "100 finish = the generator's clock"
expect_eq "$(grep -cE '^serving: request [0-9]+: .*TTFT' "$T/out")" 100 "100 requests reported"
expect_eq "$(grep -E '^serving: (TTFT|[0-9])' "$T/out")" "serving: 100 requests, 100 finished (markers of NPU 0)
serving: TTFT mean 21069.580 us, p50 17854.000 us, p99 61720.000 us; TPOT mean 10827.598 us, p50 10803.833 us, p99 22346.091 us; latency mean 388181.340 us, p50 356281.000 us, p99 776177.000 us" "100 statistics"
expect_eq "$(python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["serving"]
r = s["per_request"]
lat = sorted(x["latency"] for x in r)
print(len(r), s["latency"]["p50"] == lat[49], s["latency"]["p99"] == lat[98], max(x["last_token"] for x in r))' "$T/l1/r.json")" \
"100 True True 2214476.0" "100 --report: nearest-rank p50, p99; the last token at the end"
# --scheduler mixed: the decodes do not wait for the prefills (latency
# down), the prefills share their iteration with the decodes (TTFT up)
expect_ok "$ET" generate inference $L7 --tp 1 --pp 1 --arrivals "$S/tests/data/serving_100.txt" --scheduler mixed --out "$T/m1/w"
mv "$T/m1/w.0.et" "$T/m1/w.et"
expect_ok "$VIMANA" --workload-configuration="$T/m1/w" $H2
expect_eq "$(grep -E '^(sys\[0\] finished|serving: TTFT)' "$T/out")" "sys[0] finished, 2200246000 cycles, exposed communication 0 cycles.
serving: TTFT mean 23661.040 us, p50 19655.000 us, p99 68615.000 us; TPOT mean 8091.644 us, p50 7777.848 us, p99 18546.333 us; latency mean 296596.770 us, p50 294993.000 us, p99 542063.000 us" "100 mixed"
# TP 2 on HGX H100 (2 GPUs): the TP all-reduces are not on the
# generator's clock, so the run ends later than it and the requests
# wait longer: reported, not pinned to the generator's.
expect_ok "$ET" generate inference $L7 --tp 2 --pp 1 --arrivals "$S/tests/data/serving_100.txt" --out "$T/l2/w"
expect_ok "$VIMANA" --workload-configuration="$T/l2/w" $H2 --comm-group-configuration="$T/l2/w.groups.json"
expect_eq "$(grep -E '^serving: [0-9]' "$T/out")" "serving: 100 requests, 100 finished (markers of NPU 0)" "tp2 finished"
grep -qE '^serving: TTFT mean [0-9.]+ us, p50 [0-9.]+ us, p99 [0-9.]+ us; TPOT mean [0-9.]+ us, p50 [0-9.]+ us, p99 [0-9.]+ us; latency mean' "$T/out" || fail "tp2: no statistics line"

# --clock-comm-ns 10400: the TP 2 run above spent 493256448 ns in 785
# iterations x 64 all-reduces (9.8 us each); a second try with 9800 gave
# 10.4 us each (more prefill bytes a step). With 10400 ns on its clock the
# generator's schedule ends at 2080840 us and the simulated run at
# 2083045440 cycles: 0.1 % behind instead of 24 %.
expect_ok "$ET" generate inference $L7 --tp 2 --pp 1 --arrivals "$S/tests/data/serving_100.txt" --clock-comm-ns 10400 --out "$T/c2/w"
expect_eq "$(sed -n 2p "$T/out")" "serving: 100 requests, 600 iterations (88 prefill, 512 decode), at most 17 sequences an iteration, 9660 KV tokens at the peak, idle 0 us; the generator's clock (with communication) ends at 2080840 us" "tp2 clock-comm serving line"
expect_ok "$VIMANA" --workload-configuration="$T/c2/w" $H2 --comm-group-configuration="$T/c2/w.groups.json"
expect_eq "$(grep -E '^(sys\[0\] finished|serving: TTFT)' "$T/out")" "sys[0] finished, 2083045440 cycles, exposed communication 401565440 cycles.
serving: TTFT mean 15896.676 us, p50 15196.224 us, p99 30904.608 us; TPOT mean 4380.780 us, p50 4093.345 us, p99 10854.418 us; latency mean 162754.801 us, p50 151960.704 us, p99 300994.760 us" "tp2 clock-comm"

# --disaggregate: NPU 0 prefills, NPU 1 decodes (test_inf_serving.c,
# schedule_disaggregated, derives both schedules). The KV cache of a prefill
# iteration's decoding requests (2 layers x 2 (K, V) x 4 heads x 16 x 2 bytes =
# 512 bytes a token) leaves NPU 0 once its LM head has sampled, with the
# first tokens (4 bytes each): r0's 16 x 512 + 4 = 8196 bytes at 22 us, r1's
# 8 x 512 + 4 = 4100 at 44 us, r3's 8196 at 2022 us. On the 2-GPU switch
# (2 hops of 250 ns, 450 GB/s) 8196 bytes take 500 + 16.96 = 516 ns.
# NPU 1: r0's KV at 22.516 -> decode 1 ends 44.516; r1's KV (at 44.508) is
# there, decode 2 (r0's last, r1's 2nd) ends 66.516; r3's KV at 2022.516 ->
# its token 2 at 2044.516. TTFT as the prefill group's: 22, 34, 29, 22;
# latency: r0 66.516, r1 66.516 - 10 = 56.516, r2 29, r3 44.516; TPOT r0
# (66.516 - 22) / 2 = 22.258, r1 22.516, r3 22.516.
expect_ok "$ET" generate inference $TINY --arrivals "$T/tiny/arr.txt" --disaggregate --out "$T/pd/w"
expect_eq "$(grep '^serving:' "$T/out")" "serving: prefill group (ranks 0-0): 4 requests, 3 iterations (3 prefill, 0 decode), at most 2 sequences an iteration, 40 KV tokens at the peak, idle 1956 us; the generator's clock (compute only) ends at 2022 us
serving: decode group (ranks 1-1): 3 requests, 3 iterations (0 prefill, 3 decode), at most 2 sequences an iteration, 27 KV tokens at the peak, idle 1978 us; the generator's clock (compute only) ends at 2044 us" "disaggregated serving lines"
expect_ok "$ET" validate "$T/pd/w"
"$ET" json "$T/pd/w.1.et" | python3 -c '
import json, sys
for n in json.load(sys.stdin)["nodes"]:
    a = {x["name"]: ([v for k, v in x.items() if k != "name"] or [0])[0] for x in n.get("attr", [])}
    if n["type"] != "COMP_NODE":
        print(n["name"], a.get("comm_src", ""), a.get("comm_tag", ""), a.get("comm_size", ""))' >"$T/pd/list" || fail "list decode"
expect_eq "$(cat "$T/pd/list")" "recv_kv_iter0 0 0 8196
recv_kv_iter1 0 1 4100
iter1_req0_last_token   
iter1_req1_last_token   
recv_kv_iter2 0 2 8196
iter2_req3_last_token   " "decode group: KV receives and last-token markers"
expect_ok "$VIMANA" --workload-configuration="$T/pd/w" $H2 --report="$T/pd/r.json"
grep '^serving:' "$T/out" >"$T/pd/serving"
expect_tail "$T/pd/serving" "disaggregated serving report" <<'LINES'
serving: 4 requests, 4 finished (markers of NPUs 0 and 1)
serving: request 0: arrival 0.000 us, prompt 16, output 3, TTFT 22.000 us, TPOT 22.258 us, latency 66.516 us
serving: request 1: arrival 10.000 us, prompt 8, output 2, TTFT 34.000 us, TPOT 22.516 us, latency 56.516 us
serving: request 2: arrival 15.000 us, prompt 32, output 1, TTFT 29.000 us, latency 29.000 us
serving: request 3: arrival 2000.000 us, prompt 16, output 2, TTFT 22.000 us, TPOT 22.516 us, latency 44.516 us
serving: TTFT mean 26.750 us, p50 22.000 us, p99 34.000 us; TPOT mean 22.430 us, p50 22.516 us, p99 22.516 us; latency mean 49.137 us, p50 44.516 us, p99 66.516 us
LINES
[ "$(wc -l <"$T/pd/serving")" -eq 6 ] || fail "disaggregated serving report: $(wc -l <"$T/pd/serving") lines, expected 6"
npus=$(python3 -c 'import json, sys; s = json.load(open(sys.argv[1]))["serving"]; print(s["npu"], s["npus"], s["finished"])' "$T/pd/r.json")
expect_eq "$npus" "0 [0, 1] 4" "disaggregated --report: both groups' NPUs"
expect_error "$P: --disaggregate: not with --scheduler mixed (the prefill group runs prefills only, the decode group decodes only)" \
    "$ET" generate inference $TINY --arrivals "$T/tiny/arr.txt" --disaggregate --scheduler mixed --out "$T/x/w"
# TP 2, PP 2 on 8 NPUs: each stage sends its own layers' KV cache; the
# prefill group's last stage sends the first tokens to the decode group's
# first stage; the communicators of both groups.
expect_ok "$ET" generate inference --layers 4 --hidden 64 --heads 4 --ffn 256 --vocab 128 --tp 2 --pp 2 \
    --arrivals "$T/tiny/arr.txt" --disaggregate --out "$T/pd4/w"
expect_ok "$ET" validate "$T/pd4/w"
expect_eq "$(tr -d ' \n' <"$T/pd4/w.groups.json")" '{"1":[0,1],"2":[2,3],"3":[4,5],"4":[6,7]}' "disaggregated groups"
expect_eq "$("$ET" json "$T/pd4/w.4.et" | grep -o '"name": "recv_[a-z_]*iter0"' | tr '\n' ' ')" '"name": "recv_kv_iter0" "name": "recv_first_tokens_iter0" ' "decode stage 0: KV and first tokens"
expect_ok "$VIMANA" --workload-configuration="$T/pd4/w" \
    --system-configuration="$S/inputs/presets/hgx-h100/8gpu/system.json" \
    --network-configuration="$S/inputs/presets/hgx-h100/8gpu/network.yml" --comm-group-configuration="$T/pd4/w.groups.json"
expect_eq "$(grep -E '^serving: [0-9]' "$T/out")" "serving: 4 requests, 4 finished (markers of NPUs 2 and 6)" "tp2 pp2 disaggregated markers"

# a fixed-batch workload prints no serving lines
expect_ok "$ET" generate inference $TINY --batch 2 --prompt-len 8 --output-len 2 --out "$T/fixed/w"
cp "$T/fixed/w.0.et" "$T/fixed/one.et"
expect_ok "$VIMANA" --workload-configuration="$T/fixed/one" $H2
grep -q '^serving' "$T/out" && fail "a fixed-batch workload printed serving lines"

# --arrivals --help lists every flag; the man page and docs document each
expect_ok "$ET" generate inference --arrivals x --help
inference_help_documented

# one-line errors
G="$ET generate inference $TINY --out $T/e/x"
printf '0 16 3\n5ms 16\n' >"$T/bad.txt"
expect_error "$P: $T/bad.txt:2: expected 3 fields (arrival, prompt tokens, output tokens), got 2" $G --arrivals "$T/bad.txt"
printf '0 16 3\n5min 16 2\n' >"$T/bad.txt"
expect_error "$P: $T/bad.txt:2: arrival: '5min' has an unknown unit (expected ns, us, ms or s; none: us)" $G --arrivals "$T/bad.txt"
printf '0 0 3\n' >"$T/bad.txt"
expect_error "$P: $T/bad.txt:1: prompt tokens: expected 1 to 16777216, got 0" $G --arrivals "$T/bad.txt"
printf '# nothing\n' >"$T/bad.txt"
expect_error "$P: $T/bad.txt: no requests (expected lines of: arrival, prompt tokens, output tokens)" $G --arrivals "$T/bad.txt"
printf '0 16 3\n1 4000 1\n' >"$T/bad.txt"
expect_error "$P: $T/bad.txt:2: a prompt of 4000 tokens never fits --max-batch-tokens 3000" $G --arrivals "$T/bad.txt" --max-batch-tokens 3000
expect_error "$P: $T/missing.txt: cannot open: No such file or directory" $G --arrivals "$T/missing.txt"
expect_error "$P: --batch: not with --arrivals (the file gives each request's tokens)" $G --arrivals "$T/tiny/arr.txt" --batch 2
expect_error "$P: --prefill-chunk: not with --arrivals (the file gives each request's tokens)" $G --arrivals "$T/tiny/arr.txt" --prefill-chunk 2
expect_error "$P: --max-batch-size: expected 1 to 1048576, got 0" $G --arrivals "$T/tiny/arr.txt" --max-batch-size 0
expect_error "$P: --max-batch-tokens: 8 is less than --max-batch-size 256" $G --arrivals "$T/tiny/arr.txt" --max-batch-tokens 8
expect_error "$P: --clock-comm-ns: expected 0 to 1000000000, got 1000000001" $G --arrivals "$T/tiny/arr.txt" --clock-comm-ns 1000000001
expect_error "$P: --max-batch: not with --arrivals (the schedule's KV peak is on the memory lines)" $G --arrivals "$T/tiny/arr.txt" --max-batch --memory-capacity 80GiB
expect_error "$P: --scheduler: expected prefill-first, mixed or chunked, got 'fcfs'" $G --arrivals "$T/tiny/arr.txt" --scheduler fcfs
expect_error "$P: unknown option '--seq' (see generate inference --arrivals --help)" $G --arrivals "$T/tiny/arr.txt" --seq 8
expect_error "$P: inference: missing --vocab" "$ET" generate inference --layers 2 --hidden 64 --heads 4 --ffn 256 --tp 1 --pp 1 --arrivals "$T/tiny/arr.txt" --out "$T/e/x"
[ ! -e "$T/e/x.0.et" ] || fail "an error wrote a trace"
finish
