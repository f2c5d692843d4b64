#!/bin/sh
# vimana-et generate: byte-identical to the reference generators' files,
# sizes and names, and one-line errors for bad options.
. "$VIMANA_SRCDIR/tests/e2e/lib.sh"
ET=$VIMANA_ET
T=$TEST_TMP

# Names for sizes that are not whole MiB, and the int64 comm_size.
expect_ok "$ET" generate all-gather --npus 2 --size 64KiB --out "$T/k/ag"
expect_ok "$ET" json "$T/k/ag.1.et"
grep -q '"name": "all_gather_2npus_64KB"' "$T/out" || fail "64 KiB name"
grep -q '"int64_val": "65536"' "$T/out" || fail "64 KiB comm_size"
expect_ok "$ET" generate all-to-all --npus 3 --size 1MB --out "$T/b/a2a"
expect_ok "$ET" json "$T/b/a2a.2.et"
grep -q '"name": "all_to_all_3npus_1000000B"' "$T/out" || fail "1 MB name"
grep -q '"id": "2"' "$T/out" || fail "id = rank"
[ -f "$T/b/a2a.3.et" ] && fail "wrote a 4th rank"

# send-recv: attributes the golden cases use; idle ranks get a 0 us COMP.
expect_ok "$ET" generate send-recv --npus 3 --src 2 --dst 0 --tag 7 --size 4KiB --out "$T/p/p"
expect_ok "$ET" validate "$T/p/p"
expect_eq "$(cat "$T/out")" "$T/p/p: valid (3 files, 3 nodes, 1 send/recv pair matched)" "send-recv validate"
expect_ok "$ET" stats "$T/p/p.1.et"
grep -q 'COMP_NODE  *1$' "$T/out" || fail "idle rank is one COMP node"

# Errors: one line naming the problem, exit 2.
expect_error "vimana-et generate: unknown kind 'allreduce' (expected all-reduce, all-gather, reduce-scatter, all-to-all, three-nodes, send-recv, chakra or transformer)" \
    "$ET" generate allreduce --npus 2 --out "$T/x"
expect_error "vimana-et generate: missing --npus N" "$ET" generate all-reduce --out "$T/x"
expect_error "vimana-et generate: --npus: expected a non-negative integer, got 'four'" "$ET" generate all-reduce --npus four --out "$T/x"
expect_error "vimana-et generate: --npus: expected 1 to 1000000 ranks, got 0" "$ET" generate all-reduce --npus=0 --out "$T/x"
expect_error "vimana-et generate: --size: expected a size such as 1048576, 64KiB, 1MiB or 1MB, got '1XB'" \
    "$ET" generate all-reduce --npus 2 --size 1XB --out "$T/x"
expect_error "vimana-et generate: missing --out PREFIX" "$ET" generate all-reduce --npus 2
expect_error "vimana-et generate: option --out needs a value" "$ET" generate all-reduce --npus 2 --out
expect_error "vimana-et generate: unknown option '--colour' (see --help)" "$ET" generate all-reduce --colour
expect_error "vimana-et generate: --src and --dst are both 1; a rank cannot send to itself" \
    "$ET" generate send-recv --npus 2 --src 1 --dst 1 --out "$T/x"
expect_error "vimana-et generate: --src 0 / --dst 5: ranks must be below --npus 4" \
    "$ET" generate send-recv --npus 4 --dst 5 --out "$T/x"
expect_error "vimana-et generate: --src, --dst and --tag apply to send-recv only" \
    "$ET" generate all-reduce --npus 2 --tag 3 --out "$T/x"
expect_error "vimana-et generate: --size does not apply to three-nodes (its sizes are fixed: 1 MiB and 2 MiB)" \
    "$ET" generate three-nodes --npus 2 --size 1MiB --out "$T/x"
expect_error "vimana-et generate: $T/nodir/file.txt: cannot create directory: Not a directory" \
    sh -c "touch '$T/nodir' && '$ET' generate all-reduce --npus 1 --out '$T/nodir/file.txt/x'"
expect_ok "$ET" generate --help
grep -q '^Usage: vimana-et generate KIND' "$T/out" || fail "--help"


# same_ranks GOT WANT N WHAT: GOT.r.et is WANT.r.et byte for byte for every
# rank r below N; else a failure "WHAT rank r differs".
same_ranks() {
    r=0
    while [ "$r" -lt "$3" ]; do
        cmp -s "$1.$r.et" "$2.$r.et" || fail "$4 rank $r differs"
        r=$((r + 1))
    done
}

