#!/bin/sh
# vimana's inference report (docs/inference.md, "What the simulator
# reports"): TTFT, TPOT and tokens/s derived by hand from a trace with no
# communication, the same figures from the LM head's markers on a TP 2 x
# PP 2 run (against its timeline), the --report JSON object and the
# --timeline tracks byte for byte, a marker attribute of the wrong type,
# and a workload without markers (no inference lines).
. "$VIMANA_SRCDIR/tests/e2e/lib.sh"
ET=$VIMANA_ET
T=$TEST_TMP
S=$VIMANA_SRCDIR
H2="--system-configuration=$S/inputs/presets/hgx-h100/2gpu/system.json --network-configuration=$S/inputs/presets/hgx-h100/2gpu/network.yml"
H4="--system-configuration=$S/inputs/presets/hgx-h100/4gpu/system.json --network-configuration=$S/inputs/presets/hgx-h100/4gpu/network.yml"

# By hand: 2 layers, h 256, 4 heads, F 512, V 1024, TP 1, PP 1, batch 2,
# prompt 8, 3 decode tokens. One rank: no communication, so each marker
# ends at the sum of the durations before it. The trace lists attention
# and MLP 8 us a layer, the LM head 4 us (pinned below): a step is
# 2 x (8 + 8) + 4 = 36 us. Run as the single-file form PREFIX.et on both
# NPUs of the 2-GPU preset (every NPU runs it; neither communicates).
expect_ok "$ET" generate inference --layers 2 --hidden 256 --heads 4 --ffn 512 --vocab 1024 --tp 1 --pp 1 \
    --batch 2 --prompt-len 8 --output-len 3 --out "$T/g/w"
"$ET" json "$T/g/w.0.et" | python3 "$S/tests/e2e/tf_list.py" >"$T/list"
expect_eq "$(awk '{ sub(/^(prefill_c|decode_t)[0-9]+_/, "", $3); sub(/layer[0-9]+_/, "", $3); sub(/[0-9]+$/, "", $3); print $3, $6 }' "$T/list" | LC_ALL=C sort | uniq -c | tr -s ' ')" \
" 8 attn us=8
 1 lm_head_first_token us=4
 3 lm_head_output_token us=4
 8 mlp us=8" "hand case durations"
cp "$T/g/w.0.et" "$T/one.et"
expect_ok "$VIMANA" --workload-configuration="$T/one" $H2 --report="$T/one.json" --timeline="$T/one.tl.json"
# TTFT 36 us; tokens at 36, 72, 108, 144 us; TPOT 36 us; 2 x 4 tokens in
# 144 us = 55555.556 tokens/s
expect_eq "$(grep '^inference' "$T/out")" "inference: NPU 0 (the LM head's markers), time to first token 36000 cycles
inference: time per output token 36000.000 cycles (mean of 3 decode tokens), the last (token 3) 36000 cycles
inference: 55555.556 tokens/s (batch 2 x 4 tokens in 144000 cycles)" "hand case report"
# after the per-NPU lines
expect_eq "$(sed -n '11p' "$T/out")" "inference: NPU 0 (the LM head's markers), time to first token 36000 cycles" "report after the finish lines"
expect_eq "$(grep '^"inference"' "$T/one.json")" \
'"inference": {"npu": 0, "batch": 2, "tokens": 4, "ttft": 36000, "tpot_mean": 36000.000, "tpot_last": 36000, "end": 144000, "tokens_per_second": 55555.556, "token_end": [36000, 72000, 108000, 144000]},' "hand case JSON"
expect_eq "$(grep -E 'inference' "$T/one.tl.json")" '{"name":"thread_name","ph":"M","pid":0,"tid":5,"args":{"name":"inference: prefill"}},
{"name":"thread_name","ph":"M","pid":0,"tid":6,"args":{"name":"inference: decode"}},
{"name":"prefill (to the first token)","cat":"inference","ph":"X","ts":0,"dur":36,"pid":0,"tid":5},
{"name":"decode token 1","cat":"inference","ph":"X","ts":36,"dur":36,"pid":0,"tid":6},
{"name":"decode token 2","cat":"inference","ph":"X","ts":72,"dur":36,"pid":0,"tid":6},
{"name":"decode token 3","cat":"inference","ph":"X","ts":108,"dur":36,"pid":0,"tid":6}' "hand case timeline tracks"
# A CSV --report: the same tokens in one.tokens.csv (ticks); no request
# table without serving markers.
expect_ok "$VIMANA" --workload-configuration="$T/one" $H2 --report="$T/csv/one.csv"
expect_eq "$(cat "$T/csv/one.tokens.csv")" "token,phase,start,end,duration,npu
0,prefill,0,36000,36000,0
1,decode,36000,72000,36000,0
2,decode,72000,108000,36000,0
3,decode,108000,144000,36000,0" "hand case tokens CSV"
[ ! -e "$T/csv/one.requests.csv" ] || fail "a request table without serving markers"
python3 -c 'import json, sys; json.load(open(sys.argv[1])); json.load(open(sys.argv[2]))' "$T/one.json" "$T/one.tl.json" ||
    fail "report or timeline is not JSON"

# The last decode step made slower by hand (its attention nodes 20 us):
# token 3 takes 2 x (20 + 8) + 4 = 60 us, so the tokens end at 36, 72,
# 108, 168 us: TPOT mean (168 - 36) / 3 = 44 us, the last 60 us; 2 x 4
# tokens in 168 us = 47619.048 tokens/s.
"$ET" json "$T/one.et" | python3 -c '
import json, sys
d = json.load(sys.stdin)
for n in d["nodes"]:
    if n["name"].startswith("decode_t3_") and n["name"].endswith("_attn"):
        n["duration_micros"] = "20"
