#!/bin/sh
# vimana --network-faults (docs/simulator.md, "Network faults") on
# congestion_aware: bandwidth factors from their tick on, links down
# rerouted (also in flight), a partition refused, the report's faults, and
# one-line errors. Every time is derived by hand.
#
# tests/data/topology/fat_tree_8.txt: NPUs 0-3 under leaf 8, 4-7 under leaf
# 9, both leaves up to spines 10 and 11; NPU-leaf links 50 B/ns and 500 ns,
# leaf-spine 100 B/ns and 1000 ns. 1 MiB = 1048576 B: a hop costs
# trunc(latency + serialisation) = 21471 (NPU link) or 11485 (leaf-spine).
# NPU 0 -> NPU 4 goes over spine 10 (the ECMP choice of (0, 4)):
# 21471 + 11485 + 11485 + 21471 = 65912.
. "${VIMANA_SRCDIR:-$(dirname "$0")/../..}/tests/e2e/lib.sh"
T=$TEST_TMP
S=$VIMANA_SRCDIR
SYS="$S/inputs/system/ring.json"
FT="$S/tests/data/topology/fat_tree_8.txt"
finish_of() { # NPU: its finish time in $T/out
    sed -n "s/^sys\[$1\] finished, \([0-9]*\) cycles.*/\1/p" "$T/out"
}
run_ca() { # WORKLOAD NETWORK FAULTS [OPTIONS]
    w=$1 n=$2 f=$3
    shift 3
    "$VIMANA" --workload-configuration="$w" --system-configuration="$SYS" --network-configuration="$n" \
        --network-backend=congestion_aware --network-faults="$f" "$@"
}
faults() { # NAME LINE...: $T/NAME.yaml, one fault a line
    name=$1
    shift
    printf '%s\n' "$@" >"$T/$name.yaml"
}

flows 8 "$T/a/a" 0:4 || fail "flows"
faults none "[]"
expect_ok run_ca "$T/a/a" "$FT" "$T/none.yaml"
expect_eq "$(finish_of 4)" 65912 "no fault"

# Spine 10's link to leaf 8 at half bandwidth (50 B/ns): that hop costs
# trunc(1000 + 20971.52) = 21971, 10486 more: 76398. Named by device ids or
# by names alike.
faults half "- {link: [switch8, switch10], bandwidth-factor: 0.5}"
expect_ok run_ca "$T/a/a" "$FT" "$T/half.yaml"
expect_eq "$(finish_of 4)" 76398 "leaf 8 - spine 10 at half bandwidth"
faults half_ids "- {link: [8, 10], at: 0, bandwidth-factor: 0.5}"
expect_ok run_ca "$T/a/a" "$FT" "$T/half_ids.yaml"
expect_eq "$(finish_of 4)" 76398 "the same link by device ids"

# A factor holds for hops that start from its tick on: the message starts
# on spine 10 -> leaf 9 at 21471 + 11485 = 32956. A fault there at 30000
# costs that hop 10486 (76398); one at 40000 comes too late (65912).
faults early "- {link: [switch10, switch9], at: 30000, bandwidth-factor: 0.5}"
expect_ok run_ca "$T/a/a" "$FT" "$T/early.yaml"
expect_eq "$(finish_of 4)" 76398 "factor from tick 30000"
faults late "- {link: [switch10, switch9], at: 40000, bandwidth-factor: 0.5}"
expect_ok run_ca "$T/a/a" "$FT" "$T/late.yaml"
expect_eq "$(finish_of 4)" 65912 "factor from tick 40000"

# Leaf 8 - spine 10 down from the start: the route takes spine 11, as fast
# (65912); the report lists the fault and the links used.
faults down "- {link: [switch8, switch10], down: true}"
expect_ok run_ca "$T/a/a" "$FT" "$T/down.yaml" --report="$T/down.json"
expect_eq "$(finish_of 4)" 65912 "rerouted over spine 11"
grep -qF '"faults": [{"link": ["switch8", "switch10"], "devices": [8, 10], "at": 0, "down": true}]' "$T/down.json" ||
    fail "report's faults: $(grep -o '"faults.*' "$T/down.json")"
expect_eq "$(grep -c '"src": "switch8", "dst": "switch11"\|"src": "switch11", "dst": "switch9"' "$T/down.json")" 2 \
    "links of spine 11 used"
grep -q '"switch10"' "$T/down.json" && grep -q '"dst": "switch10"' "$T/down.json" && fail "spine 10 carried a message"

# Spine 10 -> leaf 9 down at 30000, while the message crosses leaf 8 ->
# spine 10: it reaches spine 10 at 32956 and takes the shortest route left,
# back to leaf 8, up to spine 11, down to leaf 9 and NPU 4:
# 32956 + 3 x 11485 + 21471 = 88882.
faults inflight "- {link: [switch10, switch9], at: 30000, down: true}"
expect_ok run_ca "$T/a/a" "$FT" "$T/inflight.yaml"
expect_eq "$(finish_of 4)" 88882 "rerouted in flight"

