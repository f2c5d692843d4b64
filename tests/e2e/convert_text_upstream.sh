#!/bin/sh
# `vimana-et convert text` with what users paste from the reference's
# tutorials, and the inputs and sizes it must refuse:
# - the output folder is created; --num-passes defaults to 1;
# - the old single-command form `convert --input_type Text|PyTorch
#   --input_filename X --output_filename Y [--num_npus N] [--num_passes P]
#   [--num_dims D]`, with --num_dims accepted and ignored with a note;
# - at most 1048576 NPUs (one file each): 2^32 used to write 2^32 files;
# - /dev/zero (read for ever before) and directories as the workload.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

DATA=$VIMANA_SRCDIR/tests/data/text
PTDATA=$VIMANA_SRCDIR/tests/data/pytorch
T=$TEST_TMP
IN=$DATA/none_comm.txt
# A command that hung before must fail, not hang the test suite.
limit() { if command -v timeout >/dev/null; then timeout 20 "$@"; else "$@"; fi; }

# Reference files: the documented form with every option.
mkdir "$T/ref"
expect_ok "$VIMANA_ET" convert text --input "$IN" --output "$T/ref/w" --num-npus 2 --num-passes 1
expect_eq "$(ls "$T/ref")" "w.0.et
w.1.et" "reference files"

# Folder created (two levels), --num-passes left out: the same bytes.
expect_ok "$VIMANA_ET" convert text --input "$IN" --output "$T/new/deeper/w" --num-npus 2
for k in 0 1; do
    cmp -s "$T/new/deeper/w.$k.et" "$T/ref/w.$k.et" || fail "created folder / default passes: w.$k.et differs"
done
expect_eq "$(cat "$T/err")" "" "created folder: stderr"

# The old form, with --num_dims: the same bytes and one note.
expect_ok "$VIMANA_ET" convert --input_type Text --input_filename "$IN" --output_filename "$T/old/w" \
    --num_npus 2 --num_passes 1 --num_dims 1
for k in 0 1; do
    cmp -s "$T/old/w.$k.et" "$T/ref/w.$k.et" || fail "old form: w.$k.et differs"
done
expect_eq "$(cat "$T/err")" "vimana-et convert text: note: --num-dims 1 is ignored: the network configuration gives the dimensions" \
    "old form: the --num_dims note"
expect_ok "$VIMANA_ET" convert text --input "$IN" --output "$T/dims/w" --num-npus 2 --num_dims=3
expect_eq "$(cat "$T/err")" "vimana-et convert text: note: --num-dims 3 is ignored: the network configuration gives the dimensions" \
    "new form: the --num_dims note"

# The old form for PyTorch: the bytes of `convert pytorch`; the text-only
# options are dropped with a note each.
expect_ok "$VIMANA_ET" convert pytorch --input "$PTDATA/simulate.json" --output "$T/pt_new.et"
expect_ok "$VIMANA_ET" convert --input_type PyTorch --input_filename "$PTDATA/simulate.json" \
    --output_filename "$T/pt_old.et" --num_npus 2 --num_dims=1
cmp -s "$T/pt_old.et" "$T/pt_new.et" || fail "old form (PyTorch): output differs"
expect_eq "$(cat "$T/err")" "vimana-et convert: note: --num_npus is ignored for PyTorch input
vimana-et convert: note: --num_dims=1 is ignored for PyTorch input" "old form (PyTorch): notes"
expect_error "vimana-et convert: unknown input kind 'FlexFlow' (expected text or pytorch)" \
    "$VIMANA_ET" convert --input_type FlexFlow --input_filename "$IN" --output_filename "$T/x"
expect_error "vimana-et convert: expected \`convert text ...\`, \`convert pytorch ...\` or \`convert --input_type Text|PyTorch ...\` (run \`vimana-et convert --help\`)" \
    "$VIMANA_ET" convert --input_filename "$IN" --output_filename "$T/x"

# The NPU bound: exact error, nothing written.
mkdir "$T/big"
expect_error "vimana-et convert text: --num-npus: at most 1048576 NPUs (one file each), got '4294967296'" \
    limit "$VIMANA_ET" convert text --input "$IN" --output "$T/big/w" --num-npus 4294967296
expect_error "vimana-et convert text: --num-npus: at most 1048576 NPUs (one file each), got '1048577'" \
    limit "$VIMANA_ET" convert text --input "$IN" --output "$T/big/w" --num-npus 1048577
expect_eq "$(ls "$T/big" | wc -l | tr -d ' ')" 0 "files written beyond the bound"

# Not a workload file.
expect_error "/dev/zero: not a regular file (character device)" \
    limit "$VIMANA_ET" convert text --input /dev/zero --output "$T/z/w" --num-npus 2
expect_error "$DATA: is a directory, expected a file" \
    limit "$VIMANA_ET" convert text --input "$DATA" --output "$T/d/w" --num-npus 2
[ -e "$T/z" ] || [ -e "$T/d" ] && fail "an output folder was created for a refused input"
# a pipe is fine: it ends
limit "$VIMANA_ET" convert text --input /dev/stdin --output "$T/pipe/w" --num-npus 2 <"$IN" 2>"$T/err" ||
    fail "workload from a pipe"
cmp -s "$T/pipe/w.0.et" "$T/ref/w.0.et" || fail "workload from a pipe: w.0.et differs"

# --help names the bound and the default.
expect_ok "$VIMANA_ET" convert text --help
grep -q -- '--num-npus N         number of NPUs, 1 to 1048576' "$T/out" || fail "--help lacks the NPU bound"
grep -q -- 'default 1' "$T/out" || fail "--help lacks the --num-passes default"

finish
