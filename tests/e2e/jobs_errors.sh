#!/bin/sh
# vimana --jobs: a bad jobs file or placement is one line on stderr naming
# the file, the line, the job and what is wrong; nothing is printed on stdout.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
IN="$VIMANA_SRCDIR/inputs"
cd "$TEST_TMP" || exit 1
mkdir w
cp "$IN/network/switch8.yml" "$IN/system/ring.json" .
cp "$IN/jobs/workloads/ar_1MiB_4".*.et w/
HEAD='network: switch8.yml\njobs:\n'
A='  - name: a\n    workload: w/ar_1MiB_4\n    system: ring.json\n    dims: [4]\n'

# bad "TEXT" "exact stderr line": TEXT (printf format) as j.yaml.
bad() {
    printf "$1" >j.yaml
    expect_error "$2" "$VIMANA" --jobs j.yaml
    [ "$(wc -l <"$TEST_TMP/err")" -eq 1 ] || fail "more than one line for: $2"
    [ -s "$TEST_TMP/out" ] && fail "output on stdout for: $2"
}
P="vimana: error: j.yaml"
# Placements.
bad "$HEAD${A}    placement: contiguous\n${A}    placement: {rule: contiguous, offset: 2}\n" \
    "$P:8: name: 'a' is the name of an earlier job (line 3)"
B=$(printf "$A" | sed 's/name: a/name: b/')
bad "$HEAD${A}    placement: contiguous\n$B\n    placement: {rule: contiguous, offset: 2}\n" \
    "$P:8: job 'b': placement: NPU 2 is taken by job 'a' (line 3): jobs may not share an NPU"
bad "$HEAD${A}    placement: {rule: strided, offset: 2, stride: 2}\n" \
    "$P:3: job 'a': placement: NPU 8 (rank 3) is out of range: the network switch8.yml has NPUs 0 to 7"
bad "$HEAD${A}    placement: [0, 1, 2]\n" "$P:3: job 'a': placement names 3 NPUs but dims [4] make 4"
bad "$HEAD${A}    placement: [0, 1, 2, 1]\n" "$P:3: job 'a': placement: NPU 1 is named twice"
bad "$HEAD${A}    placement: [0, 1, 2, 99]\n" \
    "$P:3: job 'a': placement: NPU 99 (rank 3) is out of range: the network switch8.yml has NPUs 0 to 7"
bad "$HEAD${A}    placement: {rule: diagonal}\n" \
    "$P:7: job 'a': placement: rule 'diagonal' is unknown (contiguous, strided, random or a list of NPU ids)"
bad "$HEAD${A}    placement: {rule: strided}\n" "$P:7: job 'a': placement: rule strided needs a stride"
# The largest seed is taken; one above it is out of range, not "not an integer
# of at most" the very number it was (issue 29 §5).
bad "$HEAD${A}    placement: {rule: random, seed: 18446744073709551615}\n    start: x\n" \
    "$P:8: job 'a': start: 'x' is not a non-negative integer of at most 4611686018427387903"
bad "$HEAD${A}    placement: {rule: random, seed: 18446744073709551616}\n" \
    "$P:7: job 'a': placement: seed: 18446744073709551616 is out of range (at most 18446744073709551615)"
bad "$HEAD${A}    placement: {rule: random, seed: 1, offset: 2}\n" \
    "$P:7: job 'a': placement: offset does not apply to rule random"
bad "$HEAD${A}    placement: {rule: contiguous, stride: 2}\n" \
    "$P:7: job 'a': placement: stride applies to rule strided only"
bad "$HEAD  - name: a\n    workload: w/ar_1MiB_4\n    system: ring.json\n    dims: [16]\n    placement: contiguous\n" \
    "$P:3: job 'a': dims make 16 NPUs but the network switch8.yml has 8"
# The file's form.
bad "$HEAD${A}    placement: contiguous\n    gpus: 4\n" \
    "$P:8: job 'a': unknown key 'gpus' (name, workload, generate, system, remote-memory, dims, placement, start)"
bad "${HEAD}  - workload: w/ar_1MiB_4\n    dims: 4\n" "$P:3: a job without a name"
bad "$HEAD${A}" "$P:3: job 'a': missing key 'placement'"
bad "$HEAD  - name: a b\n" "$P:3: name: 'a b' must be 1 to 64 letters, digits, '_' or '-' (it names output files)"
bad "$HEAD${A}    placement: contiguous\n    start: -5\n" \
    "$P:8: job 'a': start: '-5' is not a non-negative integer of at most 4611686018427387903"
bad "$HEAD  - name: a\n    dims: [4, 0]\n" "$P:4: job 'a': dims: a dimension of 0 NPUs"
bad "network: switch8.yml\nbackends: x\n" "$P:2: unknown key 'backends' (network, backend, backend-options, jobs)"
bad "jobs:\n$A    placement: contiguous\n" "$P: missing key 'network'"
bad "network: switch8.yml\njobs: [\n" "$P:3: did not find expected node content"
bad "network: switch8.yml\njobs: []\n" "$P:2: jobs: expected a non-empty list of jobs"
G='  - name: a\n    system: ring.json\n    dims: [4]\n    placement: contiguous\n'
bad "$HEAD$G    generate: {kind: broadcast, size: 1MiB}\n" \
    "$P:7: job 'a': generate: kind 'broadcast' is unknown (all-reduce, all-gather, reduce-scatter, all-to-all)"
