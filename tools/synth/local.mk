# vimana-et obfuscate (and, later, synth fit / sample): ETs that can be shared.
vimana_et_SOURCES += \
	tools/synth/cmd_obfuscate.c \
	tools/synth/obfuscate.c tools/synth/obfuscate.h \
	tools/synth/pg_payload.c tools/synth/pg_payload.h \
	tools/synth/jitter.c tools/synth/jitter.h
