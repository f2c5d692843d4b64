# Simulator benchmarks: `make bench` builds bench_run; bench/sim_bench.sh
# generates the workloads and times vimana on them.
EXTRA_PROGRAMS += bench/bench_run
BENCH_BINARIES += bench/bench_run
bench_bench_run_SOURCES = bench/bench_run.c
EXTRA_DIST += bench/sim_bench.sh bench/backends_bench.sh bench/match_bench.sh bench/scale_bench.sh bench/compact_bench.sh bench/calibrate_bench.sh bench/full_bench.sh \
	bench/snapshot.sh bench/README.md
