#!/bin/sh
# vimana-et json / from-json: the corpus' decoded-JSON files byte for byte,
# ET -> JSON -> ET byte-identical, and errors that name file and JSON path.
. "$VIMANA_SRCDIR/tests/e2e/lib.sh"
ET=$VIMANA_ET
T=$TEST_TMP

# A small document round trip, through gzip on both sides.
expect_ok "$ET" generate three-nodes --npus 1 --out "$T/h"
expect_ok "$ET" json "$T/h.0.et" -o "$T/h.json.gz"
expect_ok "$ET" from-json "$T/h.json.gz" -o "$T/back.et.gz"
expect_ok "$ET" json "$T/back.et.gz" --output="$T/back.json"
expect_ok "$ET" json "$T/h.0.et"
cmp -s "$T/out" "$T/back.json" || fail "gzip round trip"
head -n 7 "$T/out" | tr '\n' '|' > "$T/head"
expect_eq "$(cat "$T/head")" '{| "global_metadata": {|  "version": "0.0.4"| },| "nodes": [|  {|   "id": "1",|' "layout"

# from-json: one-line errors naming the file and the JSON path.
j() { printf '%s\n' "$1" > "$T/bad.json"; }
# refused JSON WHY: from-json of the document JSON fails with the one line
# "$T/bad.json: WHY".
refused() {
    j "$1"
    expect_error "$T/bad.json: $2" "$ET" from-json "$T/bad.json" -o "$T/bad.et"
}
refused '{"global_metadata": {}, "nodes": [{"id": "1"}, {"id": "2", "attr": [{"name": "a", "int64_val": "1"}, {"name": "b", "int65_val": 3}]}]}' "nodes[1].attr[1]: unknown value kind \"int65_val\""
[ -f "$T/bad.et" ] && fail "a failed from-json left its output behind"
refused '{"global_metadata": {"version": 4}, "nodes": []}' "global_metadata.version: expected a string, got a number"
refused '{"global_metadata": {}, "nodes": [{"type": "COMP_NODE", "duration_micros": "-5"}]}' "nodes[0].duration_micros: -5 is out of range for an unsigned 64-bit integer"
refused '{"global_metadata": {}, "nodes": [{"ctrl_deps": ["1", "x"]}]}' "nodes[0].ctrl_deps[1]: expected an integer, got \"x\""
refused '{"global_metadata": {}, "nodes": [{"inputs": {"values": "v", "sizes": "s"}}]}' "nodes[0].inputs: unknown key \"sizes\" (expected values, shapes or types)"
refused '{"nodes": [], "global_metadata": {}}' "global_metadata: must come before \"nodes\" and only once"
refused '{"global_metadata": {}, "edges": []}' "unknown key \"edges\" (expected global_metadata and nodes)"
refused '{"global_metadata": {}, "nodes": [{"id": 1} {"id": 2}]}' "line 1, column 45: expected ',' or ']' after a node, found '{'"
refused '{"global_metadata": {}, "nodes": []} x' "line 1, column 38: unexpected data after the end of the document"
printf '{"global_metadata": {"version": "0.0' > "$T/bad.json"
expect_error "$T/bad.json: line 1, column 37: unterminated string" "$ET" from-json "$T/bad.json" -o "$T/bad.et"
expect_error "vimana-et from-json: missing -o OUT.et (see --help)" "$ET" from-json "$T/bad.json"
expect_error "$T/none.json: cannot open: No such file or directory" "$ET" from-json "$T/none.json" -o "$T/x.et"
# An empty document is an ET with an empty GlobalMetadata.
j '{}'
expect_ok "$ET" from-json "$T/bad.json" -o "$T/empty.et"
expect_eq "$(od -An -tx1 "$T/empty.et" | tr -d ' \n')" "00" "empty document"

# json: reader errors pass through unchanged.
: > "$T/empty_file.et"
expect_error "$T/empty_file.et: empty file: a Chakra ET starts with a GlobalMetadata record" "$ET" json "$T/empty_file.et"
expect_error "vimana-et json: more than one input file ('a' and 'b')" "$ET" json a b
expect_error "vimana-et json: missing the input file (see --help)" "$ET" json


# Every corpus and golden ET is checked in-process by test_etcmd_corpus;
# here a sample goes through the command line: one file of each corpus
# directory (the gzip'd reference JSON included) and of a few golden cases.
C=$REF/corpus
for f in astra-sim-custom-collectives/custom_allreduce.3.et \
         astra-sim-microbenchmarks/reduce_scatter/4npus_1MB/reduce_scatter.1.et \
         chakra-generator/one_metadata_node_all_types.0.et chakra-generator/BARRIER.1.et \
         micro2024-demo1/allreduce.0.et micro2024-demo2/MLP_ModelParallel.17.et micro2024-demo3/allreduce.7.et; do
    expect_ok "$ET" json "$C/et/$f" -o "$T/got.json"
    cmp -s "$T/got.json" "$(ref_file "corpus/expected/et/$f.json")" || fail "json $f differs from the reference"
    expect_ok "$ET" from-json "$T/got.json" -o "$T/got.et"
    cmp -s "$T/got.et" "$C/et/$f" || fail "ET -> JSON -> ET changed $f"
done
CH=$(ref_file corpus/et/chakra-tests/chakra.0.et)
expect_ok "$ET" json "$CH" -o "$T/chakra.json"
# The reference JSON of chakra.0.et (199 KB gzip'd) is only in ../shared.
if have_shared; then
    gzip -dc "$C/expected/et/chakra-tests/chakra.0.et.json.gz" | cmp -s "$T/chakra.json" - || fail "json chakra.0.et"
    expect_ok "$ET" from-json "$C/expected/et/chakra-tests/chakra.0.et.json.gz" -o "$T/chakra.et"
else
    expect_ok "$ET" from-json "$T/chakra.json" -o "$T/chakra.et"
fi
cmp -s "$T/chakra.et" "$CH" || fail "chakra.0.et JSON -> ET"
G=$REF/golden/inputs/workload
for f in send_0to3_1MiB_8/send_0to3_1MiB_8.3.et ctrl_dep_ag_64KiB_2/ctrl_dep_ag_64KiB_2.1.et \
         roofline_2/roofline_2.0.et ar_1MiB_8_groups/ar_1MiB_8_groups.5.et; do
    expect_ok "$ET" json "$G/$f" -o "$T/g.json"
    expect_ok "$ET" from-json "$T/g.json" -o "$T/g.et"
    cmp -s "$T/g.et" "$G/$f" || fail "ET -> JSON -> ET changed $f"
done

for f in "$C"/et/chakra-old-standard_output/*.et; do
    expect_error "$f: record 0 (byte offset 0): pre-0.0.4 Chakra file (schema too old): the first record is a Node, not a GlobalMetadata; regenerate it with Chakra 0.0.4 or later" \
        "$ET" json "$f"
done
finish
