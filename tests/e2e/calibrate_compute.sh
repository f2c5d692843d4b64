#!/bin/sh
# vimana-et calibrate-compute: recovers the GEMM efficiency and CTA cost a
# table was made with (tests/data/compute/h100-synthetic-gemms.csv: 0.62 and
# 96 steps of K), writes a device folder generate transformer reads, and
# refuses bad tables and bad fits with one line.
. "$VIMANA_SRCDIR/tests/e2e/lib.sh"
ET=$VIMANA_ET
T=$TEST_TMP
P="vimana-et calibrate-compute"
CSV="$VIMANA_SRCDIR/tests/data/compute/h100-synthetic-gemms.csv"

expect_ok "$ET" calibrate-compute "$CSV" -o "$T/dev"
expect_eq "$(cat "$T/out")" "vimana-et calibrate-compute: 14 GEMMs fitted: efficiency 0.6200, CTA cost 96 steps of K; \
device in $T/dev (fit-report.md: per-row errors)" "the fit recovers both parameters"
expect_eq "$(cat "$T/dev/device.json")" '{"name": "h100", "peak-tflops": 989, "fp8-peak-tflops": 1979, "hbm-tbps": 3.35, "sms": 132,
 "gemm-tile": [128, 256], "gemm-k-fixed": 96, "gemm-efficiency": 0.620000006,
 "attention-efficiency": {"forward": 0.4245, "backward": 0.3396}, "memory-efficiency": 0.85}' \
    "device.json: the fit, the h100 preset's other figures (attention: 0.50 and 0.40 x 0.849)"
expect_eq "$(grep -c '| h100-synthetic-gemms.csv:[0-9]* |.* | [+-]0.00 |$' "$T/dev/fit-report.md")" 14 "every row exact"
# generate transformer --device DIR: the MLP forward of h = 4096, F = 16384,
# s = 2048 with GEMMs at 0.62 and 96: 473.1 + 465.0 us, plus 79.5 us of
# memory-bound kernels = 1017.7 -> 1018 us
cd "$T" || exit 1
expect_ok "$ET" generate transformer --layers 1 --hidden 4096 --heads 32 --ffn 16384 --seq 2048 --vocab 51200 \
    --micro-batch 1 --global-batch 1 --tp 1 --pp 1 --dp 1 --device dev --out "$T/g/x"
expect_eq "$("$ET" json "$T/g/x.0.et" | python3 "$VIMANA_SRCDIR/tests/e2e/tf_list.py" | sed -n 2p | cut -d' ' -f6)" \
    "us=1018" "the fitted device in the generator"
# tflops instead of us: the same fit
awk -F, 'BEGIN { OFS = "," } /^#/ { next } $1 == "m" { print "m,n,k,tflops"; next } { printf "%d,%d,%d,%.12g\n", $1, $2, $3, 2 * $1 * $2 * $3 / ($5 * 1e6) }' \
    "$CSV" >"$T/rate.csv"
expect_ok "$ET" calibrate-compute "$T/rate.csv" -o "$T/dev2"
expect_eq "$(sed -n 2p "$T/dev2/device.json")" ' "gemm-tile": [128, 256], "gemm-k-fixed": 96, "gemm-efficiency": 0.620000006,' \
    "tflops column"

# a row the model cannot explain (it pulls the fit, 0.62 -> 0.53): the
# files are written, the command fails naming the row
{ cat "$CSV"; echo "4096,4096,4096,bf16,900.0,slow"; } >"$T/outlier.csv"
expect_error "$P: $T/outlier.csv:20: 4096 x 4096 x 4096: modelled 274.034 us, measured 900.000 us (-69.6 %), beyond --max-error 25 %; device.json and fit-report.md left in $T/o" \
    "$ET" calibrate-compute "$T/outlier.csv" -o "$T/o"
[ -f "$T/o/device.json" ] || fail "--max-error: no device.json left"
expect_ok "$ET" calibrate-compute "$T/outlier.csv" -o "$T/o" --max-error off

