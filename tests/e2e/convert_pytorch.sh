#!/bin/sh
# `vimana-et convert pytorch` against the reference converter's outputs in
# shared/corpus/expected/pytorch: byte-identical ETs, and the same refusals.
. "$VIMANA_SRCDIR/tests/e2e/lib.sh"

CORPUS=$REF/corpus
IN=$CORPUS/pytorch
EXP=$CORPUS/expected/pytorch
# tests/data keeps these host traces gzip'd (ref_file gives the plain file)
HOST0=$(ref_file corpus/pytorch/micro2024-demo4/host_0.json)
HOST1=$(ref_file corpus/pytorch/micro2024-demo4/host_1.json)
CT=$(ref_file corpus/pytorch/chakra-tests/1.0.2-chakra.0.0.4.json)
PROG="vimana-et convert pytorch"

# same_bytes OUT EXPECTED: EXPECTED may be gzip'd (compare the plain bytes).
same_bytes() {
    case $2 in
    *.gz) gzip -dc "$2" >"$TEST_TMP/expected.et" ;;
    *) cp "$2" "$TEST_TMP/expected.et" ;;
    esac
    case $1 in
    *.gz) gzip -dc "$1" >"$TEST_TMP/actual.et" ;;
    *) cp "$1" "$TEST_TMP/actual.et" ;;
    esac
    cmp -s "$TEST_TMP/actual.et" "$TEST_TMP/expected.et" || fail "$1 differs from $2"
}

convert_and_compare() { # INPUT EXPECTED [OPTIONS...]
    input=$1 expected=$2
    shift 2
    out=$TEST_TMP/$(basename "$expected" .gz)
    expect_ok "$VIMANA_ET" convert pytorch --input "$input" --output "$out" "$@"
    same_bytes "$out" "$expected"
}

convert_and_compare "$IN/param/pt2_et.json" "$EXP/pt2_et/pt2_et.et"
convert_and_compare "$CT" "$EXP/1.0.2-chakra.0.0.4/1.0.2-chakra.0.0.4.et"
convert_and_compare "$HOST0" "$EXP/host_0/host_0.et.gz"
convert_and_compare "$HOST1" "$EXP/host_1/host_1.et.gz"
# The reference read the decompressed file; Vimana also reads the .gz itself
# (ResNet, 14392 nodes: its 0.9 MB of trace and reference are only in ../shared).
if have_shared; then
    gzip -dc "$IN/param/resnet_2gpu_et.json.gz" >"$TEST_TMP/resnet_2gpu_et.json"
    convert_and_compare "$TEST_TMP/resnet_2gpu_et.json" "$EXP/resnet_2gpu_et/resnet_2gpu_et.et.gz"
    convert_and_compare "$IN/param/resnet_2gpu_et.json.gz" "$EXP/resnet_2gpu_et/resnet_2gpu_et.et.gz"
fi

# The Vimana additions (SEND/RECV peers, timestamp-checked sync_dep) are on
# by default; none of these traces has a SEND/RECV kernel or a sync_dep, so
# --compat (the reference's behaviour) must give the very same bytes.
convert_and_compare "$HOST0" "$EXP/host_0/host_0.et.gz" --compat
convert_and_compare "$IN/param/pt2_et.json" "$EXP/pt2_et/pt2_et.et" --no-sync-deps --no-p2p-peers

# gzip output, reference option spellings, log file
expect_ok "$VIMANA_ET" convert pytorch --input_filename "$HOST1" \
    --output_filename "$TEST_TMP/host_1.et.gz" --log-filename "$TEST_TMP/convert.log"
same_bytes "$TEST_TMP/host_1.et.gz" "$EXP/host_1/host_1.et.gz"
grep -q "^INFO wrote 4796 nodes to $TEST_TMP/host_1.et.gz\$" "$TEST_TMP/convert.log" || fail "log lacks the summary"
grep -q "^INFO converted 4797 nodes, removed 1 dangling\$" "$TEST_TMP/convert.log" || fail "log lacks the counts"

# --simulate: host-only traces have no durations, so each of the 4800 CPU
# nodes holds the CPU for the reference's minimum step of 1 us.
expect_ok "$VIMANA_ET" convert pytorch --input "$HOST0" --output "$TEST_TMP/h0.et" --simulate
expect_eq "$(cat "$TEST_TMP/out")" "simulated length: 4800 us (4800 CPU nodes, 0 GPU nodes on 0 streams)" "host_0 --simulate"
same_bytes "$TEST_TMP/h0.et" "$EXP/host_0/host_0.et.gz"

# The reference rejects schema 1.0.1 (expected/pytorch/*/converter_error.txt);
# Vimana does too, in one line naming the file and the version.
supported="supported: 1.0.2-chakra.0.0.4, 1.0.3-chakra.0.0.4, 1.1.0-chakra.0.0.4, 1.1.1-chakra.0.0.4, 1.1.1-chakra.1.0.0"
for f in "$EXP/dlrm_eg_0/dlrm_eg_0.trace_link.json.gz" "$IN/hta/benchmark_simple_add_et.json.gz"; do
    expect_error "$PROG: $f: unsupported schema version '1.0.1' (the old flat host-trace format, which the reference converter rejects too; $supported)" \
        "$VIMANA_ET" convert pytorch --input "$f" --output "$TEST_TMP/rejected.et"
    [ "$(wc -l <"$TEST_TMP/err")" -eq 1 ] || fail "more than one line on stderr for $f"
    [ ! -e "$TEST_TMP/rejected.et" ] || fail "an output was written for $f"
done

finish
