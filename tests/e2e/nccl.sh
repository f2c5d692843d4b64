#!/bin/sh
# The NCCL-aware model ("nccl" in an implementation list, docs/nccl.md) on
# the analytical backend: exact times from the closed form, and one exact
# line for every bad value of the system JSON's "nccl" object.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T="$TEST_TMP"

cat >"$T/switch8.yml" <<'YAML'
topology: [ Switch ]
npus_count: [ 8 ]
bandwidth: [ 50.0 ]
latency: [ 500.0 ]
YAML
sys() { # FILE NCCL-OBJECT
    cat >"$1" <<JSON
{"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
 "preferred-dataset-splits": 1, "all-reduce-implementation": ["nccl"], "all-gather-implementation": ["nccl"],
 "reduce-scatter-implementation": ["nccl"], "all-to-all-implementation": ["nccl"],
 "collective-optimization": "localBWAware", "local-mem-bw": 50, "nccl": $2}
JSON
}
"$VIMANA_ET" generate all-reduce --npus 8 --size 1MiB --single-file --out "$T/ar" >/dev/null || fail "generate"
run() { # SYSTEM-JSON: the last NPU's comm time
    "$VIMANA" --workload-configuration="$T/ar" --system-configuration="$1" \
        --network-configuration="$T/switch8.yml" 2>"$T/err" | sed -n 's/^sys\[7\], Comm time: //p'
}

# expect_ar NCCL-OBJECT TICKS WHAT: the 1 MiB all-reduce's time with it
expect_ar() {
    sys "$T/case.json" "$1"
    expect_eq "$(run "$T/case.json")" "$2" "$3"
}

# Defaults, 1 MiB all-reduce on 8 NPUs of one switch: NVLS (>= nvls-min-bytes
# 1 MiB), Simple, 2 steps of 1 MiB x 9/16 = 589824 B (in + in/n a link)
# over all 16 channels (589824 / 32768 = 18) at 0.5 NVLS efficiency:
# 1179648 wire bytes; a message: 2 hops x 500 + 1179648 / (50 x 2^30 / 10^9
# B/ns) = 22972.66 -> 22972 ticks. T = 6000 + 2 x (22972 + 10000) = 71944.
expect_ar '{}' 71944 "nccl defaults, 1 MiB NVLS"

# No SHARP: ring, LL128 (1 MiB <= 4 MiB), 14 steps of 131072 B over 4 of 16
# channels at 0.9375 x 0.8: ceil(131072 / 0.1875) = 699051 B; a message
# 1000 + 699051 / 53.6870912 = 14020.7 -> 14020; T = 6000 + 14 x (14020 + 1250)
# = 219780.
expect_ar '{"nvls": 0}' 219780 "nccl ring LL128"
# The tuner (tuner 1: docs/nccl.md, "The tuner") without SHARP, the tree
# allowed at every size: candidates ring LL128 205794 and Simple 224498 (LL
# is bounded to 64 KiB), tree (3 levels, 6 steps of 349525 B on 10
# channels) LL128 96834 and Simple 104526: tree LL128, ceil(349525 / (0.9375
# x 0.8 x 10/16)) = 745654 B, a message floor(1000 + 745654 / 53.6870912) =
# 14888; T = 6000 + 6 x (14888 + 1250) = 102828. With the default bounds
# (no tree) the ring's LL128 stays: 219780, as the thresholds.
expect_ar '{"nvls": 0, "tuner": 1, "tree-max-bytes": 9007199254740991}' 102828 "nccl tuner: tree LL128"
expect_ar '{"nvls": 0, "tuner": 1}' 219780 "nccl tuner within the default bounds: ring LL128"
# Launch overhead and protocol latency as given: 14 x 14020 = 196280.
expect_ar '{"nvls": false, "launch-overhead-ns": 0, "ll128-hop-latency-ns": 0}' 196280 "nccl ring LL128 without waits"
# One collective's own values ("nccl": {"all-reduce": {...}}) override the
# shared ones for that collective only, wherever the shared keys stand.
expect_ar '{"nvls": 0, "all-reduce": {"launch-overhead-ns": 0, "ll128-hop-latency-ns": 0}}' 196280 "nccl: all-reduce's own values"
expect_ar '{"all-reduce": {"launch-overhead-ns": 0, "ll128-hop-latency-ns": 0}, "nvls": 0}' 196280 "nccl: all-reduce's own values before the shared ones"
expect_ar '{"nvls": 0, "all-gather": {"launch-overhead-ns": 0, "ll128-hop-latency-ns": 0}}' 219780 "nccl: all-gather's own values leave all-reduce alone"
# ... and apply to all-gather: 1 MiB per rank (8 MiB call: Simple, 7 steps)
# without the launch and the 3400 ns Simple waits is 6000 + 7 x 3400 = 29800
# ticks faster.
"$VIMANA_ET" generate all-gather --npus 8 --size 1MiB --single-file --out "$T/ag" >/dev/null || fail "generate ag"
run_ag() {
    "$VIMANA" --workload-configuration="$T/ag" --system-configuration="$1" \
        --network-configuration="$T/switch8.yml" 2>"$T/err" | sed -n 's/^sys\[7\], Comm time: //p'
}
sys "$T/other.json" '{"nvls": 0, "all-gather": {"launch-overhead-ns": 0, "simple-hop-latency-ns": 0}}'
sys "$T/ring.json" '{"nvls": 0}'
with=$(run_ag "$T/other.json")
without=$(run_ag "$T/ring.json")
expect_eq "$((without - with))" 29800 "nccl: all-gather's own values apply to all-gather"

