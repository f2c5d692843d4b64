#!/bin/sh
# Every ET-reading command on damaged input: exactly one line on stderr
# naming the file, record and byte offset, exit 1, never a crash (the
# sanitizer build would print its report, which this test looks for).
. "$VIMANA_SRCDIR/tests/e2e/lib.sh"
ET=$VIMANA_ET
T=$TEST_TMP

expect_ok "$ET" generate all-reduce --npus 1 --out "$T/ok"
: > "$T/empty.et"
printf '\007\012\005\060\056\060\056\064\200\200' > "$T/varint.et"           # length varint cut off
printf '\007\012\005\060\056\060\056\064\200\200\200\200\200\000' > "$T/long.et" # 6-byte length
printf '\007\012\005\060\056\060\056\064\377\377\377\377\017\022' > "$T/huge.et" # 2^32-1 declared
head -c 60 "$T/ok.0.et" > "$T/past.et"                                          # length past the end
printf '\003\017\377\377' > "$T/garbage.et"
printf '\007\012\005\060\056\060\056\064\003\010\005\030' > "$T/node.et"     # node cut inside a field

check() { # FILE EXPECTED-LINE
    for cmd in json dot stats validate; do
        "$ET" $cmd "$1" > /dev/null 2> "$T/err"
        rc=$?
        [ "$rc" -eq 1 ] || fail "$cmd $1: exit status $rc"
        grep -qxF -- "$2" "$T/err" || { fail "$cmd $1: wrong message"; sed 's/^/    got: /' "$T/err" >&2; }
        case $cmd in
        validate) lines=2 ;; # plus the summary
        *) lines=1 ;;
        esac
        expect_eq "$(wc -l < "$T/err" | tr -d ' ')" "$lines" "$cmd $1: lines on stderr"
    done
}
check "$T/empty.et" "$T/empty.et: empty file: a Chakra ET starts with a GlobalMetadata record"
check "$T/varint.et" "$T/varint.et: record 1 (byte offset 8): truncated length varint at end of file"
check "$T/long.et" "$T/long.et: record 1 (byte offset 8): over-long length varint (more than 5 bytes)"
check "$T/huge.et" "$T/huge.et: record 1 (byte offset 8): truncated record: length says 4294967295 bytes but only 1 remain"
check "$T/past.et" "$T/past.et: record 1 (byte offset 8): truncated record: length says 72 bytes but only 51 remain"
check "$T/garbage.et" "$T/garbage.et: record 0 (byte offset 0): cannot parse GlobalMetadata (corrupt record or not a Chakra ET)"
check "$T/node.et" "$T/node.et: record 1 (byte offset 8): cannot parse Node (corrupt record)"

# Unknown node types: the reader's callers decide. json keeps the number,
# validate reports it, stats counts it.
printf '\007\012\005\060\056\060\056\064\004\010\005\030\011' > "$T/type9.et"
expect_ok "$ET" json "$T/type9.et"
grep -qxF '   "type": 9' "$T/out" || fail "json keeps type 9"
expect_error "$T/type9.et: node 5 (): unknown node type 9" "$ET" validate "$T/type9.et"
expect_ok "$ET" stats "$T/type9.et"
grep -q '(unknown type)  *1$' "$T/out" || fail "stats counts type 9"

# Seeded random bytes, and random damage to a valid trace: clean errors
# or success, never a sanitizer report.
awk 'BEGIN { srand(7); for (f = 0; f < 5; f++) { n = 1 + int(rand() * 200); s = "";
     for (i = 0; i < n; i++) s = s sprintf("\\%03o", int(rand() * 256)); print s } }' > "$T/seeds"
i=0
while read -r bytes; do
    i=$((i + 1))
    printf "$bytes" > "$T/rand$i.et"
    cp "$T/ok.0.et" "$T/hit$i.et"
    printf "$bytes" | head -c 3 | dd of="$T/hit$i.et" bs=1 seek=$((i * 6)) conv=notrunc 2> /dev/null
done < "$T/seeds"
for f in "$T"/rand*.et "$T"/hit*.et; do
    for cmd in json dot stats validate; do
        "$ET" $cmd "$f" > /dev/null 2> "$T/err"
        rc=$?
        [ "$rc" -le 1 ] || fail "$cmd $f: exit status $rc"
        grep -q 'Sanitizer\|runtime error' "$T/err" && { fail "$cmd $f crashed"; cat "$T/err" >&2; }
    done
done

# Pre-0.0.4 files: one through every command, the rest through validate
# (test_et_corpus checks all of them through the library).
old_msg="record 0 (byte offset 0): pre-0.0.4 Chakra file (schema too old): the first record is a Node, not a GlobalMetadata; regenerate it with Chakra 0.0.4 or later"
O=$REF/corpus/et/chakra-old-standard_output
check "$O/one_comp_node.0.et" "$O/one_comp_node.0.et: $old_msg"
for f in "$O"/*.et; do
    expect_error "$f: $old_msg" "$ET" validate "$f"
done
finish
