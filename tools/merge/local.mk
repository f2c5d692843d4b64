# `vimana-et merge` / `split`: a distributed ET set as one master trace.
libvimana_tools_a_SOURCES += \
	tools/merge/et_master.c tools/merge/et_master.h \
	tools/merge/cmd_merge.c
