# Fuzzing (tests/fuzz/README.md). Every target in tests/fuzz/fuzz_<name>.c
# (listed in tests/fuzz/fuzz_targets.h) is linked into two programs: with
# libFuzzer as tests/fuzz/fuzz (VIMANA_FUZZ_TARGET picks the target; only
# built by `make fuzz`, in a tree configured with --enable-fuzzing), and with
# a tiny replay main as tests/fuzz/replay (`replay TARGET FILE...`), which
# `make check` runs on the seed corpus and on every saved finding
# (tests/fuzz/regressions/<name>/).
FUZZ_TARGETS =
FUZZ_SECONDS = 60
FUZZERS = tests/fuzz/fuzz
EXTRA_PROGRAMS += $(FUZZERS)
CLEANFILES += $(FUZZERS)

# The targets, compiled once into three archives by the include roots of
# the code they call (Makefile.am): the simulator core's, the tools', the
# backends'. Both programs link all three; the table of fuzz_targets.c
# pulls every target in. fuzz_input.c (the scratch files) and
# fuzz_sim_run.c (a whole simulation, for the targets that drive one) are
# compiled once too.
check_LIBRARIES = tests/fuzz/libfuzz_core.a tests/fuzz/libfuzz_tools.a tests/fuzz/libfuzz_backend.a
tests_fuzz_libfuzz_core_a_SOURCES = tests/fuzz/fuzz_system_json.c tests/fuzz/fuzz_memory_json.c \
	tests/fuzz/fuzz_comm_group_json.c tests/fuzz/fuzz_role_map.c tests/fuzz/fuzz_npu_scale.c \
	tests/fuzz/fuzz_custom_map.c tests/fuzz/fuzz_logical_dims.c tests/fuzz/fuzz_network_faults.c \
	tests/fuzz/fuzz_sim.c tests/fuzz/fuzz_sim_run.c tests/fuzz/fuzz_sim_run.h tests/fuzz/fuzz_jobs_spec.c \
	tests/fuzz/fuzz_sweep_spec.c core/cmd/sweep/sweep_spec.c core/cmd/sweep/sweep_points.c \
	core/cmd/sweep/sweep_config.c core/cmd/sweep/sweep_genspec.c
# the simulation targets load the build tree's backends (they abort when
# one is missing); the network faults target reads the shipped topologies
tests_fuzz_libfuzz_core_a_CPPFLAGS = $(CORE_CPPFLAGS) -I$(top_srcdir)/tests/fuzz -DFUZZ_SRCDIR='"$(abs_top_srcdir)"' \
	-DFUZZ_ANALYTICAL_BACKEND='"$(abs_top_builddir)/backends/analytical/.libs/analytical.so"' \
	-DFUZZ_CA_BACKEND='"$(abs_top_builddir)/backends/congestion_aware/.libs/congestion_aware.so"'
tests_fuzz_libfuzz_core_a_CFLAGS = $(AM_CFLAGS) $(JSON_C_CFLAGS) $(YAML_CFLAGS)
tests_fuzz_libfuzz_tools_a_SOURCES = tests/fuzz/fuzz_et_reader.c tests/fuzz/fuzz_synth_groups.c \
	tests/fuzz/fuzz_text_workload.c tests/fuzz/fuzz_pytorch_json.c tests/fuzz/fuzz_kineto_json.c \
	tests/fuzz/fuzz_from_json.c tests/fuzz/fuzz_linkmap.c tests/fuzz/fuzz_et_master.c \
	tests/fuzz/fuzz_synth_model.c tests/fuzz/fuzz_tf_durations.c tests/fuzz/fuzz_tf_device.c \
	tests/fuzz/fuzz_inf_arrivals.c
tests_fuzz_libfuzz_tools_a_CPPFLAGS = $(TOOLS_CPPFLAGS) -I$(top_srcdir)/tests/fuzz
tests_fuzz_libfuzz_tools_a_CFLAGS = $(AM_CFLAGS) $(JSON_C_CFLAGS)
tests_fuzz_libfuzz_backend_a_SOURCES = tests/fuzz/fuzz_network_yaml.c tests/fuzz/fuzz_topology.c \
	tests/fuzz/fuzz_input.c tests/fuzz/fuzz_input.h tests/fuzz/fuzz_targets.h
tests_fuzz_libfuzz_backend_a_CPPFLAGS = $(BACKEND_CPPFLAGS) -I$(top_srcdir)/tests/fuzz
# the archives in the order they call each other (core and tools targets
# call fuzz_input.c's helpers in the last), then what the targets call
fuzz_targets_ldadd = tests/fuzz/libfuzz_core.a tests/fuzz/libfuzz_tools.a tests/fuzz/libfuzz_backend.a \
	libvimana_core.la libvimana_backend.la $(TOOLS_LIBS) $(JSON_C_LIBS) $(YAML_LIBS)

check_PROGRAMS += tests/fuzz/replay
tests_fuzz_replay_SOURCES = tests/fuzz/replay_main.c tests/fuzz/fuzz_targets.c
tests_fuzz_replay_CPPFLAGS = $(PUBLIC_CPPFLAGS) $(UTIL_CPPFLAGS) -I$(top_srcdir)/tests/fuzz
tests_fuzz_replay_LDADD = $(fuzz_targets_ldadd)
tests_fuzz_fuzz_SOURCES = tests/fuzz/fuzz_main.c tests/fuzz/fuzz_targets.c
tests_fuzz_fuzz_CPPFLAGS = $(PUBLIC_CPPFLAGS) -I$(top_srcdir)/tests/fuzz
tests_fuzz_fuzz_LDFLAGS = $(AM_LDFLAGS) $(FUZZ_LDFLAGS)
tests_fuzz_fuzz_LDADD = $(fuzz_targets_ldadd)

SHELL_TESTS += tests/fuzz/replay.sh
EXTRA_DIST += tests/fuzz/README.md tests/fuzz/run-fuzzers tests/fuzz/run-ci \
	tests/fuzz/comm_group_json.dict tests/fuzz/from_json.dict tests/fuzz/kineto_json.dict \
	tests/fuzz/memory_json.dict tests/fuzz/network_yaml.dict tests/fuzz/pytorch_json.dict \
	tests/fuzz/system_json.dict tests/fuzz/text_workload.dict tests/fuzz/topology.dict \
	tests/fuzz/inf_arrivals.dict tests/fuzz/corpus tests/fuzz/regressions

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
