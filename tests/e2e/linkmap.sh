#!/bin/sh
# vimana-et linkmap: a real congestion_aware run drawn byte for byte, then a
# hand-written report for the ordering, --top and the escaping.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
G="$VIMANA_SRCDIR/tests/data/golden-inputs"
DATA="$VIMANA_SRCDIR/tests/data/linkmap"
T="$TEST_TMP"
lm() { "$VIMANA_ET" linkmap "$@"; }

# SEND 1 MiB from NPU 0 to NPU 1 on a Switch of 8 (50 GB/s = 53.6870912
# bytes/ns, latency 500 ns): two hops, NPU 0 -> switch 0 (device 8) ->
# NPU 1, each busy trunc(1048576 / 53.6870912) = 19531 ticks; the run ends
# at 2 x trunc(500 + 19531.25) = 40062. Utilisation 19531 / 40062 =
# 0.4875193... -> 0.487519 in the report; drawn as 48.75 %, a bar of
# 0.487519 x 400 = 195.0 px, colour at 488/1000 of the way: between blue
# (44,123,182) and orange (253,174,97) at 488/500 =
# ((44x12 + 253x488 + 250) / 500, ...) = (248, 173, 99) = #f8ad63.
# Rows are labelled with the report's device names (congestion_aware has
# none of its own: the host's "npu0", "switch0"); no message waited.
expect_ok "$VIMANA" --workload-configuration="$G/workload/send_0to1_1MiB_8/send_0to1_1MiB_8" \
    --system-configuration="$G/system/ring.json" --network-configuration="$G/network/switch8.yml" \
    --network-backend=congestion_aware --report="$T/sw.json"
grep -qxF '{"src_device": 0, "dst_device": 8, "bytes": 1048576, "messages": 1, "busy_ticks": 19531, "utilisation": 0.487519, "src": "npu0", "dst": "switch0", "max_queue_ticks": 0, "queue_ticks": 0, "ecn_marks": 0, "pause_ticks": 0},' \
    "$T/sw.json" || fail "switch8 link record: $(grep src_device "$T/sw.json")"
expect_ok lm "$T/sw.json" -o "$T/sw.svg"
cmp -s "$T/sw.svg" "$DATA/send_0to1_switch8.svg" || {
    fail "switch8 picture differs from send_0to1_switch8.svg"
    diff "$DATA/send_0to1_switch8.svg" "$T/sw.svg" >&2
}
grep -qF '<text x="632" y="85">48.75%, 1048576 bytes, 1 messages, worst wait 0 ns</text></g>' "$T/sw.svg" ||
    fail "switch8 figures"
grep -qF '<rect x="220" y="72" width="195.0" height="16" fill="#f8ad63"/>' "$T/sw.svg" || fail "switch8 bar"
grep -qF '<text x="16" y="107">switch0 -&gt; npu1</text>' "$T/sw.svg" || fail "switch8 second row"
grep -qF '<g><title>npu0 -&gt; switch0: busy 19531 ns, worst queueing delay 0 ns, 0 ns queued in all</title>' \
    "$T/sw.svg" || fail "switch8 first title"
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$T/sw.svg" || fail "not well-formed XML"
# Same report, same bytes; '-' writes to stdout.
expect_ok lm -o - "$T/sw.json"
cmp -s "$T/out" "$DATA/send_0to1_switch8.svg" || fail "stdout picture differs"

# mixed.json: 2 x 2 NPUs (devices 0-3), switch 0 is device 4; six links.
# Busiest first: 1.5 (links[3], drawn as a full bar, 150.00 %), 0.75
# (links[1]), then three at 0.25: links[2] (200 bytes) before links[0] and
# links[5] (100 bytes each, report order), then 0 (links[4]). --top 4 keeps
# the first four. Colours: 0.75 -> halfway orange..red = (234,100,63) =
# #ea643f; 0.25 -> halfway blue..orange = (149,149,140) = #95958c.
# The backend name 'my<net>&"x"' is escaped.
expect_ok lm "$DATA/mixed.json" --top 4 -o "$T/mixed.svg"
cmp -s "$T/mixed.svg" "$DATA/mixed_top4.svg" || {
    fail "mixed --top 4 differs from mixed_top4.svg"
    diff "$DATA/mixed_top4.svg" "$T/mixed.svg" >&2
}
grep -qF 'Link utilisation: my&lt;net&gt;&amp;&quot;x&quot;</text>' "$T/mixed.svg" || fail "title escaping"
grep -qF '4 NPUs (dim 0: 2 @ 12.5 GB/s, dim 1: 2); 9 links, 6 carried traffic; the 4 busiest shown' \
    "$T/mixed.svg" || fail "mixed summary"
