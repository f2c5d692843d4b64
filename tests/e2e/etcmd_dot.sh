#!/bin/sh
# vimana-et dot: labels, solid data edges, dashed control edges, dotted
# missing parents, escaping; GraphML; SVG, PDF and PNG drawn through
# libgvc; the format by extension or --format; and Graphviz's `dot`
# program parses the DOT text when installed.
. "$VIMANA_SRCDIR/tests/e2e/lib.sh"
ET=$VIMANA_ET
T=$TEST_TMP

# dot_legend LINE...: the legend subgraph of the node kinds LINE... and the
# end of the graph, as vimana-et dot writes them.
dot_legend() {
    echo '  subgraph cluster_legend {'
    echo '    label="node kinds"; fontname="Helvetica"; fontsize=10;'
    for line in "$@"; do
        echo "    $line"
    done
    echo '  }'
    echo '}'
}

expect_ok "$ET" generate three-nodes --npus 1 --out "$T/h"
expect_ok "$ET" dot "$T/h.0.et" -o "$T/h.dot"
{ cat <<WANT
digraph "$T/h.0.et" {
  graph [ranksep=0.2, nodesep=0.15];
  node [shape=box, style=filled, fontname="Helvetica", fontsize=10, margin="0.06,0.02", height=0.3];
  n1 [label="1: All-Reduce-1MB\\nCOMM_COLL_NODE ALL_REDUCE, 1048576 bytes", fillcolor="#d9ead3"];
  n2 [label="2: All-Gather-2MB\\nCOMM_COLL_NODE ALL_GATHER, 2097152 bytes", fillcolor="#d9ead3"];
  n1 -> n2;
  n3 [label="3: Compute-50us\\nCOMP_NODE, 50 us", fillcolor="#cfe2f3"];
  n1 -> n3;
WANT
  dot_legend 'legend_0 [label="compute (COMP_NODE)", fillcolor="#cfe2f3"];' \
    'legend_2 [label="collective (COMM_COLL_NODE)", fillcolor="#d9ead3"];'
} > "$T/want"
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
{ cat <<WANT
digraph "$T/g.et" {
  graph [ranksep=0.2, nodesep=0.15];
  node [shape=box, style=filled, fontname="Helvetica", fontsize=10, margin="0.06,0.02", height=0.3];
  n5 [label="5: say \\"hi\\" \\\\ back\\nslash\\nMEM_LOAD_NODE, 4096 bytes", fillcolor="#fff2cc"];
  n2 -> n5 [style=dashed];
  n6 [label="6: raw é ?\\nCOMM_SEND_NODE, 64 bytes, 3 us", fillcolor="#fce5cd"];
  n5 -> n6;
  n2 [label="2 (missing)", style=dotted];
WANT
  dot_legend 'legend_1 [label="send / recv (COMM_SEND_NODE, COMM_RECV_NODE)", fillcolor="#fce5cd"];' \
    'legend_3 [label="memory (MEM_LOAD_NODE, MEM_STORE_NODE)", fillcolor="#fff2cc"];'
} > "$T/want"
cmp -s "$T/out" "$T/want" || { fail "escaped DOT"; diff "$T/want" "$T/out" >&2; }

# GraphML: by extension or --format; names escaped for XML; data and
# control edges told apart; missing parents marked.
expect_ok "$ET" dot "$T/g.et" -o "$T/g.graphml"
cat > "$T/want" <<WANT
<?xml version="1.0" encoding="UTF-8"?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="id" for="node" attr.name="id" attr.type="string"/>
  <key id="name" for="node" attr.name="name" attr.type="string"/>
  <key id="type" for="node" attr.name="type" attr.type="string"/>
  <key id="missing" for="node" attr.name="missing" attr.type="boolean"><default>false</default></key>
  <key id="repeat" for="node" attr.name="repeat" attr.type="int"><default>1</default></key>
  <key id="dependency" for="edge" attr.name="dependency" attr.type="string"/>
  <graph id="$T/g.et" edgedefault="directed">
    <node id="n5"><data key="id">5</data><data key="name">say &quot;hi&quot; \\ back&#10;slash</data><data key="type">MEM_LOAD_NODE</data></node>
    <edge source="n2" target="n5"><data key="dependency">control</data></edge>
    <node id="n6"><data key="id">6</data><data key="name">raw é ?</data><data key="type">COMM_SEND_NODE</data></node>
    <edge source="n5" target="n6"><data key="dependency">data</data></edge>
    <node id="n2"><data key="id">2</data><data key="missing">true</data></node>
  </graph>
</graphml>
WANT
cmp -s "$T/g.graphml" "$T/want" || { fail "GraphML"; diff "$T/want" "$T/g.graphml" >&2; }
expect_ok "$ET" dot "$T/g.et" --format graphml
cmp -s "$T/out" "$T/want" || fail "--format graphml on stdout differs from the .graphml file"
printf '{"global_metadata": {}, "nodes": [{"id": "1", "name": "a<b>&c", "type": "COMP_NODE"}]}' > "$T/x.json"
expect_ok "$ET" from-json "$T/x.json" -o "$T/x.et"
expect_ok "$ET" dot "$T/x.et" --format=graphml
grep -qxF '    <node id="n1"><data key="id">1</data><data key="name">a&lt;b&gt;&amp;c</data><data key="type">COMP_NODE</data></node>' \
    "$T/out" || fail "GraphML markup characters"

# Drawings through libgvc, by extension (no `dot` program involved).
expect_ok "$ET" dot "$T/h.0.et" -o "$T/h.svg"
grep -q '<svg' "$T/h.svg" || fail "the .svg is not SVG"
for want in '<title>n1</title>' '<title>n3</title>' '>1: All&#45;Reduce&#45;1MB</text>' '>3: Compute&#45;50us</text>'; do
    grep -qF -- "$want" "$T/h.svg" || fail "the SVG lacks $want"
done
expect_ok "$ET" dot "$T/h.0.et" -o "$T/h.pdf"
expect_eq "$(head -c 5 "$T/h.pdf")" "%PDF-" "PDF magic"
expect_ok "$ET" dot "$T/h.0.et" -o "$T/h.png"
expect_eq "$(head -c 8 "$T/h.png" | od -An -tx1 | tr -d ' \n')" "89504e470d0a1a0a" "PNG magic"
expect_ok "$ET" dot "$T/h.0.et" --format pdf
expect_eq "$(head -c 5 "$T/out")" "%PDF-" "--format pdf on stdout"
# --format wins over the extension; .gz compresses the text forms.
expect_ok "$ET" dot "$T/h.0.et" -o "$T/h.txt" --format dot
cmp -s "$T/h.txt" "$T/h.dot" || fail "--format dot into h.txt"
expect_ok "$ET" dot "$T/h.0.et" -o "$T/h.gv.gz"
gzip -dc "$T/h.gv.gz" | cmp -s - "$T/h.dot" || fail ".gv.gz is not the gzipped DOT"

expect_error "vimana-et dot: $T/h.xyz: cannot tell the output format from its extension (expected .dot, .gv, .graphml, .svg, .pdf or .png, or give --format)" \
    "$ET" dot "$T/h.0.et" -o "$T/h.xyz"
expect_eq "$(wc -l < "$T/err" | tr -d ' ')" 1 "unknown extension: lines on stderr"
[ -e "$T/h.xyz" ] && fail "an output was written for an unknown extension"
expect_error "vimana-et dot: $T/h.pdf.gz: cannot tell the output format from its extension (expected .dot, .gv, .graphml, .svg, .pdf or .png, or give --format)" \
    "$ET" dot "$T/h.0.et" -o "$T/h.pdf.gz"
expect_error "vimana-et dot: $T/graph: cannot tell the output format from its extension (expected .dot, .gv, .graphml, .svg, .pdf or .png, or give --format)" \
    "$ET" dot "$T/h.0.et" -o "$T/graph"
expect_error "vimana-et dot: --format: expected dot, graphml, svg, pdf or png, got 'jpeg'" \
    "$ET" dot "$T/h.0.et" --format jpeg

# Drawings are bounded: 501 nodes are refused before Graphviz runs (its
# layout grows faster than the square of the graph); 500 are drawn.
awk 'BEGIN { printf "{\"global_metadata\": {}, \"nodes\": ["
             for (i = 1; i <= 501; i++) printf "%s{\"id\": \"%d\", \"type\": \"COMP_NODE\"}", (i > 1 ? ", " : ""), i
             print "]}" }' > "$T/n501.json"
expect_ok "$ET" from-json "$T/n501.json" -o "$T/n501.et"
expect_error "vimana-et dot: error: $T/n501.et: 501 nodes are too many to draw (at most 500; Graphviz's layout would take minutes or hours): write .dot and run Graphviz's dot, or .graphml" \
    "$ET" dot "$T/n501.et" -o "$T/n501.svg"
[ -e "$T/n501.svg" ] && fail "an output was written for a graph too large to draw"
expect_ok "$ET" dot "$T/n501.et" -o "$T/n501.graphml"
sed 's/, {"id": "501", "type": "COMP_NODE"}//' "$T/n501.json" > "$T/n500.json"
expect_ok "$ET" from-json "$T/n500.json" -o "$T/n500.et"
expect_ok "$ET" dot "$T/n500.et" -o "$T/n500.svg"
expect_eq "$(grep -c '<title>n[0-9]*</title>' "$T/n500.svg")" 500 "nodes drawn of 500"
expect_eq "$(grep -c '<title>legend_[0-9]*</title>' "$T/n500.svg")" 1 "the legend of 500 compute nodes"

# ---- a real trace: colours by kind, a legend, --name, a bounded layout
# The 262-node PyTorch trace (tests/data copy of the corpus file): 261
# compute nodes filled blue, one metadata node grey, and a legend of the
# two kinds drawn (clustered apart from the graph).
PT=$REF/corpus/expected/pytorch/1.0.2-chakra.0.0.4/1.0.2-chakra.0.0.4.et
expect_ok "$ET" dot "$PT" -o "$T/pt.dot"
expect_eq "$(grep -c '^  n[0-9]* \[label=.*COMP_NODE.*fillcolor="#cfe2f3"\];$' "$T/pt.dot")" 261 "PyTorch: compute nodes in blue"
expect_eq "$(grep -c '^  n[0-9]* \[label=.*METADATA_NODE", fillcolor="#eeeeee"\];$' "$T/pt.dot")" 1 "PyTorch: the metadata node in grey"
expect_eq "$(sed -n '/subgraph cluster_legend/,$p' "$T/pt.dot")" '  subgraph cluster_legend {
    label="node kinds"; fontname="Helvetica"; fontsize=10;
    legend_0 [label="compute (COMP_NODE)", fillcolor="#cfe2f3"];
    legend_4 [label="metadata (METADATA_NODE)", fillcolor="#eeeeee"];
  }
}' "PyTorch: the legend"
# --name keeps the nodes whose name holds the text and only the edges
# between two kept nodes: 20 of the 262 hold "detach" (aten::detach_ and
# detach_, in 10 pairs, each detach_ a data child of its aten::detach_).
expect_ok "$ET" dot "$PT" --name detach -o "$T/detach.dot"
expect_eq "$(grep -c '^  n[0-9]* \[' "$T/detach.dot")" 20 "--name detach: nodes"
expect_eq "$(grep -c -- '->' "$T/detach.dot")" 10 "--name detach: edges"
expect_eq "$(grep -c -- '-> .*dashed' "$T/detach.dot")" 0 "--name detach: no control edge from the filtered-out root"
grep -qxF '  n9 -> n10;' "$T/detach.dot" || fail "--name detach: the edge aten::detach_ -> detach_"
expect_eq "$(grep -c '^    legend_' "$T/detach.dot")" 1 "--name detach: the legend names only compute"
# A parent missing from the file still shows; one filtered out does not.
expect_ok "$ET" dot "$T/g.et" --name say
expect_eq "$(grep -c '^  n[0-9]* \[' "$T/out")" 2 "--name say: the node and its missing parent"
grep -qxF '  n2 [label="2 (missing)", style=dotted];' "$T/out" || fail "--name say: the missing parent"
expect_ok "$ET" dot "$T/g.et" --name raw
expect_eq "$(grep -c -- '->' "$T/out")" 0 "--name raw: no edge from the filtered-out parent"
expect_error "vimana-et dot: error: $T/g.et: no node's name contains 'nothing'" "$ET" dot "$T/g.et" --name nothing
# The drawing (libgvc) is no 23000-pt strip any more: two label lines,
# 10-pt type and tight ranks (before: 3593 x 23275 pt).
expect_ok "$ET" dot "$PT" -o "$T/pt.svg"
h=$(sed -n 's/^<svg width="[0-9]*pt" height="\([0-9]*\)pt"$/\1/p' "$T/pt.svg")
[ "${h:-99999}" -lt 11000 ] || fail "PyTorch drawing: $h pt high (expected under 11000)"

