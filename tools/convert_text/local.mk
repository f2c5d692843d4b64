# `vimana-et convert text`: ASTRA-sim 1.0 text workloads -> Chakra ETs.
# parse (fields, parse, modes, rules) -> per-NPU plan (plan, graphs) -> write.
convert_text_sources = \
	tools/convert_text/text_fields.c tools/convert_text/text_fields.h \
	tools/convert_text/text_workload.h tools/convert_text/text_modes.c \
	tools/convert_text/text_parse.c tools/convert_text/text_rules.c \
	tools/convert_text/text_checkpoints.c \
	tools/convert_text/text_plan.c tools/convert_text/text_plan.h \
	tools/convert_text/text_graphs.c tools/convert_text/text_graphs.h \
	tools/convert_text/text_groups.c tools/convert_text/text_groups.h \
	tools/convert_text/text_write.c tools/convert_text/text_write.h
libvimana_tools_a_SOURCES += $(convert_text_sources) tools/convert_text/convert_text.c