expect_eq "$(grep -o '<title>[^<]*' "$T/mixed.svg" | sed 's/<title>//' | tr '\n' '|')" \
    'NPU 2 -&gt; NPU 3: busy 1500 ns|switch 0 -&gt; NPU 1: busy 750 ns|NPU 1 -&gt; NPU 2: busy 250 ns|NPU 0 -&gt; switch 0: busy 250 ns|' \
    "mixed --top 4: rows busiest first"
grep -qF 'width="400.0" height="16" fill="#d7191c"/>' "$T/mixed.svg" || fail "utilisation 1.5: full red bar"
grep -qF '150.00%, 4000 bytes, 4 messages' "$T/mixed.svg" || fail "utilisation 1.5: percent"
grep -qF 'width="300.0" height="16" fill="#ea643f"/>' "$T/mixed.svg" || fail "utilisation 0.75 bar"
grep -qF 'width="100.0" height="16" fill="#95958c"/>' "$T/mixed.svg" || fail "utilisation 0.25 bar"
# The default --top (40) draws all six; the last two are links[5] and the idle links[4].
expect_ok lm "$DATA/mixed.json" -o "$T/all.svg"
expect_eq "$(grep -o '<title>[^<]*' "$T/all.svg" | sed 's/<title>//' | tail -n 2 | tr '\n' '|')" \
    'switch 0 -&gt; NPU 0: busy 250 ns|NPU 3 -&gt; NPU 0: busy 0 ns|' "mixed: last rows"
grep -qF '6 carried traffic, all shown' "$T/all.svg" || fail "mixed: all shown"
grep -qF 'width="0.0" height="16" fill="#2c7bb6"/>' "$T/all.svg" || fail "utilisation 0: empty blue bar"

# mixed.json is an older report (no names, no queue counters): device ids
# name the rows ("NPU 2", "switch 0" above) and no wait is shown.
grep -q 'wait\|queue' "$T/all.svg" && fail "mixed: a wait drawn for a report without queue counters"

# named.json (ABI 1.2 records): rows labelled with the report's names,
# escaped; in the row label a name is cut after 12 bytes, between
# characters, with an ellipsis ("gpu" + 4 x "é" is 11 bytes, a fifth would
# make 13); the title has the full names and the worst and total queueing
# delay, the figures the worst wait. The third link's counters are null
# (a pre-1.2 backend): no wait shown for it.
expect_ok lm "$DATA/named.json" -o "$T/named.svg"
python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$T/named.svg" || fail "named: not well-formed XML"
expect_eq "$(grep -o '<title>[^<]*' "$T/named.svg" | sed 's/<title>//' | tr '\n' '|')" \
    'npu0 -&gt; leaf&lt;0&gt;&amp;&quot;a&quot;: busy 1000 ns, worst queueing delay 700 ns, 1200 ns queued in all|leaf&lt;0&gt;&amp;&quot;a&quot; -&gt; spine-0123456789abcdef: busy 500 ns, worst queueing delay 0 ns, 0 ns queued in all|spine-0123456789abcdef -&gt; gpuéééééé: busy 200 ns|' \
    "named: titles"
grep -qF '<text x="16" y="107">leaf&lt;0&gt;&amp;&quot;a&quot; -&gt; spine-012345…</text>' "$T/named.svg" || fail "named: cut label"
grep -qF '<text x="16" y="129">spine-012345… -&gt; gpuéééé…</text>' "$T/named.svg" || fail "named: cut between characters"
grep -qF '<text x="632" y="85">50.00%, 4096 bytes, 4 messages, worst wait 700 ns</text></g>' "$T/named.svg" ||
    fail "named: worst wait in the figures"
grep -qF '<text x="632" y="129">10.00%, 1024 bytes, 1 messages</text></g>' "$T/named.svg" || fail "named: null counters"
finish
