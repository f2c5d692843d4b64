# Chakra ET library: installed as libvimana_et with the public header
# vimana/et.h. Tools link only this library (and the base utilities). It
# uses the base utilities from libvimana_util instead of compiling them in.
lib_LTLIBRARIES += libvimana_et.la
libvimana_et_la_SOURCES = \
	core/et/et_pb.c core/et/et_pb.h \
	core/et/et_reader.c core/et/et_writer.c core/et/et_error.c core/et/et_error.h \
	core/et/et_decode.c core/et/et_decode.h core/et/et_item_size.h \
	core/et/et_attr.c core/et/et_names.c core/et/et_builder.c core/et/et_roles.c
nodist_libvimana_et_la_SOURCES = proto/et_def.pb-c.c proto/et_def.pb-c.h
libvimana_et_la_CPPFLAGS = $(CORE_CPPFLAGS)
libvimana_et_la_CFLAGS = $(AM_CFLAGS) $(PROTOBUF_C_CFLAGS) $(ZLIB_CFLAGS) $(JSON_C_CFLAGS)
libvimana_et_la_LIBADD = libvimana_util.la $(PROTOBUF_C_LIBS) $(ZLIB_LIBS) $(JSON_C_LIBS)
libvimana_et_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0 -export-symbols-regex '^vet_'
pkginclude_HEADERS += core/include/vimana/et.h core/include/vimana/et_roles.h
