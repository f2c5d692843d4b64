#!/bin/sh
# vimana-et stats: node counts by type, collective bytes by type, p2p and
# memory bytes, compute time; per file and in total.
. "$VIMANA_SRCDIR/tests/e2e/lib.sh"
ET=$VIMANA_ET
T=$TEST_TMP

expect_ok "$ET" generate three-nodes --npus 2 --out "$T/h"
expect_ok "$ET" stats "$T/h"
# The stats of one three-nodes file: both ranks' are the same.
three_nodes_stats() {
    cat <<WANT
$1
  nodes                    3
    COMP_NODE              1
    COMM_COLL_NODE         2
  collective bytes
    ALL_REDUCE             1048576 (1 node)
    ALL_GATHER             2097152 (1 node)
  compute time             50 us (1 COMP node)
WANT
}
{ three_nodes_stats "$T/h.0.et"; three_nodes_stats "$T/h.1.et"; } > "$T/want"
cat >> "$T/want" <<WANT
total (2 files)
  nodes                    6
    COMP_NODE              2
    COMM_COLL_NODE         4
  collective bytes
    ALL_REDUCE             2097152 (2 nodes)
    ALL_GATHER             4194304 (2 nodes)
  compute time             100 us (2 COMP nodes)
WANT
cmp -s "$T/out" "$T/want" || { fail "three-nodes stats"; diff "$T/want" "$T/out" >&2; }

cat > "$T/m.json" <<'JSON'
{"global_metadata": {}, "nodes": [
 {"id": "1", "type": "MEM_LOAD_NODE", "attr": [{"name": "tensor_size", "uint64_val": "100"}]},
 {"id": "2", "type": "MEM_STORE_NODE", "attr": [{"name": "tensor_size", "uint64_val": "50"}]},
 {"id": "3", "type": "COMM_SEND_NODE", "attr": [{"name": "comm_size", "int64_val": "7"}]},
 {"id": "4", "type": "COMM_RECV_NODE", "attr": [{"name": "comm_size", "int64_val": "9"}]},
 {"id": "5", "type": "COMM_COLL_NODE", "attr": [{"name": "comm_type", "int64_val": "9"}]},
 {"id": "6", "type": 12},
 {"id": "7", "type": "COMP_NODE", "duration_micros": "7"}
]}
JSON
expect_ok "$ET" from-json "$T/m.json" -o "$T/m.et"
expect_ok "$ET" stats "$T/m.et"
cat > "$T/want" <<WANT
$T/m.et
  nodes                    7
    MEM_LOAD_NODE          1
    MEM_STORE_NODE         1
    COMP_NODE              1
    COMM_SEND_NODE         1
    COMM_RECV_NODE         1
    COMM_COLL_NODE         1
    (unknown type)         1
  collective bytes
    BARRIER                0 (1 node)
  send bytes               7 (1 node)
  recv bytes               9 (1 node)
  memory load bytes        100 (1 node)
  memory store bytes       50 (1 node)
  compute time             7 us (1 COMP node)
  nodes without a size     1
WANT
cmp -s "$T/out" "$T/want" || { fail "mixed stats"; diff "$T/want" "$T/out" >&2; }

expect_error "vimana-et stats: $T/none: no such file, and no $T/none.0.et" "$ET" stats "$T/none"
: > "$T/empty.et"
expect_error "$T/empty.et: empty file: a Chakra ET starts with a GlobalMetadata record" "$ET" stats "$T/empty.et"

expect_ok "$ET" stats "$REF/corpus/et/astra-sim-custom-collectives/custom_allreduce"
sed -n '/^total/,$p' "$T/out" > "$T/total"
cat > "$T/want" <<WANT
total (8 files)
  nodes                    280
    COMP_NODE              56
    COMM_SEND_NODE         112
    COMM_RECV_NODE         112
  send bytes               14680064 (112 nodes)
  recv bytes               14680064 (112 nodes)
  compute time             392 us (56 COMP nodes)
WANT
cmp -s "$T/total" "$T/want" || { fail "custom collectives totals"; diff "$T/want" "$T/total" >&2; }
finish
