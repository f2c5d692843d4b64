# Chakra ET library: installed as libvimana_et with the public header
# vimana/et.h. Tools link only this library.
lib_LTLIBRARIES += libvimana_et.la
libvimana_et_la_SOURCES = \
	core/et/et_pb.c core/et/et_pb.h \
	core/et/et_reader.c core/et/et_writer.c \
	core/et/et_decode.c core/et/et_decode.h core/et/et_item_size.h \
	core/et/et_attr.c core/et/et_names.c core/et/et_builder.c \
	core/util/arena.c core/util/arena.h core/util/grow.h \
	core/util/input_file.c core/util/input_file.h \
	core/util/msg_escape.c core/util/msg_escape.h
nodist_libvimana_et_la_SOURCES = proto/et_def.pb-c.c proto/et_def.pb-c.h
libvimana_et_la_CFLAGS = $(AM_CFLAGS) $(PROTOBUF_C_CFLAGS) $(ZLIB_CFLAGS)
libvimana_et_la_LIBADD = $(PROTOBUF_C_LIBS) $(ZLIB_LIBS)
libvimana_et_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 -export-symbols-regex '^vet_'
pkginclude_HEADERS += core/include/vimana/et.h
