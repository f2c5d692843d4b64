#!/bin/sh
# vimana-et linkmap on bad options and bad reports: one line naming the file
# and the record, exit status 1 (2 for options), and no picture left behind
# (an earlier one stays untouched).
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

DATA="$VIMANA_SRCDIR/tests/data/linkmap"
T="$TEST_TMP"
P="vimana-et linkmap"
lm() { "$VIMANA_ET" linkmap "$@"; }
only_line() { # WHAT
    expect_eq "$(wc -l <"$T/err" | tr -d ' ')" 1 "$1: lines on stderr"
}

# Options.
expect_ok lm --help
grep -q '^Usage: vimana-et linkmap REPORT.json -o OUT.svg \[--top N\]' "$T/out" || fail "--help: no usage"
expect_error "$P: missing REPORT.json (run \`vimana-et linkmap --help\`)" lm -o "$T/o.svg"
expect_error "$P: missing -o OUT.svg (run \`vimana-et linkmap --help\`)" lm "$DATA/mixed.json"
expect_error "$P: option -o needs a value" lm "$DATA/mixed.json" -o
expect_error "$P: --top: expected an integer from 1 to 10000, got '0'" lm "$DATA/mixed.json" -o "$T/o.svg" --top 0
expect_error "$P: --top: expected an integer from 1 to 10000, got '10001'" \
    lm "$DATA/mixed.json" -o "$T/o.svg" --top 10001
expect_error "$P: --top: expected a non-negative integer, got 'many'" lm "$DATA/mixed.json" -o "$T/o.svg" --top many
expect_error "$P: unknown option '--color' (run \`vimana-et linkmap --help\`)" lm "$DATA/mixed.json" --color
expect_error "$P: one report only: got 'b.json' after 'a.json'" lm a.json b.json -o "$T/o.svg"
mkdir "$T/dir"
expect_error "$P: error: $T/dir: is a directory, expected a file" lm "$T/dir" -o "$T/o.svg"
expect_error "$P: error: /dev/zero: not a regular file (character device)" lm /dev/zero -o "$T/o.svg"
only_line /dev/zero
expect_error "$P: error: $T/missing.json: cannot open: No such file or directory" lm "$T/missing.json" -o "$T/o.svg"
expect_error "$P: error: $T/no/dir.svg: cannot create: No such file or directory" lm "$DATA/mixed.json" -o "$T/no/dir.svg"
[ -e "$T/o.svg" ] || [ -e "$T/o.svg.part" ] && fail "output left behind by an option error"

# Bad reports. Each replaces the network and links of a valid report.
echo previous >"$T/o.svg"
R="$T/bad.json"
HEAD='{"network_backend": "congestion_aware", "collectives": [], "npus": []'
NET='"network": {"dimensions": [{"dim": 0, "npus": 4, "bandwidth_gbps": 50}], "num_links": 8}'
LINK='{"src_device": 0, "dst_device": 1, "bytes": 10, "messages": 1, "busy_ticks": 5, "utilisation": 0.5}'
report_error() { # TAIL MESSAGE: the report is HEAD, TAIL}
    printf '%s, %s}\n' "$HEAD" "$1" >"$R"
    expect_error "$P: error: $R: $2" lm "$R" -o "$T/o.svg"
    only_line "$2"
    expect_eq "$(cat "$T/o.svg")" previous "output after: $2"
    [ -e "$T/o.svg.part" ] && fail "partial output left behind after: $2"
}
printf 'not json\n' >"$R"
expect_error "$P: error: $R: line 1, column 1: expected a value, got 'not'" lm "$R" -o "$T/o.svg"
only_line "not JSON"
printf '[1]\n' >"$R"
expect_error "$P: error: $R: not a vimana report: the document is not a JSON object" lm "$R" -o "$T/o.svg"
# A backend without link statistics: its report has a network but no links.
report_error "$NET" \
    "no \"links\" records: network backend 'congestion_aware' keeps no link statistics (run with one that does, e.g. congestion_aware)"
report_error '"links": []' 'no "network" record (was it written by vimana --report?)'
report_error "$NET, \"links\": []" '"links" is empty: no link carried a message'
report_error "$NET, \"links\": {}" '"links" is not an array'
report_error "$NET, \"links\": [$LINK, 7]" 'links[1] is not an object'
report_error "$NET, \"links\": [$LINK, {\"src_device\": 0, \"dst_device\": 1, \"bytes\": -10, \"messages\": 1, \"busy_ticks\": 5, \"utilisation\": 0.5}]" \
    'links[1]: "bytes" is not a non-negative integer'
report_error "$NET, \"links\": [{\"src_device\": 0, \"dst_device\": 1, \"bytes\": 10, \"messages\": 1, \"busy_ticks\": 5}]" \
    'links[0]: missing "utilisation"'
report_error "$NET, \"links\": [{\"src_device\": 0, \"bytes\": 10, \"messages\": 1, \"busy_ticks\": 5, \"utilisation\": 0.5}]" \
    'links[0]: missing "dst_device"'
