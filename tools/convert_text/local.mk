vimana_et_SOURCES += tools/convert_text/stubs.c
