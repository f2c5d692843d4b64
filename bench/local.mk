# Benchmarks: built by `make bench`, never run by `make check` (speed is
# measured here, not asserted by timed unit tests).
EXTRA_PROGRAMS =
BENCH_BINARIES =
include $(srcdir)/bench/et.mk
include $(srcdir)/bench/sim.mk
include $(srcdir)/bench/trace_link.mk
include $(srcdir)/bench/gen_transformer.mk
bench: $(BENCH_BINARIES)
.PHONY: bench
CLEANFILES += $(BENCH_BINARIES)
