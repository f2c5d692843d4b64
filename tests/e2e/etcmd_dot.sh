#!/bin/sh
# vimana-et dot: labels, solid data edges, dashed control edges, dotted
# missing parents, escaping; and Graphviz parses it when installed.
. "$VIMANA_SRCDIR/tests/e2e/lib.sh"
ET=$VIMANA_ET
T=$TEST_TMP

expect_ok "$ET" generate three-nodes --npus 1 --out "$T/h"
expect_ok "$ET" dot "$T/h.0.et" -o "$T/h.dot"
cat > "$T/want" <<WANT
digraph "$T/h.0.et" {
  node [shape=box, fontname="Helvetica"];
  n1 [label="1: All-Reduce-1MB\\nCOMM_COLL_NODE ALL_REDUCE\\n1048576 bytes"];
  n2 [label="2: All-Gather-2MB\\nCOMM_COLL_NODE ALL_GATHER\\n2097152 bytes"];
  n1 -> n2;
  n3 [label="3: Compute-50us\\nCOMP_NODE\\n50 us"];
  n1 -> n3;
}
WANT
cmp -s "$T/h.dot" "$T/want" || { fail "three-nodes DOT"; diff "$T/want" "$T/h.dot" >&2; }

cat > "$T/g.json" <<'JSON'
{"global_metadata": {}, "nodes": [
 {"id": "5", "name": "say \"hi\" \\ back\nslash", "type": "MEM_LOAD_NODE", "ctrl_deps": ["2"],
  "attr": [{"name": "tensor_size", "uint64_val": "4096"}]},
 {"id": "6", "name": "raw \u00e9 \udcff", "type": "COMM_SEND_NODE", "data_deps": ["5"], "duration_micros": "3",
  "attr": [{"name": "comm_size", "int64_val": "64"}]}
]}
JSON
expect_ok "$ET" from-json "$T/g.json" -o "$T/g.et"
expect_ok "$ET" dot "$T/g.et"
cat > "$T/want" <<WANT
digraph "$T/g.et" {
  node [shape=box, fontname="Helvetica"];
  n5 [label="5: say \\"hi\\" \\\\ back\\nslash\\nMEM_LOAD_NODE\\n4096 bytes"];
  n2 -> n5 [style=dashed];
  n6 [label="6: raw é ?\\nCOMM_SEND_NODE\\n64 bytes\\n3 us"];
  n5 -> n6;
  n2 [label="2 (missing)", style=dotted];
}
WANT
cmp -s "$T/out" "$T/want" || { fail "escaped DOT"; diff "$T/want" "$T/out" >&2; }

expect_error "vimana-et dot: more than one input file ('a' and 'b'); dot draws one rank" "$ET" dot a b
expect_error "$T/none.et: cannot open: No such file or directory" "$ET" dot "$T/none.et"

if command -v dot > /dev/null 2>&1; then
    dot -Tsvg "$T/h.dot" -o "$T/h.svg" || fail "dot -Tsvg refused the three-nodes graph"
    "$ET" dot "$T/g.et" | dot -Tsvg -o "$T/g.svg" || fail "dot -Tsvg refused the escaped graph"
    grep -q '<svg' "$T/h.svg" || fail "no SVG"
    if [ -d "$VIMANA_SHARED/golden" ]; then
        "$ET" dot "$VIMANA_SHARED/corpus/et/astra-sim-custom-collectives/custom_allreduce.0.et" |
            dot -Tsvg -o "$T/c.svg" || fail "dot -Tsvg refused the custom collective graph"
    fi
fi
finish
