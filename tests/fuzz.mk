# Fuzzing (tests/fuzz/README.md). Every target in tests/fuzz/fuzz_<name>.c is
# linked twice: with libFuzzer as tests/fuzz/fuzz_<name> (only built by
# `make fuzz`, in a tree configured with --enable-fuzzing), and with a tiny
# replay main as tests/fuzz/replay_<name>, which `make check` runs on the seed
# corpus and on every saved finding (tests/fuzz/regressions/<name>/).
FUZZ_TARGETS = et_reader network_yaml topology system_json memory_json comm_group_json text_workload pytorch_json kineto_json from_json sim linkmap synth_model tf_durations tf_device sweep_spec jobs_spec role_map npu_scale et_master network_faults inf_arrivals custom_map logical_dims synth_groups
FUZZ_SECONDS = 60
FUZZERS = \
	tests/fuzz/fuzz_et_reader \
	tests/fuzz/fuzz_network_yaml \
	tests/fuzz/fuzz_topology \
	tests/fuzz/fuzz_system_json \
	tests/fuzz/fuzz_memory_json \
	tests/fuzz/fuzz_comm_group_json \
	tests/fuzz/fuzz_text_workload \
	tests/fuzz/fuzz_pytorch_json \
	tests/fuzz/fuzz_kineto_json \
	tests/fuzz/fuzz_from_json \
	tests/fuzz/fuzz_sim \
	tests/fuzz/fuzz_linkmap \
	tests/fuzz/fuzz_synth_model \
	tests/fuzz/fuzz_tf_durations \
	tests/fuzz/fuzz_tf_device \
	tests/fuzz/fuzz_sweep_spec \
	tests/fuzz/fuzz_jobs_spec \
	tests/fuzz/fuzz_role_map \
	tests/fuzz/fuzz_npu_scale \
	tests/fuzz/fuzz_et_master \
	tests/fuzz/fuzz_network_faults \
	tests/fuzz/fuzz_inf_arrivals \
	tests/fuzz/fuzz_custom_map \
	tests/fuzz/fuzz_logical_dims \
	tests/fuzz/fuzz_synth_groups
EXTRA_PROGRAMS += $(FUZZERS)
CLEANFILES += $(FUZZERS)

# The scratch files of fuzz_input.c and the replay main, compiled once: every
# target links the first, its replay program the second too.
check_LTLIBRARIES += tests/fuzz/libfuzz_input.la tests/fuzz/libfuzz_replay.la
tests_fuzz_libfuzz_input_la_SOURCES = tests/fuzz/fuzz_input.c tests/fuzz/fuzz_input.h
tests_fuzz_libfuzz_replay_la_SOURCES = tests/fuzz/replay_main.c tests/fuzz/fuzz_input.h
fuzz_input_ldadd = tests/fuzz/libfuzz_input.la
fuzz_replay_ldadd = tests/fuzz/libfuzz_replay.la $(fuzz_input_ldadd)
# A whole simulation, for the targets that drive one.
fuzz_sim_run_sources = tests/fuzz/fuzz_sim_run.c tests/fuzz/fuzz_sim_run.h
# Each target sees the include roots of the code it calls (Makefile.am).
fuzz_core_cppflags = $(CORE_CPPFLAGS) -I$(top_srcdir)/tests/fuzz
fuzz_tools_cppflags = $(TOOLS_CPPFLAGS) -I$(top_srcdir)/tests/fuzz
fuzz_backend_cppflags = $(BACKEND_CPPFLAGS) -I$(top_srcdir)/tests/fuzz
fuzz_ldflags = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)

# The tool targets link the tools' library, as vimana-et does (configure's
# --enable-fuzzing instruments every object of the tree alike).
fuzz_tools_ldadd = $(TOOLS_LIBS)

check_PROGRAMS += tests/fuzz/replay_et_reader
tests_fuzz_replay_et_reader_SOURCES = tests/fuzz/fuzz_et_reader.c
tests_fuzz_replay_et_reader_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_replay_et_reader_LDADD = $(fuzz_replay_ldadd) libvimana_et.la
tests_fuzz_fuzz_et_reader_SOURCES = tests/fuzz/fuzz_et_reader.c
tests_fuzz_fuzz_et_reader_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_fuzz_et_reader_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_et_reader_LDADD = $(fuzz_input_ldadd) libvimana_et.la

