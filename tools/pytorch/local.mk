vimana_et_SOURCES += tools/pytorch/stubs.c
