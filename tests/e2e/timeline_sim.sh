#!/bin/sh
# Simulator round trip: vimana with "trace-enabled": 1 on the HOTI'24
# three-node graph (simulator.md §16), its stderr through vimana-et
# timeline, and the same run's --report through the report mode. The
# expected times are derived by hand: all-reduce 1 MiB on Ring 8 0-117780
# ns; then all-gather 2 MiB 117780-405520 and COMP 50 us 117780-167780.
# At 1000 MHz the reference's units are ms: 117780 cycles = 0.11778.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"

G="$REF/golden/inputs"
SYS="$REF/corpus/configs/vimana/Ring_sys_trace.json"
T="$TEST_TMP"

"$VIMANA" --workload-configuration="$G/workload/hoti_3nodes_8/hoti_3nodes_8" --system-configuration="$SYS" \
    --network-configuration="$G/network/ring8.yml" --report="$T/report.json" >"$T/stdout.txt" 2>"$T/trace.log" ||
    { fail "vimana failed: $(cat "$T/trace.log")"; finish; }
expect_eq "$(grep -c '^issue,' "$T/trace.log")" 24 "issue records"

expect_ok "$VIMANA_ET" timeline --input "$T/trace.log" --output "$T/ms.json" --num-npus 8 --npu-frequency 1000 --compat
[ -s "$T/err" ] && fail "unexpected stderr: $(cat "$T/err")"
has() { # FILE TEXT
    grep -qF -- "$2" "$1" || fail "$1 lacks: $2"
}
for npu in 0 1 2 3 4 5 6 7; do
    has "$T/ms.json" "{\"pid\": $npu, \"tid\": 4, \"ts\": 0.0, \"dur\": 0.11778, \"ph\": \"X\", \"name\": \"All-Reduce-1MB\", \"args\": {\"ms\": 0.11778}}"
    has "$T/ms.json" "{\"pid\": $npu, \"tid\": 3, \"ts\": 0.11778, \"dur\": 0.05, \"ph\": \"X\", \"name\": \"Compute-50us\", \"args\": {\"ms\": 0.05}}"
    has "$T/ms.json" "{\"pid\": $npu, \"tid\": 4, \"ts\": 0.11778, \"dur\": 0.28774, \"ph\": \"X\", \"name\": \"All-Gather-2MB\", \"args\": {\"ms\": 0.28774}}"
done
expect_eq "$(grep -o '"ph": "X"' "$T/ms.json" | wc -l | tr -d ' ')" 24 "event count"
case "$(cat "$T/ms.json")" in
'{"meta_user": "aras", "traceEvents": [{"pid": 0, "tid": 4, "ts": 0.0, "dur": 0.11778, '*'], "meta_cpu_count": 8}') ;;
*) fail "document shape: $(head -c 120 "$T/ms.json")" ;;
esac

# --time-unit us: the all-reduce of NPU 0 ends at 117.78 us.
expect_ok "$VIMANA_ET" timeline --input "$T/trace.log" --output "$T/us.json" --num-npus 8 --npu-frequency 1000 \
    --compat --time-unit us
has "$T/us.json" '{"pid": 0, "tid": 4, "ts": 0.0, "dur": 117.78, "ph": "X", "name": "All-Reduce-1MB", "args": {"us": 117.78}}'
has "$T/us.json" '{"pid": 0, "tid": 4, "ts": 117.78, "dur": 287.74, "ph": "X", "name": "All-Gather-2MB", "args": {"us": 287.74}}'

# Piped straight from the simulator.
"$VIMANA" --workload-configuration="$G/workload/hoti_3nodes_8/hoti_3nodes_8" --system-configuration="$SYS" \
    --network-configuration="$G/network/ring8.yml" 2>&1 >/dev/null |
    "$VIMANA_ET" timeline --input - --output "$T/piped.json" --num-npus 8 --npu-frequency 1000 --compat ||
    fail "piped conversion failed"
cmp -s "$T/piped.json" "$T/ms.json" || fail "piped output differs from the file conversion"

# Fewer NPUs than the log has.
expect_error "vimana-et timeline: $T/trace.log:5: NPU 4 is out of range: --num-npus is 4" \
    "$VIMANA_ET" timeline --input "$T/trace.log" --output "$T/few.json" --num-npus 4 --npu-frequency 1000

# The report of the same run: exact microseconds, one slice per collective.
expect_ok "$VIMANA_ET" timeline --report "$T/report.json" --output "$T/report_trace.json"
has "$T/report_trace.json" '{"name":"All-Reduce-1MB","cat":"collective","ph":"X","ts":0,"dur":117.78,"pid":0,"tid":1,"args":{"node":1,"type":"ALL_REDUCE","bytes":1048576,"group":null,"algorithm":"ring"}}'
has "$T/report_trace.json" '{"name":"All-Gather-2MB","cat":"collective","ph":"X","ts":117.78,"dur":287.74,"pid":7,"tid":1,"args":{"node":2,"type":"ALL_GATHER","bytes":2097152,"group":null,"algorithm":"ring"}}'
has "$T/report_trace.json" '{"name":"run","cat":"npu","ph":"X","ts":0,"dur":405.52,"pid":3,"tid":0,"args":{"finish":405520,"exposed_communication":355520,"wall":405520,"cpu":0,"gpu":50000,"comm":405520,"remote_mem":0,"replay":0,"invalid":0,"overlap":50000}}'
expect_eq "$(grep -c '"cat":"collective"' "$T/report_trace.json")" 16 "report collective slices"

finish