# A Kineto trace (tests/data/kineto/README.md): one row per shape, the median of its calls'
# kernel times (36.5, 41, 38 us: 38), a split-K GEMM's two kernels summed (150 + 5.25 us),
# the fp32 and the shapeless calls left out; rows named by their first call's event.
K="$VIMANA_SRCDIR/tests/data/kineto/gemm_bf16_trace.json"
"$ET" calibrate-compute "$K" -o "$T/k" --max-error off >"$T/out" || fail "calibrate-compute on a Kineto trace"
expect_eq "$(head -n 1 "$T/out")" "$K: 4 GEMM calls of 16-bit inputs in 2 shapes (1 of other types and 1 without a \
shape left out)" "Kineto: the summary"
expect_eq "$(grep 'traceEvents' "$T/k/fit-report.md" | cut -d'|' -f2-6)" " gemm_bf16_trace.json traceEvents[1] | 2048 \
| 4096 | 1024 | 38.000 
 gemm_bf16_trace.json traceEvents[12] | 8192 | 512 | 8192 | 155.250 " "Kineto: the rows"
# the same rows as a CSV fit the same device
printf 'm,n,k,us\n2048,4096,1024,38\n8192,512,8192,155.25\n' >"$T/k.csv"
"$ET" calibrate-compute "$T/k.csv" -o "$T/kcsv" --max-error off >/dev/null || fail "the CSV of the trace's rows"
cmp -s "$T/k/device.json" "$T/kcsv/device.json" || fail "Kineto: the device differs from the CSV's"
# a trace without 16-bit GEMMs (the corpus' PARAM DLRM step: fp32), and a broken one
cp "$VIMANA_SRCDIR/tests/data/kineto/gemm_bf16_trace.json" "$T/t.json"
sed -i 's/c10::BFloat16/float/g' "$T/t.json"
expect_error "$P: $T/t.json: no 16-bit aten::mm or aten::addmm with its shape and kernels (5 of other types, 1 without \
Input Dims: profile with record_shapes=True)" "$ET" calibrate-compute "$T/t.json" -o "$T/e"
printf '{"traceEvents": [' >"$T/cut.json"
expect_error "$P: $T/cut.json: malformed JSON at line 1, column 18: unexpected end of input, expected a value" "$ET" calibrate-compute "$T/cut.json" -o "$T/e"

# one-line errors
printf 'm,n,us\n1,2,3\n' >"$T/nok.csv"
expect_error "$P: $T/nok.csv:1: expected a header naming the columns m, n, k and one of us or tflops" \
    "$ET" calibrate-compute "$T/nok.csv" -o "$T/e"
printf '# c\nm,n,k,us\n64,64,0,3\n' >"$T/zero.csv"
expect_error "$P: $T/zero.csv:3: k '0' is not a whole number from 1 to 16777216" "$ET" calibrate-compute "$T/zero.csv" -o "$T/e"
printf 'm,n,k,us\n64,64,64,fast\n' >"$T/fast.csv"
expect_error "$P: $T/fast.csv:2: us 'fast' is not a positive number" "$ET" calibrate-compute "$T/fast.csv" -o "$T/e"
printf 'm,n,k,us\n64,64\n' >"$T/short.csv"
expect_error "$P: $T/short.csv:2: expected at least 4 fields, got 2" "$ET" calibrate-compute "$T/short.csv" -o "$T/e"
printf 'm,n,k,us\n' >"$T/empty.csv"
expect_error "$P: $T/empty.csv: no measurements (a header, then rows of m, n, k and us or tflops)" \
    "$ET" calibrate-compute "$T/empty.csv" -o "$T/e"
expect_error "$P: $T/none.csv: cannot open: No such file or directory" "$ET" calibrate-compute "$T/none.csv" -o "$T/e"
expect_error "$P: missing --out DIR (see vimana-et calibrate-compute --help)" "$ET" calibrate-compute "$CSV"
expect_error "$P: --device: unknown device (expected h100, h200, a100 or a device file)" \
    "$ET" calibrate-compute "$CSV" -o "$T/e" --device tpu
expect_error "$P: --max-error: expected a percentage above 0 (e.g. 25) or 'off', got 'x'" \
    "$ET" calibrate-compute "$CSV" -o "$T/e" --max-error x
[ -e "$T/e" ] && fail "an error left output behind"
expect_error "vimana calibrate: error: the compute model is fitted by \`vimana-et calibrate-compute GEMMS.csv... -o DIR\` (docs/transformer.md, \"Calibrating a device\")" \
    "$VIMANA" calibrate compute "$CSV"
expect_ok "$ET" calibrate-compute --help
grep -q '^Usage: vimana-et calibrate-compute GEMMS.csv' "$T/out" || fail "help text"
finish