# json-c reads 2^64 as 2^64 - 1: the strict reader refuses 2^64, and 2^64 - 1
# is refused, not drawn as a wrong count.
report_error "$NET, \"links\": [{\"src_device\": 0, \"dst_device\": 1, \"bytes\": 18446744073709551616, \"messages\": 1, \"busy_ticks\": 5, \"utilisation\": 0.5}]" \
    "line 1, column 216: key 'bytes': 18446744073709551616 is out of range for a 64-bit integer"
report_error "$NET, \"links\": [{\"src_device\": 0, \"dst_device\": 1, \"bytes\": 1, \"messages\": 1, \"busy_ticks\": 18446744073709551615, \"utilisation\": 0.5}]" \
    'links[0]: "busy_ticks" is out of range (2^64 - 1 or more)'
report_error "$NET, \"links\": [{\"src_device\": 0, \"dst_device\": 1, \"bytes\": 10, \"messages\": 1.5, \"busy_ticks\": 5, \"utilisation\": 0.5}]" \
    'links[0]: "messages" is not a non-negative integer'
report_error "$NET, \"links\": [{\"src_device\": 0, \"dst_device\": 1, \"bytes\": 10, \"messages\": 1, \"busy_ticks\": 5, \"utilisation\": \"50%\"}]" \
    'links[0]: "utilisation" is not a number'
report_error "$NET, \"links\": [{\"src_device\": 0, \"dst_device\": 1, \"bytes\": 10, \"messages\": 1, \"busy_ticks\": 5, \"utilisation\": -0.5}]" \
    'links[0]: "utilisation" is negative'
report_error "$NET, \"links\": [{\"src_device\": 0, \"dst_device\": 1, \"bytes\": 10, \"messages\": 1, \"busy_ticks\": 5, \"utilisation\": 1e999}]" \
    "line 1, column 267: key 'utilisation': 1e999 is out of range for a double"
# The ABI 1.2 fields: names are strings; the queue counters both known
# (integers) or both unknown (null or absent), the worst not above the total.
L12='{"src_device": 0, "dst_device": 1, "bytes": 10, "messages": 2, "busy_ticks": 5, "utilisation": 0.5'
report_error "$NET, \"links\": [$L12, \"src\": 3}]" 'links[0]: "src" is not a string'
report_error "$NET, \"links\": [$LINK, $L12, \"src\": \"a\", \"dst\": null}]" 'links[1]: "dst" is not a string'
report_error "$NET, \"links\": [$L12, \"max_queue_ticks\": 7, \"queue_ticks\": null}]" \
    'links[0]: "max_queue_ticks" is given but "queue_ticks" is missing or null (both or neither)'
report_error "$NET, \"links\": [$L12, \"queue_ticks\": 7}]" \
    'links[0]: "queue_ticks" is given but "max_queue_ticks" is missing or null (both or neither)'
report_error "$NET, \"links\": [$L12, \"max_queue_ticks\": 8, \"queue_ticks\": 7}]" \
    'links[0]: "max_queue_ticks" (8) is more than "queue_ticks" (7)'
report_error "$NET, \"links\": [$L12, \"max_queue_ticks\": -1, \"queue_ticks\": 7}]" \
    'links[0]: "max_queue_ticks" is not a non-negative integer'
report_error "\"network\": [], \"links\": [$LINK]" '"network" is not an object'
report_error "\"network\": {\"num_links\": 8}, \"links\": [$LINK]" 'network: "dimensions" is missing or not an array'
report_error "\"network\": {\"dimensions\": []}, \"links\": [$LINK]" 'network: "dimensions" is empty'
report_error "\"network\": {\"dimensions\": [{\"dim\": 0, \"npus\": 0, \"bandwidth_gbps\": 50}]}, \"links\": [$LINK]" \
    'network.dimensions[0]: "npus" is 0'
report_error "\"network\": {\"dimensions\": [{\"dim\": 0, \"npus\": 4, \"bandwidth_gbps\": 0}]}, \"links\": [$LINK]" \
    'network.dimensions[0]: "bandwidth_gbps" is not greater than 0'
report_error "\"network\": {\"dimensions\": [{\"dim\": 0, \"npus\": 4}]}, \"links\": [$LINK]" \
    'network.dimensions[0]: missing "bandwidth_gbps"'
report_error "\"network\": {\"dimensions\": [{\"npus\": 65536, \"bandwidth_gbps\": null}, {\"npus\": 65536, \"bandwidth_gbps\": null}]}, \"links\": [$LINK]" \
    'network: the dimensions hold more than 4294967295 NPUs'
report_error "\"network\": {\"dimensions\": [{\"npus\": 4, \"bandwidth_gbps\": 50}], \"num_links\": -1}, \"links\": [$LINK]" \
    'network: "num_links" is not a non-negative integer'
# A control byte in the backend's name stays inside the one line.
printf '{"network_backend": "a\\nb", "collectives": [], %s}\n' "$NET" >"$R"
expect_error "$P: error: $R: no \"links\" records: network backend 'a\\nb' keeps no link statistics (run with one that does, e.g. congestion_aware)" \
    lm "$R" -o "$T/o.svg"
only_line "control byte in the backend name"
finish
