#!/bin/sh
# `vimana-et convert text` on HYBRID_TRANSFORMER with
# --model-parallel-npu-group N (docs/convert-text.md): model-parallel groups
# of N consecutive ranks carry the forward and input-gradient collectives,
# data-parallel groups (same index in every model-parallel group) the
# weight-gradient ones, named by pg_name and listed in PREFIX.groups.json;
# the converted MICRO'24 tutorial workload simulates in `vimana`.
. "$VIMANA_SRCDIR/tests/e2e/lib.sh"

DATA=$VIMANA_SRCDIR/tests/data/text
SMALL=$DATA/transformer_small.txt
T=$TEST_TMP

convert() { # INPUT PREFIX NPUS [OPTION...]
    input=$1 prefix=$2 npus=$3
    shift 3
    "$VIMANA_ET" convert text --input "$input" --output "$prefix" --num-npus "$npus" "$@"
}

# One line per node: id, name, <deps, duration or comm_type/comm_size/pg_name.
flat() {
    "$VIMANA_ET" json "$1" | tr -d ' \n' | sed -e 's/.*"nodes":\[//' -e 's/]}$//' -e 's/},{"id"/}\n{"id"/g' |
        sed -e 's/"//g' -e 's/^{name:/{id:0,name:/' \
            -e 's/{name:\([a-z_]*\),[a-z0-9]*_val:\([0-9A-Za-z_]*\)}/\1=\2/g' \
            -e 's/^{id:\([0-9]*\),name:\([^,]*\),type:[A-Z_]*/\1 \2/' -e 's/,data_deps:\[\([0-9,]*\)\]/ <\1/' \
            -e 's/,duration_micros:/ dur=/' -e 's/,attr:\[\(.*\)\]/ \1/' -e 's/}$//' -e 's/,/ /g'
}

# -- the small workload, node by node: 4 NPUs in model-parallel groups of 2
# ({0,1} = 1, {2,3} = 2) and data-parallel groups {0,2} = 3, {1,3} = 4.
# The HYBRID_MODEL_DATA graph, but (as in ASTRA-sim 1.0's transformer loop)
# the first layer has an input-gradient collective too.
mkdir -p "$T/s"
expect_ok convert "$SMALL" "$T/s/w" 4 --model-parallel-npu-group 2
expect_eq "$(cat "$T/s/w.groups.json")" "$(groups_json "0 1" "2 3" "0 2" "1 3")" "small: groups file"
expect_eq "$(flat "$T/s/w.0.et")" "0 COMP_NODE_attn_FWD dur=10
1 COMM_COLL_NODE_attn_ALLGATHER <0 comm_type=2 comm_size=1024 pg_name=1
2 COMP_NODE_mlp_FWD <1 dur=40
3 COMM_COLL_NODE_mlp_ALLREDUCE <2 comm_type=0 comm_size=512 pg_name=1
4 COMP_NODE_mlp_BWD_IG <3 dur=50
5 COMM_COLL_NODE_mlp_REDUCESCATTER <4 comm_type=7 comm_size=256 pg_name=1
6 COMP_NODE_mlp_BWD_WG <4 dur=60
7 COMM_COLL_NODE_mlp_ALLREDUCE <6 comm_type=0 comm_size=8192 pg_name=3
8 COMP_NODE_attn_BWD_IG <6 5 dur=20
9 COMM_COLL_NODE_attn_ALLREDUCE <8 comm_type=0 comm_size=2048 pg_name=1
10 COMP_NODE_attn_BWD_WG <8 dur=30
11 COMM_COLL_NODE_attn_ALLREDUCE <10 comm_type=0 comm_size=4096 pg_name=3" "small: rank 0"
# rank 3: ids continue across ranks (12 nodes each), groups 2 and 4
expect_eq "$(flat "$T/s/w.3.et" | sed -n '2p;8p')" \
    "37 COMM_COLL_NODE_attn_ALLGATHER <36 comm_type=2 comm_size=1024 pg_name=2
43 COMM_COLL_NODE_mlp_ALLREDUCE <42 comm_type=0 comm_size=8192 pg_name=4" "small: rank 3 groups"
# groups of one NPU need no collective: N = 4 leaves out the weight-gradient
# ones, N = 1 the forward and input-gradient ones (and writes one group)
mkdir -p "$T/s4" "$T/s1"
expect_ok convert "$SMALL" "$T/s4/w" 4 --model-parallel-npu-group 4
expect_eq "$(flat "$T/s4/w.1.et" | grep -c COMM_COLL)" 4 "small, N=4: collectives"
expect_eq "$(flat "$T/s4/w.1.et" | grep -c pg_name=1)" 4 "small, N=4: all on group 1"
expect_ok convert "$SMALL" "$T/s1/w" 4 --model-parallel-npu-group 1
expect_eq "$(flat "$T/s1/w.2.et" | grep COMM_COLL)" "20 COMM_COLL_NODE_mlp_ALLREDUCE <19 comm_type=0 comm_size=8192 pg_name=5
23 COMM_COLL_NODE_attn_ALLREDUCE <22 comm_type=0 comm_size=4096 pg_name=5" "small, N=1: collectives"
expect_eq "$(tr -d ' \n' <"$T/s1/w.groups.json")" '{"5":[0,1,2,3]}' "small, N=1: groups file"

