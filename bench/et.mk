# ET read/write benchmark: `make bench`, then ./bench_et [NODES [PATH]].
EXTRA_PROGRAMS += bench_et
BENCH_BINARIES += bench_et
bench_et_SOURCES = bench/bench_et.c
bench_et_LDADD = libvimana_et.la
CLEANFILES += bench_et
