# The simulator core: configuration readers, the system layer (with the
# simulation context), the workload layer, the host of the network backends
# (core/host), the output writers (core/out), the driver (core/sim: options,
# run, outputs, progress) and the `vimana` program with its subcommands
# (core/cmd). Layers
# include downwards only: sim -> workload -> system -> config/util. The core
# never includes a backend's sources; backends reach it only through
# network_api.h.
noinst_LTLIBRARIES += libvimana_core.la
libvimana_core_la_SOURCES = \
	core/config/config_json.c core/config/config_json.h \
	core/config/custom_map.c core/config/custom_map.h \
	core/config/logical_dims.c core/config/logical_dims.h \
	core/config/system_config.c core/config/system_config.h \
	core/config/nccl_params.c core/config/nccl_params.h \
	core/config/memory_config.c core/config/memory_config.h \
	core/config/comm_group_config.c core/config/comm_group_config.h \
	core/config/npu_scale.c core/config/npu_scale.h \
	core/config/run_options.h \
	core/system/context.c core/system/context.h \
	core/trace/trace_graph.c core/trace/trace_graph.h \
	core/trace/ready_set.c core/trace/ready_set.h \
	core/system/system.h core/system/system.c \
	core/system/npu_events.c \
	core/system/msg_match.c core/system/msg_match.h \
	core/system/frontend.c core/system/frontend.h \
	core/system/relabel.c core/system/relabel.h \
	core/system/scheduler.c \
	core/system/collective.c \
	core/system/phase.c \
	core/system/algorithms/algorithm.h \
	core/system/algorithms/registry.c core/system/algorithms/registry.h \
	core/system/algorithms/packet_engine.c core/system/algorithms/packet_engine.h \
	core/system/algorithms/ring.c \
	core/system/algorithms/direct.c \
	core/system/algorithms/halving_doubling.c \
	core/system/algorithms/double_binary_tree.c \
	core/system/algorithms/custom.c \
	core/system/algorithms/nccl.c core/system/algorithms/nccl_model.c core/system/algorithms/nccl_model.h \
	core/system/custom.c core/system/custom.h core/system/custom_graph.h \
	core/system/custom_load.c core/system/custom_match.c \
	core/system/remote_mem.c core/system/remote_mem.h \
	core/system/shared_bus.c core/system/shared_bus.h \
	core/workload/workload.h core/workload/trace_load.c core/workload/workload.c core/workload/report.c \
	core/workload/breakdown.c core/workload/breakdown.h \
	core/workload/families.c core/workload/families.h \
	core/workload/tensor_mem.c core/workload/tensor_mem.h \
	core/sim/step_breakdown.c core/sim/step_breakdown.h \
	core/sim/serving_report.c core/sim/serving_report.h \
	core/sim/options.c core/sim/options.h \
	core/sim/run.c core/sim/run.h \
	core/config/yaml_file.c core/config/yaml_file.h \
	core/sim/progress.c core/sim/progress.h \
	core/sim/symmetry.c core/sim/symmetry.h \
	core/sim/symmetry_roles.c core/sim/symmetry_roles.h \
	core/sim/outputs.c core/sim/outputs.h \
	core/sim/inference_report.c core/sim/inference_report.h \
	core/sim/log_files.c core/sim/log_files.h
libvimana_core_la_CPPFLAGS = $(CORE_CPPFLAGS) \
	-DVIMANA_BUILD_DIR='"$(abs_top_builddir)"' \
	-DVIMANA_BUILD_BACKEND_DIRS='"$(BUILD_BACKEND_DIRS)"' \
	-DVIMANA_INSTALL_BACKEND_DIR='"$(backenddir)"'
libvimana_core_la_CFLAGS = $(AM_CFLAGS) $(JSON_C_CFLAGS) $(YAML_CFLAGS)
libvimana_core_la_LIBADD = libvimana_et.la libvimana_backend.la libvimana_util.la $(JSON_C_LIBS) $(YAML_LIBS) $(LTDL_LIBS) -lm

# The rooms below the driver and above it, each with its own fragment:
# the host that loads and talks to backends, the output writers, and one
# folder per `vimana` subcommand (docs/internals.md, "Rooms").
include $(srcdir)/core/host/local.mk
include $(srcdir)/core/out/local.mk
include $(srcdir)/core/cmd/jobs/local.mk
include $(srcdir)/core/cmd/xval/local.mk
include $(srcdir)/core/cmd/sweep/local.mk
include $(srcdir)/core/cmd/calibrate/local.mk
include $(srcdir)/core/cmd/backend_check/local.mk

bin_PROGRAMS += vimana
# The program: its subcommand table (main.c) and the subcommands' sources.
vimana_SOURCES = core/cmd/main.c core/cmd/child_run.c core/cmd/child_run.h core/cmd/watchdog.c core/cmd/watchdog.h \
	$(backend_check_sources) $(xval_sources) $(sweep_sources) $(calibrate_sources)
vimana_CPPFLAGS = $(CORE_CPPFLAGS) -DVIMANA_BINDIR='"$(bindir)"'
vimana_CFLAGS = $(AM_CFLAGS) $(JSON_C_CFLAGS) $(YAML_CFLAGS)
vimana_LDADD = libvimana_core.la libvimana_backend.la