bad "$HEAD$G    generate: {kind: all-reduce, size: 1MB}\n" \
    "$P:7: job 'a': generate: size '1MB' is not a size (bytes, or a number with B, KiB, MiB or GiB; at least 1)"
bad "$HEAD$G    generate: {kind: all-reduce}\n" "$P:7: job 'a': generate: missing key 'size'"
bad "$HEAD$G    generate: {kind: all-reduce, size: 1, npus: 4}\n" "$P:7: job 'a': generate: unknown key 'npus' (kind, size)"
bad "$HEAD$G    generate: {kind: all-reduce, size: 1}\n    workload: w/ar_1MiB_4\n" \
    "$P:3: job 'a': give either workload or generate, not both"
bad "$HEAD$G" "$P:3: job 'a': missing key 'workload' (or 'generate')"
# Files the jobs file names.
bad "network: nonet.yml\njobs:\n${A}    placement: contiguous\n" "vimana: error: nonet.yml: cannot open: No such file or directory"
printf "network: switch8.yml\nbackend: nosuchnet\njobs:\n${A}    placement: contiguous\n" >j.yaml
"$VIMANA" --jobs j.yaml >"$TEST_TMP/out" 2>"$TEST_TMP/err" && fail "an unknown backend ran"
grep -q "^vimana: error: network backend 'nosuchnet' not found (looked in: " "$TEST_TMP/err" ||
    fail "unknown backend: $(cat "$TEST_TMP/err")"
expect_eq "$(wc -l <"$TEST_TMP/err")" 1 "one line for an unknown backend"
bad "$HEAD  - name: a\n    workload: w/none\n    system: ring.json\n    dims: [4]\n    placement: contiguous\n" \
    "vimana: error: j.yaml: job 'a': workload file: w/none.0.et does not exist"
# A job's own inputs: the error names the jobs file and the job, then says
# what a single run would say; the jobs set up before it are released.
printf '{"endpoint-delay": 10' >bad.json
bad "$HEAD${A}    placement: contiguous\n$(printf "$B" | sed 's/ring.json/bad.json/')\n    placement: {rule: contiguous, offset: 4}\n" \
    "vimana: error: j.yaml: job 'b': bad.json: line 1, column 22: expected ',' or '}' after the value of key 'endpoint-delay', got the end of the file"
printf "$HEAD${A}    placement: contiguous\n" >j.yaml
# Output folders are created (issue 29 §4); a file where one belongs is
# the open's one-line error.
expect_ok "$VIMANA" --jobs j.yaml --report=no/r.json --timeline=no2/t.json
[ -s no/r.a.json ] && [ -s no2/t.json ] || fail "--jobs did not create the output folders"
: >afile
expect_error "vimana: error: j.yaml: job 'a': afile/r.a.json: cannot create: Not a directory" \
    "$VIMANA" --jobs j.yaml --report=afile/r.json
expect_error "vimana: error: afile/t.json: cannot create: Not a directory" "$VIMANA" --jobs j.yaml --timeline=afile/t.json
# A job that fails while the others run (a compute node after its first
# collective overflows): the run stops with that job's one line.
"$VIMANA_ET" generate three-nodes --npus 4 --out w/tn4 >/dev/null || fail "generate three-nodes"
printf "$HEAD${A}    placement: contiguous\n$(printf "$B" | sed 's#w/ar_1MiB_4#w/tn4#')\n    placement: {rule: contiguous, offset: 4}\n" >j.yaml
expect_error "vimana: error: j.yaml: job 'b': w/tn4.0.et: node 3: duration 50000 ns times --compute-scale=1e+18 is out of range" \
    "$VIMANA" --jobs j.yaml --compute-scale=1e18
expect_eq "$(wc -l <"$TEST_TMP/err")" 1 "one line for a job failing in the run"
expect_error "vimana: error: nofile.yaml: cannot open: No such file or directory" "$VIMANA" --jobs nofile.yaml
expect_error "vimana: error: .: is a directory, expected a file" "$VIMANA" --jobs .
# Options that a jobs file replaces.
expect_error "vimana: --jobs: --workload-configuration does not apply (the jobs file names the network, the backend and each job's workload and configurations; see docs/jobs.md)" \
    "$VIMANA" --jobs j.yaml --workload-configuration=w/x
expect_error "vimana: --jobs: --network-backend does not apply (the jobs file names the network, the backend and each job's workload and configurations; see docs/jobs.md)" \
    "$VIMANA" --jobs j.yaml --network-backend=analytical
expect_error "vimana: --jobs: --breakdown does not apply (the jobs file names the network, the backend and each job's workload and configurations; see docs/jobs.md)" \
    "$VIMANA" --jobs j.yaml --breakdown
finish
