# vimana-et obfuscate and synth: ETs that can be shared (docs/synth.md).
libvimana_tools_a_SOURCES += \
	tools/synth/cmd_obfuscate.c \
	tools/synth/obfuscate.c tools/synth/obfuscate.h \
	tools/synth/pg_payload.c tools/synth/pg_payload.h \
	tools/synth/jitter.c tools/synth/jitter.h \
	tools/synth/cmd_synth.c \
	tools/synth/fit_model.c tools/synth/fit_model.h
libvimana_tools_a_SOURCES += \
	tools/synth/dist.c tools/synth/dist.h \
	tools/synth/comm_groups.c tools/synth/comm_groups.h \
	tools/synth/fit_skeleton.c tools/synth/fit_skeleton.h
libvimana_tools_a_SOURCES += \
	tools/synth/synth_model.c tools/synth/synth_model.h \
	tools/synth/synth_sample.c tools/synth/synth_sample.h \
	tools/synth/synth_compare.c tools/synth/synth_compare.h \
	tools/synth/synth_read.c tools/synth/synth_read.h \
	tools/synth/step_fill.c tools/synth/step_fill.h
