# `vimana-et linkmap`: the per-link records of `vimana --report` as an SVG
# heat map. Reads the report with the timeline's report reader.
linkmap_sources = \
	tools/linkmap/link_model.c tools/linkmap/link_model.h \
	tools/linkmap/linkmap_svg.c tools/linkmap/linkmap_svg.h
libvimana_tools_a_SOURCES += $(linkmap_sources) tools/linkmap/linkmap_cmd.c
