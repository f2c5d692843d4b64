vimana_et_SOURCES += tools/timeline/stubs.c
