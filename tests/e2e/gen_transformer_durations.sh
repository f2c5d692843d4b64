#!/bin/sh
# vimana-et generate transformer --durations FILE: user-supplied operator
# durations replace the roofline's, per kind; the tiny GPT (L=2, TP 2 x PP 2
# x DP 2, M = 2) then computes exactly the sum of the given durations, and
# simulates to exact cycles; bad files are one-line errors naming the file
# and the key.
. "$VIMANA_SRCDIR/tests/e2e/gen_lib.sh"
TINY="--layers 2 --hidden 64 --heads 4 --ffn 256 --seq 16 --vocab 100 --micro-batch 1 --global-batch 4 --tp 2 --pp 2 --dp 2 --compute-model roofline --pp-scatter-gather off --overlap-param-gather off"
SIMARGS="--system-configuration=$S/inputs/system/ring.json --network-configuration=$S/inputs/network/switch8.yml"
us() { # ET-FILE NAME: the duration_micros of that node
    "$ET" json "$1" | python3 -c '
import json, sys
for n in json.load(sys.stdin)["nodes"]:
    if n["name"] == sys.argv[1]:
        print(n.get("duration_micros", "0"))' "$2"
}

printf '{"attn_fwd": 100, "attn_bwd": 200, "mlp_fwd": 150,\n "mlp_bwd": 300, "head_fwd": 50, "head_bwd": 100, "optimizer": 400}\n' >"$T/d.json"
expect_ok "$ET" generate transformer $TINY --durations "$T/d.json" --out "$T/d/g"
expect_ok "$ET" validate "$T/d/g"
expect_eq "$(us "$T/d/g.0.et" fwd_mb1_layer0_attn) $(us "$T/d/g.0.et" bwd_mb1_layer0_attn)" "100 200" "attention"
expect_eq "$(us "$T/d/g.4.et" fwd_mb0_layer1_mlp) $(us "$T/d/g.4.et" bwd_mb0_layer1_mlp)" "150 300" "MLP"
expect_eq "$(us "$T/d/g.4.et" fwd_mb1_lm_head) $(us "$T/d/g.4.et" bwd_mb1_lm_head)" "50 100" "LM head"
expect_eq "$(us "$T/d/g.7.et" optimizer_step)" 400 "optimizer"
# The figures the roofline would use stay on the nodes.
expect_eq "$("$ET" json "$T/d/g.0.et" | grep -c '"num_ops"')" 9 "num_ops kept"
# Compute per rank: 2 micro-batches x (100 + 150 + 300 + 200) + 400 = 1900 us
# on stage 0, + 2 x (50 + 100) for the LM head = 2200 us on stage 1 (1 cycle =
# 1 ns); the rest of the step is exposed communication.
expect_ok "$VIMANA" --workload-configuration="$T/d/g" $SIMARGS --comm-group-configuration="$T/d/g.groups.json"
for r in 0 1 2 3 4 5 6 7; do
    [ $r -lt 4 ] && want="3061428 cycles, exposed communication 1161428 cycles" gpu=1900000 ||
        { want="2545004 cycles, exposed communication 345004 cycles" gpu=2200000; }
    grep -qxF "sys[$r] finished, $want." "$T/out" || fail "sim rank $r: $(grep "sys\[$r\] finished" "$T/out")"
    grep -qxF "sys[$r], GPU time: $gpu" "$T/out" || fail "rank $r GPU time: $(grep "sys\[$r\], GPU time" "$T/out")"
done

# Kinds left out keep the roofline (1 us for this tiny model); --recompute
# reuses the forward durations; 0 is allowed.
printf '{"optimizer": 7, "attn_fwd": 0, "mlp_fwd": 3}' >"$T/p.json"
expect_ok "$ET" generate transformer $TINY --recompute --durations "$T/p.json" --out "$T/p/g"
expect_eq "$(us "$T/p/g.0.et" optimizer_step) $(us "$T/p/g.0.et" bwd_mb0_layer0_attn)" "7 1" "partial"
expect_eq "$(us "$T/p/g.0.et" rec_mb0_layer0_attn) $(us "$T/p/g.0.et" rec_mb0_layer0_mlp)" "0 3" "recompute"
printf '{}' >"$T/empty.json"
expect_ok "$ET" generate transformer $TINY --durations "$T/empty.json" --out "$T/e0/g"
expect_ok "$ET" generate transformer $TINY --out "$T/r0/g"
for r in 0 4; do
    cmp -s "$T/e0/g.$r.et" "$T/r0/g.$r.et" || fail "rank $r: {} changes the output"
done

# One-line errors naming the file and the key.
G="$ET generate transformer $TINY --out $T/e/x --durations"
bad() { # WANT-TAIL JSON
    printf '%s' "$2" >"$T/bad.json"
    expect_error "$P: $T/bad.json: $1" $G "$T/bad.json"
}
bad 'unknown key "atn_fwd" (expected attn_fwd, attn_bwd, mlp_fwd, mlp_bwd, head_fwd, head_bwd, optimizer or attn_core)' \
    '{"atn_fwd": 1}'
bad 'unknown key "a\nb" (expected attn_fwd, attn_bwd, mlp_fwd, mlp_bwd, head_fwd, head_bwd, optimizer or attn_core)' \
    '{"a\nb": 1}'
R="expected a whole number of microseconds from 0 to 1000000000000"
bad "\"attn_bwd\": $R, got -1" '{"attn_fwd": 1, "attn_bwd": -1}'
bad "\"mlp_fwd\": $R, got 1.5" '{"mlp_fwd": 1.5}'
bad "\"head_bwd\": $R, got \"12\"" '{"head_bwd": "12"}'
bad "\"optimizer\": $R, got 1000000000001" '{"optimizer": 1000000000001}'
bad "line 1, column 13: key 'mlp_bwd': 99999999999999999999999 is out of range for a 64-bit integer" \
    '{"mlp_bwd": 99999999999999999999999}'
bad "\"head_fwd\": $R, got null" '{"head_fwd": null}'
bad 'expected a JSON object of durations in microseconds, e.g. {"attn_fwd": 120}' '[100]'
bad "line 2, column 13: key 'attn_fwd': expected a value, got '}'" '{
"attn_fwd": }'
bad "line 1, column 16: unexpected text after the end of the JSON object: 'x'" '{"attn_fwd": 1}x'
bad 'line 1, column 1: expected a value, got the end of the file' ''
# A kind given twice was taken silently, the last value winning (issue 29 §5).
bad "line 2, column 2: duplicate key 'attn_fwd' (first given at line 1, column 2)" '{"attn_fwd": 1,
 "attn_fwd": 2}'
bad "line 1, column 18: duplicate key 'mlp_bwd' (first given at line 1, column 2)" '{"mlp_bwd": 1,   "mlp\u005fbwd": 2}'
expect_error "$P: $T/none.json: cannot open: No such file or directory" $G "$T/none.json"
expect_error "$P: $T: is a directory, expected a file" $G "$T"
expect_error "$P: option --durations needs a value" $ET generate transformer $TINY --out "$T/e/x" --durations
[ -e "$T/e" ] && fail "an error left output behind"
finish