check_PROGRAMS += tests/fuzz/replay_network_yaml
tests_fuzz_replay_network_yaml_SOURCES = tests/fuzz/fuzz_network_yaml.c
tests_fuzz_replay_network_yaml_CPPFLAGS = $(fuzz_backend_cppflags)
tests_fuzz_replay_network_yaml_LDADD = $(fuzz_replay_ldadd) libvimana_backend.la
tests_fuzz_fuzz_network_yaml_SOURCES = tests/fuzz/fuzz_network_yaml.c
tests_fuzz_fuzz_network_yaml_CPPFLAGS = $(fuzz_backend_cppflags)
tests_fuzz_fuzz_network_yaml_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_network_yaml_LDADD = $(fuzz_input_ldadd) libvimana_backend.la

check_PROGRAMS += tests/fuzz/replay_topology
tests_fuzz_replay_topology_SOURCES = tests/fuzz/fuzz_topology.c
tests_fuzz_replay_topology_CPPFLAGS = $(fuzz_backend_cppflags)
tests_fuzz_replay_topology_LDADD = $(fuzz_replay_ldadd) libvimana_backend.la
tests_fuzz_fuzz_topology_SOURCES = tests/fuzz/fuzz_topology.c
tests_fuzz_fuzz_topology_CPPFLAGS = $(fuzz_backend_cppflags)
tests_fuzz_fuzz_topology_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_topology_LDADD = $(fuzz_input_ldadd) libvimana_backend.la

check_PROGRAMS += tests/fuzz/replay_system_json
tests_fuzz_replay_system_json_SOURCES = tests/fuzz/fuzz_system_json.c
tests_fuzz_replay_system_json_CPPFLAGS = $(fuzz_core_cppflags)
tests_fuzz_replay_system_json_LDADD = $(fuzz_replay_ldadd) libvimana_core.la
tests_fuzz_fuzz_system_json_SOURCES = tests/fuzz/fuzz_system_json.c
tests_fuzz_fuzz_system_json_CPPFLAGS = $(fuzz_core_cppflags)
tests_fuzz_fuzz_system_json_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_system_json_LDADD = $(fuzz_input_ldadd) libvimana_core.la

check_PROGRAMS += tests/fuzz/replay_memory_json
tests_fuzz_replay_memory_json_SOURCES = tests/fuzz/fuzz_memory_json.c
tests_fuzz_replay_memory_json_CPPFLAGS = $(fuzz_core_cppflags)
tests_fuzz_replay_memory_json_LDADD = $(fuzz_replay_ldadd) libvimana_core.la
tests_fuzz_fuzz_memory_json_SOURCES = tests/fuzz/fuzz_memory_json.c
tests_fuzz_fuzz_memory_json_CPPFLAGS = $(fuzz_core_cppflags)
tests_fuzz_fuzz_memory_json_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_memory_json_LDADD = $(fuzz_input_ldadd) libvimana_core.la

check_PROGRAMS += tests/fuzz/replay_comm_group_json
tests_fuzz_replay_comm_group_json_SOURCES = tests/fuzz/fuzz_comm_group_json.c
tests_fuzz_replay_comm_group_json_CPPFLAGS = $(fuzz_core_cppflags)
tests_fuzz_replay_comm_group_json_LDADD = $(fuzz_replay_ldadd) libvimana_core.la
tests_fuzz_fuzz_comm_group_json_SOURCES = tests/fuzz/fuzz_comm_group_json.c
tests_fuzz_fuzz_comm_group_json_CPPFLAGS = $(fuzz_core_cppflags)
tests_fuzz_fuzz_comm_group_json_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_comm_group_json_LDADD = $(fuzz_input_ldadd) libvimana_core.la

check_PROGRAMS += tests/fuzz/replay_role_map
tests_fuzz_replay_role_map_SOURCES = tests/fuzz/fuzz_role_map.c
tests_fuzz_replay_role_map_CPPFLAGS = $(fuzz_core_cppflags)
tests_fuzz_replay_role_map_LDADD = $(fuzz_replay_ldadd) libvimana_core.la
tests_fuzz_fuzz_role_map_SOURCES = tests/fuzz/fuzz_role_map.c
tests_fuzz_fuzz_role_map_CPPFLAGS = $(fuzz_core_cppflags)
tests_fuzz_fuzz_role_map_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_role_map_LDADD = $(fuzz_input_ldadd) libvimana_core.la

