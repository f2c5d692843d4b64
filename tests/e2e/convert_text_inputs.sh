#!/bin/sh
# `vimana-et convert text` on hand-made inputs (tests/data/text): malformed
# files get one exact FILE:LINE message, exit 1 and no output files; the
# warnings, --omit-none and the command line behave as documented in
# docs/convert-text.md.
. "$VIMANA_SRCDIR/tests/e2e/lib.sh"

DATA=$VIMANA_SRCDIR/tests/data/text
OUT=$TEST_TMP/files
mkdir -p "$OUT"

convert() { # INPUT [OPTION...]: 4 NPUs, 1 pass, into $OUT/w
    input=$1
    shift
    "$VIMANA_ET" convert text --input "$input" --output "$OUT/w" --num-npus 4 --num-passes 1 "$@"
}

# expect_input_error FILE MESSAGE: exit status 1, exactly MESSAGE, no files.
expect_input_error() {
    expect_error "$DATA/$1$2" convert "$DATA/$1"
    "$VIMANA_ET" convert text --input "$DATA/$1" --output "$OUT/w" --num-npus 4 --num-passes 1 2>/dev/null
    expect_eq "$?" 1 "$1: exit status"
    expect_eq "$(ls "$OUT" | wc -l | tr -d ' ')" 0 "$1: files left behind"
}

# -- malformed inputs
expect_input_error short_line.txt ":4: expected the weight-gradient comm type (ALLREDUCE, ALLTOALL, ALLGATHER, REDUCESCATTER or NONE) in column 10, got end of line"
expect_input_error bad_integer.txt ":4: expected the weight-gradient comm size (a non-negative integer) in column 11, got '64KB'"
expect_input_error blank_middle.txt ":4: expected a layer line, got a blank line (blank lines are allowed only at the end of the file)"
expect_input_error unknown_comm.txt ":4: expected the forward comm type (ALLREDUCE, ALLTOALL, ALLGATHER, REDUCESCATTER or NONE) in column 4, got 'ALL_GATHER'"
expect_input_error dlrm_forward_not_alltoall.txt ":3: expected ALLTOALL as the first layer's forward comm type in column 4 (HYBRID_DLRM: the last bottom-MLP layer, 2, waits for it), got 'ALLREDUCE'"
expect_error "$DATA/no_such_file.txt: cannot open: No such file or directory" convert "$DATA/no_such_file.txt"

# -- trailing blank lines are ignored (the reference crashes on them)
expect_ok convert "$DATA/blank_trailing.txt"
expect_eq "$(cat "$TEST_TMP/err")" "" "blank_trailing.txt: stderr"
expect_eq "$(ls "$OUT" | wc -l | tr -d ' ')" 4 "blank_trailing.txt: number of files"
rm -f "$OUT"/*

# -- header count mismatch: a warning naming both numbers, files written
expect_ok convert "$DATA/header_mismatch.txt"
expect_eq "$(cat "$TEST_TMP/err")" "$DATA/header_mismatch.txt:2: warning: the header declares 2 layers but 3 layer lines follow; as in the reference, layer 'fc2' (line 4) gets no input-gradient comm node instead of the first layer, and the layer before it does not depend on one (the reference crashes there)" "header_mismatch.txt: warning"
expect_eq "$(ls "$OUT" | wc -l | tr -d ' ')" 4 "header_mismatch.txt: number of files"
rm -f "$OUT"/*

# -- --omit-none: the NONE collectives (0-byte ALL_REDUCEs by default) go away
none_nodes() { grep -a -o 'COMM_COLL_NODE_fc[0-9]_NONE' "$1" | wc -l | tr -d ' '; }
expect_ok convert "$DATA/none_comm.txt"
expect_eq "$(none_nodes "$OUT/w.0.et")" 2 "none_comm.txt: NONE collectives by default"
expect_ok convert "$DATA/none_comm.txt" --omit-none
expect_eq "$(none_nodes "$OUT/w.0.et")" 0 "none_comm.txt: NONE collectives with --omit-none"
expect_eq "$(grep -a -o 'COMM_COLL_NODE_fc[0-9]_ALLREDUCE' "$OUT/w.0.et" | wc -l | tr -d ' ')" 3 \
    "none_comm.txt: other collectives with --omit-none"
rm -f "$OUT"/*

# -- command line
expect_ok "$VIMANA_ET" convert text --help
grep -q -- '--num-passes P' "$TEST_TMP/out" || fail "--help does not describe --num-passes"
expect_error "vimana-et convert text: missing --num-npus (run \`vimana-et convert text --help\`)" \
    "$VIMANA_ET" convert text --input "$DATA/none_comm.txt" --output "$OUT/w" --num-passes 1
expect_error "vimana-et convert text: --num-npus: expected a positive integer, got '0'" \
    "$VIMANA_ET" convert text --input "$DATA/none_comm.txt" --output "$OUT/w" --num-npus 0 --num-passes 1
expect_error "vimana-et convert text: unknown argument '--bogus' (run \`vimana-et convert text --help\`)" \
    convert "$DATA/none_comm.txt" --bogus
# the output folder is created (convert_text_upstream.sh), unless a file is in the way
expect_error "vimana-et convert text: $DATA/none_comm.txt: cannot create the output folder: a file of that name exists" \
    "$VIMANA_ET" convert text --input "$DATA/none_comm.txt" --output "$DATA/none_comm.txt/w" --num-npus 2

finish
