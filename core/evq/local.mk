# The event queue, installed as libvimana_evq so that third-party backends
# can use the same ordering rules as the built-in ones.
lib_LTLIBRARIES += libvimana_evq.la
libvimana_evq_la_SOURCES = core/evq/event_queue.c
libvimana_evq_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 -export-symbols-regex '^vimana_evq_'
pkginclude_HEADERS += core/include/vimana/event_queue.h core/include/vimana/network_api.h