# Two dimensions (baseline: an all-reduce per dimension): dimension 0 (4 NPUs,
# NVLink) runs NVLS as above but 4 NPUs: 1 MiB x 5/8 = 655360 B over 16
# channels, 1310720 wire bytes, a message floor(1000 + 1310720 / 53.6870912)
# = 25414, T1 = 6000 + 2 x (25414 + 10000) = 76828;
# dimension 1 (2 NPUs: ring; a NIC dimension: efficiency 0.9) pays no launch:
# LL128, 2 steps of 524288 B, ceil(524288 / (0.9375 x 0.9)) = 621379 B, a
# message 2 x 1000 + 621379 / 26.8435456 = 25148.2 -> 25148; T2 = 2 x (25148 +
# 1250) = 52796. T = 129624.
cat >"$T/two.yml" <<'YAML'
topology: [ Switch, Switch ]
npus_count: [ 4, 2 ]
bandwidth: [ 50.0, 25.0 ]
latency: [ 500.0, 1000.0 ]
YAML
sys "$T/default.json" '{}'
sed 's/"localBWAware"/"baseline"/; s/\["nccl"\]/["nccl", "nccl"]/' "$T/default.json" >"$T/two.json"
got=$("$VIMANA" --workload-configuration="$T/ar" --system-configuration="$T/two.json" \
    --network-configuration="$T/two.yml" 2>"$T/err" | sed -n 's/^sys\[5\], Comm time: //p')
expect_eq "$got" 129624 "nccl on two dimensions"
# Real messages: the congestion-aware backend carries them too (its own
# link model, slower here than the closed form).
got=$("$VIMANA" --workload-configuration="$T/ar" --system-configuration="$T/two.json" --network-backend=congestion_aware \
    --network-configuration="$T/two.yml" 2>"$T/err" | sed -n 's/^sys\[5\], Comm time: //p')
[ -n "$got" ] && [ "$got" -gt 129624 ] || fail "nccl on congestion_aware: got '$got'"

# oneNccl on two nodes of 8 (Switch 8 x 300 GB/s, 250 ns; Switch 2 x 25
# GB/s, 2000 ns; nvls 0, nic-hop-latency-ns 400), 8-byte all-reduce:
# NCCL's flat ring over the 16 NPUs, 30 LL steps of 1 B; an NVLink message
# 500 + a wait of 600, a NIC one (7 -> 15, 8 -> 0) 4000 + 1000; the NPUs
# that skip a NIC wait finish first, the last at 6000 + 29000 + 19600 =
# 54600 (docs/nccl.md; the closed form of test_calibrate.c).
printf 'topology: [ Switch, Switch ]\nnpus_count: [ 8, 2 ]\nbandwidth: [ 300.0, 25.0 ]\nlatency: [ 250.0, 2000.0 ]\n' \
    >"$T/two.yml"
sys "$T/flat.json" '{"nvls": 0, "nic-hop-latency-ns": 400}'
sed -i 's/\["nccl"\]/["oneNccl"]/g' "$T/flat.json"
"$VIMANA_ET" generate all-reduce --npus 16 --size 8 --single-file --out "$T/ar16" >/dev/null || fail "generate 16"
expect_ok "$VIMANA" --workload-configuration="$T/ar16" --system-configuration="$T/flat.json" \
    --network-configuration="$T/two.yml"
expect_eq "$(sed -n 's/^sys\[[0-9]*\], Comm time: //p' "$T/out" | sort -n | uniq -c | tr -s ' ' | tr '\n' ';')" \
    " 2 50700; 2 51100; 2 54200; 10 54600;" "oneNccl on 8 x 2: each NPU's time"
