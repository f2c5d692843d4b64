vimana_et_SOURCES += tools/etcmd/stubs.c