check_PROGRAMS += tests/fuzz/replay_npu_scale
tests_fuzz_replay_npu_scale_SOURCES = tests/fuzz/fuzz_npu_scale.c
tests_fuzz_replay_npu_scale_CPPFLAGS = $(fuzz_core_cppflags)
tests_fuzz_replay_npu_scale_LDADD = $(fuzz_replay_ldadd) libvimana_core.la
tests_fuzz_fuzz_npu_scale_SOURCES = tests/fuzz/fuzz_npu_scale.c
tests_fuzz_fuzz_npu_scale_CPPFLAGS = $(fuzz_core_cppflags)
tests_fuzz_fuzz_npu_scale_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_npu_scale_LDADD = $(fuzz_input_ldadd) libvimana_core.la

check_PROGRAMS += tests/fuzz/replay_custom_map
tests_fuzz_replay_custom_map_SOURCES = tests/fuzz/fuzz_custom_map.c
tests_fuzz_replay_custom_map_CPPFLAGS = $(fuzz_core_cppflags)
tests_fuzz_replay_custom_map_LDADD = $(fuzz_replay_ldadd) libvimana_core.la
tests_fuzz_fuzz_custom_map_SOURCES = tests/fuzz/fuzz_custom_map.c
tests_fuzz_fuzz_custom_map_CPPFLAGS = $(fuzz_core_cppflags)
tests_fuzz_fuzz_custom_map_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_custom_map_LDADD = $(fuzz_input_ldadd) libvimana_core.la

check_PROGRAMS += tests/fuzz/replay_logical_dims
tests_fuzz_replay_logical_dims_SOURCES = tests/fuzz/fuzz_logical_dims.c
tests_fuzz_replay_logical_dims_CPPFLAGS = $(fuzz_core_cppflags)
tests_fuzz_replay_logical_dims_LDADD = $(fuzz_replay_ldadd) libvimana_core.la
tests_fuzz_fuzz_logical_dims_SOURCES = tests/fuzz/fuzz_logical_dims.c
tests_fuzz_fuzz_logical_dims_CPPFLAGS = $(fuzz_core_cppflags)
tests_fuzz_fuzz_logical_dims_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_logical_dims_LDADD = $(fuzz_input_ldadd) libvimana_core.la

check_PROGRAMS += tests/fuzz/replay_synth_groups
tests_fuzz_replay_synth_groups_SOURCES = tests/fuzz/fuzz_synth_groups.c
tests_fuzz_replay_synth_groups_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_replay_synth_groups_LDADD = $(fuzz_replay_ldadd) $(fuzz_tools_ldadd)
tests_fuzz_fuzz_synth_groups_SOURCES = tests/fuzz/fuzz_synth_groups.c
tests_fuzz_fuzz_synth_groups_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_fuzz_synth_groups_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_synth_groups_LDADD = $(fuzz_input_ldadd) $(fuzz_tools_ldadd)

check_PROGRAMS += tests/fuzz/replay_text_workload
tests_fuzz_replay_text_workload_SOURCES = tests/fuzz/fuzz_text_workload.c
tests_fuzz_replay_text_workload_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_replay_text_workload_LDADD = $(fuzz_replay_ldadd) $(fuzz_tools_ldadd)
tests_fuzz_fuzz_text_workload_SOURCES = tests/fuzz/fuzz_text_workload.c
tests_fuzz_fuzz_text_workload_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_fuzz_text_workload_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_text_workload_LDADD = $(fuzz_input_ldadd) $(fuzz_tools_ldadd)

check_PROGRAMS += tests/fuzz/replay_pytorch_json
tests_fuzz_replay_pytorch_json_SOURCES = tests/fuzz/fuzz_pytorch_json.c
tests_fuzz_replay_pytorch_json_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_replay_pytorch_json_LDADD = $(fuzz_replay_ldadd) $(fuzz_tools_ldadd)
tests_fuzz_fuzz_pytorch_json_SOURCES = tests/fuzz/fuzz_pytorch_json.c
tests_fuzz_fuzz_pytorch_json_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_fuzz_pytorch_json_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_pytorch_json_LDADD = $(fuzz_input_ldadd) $(fuzz_tools_ldadd)