# with hop-overlap 0.5: the last NPU at 47144, as calibrate's closed form
# has it (test_calibrate.c)
sed -i 's/"nic-hop-latency-ns": 400/"nic-hop-latency-ns": 400, "hop-overlap": 0.5/' "$T/flat.json"
expect_ok "$VIMANA" --workload-configuration="$T/ar16" --system-configuration="$T/flat.json" \
    --network-configuration="$T/two.yml"
expect_eq "$(sed -n 's/^sys\[[0-9]*\], Comm time: //p' "$T/out" | sort -n | tail -n 1)" 47144 "oneNccl on 8 x 2, hop-overlap 0.5"

# Bad values: one line naming the file and the key.
bad() { # NCCL-OBJECT EXPECTED-LINE
    sys "$T/bad.json" "$1"
    expect_error "vimana: error: $T/bad.json: $2" "$VIMANA" --workload-configuration="$T/ar" \
        --system-configuration="$T/bad.json" --network-configuration="$T/switch8.yml"
}
bad '{"chanels": 4}' "key 'nccl.chanels': unknown NCCL parameter (docs/nccl.md lists them)"
bad '{"channels": 0}' "key 'nccl.channels': 0 is out of range (1 to 64)"
bad '{"channels": 2.5}' "key 'nccl.channels': 2.5 is not a whole number"
bad '{"ll-payload": 1.5}' "key 'nccl.ll-payload': 1.5 is out of range (0.01 to 1)"
bad '{"launch-overhead-ns": -1}' "key 'nccl.launch-overhead-ns': -1 is out of range (0 to 1000000000)"
bad '{"nvlink-efficiency": "high"}' "key 'nccl.nvlink-efficiency': expected a number, got \"high\""
bad '{"ll-max-bytes": 8192, "ll128-max-bytes": 4096}' \
    "key 'nccl.ll128-max-bytes': 4096 is below ll-max-bytes (8192)"
bad '[1]' "key 'nccl': expected an object of NCCL parameters"
bad '{"ll128-rate-share": 0}' "key 'nccl.ll128-rate-share': 0 is out of range (0.01 to 1)"
bad '{"threshold-ranks": 7.5}' "key 'nccl.threshold-ranks': 7.5 is not a whole number"
bad '{"channels": 8, "nvls-channels": 12}' "key 'nccl.nvls-channels': 12 is above channels (8)"
bad '{"hop-overlap": 1.5}' "key 'nccl.hop-overlap': 1.5 is out of range (0 to 1)"
bad '{"nvls-channels": 65}' "key 'nccl.nvls-channels': 65 is out of range (0 to 64)"
bad '{"nvls-wide-min-bytes": 1.5}' "key 'nccl.nvls-wide-min-bytes': 1.5 is not a whole number"
bad '{"all-gather": {"chanels": 4}}' "key 'nccl.all-gather.chanels': unknown NCCL parameter (docs/nccl.md lists them)"
bad '{"all-to-all": 3}' "key 'nccl.all-to-all': expected an object of NCCL parameters"
bad '{"reduce-scatter": {"channels": 0}}' "key 'nccl.reduce-scatter.channels': 0 is out of range (1 to 64)"
bad '{"ll-max-bytes": 1024, "ll128-max-bytes": 4096, "all-gather": {"ll-max-bytes": 8192}}' \
    "key 'nccl.all-gather.ll128-max-bytes': 4096 is below ll-max-bytes (8192)"
bad '{"all-gather": {"all-reduce": {}}}' "key 'nccl.all-gather.all-reduce': unknown NCCL parameter (docs/nccl.md lists them)"
bad '{"tuner": 2}' "key 'nccl.tuner': 2 is out of range (0 to 1)"
# The tuner weighs the links' bandwidths: a backend that reports none (the
# ABI test backend has no dim_bandwidth) stops the run at setup.
sys "$T/tuner.json" '{"tuner": 1}'
expect_error "vimana: error: $T/tuner.json: key 'nccl.tuner': network backend 'test' reports no dimension bandwidth, which the tuner weighs each algorithm by; set tuner 0 or use a backend with dim_bandwidth (analytical, congestion_aware)" \
    "$VIMANA" --workload-configuration="$T/ar" --system-configuration="$T/tuner.json" \
    --network-configuration="$T/switch8.yml" --network-backend="$VIMANA_BUILDDIR/tests/backends/abi_current.la"
finish
