# vimana-et's ET commands: generate, json, from-json, validate, dot, stats.
libvimana_tools_a_SOURCES += \
	tools/etcmd/sink.c tools/etcmd/sink.h \
	tools/etcmd/pyfmt.c tools/etcmd/pyfmt.h \
	tools/etcmd/json_out.c tools/etcmd/json_out.h \
	tools/etcmd/json_in.c tools/etcmd/json_in.h \
	tools/etcmd/json_to_et.c tools/etcmd/json_to_et.h \
	tools/etcmd/cmd_io.c tools/etcmd/cmd_io.h \
	tools/etcmd/cmd_json.c \
	tools/etcmd/cmd_generate.c \
	tools/etcmd/gen_chakra.c tools/etcmd/gen_chakra.h \
	tools/etcmd/cmd_validate.c \
	tools/etcmd/p2p_match.c tools/etcmd/p2p_match.h \
	tools/etcmd/p2p_roles.c tools/etcmd/p2p_roles.h \
	tools/etcmd/cmd_dot.c tools/etcmd/dot_plan.c tools/etcmd/dot_plan.h tools/etcmd/dot_walk.c tools/etcmd/dot_walk.h \
	tools/etcmd/graph_write.h tools/etcmd/dot_write.c tools/etcmd/graphml_write.c \
	tools/etcmd/graph_render.c tools/etcmd/graph_render.h \
	tools/etcmd/cmd_stats.c \
	tools/etcmd/et_files.c tools/etcmd/et_files.h \
	tools/etcmd/depgraph.c tools/etcmd/depgraph.h
# `dot -o x.pdf|svg|png` renders through Graphviz's libgvc.
libvimana_tools_a_CFLAGS += $(GVC_CFLAGS)
vimana_et_LDADD += $(GVC_LIBS)
