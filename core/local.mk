# The simulator core: configuration readers, workload and system layers,
# the backend loader and the `vimana` program. The core never includes a
# backend's sources; backends reach it only through network_api.h.
noinst_LTLIBRARIES += libvimana_core.la
libvimana_core_la_SOURCES = \
	core/util/slab.c core/util/slab.h \
	core/util/dep_links.c core/util/dep_links.h \
	core/util/input_file.c core/util/input_file.h \
	core/util/msg_escape.c core/util/msg_escape.h \
	core/util/utf8.c core/util/utf8.h \
	core/util/ticks.h \
	core/config/config_json.c core/config/config_json.h \
	core/config/custom_map.c core/config/custom_map.h \
	core/config/system_config.c core/config/system_config.h \
	core/config/memory_config.c core/config/memory_config.h \
	core/config/comm_group_config.c core/config/comm_group_config.h \
	core/trace/trace_graph.c core/trace/trace_graph.h \
	core/trace/ready_set.c core/trace/ready_set.h \
	core/system/system.h core/system/system.c \
	core/system/npu_events.c \
	core/system/msg_match.c core/system/msg_match.h \
	core/system/frontend.c core/system/frontend.h \
	core/system/scheduler.c \
	core/system/collective.c \
	core/system/phase.c \
	core/system/custom.c core/system/custom.h core/system/custom_graph.h \
	core/system/custom_load.c core/system/custom_match.c \
	core/system/remote_mem.c core/system/remote_mem.h \
	core/system/shared_bus.c core/system/shared_bus.h \
	core/workload/workload.h core/workload/trace_load.c core/workload/workload.c core/workload/report.c \
	core/sim/sim.c core/sim/sim.h \
	core/sim/options.c core/sim/options.h \
	core/sim/backend_loader.c core/sim/backend_loader.h \
	core/sim/run.c core/sim/run.h \
	core/sim/progress.c core/sim/progress.h \
	core/sim/outputs.c core/sim/outputs.h \
	core/sim/json_out.c core/sim/json_out.h \
	core/sim/log_files.c core/sim/log_files.h
libvimana_core_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-DVIMANA_BUILD_DIR='"$(abs_top_builddir)"' \
	-DVIMANA_BUILD_BACKEND_DIRS='"$(BUILD_BACKEND_DIRS)"' \
	-DVIMANA_INSTALL_BACKEND_DIR='"$(backenddir)"'
libvimana_core_la_CFLAGS = $(AM_CFLAGS) $(JSON_C_CFLAGS) $(YAML_CFLAGS)
libvimana_core_la_LIBADD = libvimana_et.la $(JSON_C_LIBS) $(YAML_LIBS) $(LTDL_LIBS) -lm

bin_PROGRAMS += vimana
vimana_SOURCES = core/sim/main.c
vimana_LDADD = libvimana_core.la
