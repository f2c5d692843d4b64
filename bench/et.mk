# ET read/write benchmark: `make bench`, then bench/bench_et [NODES [PATH]].
EXTRA_PROGRAMS += bench/bench_et
BENCH_BINARIES += bench/bench_et$(EXEEXT)
bench_bench_et_SOURCES = bench/bench_et.c
bench_bench_et_LDADD = libvimana_et.la
