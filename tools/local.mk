# Command-line tools. They depend on the ET library and the base utilities
# only (plus json-c for the JSON-based formats), never on the simulator core:
# TOOLS_CPPFLAGS shows them the public headers, util/ and tools/ only
# (tools/README.md).
# The command families' sources are built ONCE, into the static library
# libvimana_tools.a (plain objects, no libtool: its script costs about as
# much CPU as compiling a small file), which vimana-et, the unit tests and
# the fuzz targets link. A program pulls in only the objects it calls, so a
# test needs the external libraries of what it uses only; the library names
# none itself for the same reason, and each program lists its own (json-c,
# zlib, Graphviz, libm). One library for all of tools/ and not one per
# family: the families call each other both ways (etcmd <-> merge, synth
# <-> transformer), which one archive resolves in any order.
noinst_LIBRARIES = libvimana_tools.a
libvimana_tools_a_SOURCES = \
	tools/common/cli.c tools/common/cli.h \
	tools/common/pyfloat.c tools/common/pyfloat.h \
	tools/common/pyjson_string.c tools/common/pyjson_string.h \
	tools/common/json_lex.c tools/common/json_lex.h \
	tools/common/idmap.c tools/common/idmap.h \
	tools/common/fail_msg.c tools/common/fail_msg.h \
	tools/common/str_list.c tools/common/str_list.h \
	tools/common/json_input.c tools/common/json_input.h
libvimana_tools_a_CPPFLAGS = $(TOOLS_CPPFLAGS)
libvimana_tools_a_CFLAGS = $(AM_CFLAGS) $(JSON_C_CFLAGS) $(ZLIB_CFLAGS)
# What a program linking libvimana_tools may need besides (a test may name
# fewer: the ones its objects call).
TOOLS_LIBS = libvimana_tools.a libvimana_et.la libvimana_util.la $(JSON_C_LIBS) $(ZLIB_LIBS) -lm

bin_PROGRAMS += vimana-et
vimana_et_SOURCES = tools/vimana-et/main.c tools/vimana-et/commands.h tools/vimana-et/convert.c
vimana_et_CPPFLAGS = $(TOOLS_CPPFLAGS)
vimana_et_CFLAGS = $(AM_CFLAGS)
vimana_et_LDADD = $(TOOLS_LIBS)

# Each command family keeps its sources in its own fragment.
include $(srcdir)/tools/etcmd/local.mk
include $(srcdir)/tools/convert_text/local.mk
include $(srcdir)/tools/pytorch/local.mk
include $(srcdir)/tools/trace_link/local.mk
include $(srcdir)/tools/timeline/local.mk
include $(srcdir)/tools/linkmap/local.mk
include $(srcdir)/tools/synth/local.mk
include $(srcdir)/tools/transformer/local.mk
include $(srcdir)/tools/inference/local.mk
include $(srcdir)/tools/calibrate_compute/local.mk
include $(srcdir)/tools/merge/local.mk
EXTRA_DIST += tools/README.md
