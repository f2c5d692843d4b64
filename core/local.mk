# The simulator core: configuration readers, the system layer (with the
# simulation context), the workload layer, and the driver (core/sim: options,
# backend loader, run, outputs, progress) and the `vimana` program. Layers
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
	core/sim/backend_loader.c core/sim/backend_loader.h \
	core/sim/backend_validate.c core/sim/backend_validate.h \
	core/sim/network_host.c core/sim/network_host.h \
	core/sim/network_faults.c core/sim/network_faults.h \
	core/sim/fault_links.c core/sim/fault_links.h \
	core/sim/link_report.c core/sim/link_report.h \
	core/sim/device_name.c core/sim/device_name.h \
	core/sim/run.c core/sim/run.h \
	core/sim/yaml_file.c core/sim/yaml_file.h \
	core/sim/jobs_spec.c core/sim/jobs_spec.h \
	core/sim/jobs_generate.c core/sim/jobs_generate.h \
	core/sim/job_net.c core/sim/job_net.h \
	core/sim/jobs_run.c core/sim/jobs_run.h \
	core/sim/progress.c core/sim/progress.h \
	core/sim/symmetry.c core/sim/symmetry.h \
	core/sim/symmetry_roles.c core/sim/symmetry_roles.h \
	core/sim/outputs.c core/sim/outputs.h \
	core/sim/inference_report.c core/sim/inference_report.h \
	core/sim/json_out.c core/sim/json_out.h \
	core/sim/log_files.c core/sim/log_files.h
libvimana_core_la_CPPFLAGS = $(CORE_CPPFLAGS) \
	-DVIMANA_BUILD_DIR='"$(abs_top_builddir)"' \
	-DVIMANA_BUILD_BACKEND_DIRS='"$(BUILD_BACKEND_DIRS)"' \
	-DVIMANA_INSTALL_BACKEND_DIR='"$(backenddir)"'
libvimana_core_la_CFLAGS = $(AM_CFLAGS) $(JSON_C_CFLAGS) $(YAML_CFLAGS)
libvimana_core_la_LIBADD = libvimana_et.la libvimana_backend.la libvimana_util.la $(JSON_C_LIBS) $(YAML_LIBS) $(LTDL_LIBS) -lm

# `vimana xval` (listed apart so that its unit test can link the writers).
xval_sources = core/sim/xval.c core/sim/xval.h core/sim/xval_row.h \
	core/sim/xval_child.c core/sim/xval_child.h \
	core/sim/xval_output.c core/sim/xval_output.h \
	core/sim/xval_plot.c core/sim/xval_plot.h \
	core/sim/xval_report.c core/sim/xval_report.h \
	core/sim/xval_diverge.c core/sim/xval_diverge.h \
	core/sim/xval_diverge_output.c core/sim/xval_diverge_output.h \
	core/sim/xval_diverge_plot.c core/sim/xval_diverge_plot.h \
	core/sim/svg_chart.c core/sim/svg_chart.h \
	core/sim/child_run.c core/sim/child_run.h \
	core/sim/csv_out.c core/sim/csv_out.h

# `vimana sweep` (apart too, for its unit test).
sweep_sources = core/sim/sweep.c core/sim/sweep.h \
	core/sim/sweep_spec.c core/sim/sweep_spec.h \
	core/sim/sweep_points.c core/sim/sweep_points.h \
	core/sim/sweep_config.c core/sim/sweep_config.h \
	core/sim/sweep_result.c core/sim/sweep_result.h \
	core/sim/sweep_runner.c core/sim/sweep_runner.h \
	core/sim/sweep_output.c core/sim/sweep_output.h \
	core/sim/sweep_plot.c core/sim/sweep_plot.h \
	core/sim/sweep_slurm.c core/sim/sweep_slurm.h \
	core/sim/sweep_genspec.c core/sim/sweep_genspec.h \
	core/sim/sweep_generate.c core/sim/sweep_generate.h \
	core/sim/sweep_lock.c core/sim/sweep_lock.h

# vimana calibrate: nccl-tests tables in, a fitted preset out (docs/calibrate.md)
calibrate_sources = core/sim/calibrate.c core/sim/calibrate.h \
	core/sim/calibrate_input.c core/sim/calibrate_input.h \
	core/sim/calibrate_fit.c core/sim/calibrate_fit.h \
	core/sim/calibrate_output.c core/sim/calibrate_output.h

bin_PROGRAMS += vimana
vimana_SOURCES = core/sim/main.c \
	core/sim/backend_check.c core/sim/backend_check.h \
	core/sim/check_scenarios.c core/sim/check_scenarios.h \
	core/sim/check_watchdog.c core/sim/check_watchdog.h \
	core/sim/mock_host.c core/sim/mock_host.h \
	core/sim/check_report.c core/sim/check_report.h \
	$(xval_sources) $(sweep_sources) $(calibrate_sources)
vimana_CPPFLAGS = $(CORE_CPPFLAGS) -DVIMANA_BINDIR='"$(bindir)"'
vimana_CFLAGS = $(AM_CFLAGS) $(JSON_C_CFLAGS) $(YAML_CFLAGS)
vimana_LDADD = libvimana_core.la libvimana_backend.la
