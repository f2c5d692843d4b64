# Shared by every inputs/demos/NAME/run; a run script sources it first:
#   . "$(dirname "$0")/../lib.sh"
# A demo is run as `run OUTDIR` from anywhere (./scripts/demo NAME runs it
# with OUTDIR = demo-output/NAME). It writes only under OUTDIR.
#
# Programs: VIMANA, VIMANA_ET and ET_GENERATE (the C example of
# examples/et-generate, built in the tree) default to those of the tree that
# holds this folder; the tests point them at the build tree.
#
# Every demo records its key numbers with `key NAME VALUE` in
# OUTDIR/key-numbers and ends with `demo_end "WHAT TO LOOK AT"`, which
# compares them with the demo's `expected` file and fails on a difference.
set -eu

DEMO_DIR=$(cd "$(dirname "$0")" && pwd)
DEMO=$(basename "$DEMO_DIR")
DEMO_ROOT=$(cd "$DEMO_DIR/../../.." && pwd)
: "${VIMANA:=$DEMO_ROOT/vimana}"
: "${VIMANA_ET:=$DEMO_ROOT/vimana-et}"
: "${ET_GENERATE:=$DEMO_ROOT/examples/et-generate/in-tree/et-generate}"
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
OUT=$1
mkdir -p "$OUT"
: >"$OUT/key-numbers"

# A heading for the next step of the tutorial.
step() {
    echo
    echo "== $*"
}

# Prints a command as `$ CMD ARGS`, the programs by their names and the
# files of this tree relative to its root.
show_cmd() {
    line=""
    for a in "$@"; do
        case $a in
        *"$DEMO_ROOT/"*) a="${a%%"$DEMO_ROOT/"*}${a#*"$DEMO_ROOT/"}" ;;
        esac
        case $a in
        "$VIMANA") a=vimana ;;
        "$VIMANA_ET") a=vimana-et ;;
        "$ET_GENERATE") a=et-generate ;;
        esac
        line="$line $a"
    done
    echo "\$$line"
}

# Runs a command after showing it.
show() {
    show_cmd "$@"
    "$@"
}

# Runs a command after showing it, keeps its output in FILE and shows it.
show_to() { # FILE CMD ARGS...
    file=$1
    shift
    show_cmd "$@"
    "$@" >"$file"
    cat "$file"
}

# What `vimana-et validate` said of a valid set, as one word:
# "8_files,_232_nodes".
validated() { # FILE
    sed -n 's/.*: valid (\(.*\))$/\1/p' "$1" | tr ' ' '_'
}

# Records a key number (one word) of the demo.
key() { # NAME VALUE
    echo "$1 $2" >>"$OUT/key-numbers"
}

# The finish cycles of a vimana output: all=N when every NPU finished at N,
# else min=A,max=B.
cycles() { # FILE
    sed -n 's/^sys\[[0-9]*\] finished, \([0-9]*\) cycles.*/\1/p' "$1" | sort -n | uniq |
        awk 'NR == 1 { lo = $1 } { hi = $1; n++ } END { if (n == 1) print "all=" lo; else if (n > 1) print "min=" lo ",max=" hi; else print "none" }'
}

# Exposed communication, the same way.
exposed() { # FILE
    sed -n 's/^sys\[[0-9]*\] finished, .* exposed communication \([0-9]*\) cycles.*/\1/p' "$1" | sort -n | uniq |
        awk 'NR == 1 { lo = $1 } { hi = $1; n++ } END { if (n == 1) print "all=" lo; else if (n > 1) print "min=" lo ",max=" hi; else print "none" }'
}

# Shows a run's finish lines: all of them up to 8 NPUs, else the first and a
# summary.
finish_lines() { # FILE
    n=$(grep -c '^sys\[[0-9]*\] finished' "$1" || true)
    if [ "$n" -le 8 ]; then
        grep '^sys\[[0-9]*\] finished' "$1"
    else
        grep -m 1 '^sys\[[0-9]*\] finished' "$1"
        echo "... ($n NPUs; finish cycles $(cycles "$1"), exposed communication $(exposed "$1"))"
    fi
}

# Runs vimana (shown), keeps its output in OUTDIR/NAME.out and shows the
# finish lines.
simulate() { # NAME VIMANA-ARGS...
    name=$1
    shift
    show_cmd "$VIMANA" "$@"
    "$VIMANA" "$@" >"$OUT/$name.out"
    finish_lines "$OUT/$name.out"
}

# The same with one summary line.
simulate_brief() { # NAME VIMANA-ARGS...
    name=$1
    shift
    show_cmd "$VIMANA" "$@"
    "$VIMANA" "$@" >"$OUT/$name.out"
    n=$(grep -c '^sys\[[0-9]*\] finished' "$OUT/$name.out" || true)
    echo "$n NPUs; finish cycles $(cycles "$OUT/$name.out"), exposed communication $(exposed "$OUT/$name.out")"
}

# True when vimana finds the network backend NAME (a backend whose
# dependency was missing at configure time is not built); else says so in
# one line.
have_backend() { # NAME WHAT-IS-SKIPPED
    if "$VIMANA" --network-backend="$1" --workload-configuration=/nonexistent/x \
        --system-configuration=/nonexistent.json --network-configuration=/nonexistent.yml 2>&1 |
        grep -q "network backend '$1' not found"; then
        echo "($1 is not built here: $2 skipped)"
        return 1
    fi
    return 0
}

# Compares OUTDIR/key-numbers with the demo's expected file (comments after
# '#' and blank lines ignored; a key the demo recorded as `skipped` because a
# backend is not built passes), then says what to look at.
demo_end() { # WHAT-TO-LOOK-AT
    sed 's/#.*//; s/[[:space:]]*$//; /^$/d; s/[[:space:]][[:space:]]*/ /g' "$DEMO_DIR/expected" >"$OUT/expected-keys"
    if awk 'NR == FNR { got[$1] = $2; seen[$1] = 0; next }
            { want[$1] = $2; if (!($1 in got)) { print "missing: " $1 " (expected " $2 ")"; bad = 1; next }
              seen[$1] = 1
              if (got[$1] != $2 && got[$1] != "skipped") { print $1 ": " got[$1] ", expected " $2; bad = 1 } }
            END { for (k in seen) if (!seen[k]) { print "unexpected key: " k " " got[k]; bad = 1 }
                  exit bad }' "$OUT/key-numbers" "$OUT/expected-keys" >"$OUT/key-check"; then
        echo
        echo "Key numbers: as expected (inputs/demos/$DEMO/expected)."
    else
        echo
        echo "Key numbers differ from inputs/demos/$DEMO/expected:"
        cat "$OUT/key-check"
        exit 1
    fi
    echo "Look at: $1"
}
