#!/bin/sh
# `vimana-et convert text` against the reference outputs: every corpus text
# workload the reference converts, with every variant it was run with, must
# give byte-identical files; the inputs it rejects get Vimana's documented
# behaviour (refused with an exact message, or converted).
. "$VIMANA_SRCDIR/tests/e2e/lib.sh"

CORPUS=$REF/corpus
EXPECTED=$CORPUS/expected/text

convert() { # INPUT PREFIX NPUS PASSES [OPTION...]
    input=$1 prefix=$2 npus=$3 passes=$4
    shift 4
    "$VIMANA_ET" convert text --input "$input" --output "$prefix" --num-npus "$npus" --num-passes "$passes" "$@"
}

# Each conversion costs a process start (slow under the sanitizers), so the
# conversions run as background jobs, a few at a time; each job leaves its
# exit status and stderr under $JOBS/<name>.
JOBS=$TEST_TMP/jobs
mkdir -p "$JOBS"
running=0
start_job() { # NAME COMMAND...
    job=$1
    shift
    ("$@" 2>"$JOBS/$job.err"; echo $? >"$JOBS/$job.rc") &
    running=$((running + 1))
    if [ "$running" -ge 4 ]; then
        wait
        running=0
    fi
}
job_status() { read -r rc <"$JOBS/$1.rc" && echo "$rc"; }
job_stderr() { [ -s "$JOBS/$1.err" ] && cat "$JOBS/$1.err"; }

