#!/bin/sh
# vimana-et generate transformer writes the same bytes as before its writer
# was rewritten to encode protobuf directly: the SHA-256 of every config's
# ETs (rank order) followed by its groups file must equal the one main's
# version (c3aa23c, vet_builder + protobuf-c) wrote, kept in
# tests/data/transformer/main-c3aa23c.sha256 -- except `sp`, whose line was
# rewritten when the --sp all-gathers became the rank's 1/T slice (each
# rank's input, as the simulator reads it) and again when its pipeline
# messages did (the sequence is split over TP). The configs cover 1F1B, GPipe,
# buckets, SP, uneven sizes (T = P = 3), ranks of 25 089 nodes (3-byte
# varint ids and deps), both devices and fp16.
. "$VIMANA_SRCDIR/tests/e2e/gen_lib.sh"
TINY="--layers 2 --hidden 64 --heads 4 --ffn 256 --seq 16 --vocab 100 --micro-batch 1"
GPT="--layers 24 --hidden 4096 --heads 32 --ffn 16384 --seq 2048 --vocab 51200 --micro-batch 1"
cat >"$T/configs" <<CONFIGS
tiny $TINY --global-batch 4 --tp 2 --pp 2 --dp 2
gpipe $TINY --global-batch 8 --tp 2 --pp 2 --dp 2 --schedule gpipe
buckets --layers 4 --hidden 64 --heads 4 --ffn 256 --seq 16 --vocab 100 --micro-batch 1 --global-batch 4 --tp 2 --pp 2 --dp 2 --dp-buckets 2
sp $TINY --global-batch 4 --tp 2 --pp 2 --dp 2 --sp
odd --layers 12 --hidden 96 --heads 6 --ffn 288 --seq 32 --vocab 120 --micro-batch 2 --global-batch 48 --tp 3 --pp 3 --dp 2 --dp-buckets 4
long $GPT --global-batch 256 --tp 2 --pp 2 --dp 1 --device a100 --efficiency 0.3
big --layers 1 --hidden 4096 --heads 32 --ffn 16384 --seq 2048 --vocab 51200 --micro-batch 1 --global-batch 1 --tp 1 --pp 1 --dp 1 --precision fp16
CONFIGS
while read -r name args; do
    # shellcheck disable=SC2086
    # the roofline and full pipeline messages, which every config here was written with
    expect_ok "$ET" generate transformer $args --compute-model roofline --pp-scatter-gather off --overlap-param-gather off --out "$T/$name/g"
    n=$(ls "$T/$name" | grep -c '\.et$')
    r=0
    while [ $r -lt "$n" ]; do
        cat "$T/$name/g.$r.et"
        r=$((r + 1))
    done | cat - "$T/$name/g.groups.json" | sha256sum | sed "s/ .*//; s/^/$name $n /"
done <"$T/configs" >"$T/got"
cmp -s "$T/got" "$VIMANA_SRCDIR/tests/data/transformer/main-c3aa23c.sha256" ||
    { fail "output bytes changed"; diff "$VIMANA_SRCDIR/tests/data/transformer/main-c3aa23c.sha256" "$T/got" >&2; }
finish