check_PROGRAMS += tests/fuzz/replay_kineto_json
tests_fuzz_replay_kineto_json_SOURCES = tests/fuzz/fuzz_kineto_json.c
tests_fuzz_replay_kineto_json_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_replay_kineto_json_LDADD = $(fuzz_replay_ldadd) $(fuzz_tools_ldadd)
tests_fuzz_fuzz_kineto_json_SOURCES = tests/fuzz/fuzz_kineto_json.c
tests_fuzz_fuzz_kineto_json_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_fuzz_kineto_json_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_kineto_json_LDADD = $(fuzz_input_ldadd) $(fuzz_tools_ldadd)

check_PROGRAMS += tests/fuzz/replay_from_json
tests_fuzz_replay_from_json_SOURCES = tests/fuzz/fuzz_from_json.c
tests_fuzz_replay_from_json_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_replay_from_json_LDADD = $(fuzz_replay_ldadd) $(fuzz_tools_ldadd)
tests_fuzz_fuzz_from_json_SOURCES = tests/fuzz/fuzz_from_json.c
tests_fuzz_fuzz_from_json_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_fuzz_from_json_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_from_json_LDADD = $(fuzz_input_ldadd) $(fuzz_tools_ldadd)

check_PROGRAMS += tests/fuzz/replay_network_faults
fuzz_faults_cppflags = $(fuzz_core_cppflags) -DFUZZ_SRCDIR='"$(abs_top_srcdir)"' \
	-DFUZZ_CA_BACKEND='"$(abs_top_builddir)/backends/congestion_aware/.libs/congestion_aware.so"'
tests_fuzz_replay_network_faults_SOURCES = tests/fuzz/fuzz_network_faults.c $(fuzz_sim_run_sources)
tests_fuzz_replay_network_faults_CPPFLAGS = $(fuzz_faults_cppflags)
tests_fuzz_replay_network_faults_LDADD = $(fuzz_replay_ldadd) libvimana_core.la
tests_fuzz_fuzz_network_faults_SOURCES = tests/fuzz/fuzz_network_faults.c $(fuzz_sim_run_sources)
tests_fuzz_fuzz_network_faults_CPPFLAGS = $(fuzz_faults_cppflags)
tests_fuzz_fuzz_network_faults_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_network_faults_LDADD = $(fuzz_input_ldadd) libvimana_core.la

check_PROGRAMS += tests/fuzz/replay_sim
tests_fuzz_replay_sim_SOURCES = tests/fuzz/fuzz_sim.c $(fuzz_sim_run_sources)
tests_fuzz_replay_sim_CPPFLAGS = $(fuzz_core_cppflags) \
	-DFUZZ_ANALYTICAL_BACKEND='"$(abs_top_builddir)/backends/analytical/.libs/analytical.so"'
tests_fuzz_replay_sim_LDADD = $(fuzz_replay_ldadd) libvimana_core.la
tests_fuzz_fuzz_sim_SOURCES = tests/fuzz/fuzz_sim.c $(fuzz_sim_run_sources)
tests_fuzz_fuzz_sim_CPPFLAGS = $(fuzz_core_cppflags) \
	-DFUZZ_ANALYTICAL_BACKEND='"$(abs_top_builddir)/backends/analytical/.libs/analytical.so"'
tests_fuzz_fuzz_sim_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_sim_LDADD = $(fuzz_input_ldadd) libvimana_core.la

check_PROGRAMS += tests/fuzz/replay_linkmap
tests_fuzz_replay_linkmap_SOURCES = tests/fuzz/fuzz_linkmap.c
tests_fuzz_replay_linkmap_CPPFLAGS = $(fuzz_tools_cppflags) $(JSON_C_CFLAGS)
tests_fuzz_replay_linkmap_LDADD = $(fuzz_replay_ldadd) $(fuzz_tools_ldadd)
tests_fuzz_fuzz_linkmap_SOURCES = tests/fuzz/fuzz_linkmap.c
tests_fuzz_fuzz_linkmap_CPPFLAGS = $(fuzz_tools_cppflags) $(JSON_C_CFLAGS)
tests_fuzz_fuzz_linkmap_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_linkmap_LDADD = $(fuzz_input_ldadd) $(fuzz_tools_ldadd)