# ASTRA-sim's microbenchmark ETs, byte for byte.
M=$REF/corpus/et/astra-sim-microbenchmarks
for coll in all_reduce all_gather reduce_scatter all_to_all; do
    kind=$(echo "$coll" | tr _ -)
    expect_ok "$ET" generate "$kind" --npus 4 --size 1MiB --out "$T/$coll/$coll"
    same_ranks "$T/$coll/$coll" "$M/$coll/4npus_1MB/$coll" 4 "$coll"
done
G=$REF/golden/inputs/workload
for spec in all_reduce:8 all_gather:16 all_to_all:16 reduce_scatter:4; do
    coll=${spec%:*}
    n=${spec#*:}
    expect_ok "$ET" generate "$coll" --npus "$n" --out "$T/g/$coll"
    same_ranks "$T/g/$coll" "$G/${coll}_${n}npus_1MB/$coll" "$n" "golden $coll $n"
done

# The HOTI'24 three-node example and the point-to-point golden cases.
expect_ok "$ET" generate three-nodes --npus 8 --out "$T/h/hoti"
same_ranks "$T/h/hoti" "$G/hoti_3nodes_8/hoti_3nodes_8" 8 "three-nodes"
for spec in 0to1_1MiB_2:2:1 0to1_1MiB_8:8:1 0to3_1MiB_8:8:3; do
    name=${spec%%:*}
    rest=${spec#*:}
    n=${rest%:*}
    dst=${rest#*:}
    expect_ok "$ET" generate send-recv --npus "$n" --dst "$dst" --size 1MiB --out "$T/s/$name"
    same_ranks "$T/s/$name" "$G/send_$name/send_$name" "$n" "send_$name"
done

# chakra: the reference chakra_generator's 14 microbenchmarks, 28 files for 2 NPUs, byte for byte
# (tests/data/et/chakra-generator: the reference's output), node ids counted across the files.
CG="$VIMANA_SRCDIR/tests/data/et/chakra-generator"
expect_ok "$ET" generate chakra --npus 2 --out "$T/cg/sub"
expect_eq "$(ls "$T/cg/sub" | wc -l)" 28 "chakra: 28 files"
for f in "$CG"/*.et; do
    cmp -s "$f" "$T/cg/sub/$(basename "$f")" || fail "chakra: $(basename "$f") differs from the reference's"
done
# other sizes (the reference's --default_* spellings too) and more NPUs
expect_ok "$ET" generate chakra --npus 3 --default_runtime 7 --tensor-size 2KiB --comm-size 1MiB --out "$T/cg3"
expect_eq "$(ls "$T/cg3" | wc -l)" 42 "chakra: 42 files for 3 NPUs"
"$ET" json "$T/cg3/two_comp_nodes_dependent.2.et" >"$T/dep.json"
want='{"global_metadata":{"version":"1.0.0"},"nodes":[{"id":"22","name":"COMP_NODE","type":"COMP_NODE",'
want="$want"'"duration_micros":"7","attr":[{"name":"is_cpu_op","bool_val":false}]},{"id":"23","name":"COMP_NODE",'
want="$want"'"type":"COMP_NODE","data_deps":["22"],"duration_micros":"7","attr":[{"name":"is_cpu_op","bool_val":false}]}]}'
expect_eq "$(tr -d ' \n' <"$T/dep.json")" "$want" "chakra: ids across files (3 + 3 + 3 + 3 + 6 nodes before), --runtime"
expect_eq "$("$ET" json "$T/cg3/ALL_GATHER.1.et" | grep -A1 comm_size | tail -n 1 | tr -d ' ')" '"int64_val":"1048576"' \
    "chakra: --comm-size"
expect_eq "$("$ET" json "$T/cg3/BARRIER.0.et" | grep -A1 comm_size | tail -n 1 | tr -d ' ')" '"int64_val":"0"' \
    "chakra: BARRIER's comm_size stays 0"
expect_ok "$ET" validate "$T/cg3/two_comp_nodes_dependent"
expect_error "vimana-et generate: chakra: --size does not apply (its sizes are --runtime, --tensor-size and --comm-size)" \
    "$ET" generate chakra --npus 2 --size 1MiB --out "$T/e"
expect_error "vimana-et generate: --runtime, --tensor-size and --comm-size apply to chakra only" \
    "$ET" generate all-reduce --npus 2 --runtime 3 --out "$T/e"
expect_error "vimana-et generate: --npus: chakra writes 14 files a rank: expected 1 to 65536 ranks, got 65537" \
    "$ET" generate chakra --npus 65537 --out "$T/e"
finish