# Compares every .et of reference directory $1 with the files of directory
# $2 (same base names) and checks that nothing else was written.
same_as_reference() { # REFDIR OUTDIR WHAT
    count=0
    for ref in "$1"/*.et; do
        cmp -s "$ref" "$2/${ref##*/}" || fail "$3: ${ref##*/} differs from the reference"
        count=$((count + 1))
    done
    set -- "$2"/*
    expect_eq "$#" "$count" "$3: number of files"
}

# -- every accepted input, every variant (nNpP = --num-npus N --num-passes P)
VARIANTS=$(ls -d "$EXPECTED"/*/*/n*p*)
for vdir in $VARIANTS; do
    dir=${vdir%/*}
    name=${dir##*/}
    group=${dir%/*}
    group=${group##*/}
    variant=${vdir##*/}
    npus=${variant#n}
    npus=${npus%%p*}
    passes=${variant#*p}
    mkdir -p "$TEST_TMP/variants/$group.$name.$variant"
    start_job "$group.$name.$variant" convert "$CORPUS/text/$group/$name.txt" \
        "$TEST_TMP/variants/$group.$name.$variant/$name" "$npus" "$passes"
done
wait
# All outputs against all references in one go (process starts are what
# costs here); file by file only to name what differs.
refs=
outs=
count=0
for vdir in $VARIANTS; do
    dir=${vdir%/*}
    group=${dir%/*}
    what=${group##*/}.${dir##*/}.${vdir##*/}
    [ "$(job_status "$what")" = 0 ] || fail "$what: conversion failed: $(job_stderr "$what")"
    [ -s "$JOBS/$what.err" ] && fail "$what: unexpected stderr: $(job_stderr "$what")"
    for ref in "$vdir"/*.et; do
        refs="$refs $ref"
        outs="$outs $TEST_TMP/variants/$what/${ref##*/}"
        count=$((count + 1))
    done
done
if have_shared; then min_refs=320; else min_refs=150; fi
[ "$count" -ge "$min_refs" ] || fail "only $count reference files found"
set -- "$TEST_TMP"/variants/*/*
expect_eq "$#" "$count" "number of files written"
# shellcheck disable=SC2086 # the lists are space-separated paths without spaces
if [ "$(cat $refs | cksum)" != "$(cat $outs 2>/dev/null | cksum)" ]; then
    for vdir in $VARIANTS; do
        dir=${vdir%/*}
        group=${dir%/*}
        what=${group##*/}.${dir##*/}.${vdir##*/}
        same_as_reference "$vdir" "$TEST_TMP/variants/$what" "$what"
    done
fi
rm -rf "$TEST_TMP/variants"

# -- inputs the reference rejects: the transformer modes take their group
# size from line 1's model_parallel_NPU_group (refused with an exact
# message and no files when it is absent or does not divide the NPUs) and
# convert with --model-parallel-npu-group; the other modes convert
NEEDS_GROUP="needs --model-parallel-npu-group N: its collectives are split between model-parallel groups of N NPUs and data-parallel groups, a size the file does not fix for the simulated NPUs"
CR=$(printf '\r')
file_group() { # line 1's model_parallel_NPU_group, or nothing
    sed -n '1s/.*model_parallel_NPU_group:[[:space:]]*\([0-9]*\).*/\1/p' "$1"
}
mode_of() { # the first word of line 1
    read -r first_word rest <"$1"
    echo "${first_word%"$CR"}"
}
for dir in "$EXPECTED"/*/*; do
    [ -f "$dir/error.txt" ] || continue
    group=${dir%/*}
    what=${group##*/}.${dir##*/}
    mkdir -p "$TEST_TMP/$what"
    start_job "$what" convert "$CORPUS/text/${group##*/}/${dir##*/}.txt" "$TEST_TMP/$what/w" 8 2
done
wait
for dir in "$EXPECTED"/*/*; do
    [ -f "$dir/error.txt" ] || continue
    group=${dir%/*}
    what=${group##*/}.${dir##*/}
    input=$CORPUS/text/${group##*/}/${dir##*/}.txt
    mode=$(mode_of "$input")
    files=$(set -- "$TEST_TMP/$what"/*; [ -e "$1" ] && echo $# || echo 0)
    case $mode in
    HYBRID_TRANSFORMER | HYBRID_TRANSFORMER_FWD_IN_BCKWD)
        group_size=$(file_group "$input")
        if [ -z "$group_size" ]; then
            expect_eq "$(job_status "$what")" 1 "$what ($mode): exit status"
            expect_eq "$(job_stderr "$what")" "$input:1: mode $mode $NEEDS_GROUP" "$what: message"
            expect_eq "$files" 0 "$what ($mode): files written"
        elif [ $((8 % group_size)) -ne 0 ]; then
            expect_eq "$(job_status "$what")" 1 "$what ($mode): exit status"
            expect_eq "$(job_stderr "$what")" "$input:1: model_parallel_NPU_group: $group_size does not divide --num-npus 8 (give --model-parallel-npu-group N to choose another split)" "$what: message"
            expect_eq "$files" 0 "$what ($mode): files written"
        else # line 1's own group size is used
            expect_eq "$(job_status "$what")" 0 "$what ($mode, model_parallel_NPU_group: $group_size): exit status"
            expect_eq "$(job_stderr "$what")" "" "$what ($mode): stderr"
            expect_eq "$files" 9 "$what ($mode): files written (8 ETs and the groups)"
        fi
        mkdir -p "$TEST_TMP/$what.mp"
        expect_ok convert "$input" "$TEST_TMP/$what.mp/w" 8 2 --model-parallel-npu-group 4
        files=$(set -- "$TEST_TMP/$what.mp"/*.et; [ -e "$1" ] && echo $# || echo 0)
        expect_eq "$files" 8 "$what ($mode, --model-parallel-npu-group 4): number of files"
        ;;
    DATA_REORDER | HYBRID_CUSTOMIZED | DISTRIBUTED_INFERENCE)
        expect_eq "$(job_status "$what")" 0 "$what ($mode): exit status"
        expect_eq "$(job_stderr "$what")" "" "$what ($mode): stderr"
        expect_eq "$files" 8 "$what ($mode): number of files"
        ;;
    *)
        fail "$what: unexpected rejected mode '$mode'"
        ;;
    esac
done

# -- the CRLF and LF copies of the DATA_REORDER workload give the same bytes
for k in 0 1 2 3 4 5 6 7; do
    cmp -s "$TEST_TMP/isca2022.exercise_4_reorder/w.$k.et" "$TEST_TMP/mlsys2022.exercise_4_reorder/w.$k.et" ||
        fail "DATA_REORDER: CRLF and LF inputs differ (NPU $k)"
done

# -- lone CR line ends read like LF (Python universal newlines)
mkdir -p "$TEST_TMP/cr"
tr '\n' '\r' <"$CORPUS/text/mlsys2022/all_reduce.txt" >"$TEST_TMP/all_reduce.txt"
expect_ok convert "$TEST_TMP/all_reduce.txt" "$TEST_TMP/cr/all_reduce" 8 1
same_as_reference "$EXPECTED/mlsys2022/all_reduce/n8p1" "$TEST_TMP/cr" "lone CR line ends"

# -- the reference's option spellings, --log-filename and --opt=value forms
mkdir -p "$TEST_TMP/alias"
expect_ok "$VIMANA_ET" convert text --log-filename "$TEST_TMP/debug.log" \
    --input_filename "$CORPUS/text/micro2024-demo2/MLP_ModelParallel.txt" \
    --output_filename="$TEST_TMP/alias/MLP_ModelParallel" --num_npus 4 --num_passes=2
same_as_reference "$EXPECTED/micro2024-demo2/MLP_ModelParallel/n4p2" "$TEST_TMP/alias" "option aliases"

finish
