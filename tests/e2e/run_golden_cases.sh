#!/bin/sh
# run_golden_cases.sh [--timeout S] [--verbose] SIM CASE...
#
# Runs golden cases (the `key = value` case format of shared/golden/README.md,
# copied in tests/data/golden/cases) against the simulator SIM and compares
# every NPU's finish and exposed-communication cycles with the expected ones,
# exactly. Prints `PASS <id>` or `FAIL <id>: <reason>` per case and ends
# with `N passed, M failed`; exits 0 only when nothing failed.
#
# A case runs in a fresh temporary working directory as
#   SIM --workload-configuration=<abs> --system-configuration=<abs>
#       --network-configuration=<abs> --remote-memory-configuration=<abs>
#       [--comm-group-configuration=<abs>]
#       --network-backend=analytical|congestion_aware [flags]
# after the case's `link = NAME -> PATH` symlinks are made there. Paths are
# relative to the folder that holds the case file. A case fails when a number
# differs, an NPU has no finish line, an extra NPU reports, an NPU reports
# two different results, the simulator exits non-zero or runs past the
# timeout (120 s by default).
set -u
timeout_s=120
verbose=0
while [ $# -gt 0 ]; do
    case $1 in
    --timeout) timeout_s=$2; shift 2 ;;
    --timeout=*) timeout_s=${1#*=}; shift ;;
    --verbose) verbose=1; shift ;;
    *) break ;;
    esac
done
[ $# -ge 1 ] || { echo "usage: $0 [--timeout S] [--verbose] SIM CASE..." >&2; exit 2; }
sim=$1
shift
case $sim in /*) ;; *) sim=$(pwd)/$sim ;; esac

passed=0
failed=0
CR=$(printf '\r')

# value KEY: the case's last `KEY = value` line, trimmed
value() {
    sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*//p" "$case_file" | tail -n 1 |
        sed "s/[[:space:]$CR]*\$//"
}
# abs PATH: PATH relative to the case's folder, made absolute
abs() {
    case $1 in /*) echo "$1" ;; *) echo "$case_dir/$1" ;; esac
}

# compare EXPECT EXPECT_EXPOSED NPUS RESULTS: prints the reason a case fails
# (up to 3 ranks named), nothing when it passes. RESULTS holds one
# `rank finish exposed` line per finish line the simulator printed.
compare() {
    awk -v expect="$1" -v expect_exp="$2" -v npus="$3" '
    function parse(spec, into,    n, parts, i, kv, r) {
        n = split(spec, parts, /[[:space:]]+/)
        for (i = 1; i <= n; i++) {
            if (parts[i] == "") continue
            split(parts[i], kv, "=")
            if (kv[1] == "all") {
                if (npus == "") { print "expect all= needs npus"; bad = 1; return }
                for (r = 0; r < npus; r++) into[r] = kv[2]
            } else into[kv[1]] = kv[2]
        }
    }
    { if (($1 in fin) && (fin[$1] != $2 || ex[$1] != $3)) twice[$1] = 1
      fin[$1] = $2; ex[$1] = $3 }
    END {
        parse(expect, want); if (bad) exit
        if (expect_exp != "") parse(expect_exp, want_exp)
        shown = 0; reasons = ""
        for (r in twice) add("rank " r " reported two different results")
        for (r in want) {
            if (!(r in fin)) add("rank " r " has no finish line")
            else if (fin[r] != want[r]) add("rank " r " finished at " fin[r] ", expected " want[r])
            else if ((r in want_exp) && ex[r] != want_exp[r])
                add("rank " r " exposed " ex[r] ", expected " want_exp[r])
        }
        for (r in fin) if (!(r in want)) add("extra rank " r " reported")
        if (reasons != "") print reasons (more ? " (and " more " more)" : "")
    }
    function add(s) { if (shown < 3) { reasons = reasons (shown ? "; " : "") s; shown++ } else more++ }
    ' "$4"
}

for case_file in "$@"; do
    case_dir=$(cd "$(dirname "$case_file")" && pwd)
    id=$(value id)
    [ -n "$id" ] || id=$(basename "$case_file" .case)
    backend=$(value backend)
    case $backend in
    analytical | congestion_aware) ;;
    *) echo "FAIL $id: unknown backend '$backend'"; failed=$((failed + 1)); continue ;;
    esac
    work=$(mktemp -d "${TMPDIR:-/tmp}/golden.XXXXXX")
    sed -n "s/^[[:space:]]*link[[:space:]]*=[[:space:]]*//p" "$case_file" | sed "s/[[:space:]$CR]*\$//" |
        while IFS= read -r l; do
            name=${l%% -> *}
            mkdir -p "$work/$(dirname "$name")"
            ln -s "$(abs "${l#* -> }")" "$work/$name"
        done
    cg=$(value comm_group)
    flags=$(value flags)
    eval "set -- $flags"
    [ -n "$cg" ] && set -- --comm-group-configuration="$(abs "$cg")" "$@"
    set -- "$sim" --workload-configuration="$(abs "$(value workload)")" \
        --system-configuration="$(abs "$(value system)")" \
        --network-configuration="$(abs "$(value network)")" \
        --remote-memory-configuration="$(abs "$(value memory)")" --network-backend="$backend" "$@"
    [ "$verbose" -eq 1 ] && echo "$*"
    (cd "$work" && exec timeout "$timeout_s" "$@") >"$work/.out" 2>&1
    rc=$?
    sed -n 's/.*sys\[\([0-9]*\)\] finished, \([0-9]*\) cycles, exposed communication \([0-9]*\) cycles.*/\1 \2 \3/p;
        s/.*sys\[\([0-9]*\)\] finished, \([0-9]*\) cycles\([^,]\|$\).*/\1 \2 -/p' "$work/.out" >"$work/.results"
    if [ "$rc" -eq 124 ]; then
        reason="timed out after ${timeout_s} s"
    elif [ "$rc" -ne 0 ]; then
        reason="exit status $rc: $(tail -n 1 "$work/.out")"
    else
        reason=$(compare "$(value expect)" "$(value expect_exposed)" "$(value npus)" "$work/.results")
    fi
    if [ -z "$reason" ]; then
        echo "PASS $id"
        passed=$((passed + 1))
    else
        echo "FAIL $id: $reason"
        [ "$verbose" -eq 1 ] && tail -n 20 "$work/.out" | sed 's/^/    /'
        failed=$((failed + 1))
    fi
    rm -rf "$work"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