json.dump(d, sys.stdout)' >"$T/slow.json"
expect_ok "$ET" from-json "$T/slow.json" -o "$T/slow.et"
expect_ok "$VIMANA" --workload-configuration="$T/slow" $H2
expect_eq "$(grep '^inference' "$T/out")" "inference: NPU 0 (the LM head's markers), time to first token 36000 cycles
inference: time per output token 44000.000 cycles (mean of 3 decode tokens), the last (token 3) 60000 cycles
inference: 47619.048 tokens/s (batch 2 x 4 tokens in 168000 cycles)" "slow last step"

# reduced (the two NPUs are alike: NPU 0 simulated) and full: the same
expect_ok "$VIMANA" --workload-configuration="$T/one" $H2 --no-symmetry --report="$T/one.full.json"
expect_eq "$(grep '^inference' "$T/out" | head -1)" "inference: NPU 0 (the LM head's markers), time to first token 36000 cycles" "full run"
cmp -s "$T/one.json" "$T/one.full.json" || fail "reduced and full reports differ"

# TP 2 x PP 2 (gen_inference.sh's tiny model): NPUs 2 and 3 run the LM
# head; the figures are the latest ends of their markers, which the
# timeline's lm_head slices give too.
A="--layers 4 --hidden 256 --heads 4 --kv-heads 2 --ffn 512 --vocab 1024 --tp 2 --pp 2 --batch 1 --prompt-len 8 --prefill-chunk 4 --output-len 2"
expect_ok "$ET" generate inference $A --out "$T/tiny/w"
expect_ok "$VIMANA" --workload-configuration="$T/tiny/w" $H4 --comm-group-configuration="$T/tiny/w.groups.json" \
    --report="$T/tiny.json" --timeline="$T/tiny.tl.json"
expect_eq "$(grep '^inference' "$T/out")" "inference: NPU 2 (the LM head's markers), time to first token 184600 cycles
inference: time per output token 124473.000 cycles (mean of 2 decode tokens), the last (token 2) 124473 cycles
inference: 6919.681 tokens/s (batch 1 x 3 tokens in 433546 cycles)" "TP 2 x PP 2 report"
expect_eq "$(python3 -c '
import json, sys
ev = json.load(open(sys.argv[1]))["traceEvents"]
ends = {}
for e in ev:
    if "lm_head" in e.get("name", ""):
        k = e["name"]
        ends[k] = max(ends.get(k, 0), round((e["ts"] + e["dur"]) * 1000))
print(sorted(ends.values()))
print(sorted(set(e["pid"] for e in ev if e.get("cat") == "inference")))' "$T/tiny.tl.json")" "[184600, 309073, 433546]
[2]" "TP 2 x PP 2 against the timeline"
expect_eq "$(grep '^"inference"' "$T/tiny.json")" \
'"inference": {"npu": 2, "batch": 1, "tokens": 3, "ttft": 184600, "tpot_mean": 124473.000, "tpot_last": 124473, "end": 433546, "tokens_per_second": 6919.681, "token_end": [184600, 309073, 433546]},' "TP 2 x PP 2 JSON"

edit_markers() { # ET PYTHON-EXPR OUT.json: a (dict) of each output_token attribute becomes the expression (None: dropped)
    "$ET" json "$1" | python3 -c '
import json, sys
d = json.load(sys.stdin)
for n in d["nodes"]:
    attrs = []
    for a in n.get("attr", []):
        if a["name"] == "output_token":
            a = eval(sys.argv[1])
        if a is not None:
            attrs.append(a)
    n["attr"] = attrs
json.dump(d, sys.stdout)' "$2" >"$3"
}
# a marker attribute of the wrong type: one line naming the file and node
edit_markers "$T/one.et" '{"name": "output_token", "string_val": "two"} if a.get("int64_val") == "2" else a' "$T/bad.json"
expect_ok "$ET" from-json "$T/bad.json" -o "$T/bad.et"
expect_error "vimana: error: $T/bad.et: node 14 (decode_t2_lm_head_output_token2): attribute output_token must be an integer from 0 to 4294967294 (found string_val)" \
    "$VIMANA" --workload-configuration="$T/bad" $H2
# a token left out: a warning, no report
edit_markers "$T/one.et" 'None if a.get("int64_val") == "2" else a' "$T/gap.json"
expect_ok "$ET" from-json "$T/gap.json" -o "$T/gap.et"
expect_ok "$VIMANA" --workload-configuration="$T/gap" $H2
grep -q '^inference' "$T/out" && fail "a report with a token left out"
grep -qxF "vimana: warning: inference report skipped: attribute output_token goes up to 3 but no trace holds more than 3 markers" "$T/err" ||
    fail "no warning for the token left out: $(cat "$T/err")"

# no markers: no inference line, no JSON object, no timeline track
edit_markers "$T/one.et" 'None' "$T/plain.json"
expect_ok "$ET" from-json "$T/plain.json" -o "$T/plain.et"
expect_ok "$VIMANA" --workload-configuration="$T/plain" $H2 --report="$T/plain.r.json" --timeline="$T/plain.tl.json"
grep -q 'inference' "$T/out" "$T/plain.r.json" "$T/plain.tl.json" && fail "inference output for a workload without markers"
finish
