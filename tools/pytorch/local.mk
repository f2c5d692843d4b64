# `vimana-et convert pytorch`: PyTorch host trace / ET+ JSON -> Chakra ET.
# The stages, then the command (all in libvimana_tools).
pytorch_lib_sources = \
	tools/pytorch/pt_error.c tools/pytorch/pt_error.h \
	tools/pytorch/pt_strbuf.c tools/pytorch/pt_strbuf.h \
	tools/pytorch/unicode_printable.c tools/pytorch/unicode_printable.h \
	tools/pytorch/pyjson.c tools/pytorch/pyjson.h \
	tools/pytorch/pyrepr.c tools/pytorch/pyrepr.h \
	tools/pytorch/pyvalue.c tools/pytorch/pyvalue.h \
	tools/pytorch/pyset.c tools/pytorch/pyset.h \
	tools/pytorch/pt_trace.c tools/pytorch/pt_trace.h \
	tools/pytorch/pt_graph.c tools/pytorch/pt_graph.h tools/pytorch/pt_convert.c \
	tools/pytorch/pt_p2p.c tools/pytorch/pt_deps.c tools/pytorch/pt_orphans.c \
	tools/common/ctrl_chain.c tools/common/ctrl_chain.h \
	tools/pytorch/pt_write.c tools/pytorch/pt_write.h \
	tools/pytorch/pt_sim.c tools/pytorch/pt_sim.h
libvimana_tools_a_SOURCES += tools/pytorch/cmd_convert_pytorch.c $(pytorch_lib_sources)
EXTRA_DIST += tools/pytorch/gen-unicode-printable.py