# -- errors: one exact line, no files
mkdir -p "$T/e"
NOKEY=$DATA/transformer_nokey.txt
expect_error "$NOKEY:1: mode HYBRID_TRANSFORMER needs --model-parallel-npu-group N: its collectives are split between model-parallel groups of N NPUs and data-parallel groups, a size the file does not fix for the simulated NPUs" \
    convert "$NOKEY" "$T/e/w" 4
expect_eq "$(wc -l <"$T/err")" 1 "missing option: lines on stderr"
expect_error "vimana-et convert text: --model-parallel-npu-group: 3 does not divide --num-npus 4" \
    convert "$SMALL" "$T/e/w" 4 --model-parallel-npu-group 3
expect_error "vimana-et convert text: --model-parallel-npu-group: expected a positive integer, got '0'" \
    convert "$SMALL" "$T/e/w" 4 --model-parallel-npu-group 0
expect_error "$DATA/none_comm.txt:1: --model-parallel-npu-group applies only to the modes HYBRID_TRANSFORMER and HYBRID_TRANSFORMER_FWD_IN_BCKWD, not MODEL" \
    convert "$DATA/none_comm.txt" "$T/e/w" 4 --model-parallel-npu-group 2
sed '1s/2$/3/' "$SMALL" >"$T/key3.txt"
expect_error "$T/key3.txt:1: model_parallel_NPU_group: 3 does not divide --num-npus 4 (give --model-parallel-npu-group N to choose another split)" \
    convert "$T/key3.txt" "$T/e/w" 4
sed '1s/2$/0/' "$SMALL" >"$T/key0.txt"
expect_error "$T/key0.txt:1: expected a positive integer after 'model_parallel_NPU_group:', got '0'" \
    convert "$T/key0.txt" "$T/e/w" 4 --model-parallel-npu-group 2
sed '1s/ 2$//' "$SMALL" >"$T/keyend.txt"
expect_error "$T/keyend.txt:1: expected the model-parallel group size after 'model_parallel_NPU_group:', got end of line" \
    convert "$T/keyend.txt" "$T/e/w" 4
expect_eq "$(ls "$T/e" | wc -l | tr -d ' ')" 0 "errors: files left behind"

# -- line 1's own model_parallel_NPU_group (ASTRA-sim 1.0's key) is the
# group size when the option is absent: the same bytes as with the option
mkdir -p "$T/k" "$T/k2"
expect_ok convert "$SMALL" "$T/k/w" 4
expect_eq "$(wc -c <"$T/err" | tr -d ' ')" 0 "file's group size: no warning"
for f in w.0.et w.1.et w.2.et w.3.et w.groups.json; do
    expect_ok cmp "$T/s/$f" "$T/k/$f"
done
# both given and different: one warning, and the option is used
expect_ok convert "$SMALL" "$T/k2/w" 4 --model-parallel-npu-group 4
expect_eq "$(cat "$T/err")" "$SMALL:1: warning: the file's model_parallel_NPU_group: 2 differs from --model-parallel-npu-group 4, which is used" \
    "differing group sizes: warning"
for f in w.0.et w.1.et w.2.et w.3.et w.groups.json; do
    expect_ok cmp "$T/s4/$f" "$T/k2/$f"
done

# -- the MICRO'24 tutorial workload (57 layers) on 8 NPUs in two
# model-parallel groups of 4, simulated on a ring of 8
G=$REF/golden/inputs
TUT=$REF/corpus/text/micro2024-demo2/Transformer_HybridParallel.txt
mkdir -p "$T/t"
expect_ok convert "$TUT" "$T/t/w" 8 --model-parallel-npu-group 4
for rank in 0 5; do
    expect_ok "$VIMANA_ET" stats "$T/t/w.$rank.et"
    # 6 x 57 nodes;
    # all-gathers: Embedding and fc forward (8388608 + 73728000), Concat1-6
    # input gradient (6 x 134217728); all-reduces: every other forward and
    # weight-gradient size and every input-gradient size (NONE counts as a
    # 0-byte all-reduce, as in the reference)
    expect_eq "$(sed -n '2,7p' "$T/out" | tr -s ' ')" " nodes 342
 COMP_NODE 171
 COMM_COLL_NODE 171
 collective bytes
 ALL_REDUCE 2644066304 (163 nodes)
 ALL_GATHER 887422976 (8 nodes)" "tutorial: rank $rank stats"
