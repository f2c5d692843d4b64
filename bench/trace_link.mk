# `vimana-et link` benchmark: bench_trace_link_gen writes a synthetic host ET +
# Kineto pair (1 GB in total by default) and bench/bench_trace_link.sh times
# the link on it (wall time, peak RSS) and deletes the files afterwards:
#   make bench && sh $(srcdir)/bench/bench_trace_link.sh . [SIZE]
EXTRA_PROGRAMS += bench/bench_trace_link_gen
BENCH_BINARIES += bench/bench_trace_link_gen$(EXEEXT)
bench_bench_trace_link_gen_SOURCES = bench/bench_trace_link_gen.c
EXTRA_DIST += bench/bench_trace_link.sh