# ---- --collapse: a generated training step (8 layers, 4 micro-batches
# of forward and backward: 266 nodes) draws each layer block once: the 8
# layers of a pass (4 nodes each: attention, its TP all-reduce, MLP, its
# TP all-reduce) become the first layer's 4 nodes marked x8.
expect_ok "$ET" generate transformer --layers 8 --hidden 1024 --heads 16 --ffn 4096 --seq 1024 --vocab 32000 \
    --micro-batch 1 --global-batch 8 --tp 2 --pp 1 --dp 2 --out "$T/tf/t"
expect_ok "$ET" dot "$T/tf/t.0.et" -o "$T/tf.dot"
expect_eq "$(grep -c '^  n[0-9]* \[' "$T/tf.dot")" 266 "training step: nodes"
expect_ok "$ET" dot "$T/tf/t.0.et" --collapse -o "$T/tfc.dot"
expect_eq "$(grep -c '^  n[0-9]* \[' "$T/tfc.dot")" 42 "--collapse: nodes"
expect_eq "$(grep -c '×8.*peripheries=2\];$' "$T/tfc.dot")" 32 "--collapse: 8 passes x 4 nodes stand for 8 layers"
expect_eq "$(grep -c -- '->' "$T/tfc.dot")" 42 "--collapse: edges"
expect_eq "$(grep -- '->' "$T/tfc.dot" | sort | uniq -d | wc -l | tr -d ' ')" 0 "--collapse: no edge twice"
for want in '  n0 [label="0: fwd_mb0_layer0_attn ×8\nCOMP_NODE, 18 us", fillcolor="#cfe2f3", peripheries=2];' \
    '  n3 -> n32;' '  n33 -> n34;' \
    '  n34 [label="34: bwd_mb0_layer7_mlp ×8\nCOMP_NODE, 37 us", fillcolor="#cfe2f3", peripheries=2];'; do
    grep -qxF -- "$want" "$T/tfc.dot" || fail "--collapse lacks: $want"