done
# forward + input gradient (57 + 57) on the model-parallel group, weight
# gradient (57) on the data-parallel group
expect_eq "$(flat "$T/t/w.0.et" | grep -o 'pg_name=[0-9]*' | sort | uniq -c | tr -s ' ')" " 114 pg_name=1
 57 pg_name=3" "tutorial: rank 0 groups"
expect_eq "$(flat "$T/t/w.7.et" | grep -o 'pg_name=[0-9]*' | sort | uniq -c | tr -s ' ')" " 114 pg_name=2
 57 pg_name=6" "tutorial: rank 7 groups"
sim() { # PREFIX NETWORK [FLAG...]
    prefix=$1 net=$2
    shift 2
    "$VIMANA" --workload-configuration="$prefix" --system-configuration="$G/system/ring.json" \
        --network-configuration="$G/network/$net" --remote-memory-configuration="$G/memory/no_memory_expansion.json" \
        --network-backend=analytical "$@"
}
expect_ok sim "$T/t/w" ring8.yml --comm-group-configuration="$T/t/w.groups.json"
# compute: the sum of the compute columns, in microseconds
expect_eq "$(grep -c 'finished, 548957956512 cycles, exposed communication 15414512 cycles' "$T/out")" 8 \
    "tutorial: cycles on every rank"
expect_eq "$(grep -c 'GPU time: 548942542000$' "$T/out")" 8 "tutorial: compute time"
# the small workload on a ring of 4: 210 us of compute plus the exposed
# blocking collectives
expect_ok sim "$T/s/w" ring4.yml --comm-group-configuration="$T/s/w.groups.json"
expect_eq "$(grep -c 'finished, 224548 cycles, exposed communication 14548 cycles' "$T/out")" 4 "small: cycles"
# -- HYBRID_TRANSFORMER_FWD_IN_BCKWD: the tutorial's 21 layers with
# checkpoints 2 and 11; layer 19's input-gradient step first re-runs the
# forward of layers 11-18, layer 10's that of layers 2-9: 6 x 21 + 2 x 16
# nodes, the re-run collectives on the model-parallel group
TUTC=$REF/corpus/text/micro2024-demo2/Transformer_HybridParallel_Fwd_In_Bckwd.txt
mkdir -p "$T/c"
expect_ok convert "$TUTC" "$T/c/w" 8 --model-parallel-npu-group 4
expect_eq "$(flat "$T/c/w.0.et" | grep -c .)" 158 "checkpointed tutorial: nodes"
# ids: the forward pass is 0-41, projection's backward 42-45; the first
# re-run starts after projection's WG compute and IG collective, the second
# after Q2's (layer 11)
expect_eq "$(flat "$T/c/w.0.et" | sed -n '47,48p;62,63p;99p;114,115p' | sed 's/ \(dur\|comm_type\)=.*//')" "46 COMP_NODE_Q2_FWD <44 43
47 COMM_COLL_NODE_Q2_NONE <46
61 COMM_COLL_NODE_Xw2b2_ALLREDUCE <60
62 COMP_NODE_layerNorm2_BWD_IG <61
98 COMP_NODE_Q1_FWD <96 95
113 COMM_COLL_NODE_Xw2b1_ALLREDUCE <112
114 COMP_NODE_layerNorm1_BWD_IG <113" "checkpointed tutorial: the re-runs"
# 21 forward + 21 input-gradient + 16 re-run collectives on the
# model-parallel group, 21 weight-gradient ones on the data-parallel group
expect_eq "$(flat "$T/c/w.0.et" | grep -o 'pg_name=[0-9]*' | sort | uniq -c | tr -s ' ')" " 58 pg_name=1
 21 pg_name=3" "checkpointed tutorial: rank 0 groups"
expect_ok sim "$T/c/w" ring8.yml --comm-group-configuration="$T/c/w.groups.json"
expect_eq "$(grep -c 'finished, 635448879244 cycles, exposed communication 61371244 cycles' "$T/out")" 8 \
    "checkpointed tutorial: cycles on every rank"
# compute: every layer's three compute times plus the forward times of the
# re-run layers 2-9 and 11-18
expect_eq "$(grep -c 'GPU time: 635387508000$' "$T/out")" 8 "checkpointed tutorial: compute time"

# without the groups file the simulator names the missing group
expect_error "vimana: error: $T/s/w.0.et: For rank 0 ET node 1, communicator group 1 not found" sim "$T/s/w" ring4.yml

finish