# Both links of spine 10 down at 25000, while the message crosses leaf 8 ->
# spine 10: no NPU is cut off, but the message is stranded at spine 10.
faults strand "- {link: [switch8, switch10], at: 25000, down: true}" "- {link: [switch9, switch10], at: 25000, down: true}"
expect_error "vimana: error: network backend congestion_aware failed: congestion_aware: a message for NPU 4 reached switch10, which the links down cut off from it (or the route cache cannot grow)" \
    run_ca "$T/a/a" "$FT" "$T/strand.yaml"

# Both spine links of leaf 8 down: NPUs 4-7 are cut off from NPU 0.
faults cut "- {link: [switch8, switch10], at: 100, down: true}" "- {link: [switch8, switch11], at: 200, down: true}"
expect_error "vimana: error: $T/cut.yaml:2: link [switch8, switch11]: the links down from tick 200 cut NPUs 4, 5, 6, 7 off from NPU 0 (a partition: no route is left between them)" \
    run_ca "$T/a/a" "$FT" "$T/cut.yaml"
# ... unless the first comes back up first (bandwidth-factor 1 at 150)
faults back "- {link: [switch8, switch10], at: 100, down: true}" "- {link: [switch8, switch10], at: 150, bandwidth-factor: 1}" \
    "- {link: [switch8, switch11], at: 200, down: true}"
expect_ok run_ca "$T/a/a" "$FT" "$T/back.yaml"
expect_eq "$(finish_of 4)" 65912 "spine 10 back up before spine 11 goes down"

# A ring all-reduce of 1 MiB on the 8 NPUs crosses the spines over spine 11
# only (the ECMP choices of its pairs): 222136 cycles. Spine 11's link to
# leaf 8 at a tenth of its bandwidth makes it slower; down, it still
# completes, over spine 11's twin, spine 10, as fast.
AR="$S/inputs/sweeps/workloads/ar_1MiB_8"
faults slow "- {link: [switch8, switch11], bandwidth-factor: 0.1}"
faults spine "- {link: [switch8, switch11], down: true}"
expect_ok run_ca "$AR" "$FT" "$T/none.yaml"
expect_eq "$(finish_of 7)" 222136 "all-reduce"
expect_ok run_ca "$AR" "$FT" "$T/slow.yaml"
slow=$(finish_of 7)
[ "${slow:-0}" -gt 222136 ] || fail "a spine link at 0.1: $slow cycles, not slower than 222136"
expect_ok run_ca "$AR" "$FT" "$T/spine.yaml"
expect_eq "$(finish_of 7)" 222136 "all-reduce with a spine link down"

# A network of dimensions (switch8.yml: 50 GB/s = 53.687 B/ns, 500 ns):
# 1 MiB 0 -> 1 is two hops of trunc(500 + 19531.25) = 20031: 40062; NPU 0's
# link at half bandwidth: trunc(500 + 39062.5) + 20031 = 59593. A link of
# dimensions cannot go down (no other path).
flows 8 "$T/b/b" 0:1 || fail "flows"
SW="$S/inputs/network/switch8.yml"
faults sw_half "- {link: [npu0, switch0], bandwidth-factor: 0.5}"
expect_ok run_ca "$T/b/b" "$SW" "$T/sw_half.yaml"
expect_eq "$(finish_of 1)" 59593 "switch8: NPU 0's link at half bandwidth"
faults sw_down "- {link: [npu0, switch0], down: true}"
expect_error "vimana: error: $T/sw_down.yaml:1: link [npu0, switch0]: congestion_aware routes a network of dimensions in dimension order, with no other path for a link that is down: give the network as a topology file, or a bandwidth-factor" \
    run_ca "$T/b/b" "$SW" "$T/sw_down.yaml"

# One-line errors.
faults nodev "- {link: [npu0, switch9], down: true}"
expect_error "vimana: error: $T/nodev.yaml:1: link: no device named 'switch9' (names as --report's link records give them, e.g. 'npu0')" \
    run_ca "$T/b/b" "$SW" "$T/nodev.yaml"
faults noid "- {link: [0, 42], down: true}"
expect_error "vimana: error: $T/noid.yaml:1: link: no device 42 (the network's devices are 0 to 8, as --report's link records number them)" \
    run_ca "$T/b/b" "$SW" "$T/noid.yaml"
faults nolink "- {link: [npu0, npu1], bandwidth-factor: 2}"
expect_error "vimana: error: $T/nolink.yaml:1: link: no link between npu0 and npu1 in $SW" \
    run_ca "$T/b/b" "$SW" "$T/nolink.yaml"
faults bad "- {link: [npu0, switch0], bandwidth-factor: 0}"
expect_error "vimana: error: $T/bad.yaml:1: bandwidth-factor: expected a number in (0, 1000000], got '0'" \
    run_ca "$T/b/b" "$SW" "$T/bad.yaml"
expect_error "vimana: error: --network-faults: network backend analytical cannot model link faults (congestion_aware, ns3_shim and garnet can)" \
    run_ca "$T/b/b" "$SW" "$T/sw_half.yaml" --network-backend=analytical
expect_error "vimana: --jobs: --network-faults does not apply (the jobs file names the network, the backend and each job's workload and configurations; see docs/jobs.md)" \
    "$VIMANA" --jobs="$T/j.yaml" --network-faults="$T/sw_half.yaml"
expect_error "vimana: error: $T/missing.yaml: cannot open: No such file or directory" \
    run_ca "$T/b/b" "$SW" "$T/missing.yaml"
finish