done
expect_ok "$ET" dot "$T/tf/t.0.et" --collapse --format graphml
expect_eq "$(grep -c '<data key="repeat">8</data>' "$T/out")" 32 "--collapse GraphML: repeat = 8"
expect_ok "$ET" dot "$T/tf/t.0.et" --collapse -o "$T/tfc.svg"
expect_eq "$(grep -c '<title>n[0-9]*</title>' "$T/tfc.svg")" 42 "--collapse: nodes drawn"
h=$(sed -n 's/^<svg width="[0-9]*pt" height="\([0-9]*\)pt"$/\1/p' "$T/tfc.svg")
[ "${h:-99999}" -lt 2500 ] || fail "collapsed drawing: $h pt high (expected under 2500)"

# ---- --rank-range: ranks of a prefix, each in a cluster of its own, node
# names prefixed r<RANK>_ (the 4 ranks of the training step above).
expect_ok "$ET" dot "$T/tf/t" --rank-range 1-2 --name tp_all_reduce_fwd_mb0_layer0
expect_eq "$(grep -v '^    label=\|^  graph \[\|^  node \[' "$T/out")" "digraph \"$T/tf/t\" {
  subgraph cluster_rank1 {
  r1_n1 [label=\"1: tp_all_reduce_fwd_mb0_layer0_attn\\nCOMM_COLL_NODE ALL_REDUCE, 2097152 bytes\", fillcolor=\"#d9ead3\"];
  r1_n3 [label=\"3: tp_all_reduce_fwd_mb0_layer0_mlp\\nCOMM_COLL_NODE ALL_REDUCE, 2097152 bytes\", fillcolor=\"#d9ead3\"];
  }
  subgraph cluster_rank2 {
  r2_n1 [label=\"1: tp_all_reduce_fwd_mb0_layer0_attn\\nCOMM_COLL_NODE ALL_REDUCE, 2097152 bytes\", fillcolor=\"#d9ead3\"];
  r2_n3 [label=\"3: tp_all_reduce_fwd_mb0_layer0_mlp\\nCOMM_COLL_NODE ALL_REDUCE, 2097152 bytes\", fillcolor=\"#d9ead3\"];
  }
  subgraph cluster_legend {
    legend_2 [label=\"collective (COMM_COLL_NODE)\", fillcolor=\"#d9ead3\"];
  }
}" "--rank-range 1-2 --name: two clusters"
grep -qxF '    label="rank 2"; fontname="Helvetica";' "$T/out" || fail "--rank-range: the cluster's label"
expect_ok "$ET" dot "$T/tf/t" --rank-range 0-1 --collapse -o "$T/r01.svg"
expect_eq "$(grep -c '<title>r[01]_n[0-9]*</title>' "$T/r01.svg")" 84 "--rank-range 0-1 --collapse: 42 nodes a rank"
expect_ok "$ET" dot "$T/tf/t" --rank-range 3 --format graphml
expect_eq "$(grep -c '<node id="r3_n[0-9]*">' "$T/out")" 266 "--rank-range 3: GraphML ids"
# Ranks beyond the prefix's, a single file, a malformed range: one line.
expect_error "vimana-et dot: error: --rank-range 2-9: $T/tf/t has ranks 0-3" "$ET" dot "$T/tf/t" --rank-range 2-9
expect_error "vimana-et dot: error: --rank-range: $T/tf/t.0.et is one file, not a prefix of rank files" \
    "$ET" dot "$T/tf/t.0.et" --rank-range 0-1
expect_error "vimana-et dot: --rank-range: expected FIRST-LAST (ranks, FIRST <= LAST), got '3-1'" \
    "$ET" dot "$T/tf/t" --rank-range 3-1
expect_error "vimana-et dot: --rank-range: expected FIRST-LAST (ranks, FIRST <= LAST), got '1-'" \
    "$ET" dot "$T/tf/t" --rank-range 1-
# An input that cannot be read leaves stdout empty (no half a graph).
expect_error "$T/none.et: cannot open: No such file or directory" "$ET" dot "$T/none.et"
expect_eq "$(cat "$T/out")" "" "unreadable input: nothing on stdout"

expect_error "vimana-et dot: more than one input file ('a' and 'b'); dot draws one rank" "$ET" dot a b
expect_error "$T/none.et: cannot open: No such file or directory" "$ET" dot "$T/none.et"

if command -v dot > /dev/null 2>&1; then
    dot -Tsvg "$T/h.dot" -o "$T/h.svg" || fail "dot -Tsvg refused the three-nodes graph"
    "$ET" dot "$T/g.et" | dot -Tsvg -o "$T/g.svg" || fail "dot -Tsvg refused the escaped graph"
    grep -q '<svg' "$T/h.svg" || fail "no SVG"
    "$ET" dot "$REF/corpus/et/astra-sim-custom-collectives/custom_allreduce.0.et" |
        dot -Tsvg -o "$T/c.svg" || fail "dot -Tsvg refused the custom collective graph"
    # A 262-node PyTorch trace: Graphviz's unbounded layout takes minutes
    # on it; vimana-et bounds it (nslimit) and draws it in seconds.
    expect_ok "$ET" dot "$REF/corpus/expected/pytorch/1.0.2-chakra.0.0.4/1.0.2-chakra.0.0.4.et" \
        -o "$T/pt.svg"
    expect_eq "$(grep -c '<title>n[0-9]*</title>' "$T/pt.svg")" 262 "nodes drawn of the PyTorch trace"
fi
finish
