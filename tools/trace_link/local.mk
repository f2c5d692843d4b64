vimana_et_SOURCES += tools/trace_link/stubs.c
