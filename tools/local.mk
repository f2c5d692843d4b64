# Command-line tools. They depend on the ET library and the base utilities
# only (plus json-c for the JSON-based formats), never on the simulator core:
# TOOLS_CPPFLAGS shows them the public headers, util/ and tools/ only
# (tools/README.md).
bin_PROGRAMS += vimana-et
vimana_et_SOURCES = \
	tools/vimana-et/main.c tools/vimana-et/commands.h tools/vimana-et/convert.c \
	tools/common/cli.c tools/common/cli.h \
	tools/common/pyfloat.c tools/common/pyfloat.h \
	tools/common/pyjson_string.c tools/common/pyjson_string.h \
	tools/common/idmap.c tools/common/idmap.h \
	tools/common/json_doc.c tools/common/json_doc.h \
	tools/common/fail_msg.c tools/common/fail_msg.h
vimana_et_CPPFLAGS = $(TOOLS_CPPFLAGS)
vimana_et_CFLAGS = $(AM_CFLAGS) $(JSON_C_CFLAGS) $(ZLIB_CFLAGS)
vimana_et_LDADD = libvimana_et.la libvimana_util.la $(JSON_C_LIBS) $(ZLIB_LIBS) -lm

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
