# The base utilities (docs/internals.md, "Layers"), built ONCE as the shared
# library libvimana_util. The ET library, the simulator core, the tools, the
# backends' YAML reader and the tests link it instead of compiling these
# sources again: each object exists in one library only. (A libtool
# convenience library would not do: it is copied whole into every shared
# library that links it, and libvimana_et and a backend toolkit would each
# carry a hidden copy beside the one in vimana.) It is internal: installed
# because the installed libraries need it, but no header of it is installed.
# Every function of it is a utility the other libraries call, so all its
# symbols are exported (a new utility needs no list updated).
lib_LTLIBRARIES += libvimana_util.la
libvimana_util_la_SOURCES = \
	core/util/arena.c core/util/arena.h \
	core/util/decimal.c core/util/decimal.h \
	core/util/dep_links.c core/util/dep_links.h \
	core/util/file_digest.c core/util/file_digest.h \
	core/util/hash.c core/util/hash.h \
	core/util/huge_pages.c core/util/huge_pages.h \
	core/util/input_file.c core/util/input_file.h \
	core/util/json_doc.c core/util/json_doc.h \
	core/util/json_check.c core/util/json_check.h \
	core/util/json_escape.c core/util/json_escape.h \
	core/util/msg_escape.c core/util/msg_escape.h \
	core/util/number_text.c core/util/number_text.h \
	core/util/or_die.c core/util/or_die.h \
	core/util/parent_dirs.c core/util/parent_dirs.h \
	core/util/path_msg.c core/util/path_msg.h \
	core/util/slab.c core/util/slab.h \
	core/util/sorted.c core/util/sorted.h \
	core/util/utf8.c core/util/utf8.h \
	core/util/xml_text.c core/util/xml_text.h \
	core/util/grow.h core/util/ticks.h core/util/varint.h core/util/exported_names.h
libvimana_util_la_CPPFLAGS = $(UTIL_CPPFLAGS)
libvimana_util_la_CFLAGS = $(AM_CFLAGS) $(JSON_C_CFLAGS)
libvimana_util_la_LIBADD = $(JSON_C_LIBS)
libvimana_util_la_LDFLAGS = $(AM_LDFLAGS) -version-info 0:0:0