check_PROGRAMS += tests/fuzz/replay_et_master
tests_fuzz_replay_et_master_SOURCES = tests/fuzz/fuzz_et_master.c
tests_fuzz_replay_et_master_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_replay_et_master_LDADD = $(fuzz_replay_ldadd) $(fuzz_tools_ldadd)
tests_fuzz_fuzz_et_master_SOURCES = tests/fuzz/fuzz_et_master.c
tests_fuzz_fuzz_et_master_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_fuzz_et_master_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_et_master_LDADD = $(fuzz_input_ldadd) $(fuzz_tools_ldadd)

check_PROGRAMS += tests/fuzz/replay_synth_model
tests_fuzz_replay_synth_model_SOURCES = tests/fuzz/fuzz_synth_model.c
tests_fuzz_replay_synth_model_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_replay_synth_model_LDADD = $(fuzz_replay_ldadd) $(fuzz_tools_ldadd)
tests_fuzz_fuzz_synth_model_SOURCES = tests/fuzz/fuzz_synth_model.c
tests_fuzz_fuzz_synth_model_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_fuzz_synth_model_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_synth_model_LDADD = $(fuzz_input_ldadd) $(fuzz_tools_ldadd)

check_PROGRAMS += tests/fuzz/replay_tf_durations
tests_fuzz_replay_tf_durations_SOURCES = tests/fuzz/fuzz_tf_durations.c
tests_fuzz_replay_tf_durations_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_replay_tf_durations_LDADD = $(fuzz_replay_ldadd) $(fuzz_tools_ldadd)
tests_fuzz_fuzz_tf_durations_SOURCES = tests/fuzz/fuzz_tf_durations.c
tests_fuzz_fuzz_tf_durations_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_fuzz_tf_durations_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_tf_durations_LDADD = $(fuzz_input_ldadd) $(fuzz_tools_ldadd)

check_PROGRAMS += tests/fuzz/replay_tf_device
tests_fuzz_replay_tf_device_SOURCES = tests/fuzz/fuzz_tf_device.c
tests_fuzz_replay_tf_device_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_replay_tf_device_LDADD = $(fuzz_replay_ldadd) $(fuzz_tools_ldadd)
tests_fuzz_fuzz_tf_device_SOURCES = tests/fuzz/fuzz_tf_device.c
tests_fuzz_fuzz_tf_device_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_fuzz_tf_device_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_tf_device_LDADD = $(fuzz_input_ldadd) $(fuzz_tools_ldadd)

check_PROGRAMS += tests/fuzz/replay_sweep_spec
tests_fuzz_replay_sweep_spec_SOURCES = tests/fuzz/fuzz_sweep_spec.c \
	core/cmd/sweep/sweep_spec.c core/cmd/sweep/sweep_points.c core/cmd/sweep/sweep_config.c core/cmd/sweep/sweep_genspec.c
tests_fuzz_replay_sweep_spec_CPPFLAGS = $(fuzz_core_cppflags)
tests_fuzz_replay_sweep_spec_CFLAGS = $(AM_CFLAGS) $(JSON_C_CFLAGS) $(YAML_CFLAGS)
tests_fuzz_replay_sweep_spec_LDADD = $(fuzz_replay_ldadd) libvimana_core.la $(JSON_C_LIBS) $(YAML_LIBS)
tests_fuzz_fuzz_sweep_spec_SOURCES = tests/fuzz/fuzz_sweep_spec.c \
	core/cmd/sweep/sweep_spec.c core/cmd/sweep/sweep_points.c core/cmd/sweep/sweep_config.c core/cmd/sweep/sweep_genspec.c
tests_fuzz_fuzz_sweep_spec_CPPFLAGS = $(fuzz_core_cppflags)
tests_fuzz_fuzz_sweep_spec_CFLAGS = $(AM_CFLAGS) $(JSON_C_CFLAGS) $(YAML_CFLAGS)
tests_fuzz_fuzz_sweep_spec_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_sweep_spec_LDADD = $(fuzz_input_ldadd) libvimana_core.la $(JSON_C_LIBS) $(YAML_LIBS)

