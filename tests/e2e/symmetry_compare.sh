# The comparison of a reduced run with the full one, shared by the
# symmetry tests (sourced after lib.sh; uses T and REPORT).

by_npu() { # FILE: the report lines, stably sorted by NPU
    sed 's/^sys\[\([0-9]*\)\]/\1 &/' "$1" | sort -s -n -k1,1 | cut -d' ' -f2-
}

same_report() { # WHAT FULL REDUCED: the --report files (JSON, or CSV and its collectives table) hold the
    # same bytes, but for the order of the collective records, which is the order in which the NPUs'
    # nodes end within a tick (the reduced run writes them in NPU order)
    for sfx in ".$REPORT" .collectives.csv .links.csv; do
        [ -e "$2$sfx" ] || [ -e "$3$sfx" ] || continue
        grep -v '^{"npu": [0-9]*, "node": \|^[0-9]*,[0-9]*,"' "$2$sfx" >"$T/rf" 2>/dev/null
        grep -v '^{"npu": [0-9]*, "node": \|^[0-9]*,[0-9]*,"' "$3$sfx" >"$T/rr" 2>/dev/null
        cmp -s "$T/rf" "$T/rr" || { fail "$1: --report$sfx differs"; diff "$T/rf" "$T/rr" | head -n 6 >&2; }
        # the collective records, without the separating comma
        grep '^,\{0,1\}{"npu": [0-9]*, "node": \|^[0-9]*,[0-9]*,"' "$2$sfx" | sed 's/,$//' | sort >"$T/rf"
        grep '^,\{0,1\}{"npu": [0-9]*, "node": \|^[0-9]*,[0-9]*,"' "$3$sfx" | sed 's/,$//' | sort >"$T/rr"
        cmp -s "$T/rf" "$T/rr" || { fail "$1: --report$sfx collective records differ"; diff "$T/rf" "$T/rr" | head -n 6 >&2; }
    done
}

compare() { # WHAT MODE FLAGS...: default (symmetry MODE, any if empty) vs --no-symmetry; the same per-NPU lines
    # (and, with REPORT=FILE.json or FILE.csv, the same --report)
    what=$1 mode=$2
    shift 2
    if [ -n "${REPORT:-}" ]; then set -- "$@" --report="$T/rep.$REPORT"; fi
    rm -f "$T"/rep.* "$T"/full.* "$T"/reduced.*
    "$VIMANA" "$@" --run-stats >"$T/reduced.out" 2>"$T/reduced.err" || {
        fail "$what: reduced run failed: $(cat "$T/reduced.err")"
        return
    }
    for f in "$T"/rep.*; do [ -e "$f" ] && mv "$f" "$T/reduced.${f#"$T"/rep.}"; done
    "$VIMANA" "$@" --no-symmetry >"$T/full.out" 2>"$T/full.err" || {
        fail "$what: full run failed: $(cat "$T/full.err")"
        return
    }
    [ -z "$mode" ] || grep -q "^vimana: symmetry: $mode " "$T/reduced.err" ||
        fail "$what: expected symmetry $mode, got: $(grep symmetry "$T/reduced.err")"
    [ -n "${SYMMETRY_VERBOSE:-}" ] && echo "$what: $(grep -c finished "$T/reduced.out") NPUs" >&2
    by_npu "$T/reduced.out" >"$T/reduced.sorted"
    by_npu "$T/full.out" >"$T/full.sorted"
    cmp -s "$T/reduced.sorted" "$T/full.sorted" || {
        fail "$what: per-NPU reports differ"
        diff "$T/full.sorted" "$T/reduced.sorted" | head -n 6 >&2
    }
    grep -v '^vimana: symmetry: \|^vimana: [0-9]* NPUs loaded' "$T/reduced.err" >"$T/reduced.warn"
    by_npu "$T/reduced.warn" >"$T/a"
    by_npu "$T/full.err" >"$T/b"
    cmp -s "$T/a" "$T/b" || fail "$what: warnings differ: $(cat "$T/reduced.warn") / $(cat "$T/full.err")"
    if [ -n "${REPORT:-}" ]; then
        for f in "$T"/rep.*; do [ -e "$f" ] && mv "$f" "$T/full.${f#"$T"/rep.}"; done
        same_report "$what" "$T/full" "$T/reduced"
    fi
}
