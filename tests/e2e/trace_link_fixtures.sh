#!/bin/sh
# vimana-et link on the hand-built fixtures of tests/data/trace_link: the
# output must equal the checked-in expected files byte for byte (their key
# values are derived by hand in tests/data/trace_link/README.md), also with
# gzip input and output, and with the reference spellings of the options.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

DATA="$VIMANA_SRCDIR/tests/data/trace_link"

for c in simple threads dp_rank0 dp_rank1; do
    expect_ok "$VIMANA_ET" link --host-trace "$DATA/${c}_host.json" --device-trace "$DATA/${c}_kineto.json" \
        --output "$TEST_TMP/$c.json"
    cmp -s "$TEST_TMP/$c.json" "$DATA/expected/$c.json" || fail "$c: output differs from expected/$c.json"
done

# Reference spellings (chakra_trace_link and the 2024 names), --exact-match
# on a pair where every host op has its Kineto op.
expect_ok "$VIMANA_ET" link --rank 0 --chakra-host-trace "$DATA/simple_host.json" \
    --chakra-device-trace "$DATA/simple_kineto.json" --output-file "$TEST_TMP/ref.json" --log-level INFO
cmp -s "$TEST_TMP/ref.json" "$DATA/expected/simple.json" || fail "reference spellings: output differs"
expect_ok "$VIMANA_ET" link --pytorch-et-file="$DATA/dp_rank1_host.json" --kineto-file="$DATA/dp_rank1_kineto.json" \
    --output-file="$TEST_TMP/eq.json" --exact-match --rank=1
cmp -s "$TEST_TMP/eq.json" "$DATA/expected/dp_rank1.json" || fail "--exact-match: output differs"
grep -q 'linked' "$TEST_TMP/err" && fail "summary printed below --log-level INFO"

# gzip in, gzip out.
gzip -c "$DATA/dp_rank0_host.json" >"$TEST_TMP/h.json.gz"
gzip -c "$DATA/dp_rank0_kineto.json" >"$TEST_TMP/k.json.gz"
expect_ok "$VIMANA_ET" link --et-file "$TEST_TMP/h.json.gz" --kineto-trace-file "$TEST_TMP/k.json.gz" \
    --output "$TEST_TMP/o.json.gz"
gzip -dc "$TEST_TMP/o.json.gz" | cmp -s - "$DATA/expected/dp_rank0.json" || fail "gzip round trip differs"

# The NCCL kernel carries its process group; the sync rule made aten::item
# wait for the last kernel of each stream.
grep -q '"pg_name": "0"' "$DATA/expected/dp_rank0.json" || fail "pg_name missing"
expect_eq "$(grep -c '"sync_dep"' "$DATA/expected/dp_rank0.json")" 1 "sync_dep nodes in dp_rank0"

# --help documents the sync-dependency policy.
expect_ok "$VIMANA_ET" link --help
grep -q 'does not run HTA' "$TEST_TMP/out" || fail "--help lacks the sync-dependency policy"

finish