check_PROGRAMS += tests/fuzz/replay_jobs_spec
tests_fuzz_replay_jobs_spec_SOURCES = tests/fuzz/fuzz_jobs_spec.c
tests_fuzz_replay_jobs_spec_CPPFLAGS = $(fuzz_core_cppflags)
tests_fuzz_replay_jobs_spec_CFLAGS = $(AM_CFLAGS) $(YAML_CFLAGS)
tests_fuzz_replay_jobs_spec_LDADD = $(fuzz_replay_ldadd) libvimana_core.la $(YAML_LIBS)
tests_fuzz_fuzz_jobs_spec_SOURCES = tests/fuzz/fuzz_jobs_spec.c
tests_fuzz_fuzz_jobs_spec_CPPFLAGS = $(fuzz_core_cppflags)
tests_fuzz_fuzz_jobs_spec_CFLAGS = $(AM_CFLAGS) $(YAML_CFLAGS)
tests_fuzz_fuzz_jobs_spec_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_jobs_spec_LDADD = $(fuzz_input_ldadd) libvimana_core.la $(YAML_LIBS)

# The arrivals file and the scheduler of `generate inference --arrivals`.
check_PROGRAMS += tests/fuzz/replay_inf_arrivals
tests_fuzz_replay_inf_arrivals_SOURCES = tests/fuzz/fuzz_inf_arrivals.c
tests_fuzz_replay_inf_arrivals_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_replay_inf_arrivals_LDADD = $(fuzz_replay_ldadd) $(fuzz_tools_ldadd)
tests_fuzz_fuzz_inf_arrivals_SOURCES = tests/fuzz/fuzz_inf_arrivals.c
tests_fuzz_fuzz_inf_arrivals_CPPFLAGS = $(fuzz_tools_cppflags)
tests_fuzz_fuzz_inf_arrivals_LDFLAGS = $(fuzz_ldflags)
tests_fuzz_fuzz_inf_arrivals_LDADD = $(fuzz_input_ldadd) $(fuzz_tools_ldadd)

TESTS += tests/fuzz/replay.sh
EXTRA_DIST += tests/fuzz/README.md tests/fuzz/replay.sh tests/fuzz/run-fuzzers tests/fuzz/run-ci \
	tests/fuzz/comm_group_json.dict tests/fuzz/from_json.dict tests/fuzz/kineto_json.dict tests/fuzz/memory_json.dict tests/fuzz/network_yaml.dict tests/fuzz/pytorch_json.dict tests/fuzz/system_json.dict tests/fuzz/text_workload.dict tests/fuzz/topology.dict tests/fuzz/inf_arrivals.dict \
	tests/fuzz/corpus tests/fuzz/regressions

.PHONY: fuzz fuzz-programs
if FUZZING
# The generated protobuf sources first: the programs' objects include them.
# The backends the targets that run the simulator load (fuzz_sim,
# fuzz_network_faults: they abort when it is missing).
fuzz-programs:
	$(MAKE) $(AM_MAKEFLAGS) $(BUILT_SOURCES)
	$(MAKE) $(AM_MAKEFLAGS) $(FUZZERS) backends/analytical/analytical.la \
		backends/congestion_aware/congestion_aware.la

# Runs every target for FUZZ_SECONDS (make fuzz FUZZ_SECONDS=600
# FUZZ_TARGETS=sim); the corpus grows in tests/fuzz/work/, crashes land in
# tests/fuzz/artifacts/ of the build tree.
fuzz: fuzz-programs
	FUZZ_SECONDS='$(FUZZ_SECONDS)' $(SHELL) $(srcdir)/tests/fuzz/run-fuzzers \
		'$(abs_top_builddir)/tests/fuzz' '$(abs_top_srcdir)/tests/fuzz' $(FUZZ_TARGETS)
else
fuzz fuzz-programs:
	@echo "make fuzz: this tree is not configured for fuzzing; run ./configure --enable-fuzzing (needs clang)" >&2; exit 1
endif

clean-local: clean-fuzz
clean-fuzz:
	-rm -rf tests/fuzz/work tests/fuzz/artifacts
