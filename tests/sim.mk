# Simulator tests: unit tests of the event queue, configuration readers,
# backend ABI and message matching; end-to-end runs of the real binary.
SIM_UNIT_LDADD = libvimana_core.la libvimana_backend.la $(CMOCKA_LIBS)

UNIT_TESTS += tests/unit/test_event_queue
tests_unit_test_event_queue_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_event_queue_LDADD = libvimana_backend.la $(CMOCKA_LIBS)

# The backend toolkit: default loop, stop/fail, delivery, link table, YAML.
UNIT_TESTS += tests/unit/test_backend_toolkit
tests_unit_test_backend_toolkit_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_backend_toolkit_LDADD = libvimana_backend.la $(CMOCKA_LIBS)

# The toolkit's topology graph: shipped topology files, refused inputs,
# routes, ECMP, the route cache bound.
UNIT_TESTS += tests/unit/test_topology_graph
tests_unit_test_topology_graph_CPPFLAGS = $(UNIT_CPPFLAGS) -DTOPO_SRCDIR='"$(abs_top_srcdir)"'
tests_unit_test_topology_graph_LDADD = libvimana_backend.la $(CMOCKA_LIBS)
# ns3_shim's reader of upstream's config.txt: C, built without ns-3
UNIT_TESTS += tests/unit/test_ns3_upstream
tests_unit_test_ns3_upstream_SOURCES = tests/unit/test_ns3_upstream.c backends/ns3_shim/upstream_config.c \
	backends/ns3_shim/upstream_config.h
tests_unit_test_ns3_upstream_CPPFLAGS = $(UNIT_CPPFLAGS) -I$(top_srcdir)/backends \
	-DTOPO_SRCDIR='"$(abs_top_srcdir)"'
tests_unit_test_ns3_upstream_LDADD = libvimana_backend.la $(CMOCKA_LIBS) -lm

# A backend module loaded as vimana loads it, and a host that records its
# deliveries (the tests of the shipped backends through their descriptors).
BACKEND_HOST = tests/unit/backend_host.c tests/unit/backend_host.h
# The shipped backends, loaded as vimana loads them: descriptors,
# capabilities, congestion_aware's link counters and stop.
UNIT_TESTS += tests/unit/test_shipped_backends
tests_unit_test_shipped_backends_SOURCES = tests/unit/test_shipped_backends.c $(BACKEND_HOST)
tests_unit_test_shipped_backends_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_shipped_backends_LDADD = libvimana_backend.la $(CMOCKA_LIBS)

# The Garnet-style backend through its descriptor: exact cycles, link
# sharing, stop, deadlock -> stalled, options.
UNIT_TESTS += tests/unit/test_garnet
tests_unit_test_garnet_SOURCES = tests/unit/test_garnet.c $(BACKEND_HOST)
tests_unit_test_garnet_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_garnet_LDADD = libvimana_backend.la $(CMOCKA_LIBS)

UNIT_TESTS += tests/unit/test_configs
tests_unit_test_configs_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_configs_LDADD = libvimana_core.la libvimana_backend.la $(CMOCKA_LIBS)

UNIT_TESTS += tests/unit/test_backend_abi
tests_unit_test_backend_abi_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_backend_abi_LDADD = $(SIM_UNIT_LDADD)

UNIT_TESTS += tests/unit/test_msg_match
tests_unit_test_msg_match_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_msg_match_LDADD = $(SIM_UNIT_LDADD)


# Relabellings of the NPUs for the reduced simulation over roles.
UNIT_TESTS += tests/unit/test_relabel
tests_unit_test_relabel_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_relabel_LDADD = $(SIM_UNIT_LDADD)

# The inference report (TTFT, TPOT, tokens/s) of sim/inference_report.
UNIT_TESTS += tests/unit/test_inference_report
tests_unit_test_inference_report_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_inference_report_LDADD = $(SIM_UNIT_LDADD)

# Communicator-group families of compact workloads.
UNIT_TESTS += tests/unit/test_families
tests_unit_test_families_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_families_LDADD = $(SIM_UNIT_LDADD)

# Modules for the ABI test: current version, wrong major, no entry symbol.
TEST_MODULE_LDFLAGS = -module -avoid-version -shared -rpath $(abs_builddir)/tests/backends
check_LTLIBRARIES += tests/backends/abi_current.la tests/backends/abi_wrong_major.la tests/backends/abi_no_entry.la
tests_backends_abi_current_la_SOURCES = tests/backends/test_backend.c
tests_backends_abi_current_la_CPPFLAGS = $(AM_CPPFLAGS) -DTEST_MAJOR=VIMANA_NETWORK_ABI_MAJOR -DTEST_MINOR=VIMANA_NETWORK_ABI_MINOR
tests_backends_abi_current_la_LDFLAGS = $(AM_LDFLAGS) $(TEST_MODULE_LDFLAGS)
tests_backends_abi_wrong_major_la_SOURCES = tests/backends/test_backend.c
tests_backends_abi_wrong_major_la_CPPFLAGS = $(AM_CPPFLAGS) -DTEST_MAJOR='(VIMANA_NETWORK_ABI_MAJOR + 1)' -DTEST_MINOR=0
tests_backends_abi_wrong_major_la_LDFLAGS = $(AM_LDFLAGS) $(TEST_MODULE_LDFLAGS)
tests_backends_abi_no_entry_la_SOURCES = tests/backends/test_backend.c
tests_backends_abi_no_entry_la_CPPFLAGS = $(AM_CPPFLAGS) -DTEST_MAJOR=VIMANA_NETWORK_ABI_MAJOR -DTEST_MINOR=0 -DTEST_NO_ENTRY
tests_backends_abi_no_entry_la_LDFLAGS = $(AM_LDFLAGS) $(TEST_MODULE_LDFLAGS)

# The ABI rule of network_api.h: a 1.0-era plugin source and the names of
# the 1.2 to 1.4 headers compile against today's header (the plugin also
# runs), and every example in the public headers compiles.
SHELL_TESTS += tests/e2e/abi_plugin_1_0.sh tests/e2e/header_examples.sh
EXTRA_DIST += scripts/header-examples

# End-to-end: the golden cases and bad inputs, against the real binaries.
SHELL_TESTS += tests/e2e/sim_golden.sh
EXTRA_DIST += tests/e2e/run_golden_cases.sh

# The real system layer on a recording fake network.
UNIT_TESTS += tests/unit/test_algorithms tests/unit/test_scheduler
tests_unit_test_algorithms_SOURCES = tests/unit/test_algorithms.c tests/unit/sim_harness.c tests/unit/sim_harness.h
tests_unit_test_algorithms_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_algorithms_LDADD = $(SIM_UNIT_LDADD)
tests_unit_test_scheduler_SOURCES = tests/unit/test_scheduler.c tests/unit/sim_harness.c tests/unit/sim_harness.h
tests_unit_test_scheduler_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_scheduler_LDADD = $(SIM_UNIT_LDADD)
# The NCCL-aware model: each algorithm and protocol with hand-computed ticks.
UNIT_TESTS += tests/unit/test_tensor_mem
tests_unit_test_tensor_mem_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_tensor_mem_LDADD = $(SIM_UNIT_LDADD)

UNIT_TESTS += tests/unit/test_nccl
tests_unit_test_nccl_SOURCES = tests/unit/test_nccl.c tests/unit/sim_harness.c tests/unit/sim_harness.h
tests_unit_test_nccl_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_nccl_LDADD = $(SIM_UNIT_LDADD)
# Where an NPU's step went (vimana --breakdown).
UNIT_TESTS += tests/unit/test_breakdown
tests_unit_test_breakdown_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_breakdown_LDADD = $(SIM_UNIT_LDADD)
# Per-NPU event lists: same-tick order, many pending ticks.
UNIT_TESTS += tests/unit/test_npu_events
tests_unit_test_npu_events_SOURCES = tests/unit/test_npu_events.c tests/unit/sim_harness.c tests/unit/sim_harness.h
tests_unit_test_npu_events_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_npu_events_LDADD = $(SIM_UNIT_LDADD)
# A test-only collective algorithm, registered from its one file.
UNIT_TESTS += tests/unit/test_algorithm_plugin
tests_unit_test_algorithm_plugin_SOURCES = tests/unit/test_algorithm_plugin.c tests/unit/sim_harness.c \
	tests/unit/sim_harness.h
tests_unit_test_algorithm_plugin_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_algorithm_plugin_LDADD = $(SIM_UNIT_LDADD)

# The backend template (examples/backend-template: a third-party backend on
# the toolkit, built from the public headers only), and an end-to-end run
# through it. scripts/test-install builds it again with its own Makefile
# against an installed Vimana.
# Built into tests/backends, not beside template.c: vimana would load a
# template.la found beside ./template.so instead of the .so the template's
# own Makefile builds there.
check_LTLIBRARIES += tests/backends/template.la
tests_backends_template_la_SOURCES = examples/backend-template/template.c
tests_backends_template_la_CPPFLAGS = -I$(top_srcdir)/core/include
tests_backends_template_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
tests_backends_template_la_LDFLAGS = $(AM_LDFLAGS) $(TEST_MODULE_LDFLAGS)
tests_backends_template_la_LIBADD = libvimana_backend.la
EXTRA_DIST += examples/backend-template/Makefile examples/backend-template/README.md \
	examples/backend-template/network.yml examples/backend-template/system.json
SHELL_TESTS += tests/e2e/sim_example_backend.sh

# Converted corpus workloads: the rows of corpus/expected/simulated.md (tests/data, or all of ../shared).
SHELL_TESTS += tests/e2e/sim_corpus.sh

# The LogGP shared-bus model (model-shared-bus), directly and under the
# algorithms on the recording fake network.
UNIT_TESTS += tests/unit/test_shared_bus
tests_unit_test_shared_bus_SOURCES = tests/unit/test_shared_bus.c tests/unit/sim_harness.c tests/unit/sim_harness.h
tests_unit_test_shared_bus_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_shared_bus_LDADD = $(SIM_UNIT_LDADD)

# Bad input, and the inputs the reference crashes on but Vimana simulates.
SHELL_TESTS += tests/e2e/sim_errors.sh

# The inference report: TTFT, TPOT, tokens/s (docs/inference.md).
SHELL_TESTS += tests/e2e/sim_inference.sh
# The NCCL-aware model: exact times on the analytical backend, bad parameters.
SHELL_TESTS += tests/e2e/nccl.sh tests/e2e/tensor_memory.sh

# Memory models, replay-only, BROADCAST, INVALID, keys required when used, outputs.
SHELL_TESTS += tests/e2e/sim_features.sh

# Backends that break the network API contract, one way each
# (tests/backends/misbehave.c): delivering twice, an unknown token, time
# going backwards, delivering inside sim_send; and what backend-check
# refuses, vimana refuses too, at load and during the run (issue 29 §5): a
# NULL name, an init() error without a NUL, dimensions whose product wraps,
# num_links() beyond any network, events run early, log(NULL), a run() that
# never returns (backend-check's watchdog); and for backend-check: never
# delivers, delivers for ever, stop() that finishes the tick first, runs
# zero-delay events inside schedule(), a faulty descriptor. One module,
# compiled and linked once and copied under each fault's name: the copy's
# file name picks the fault.
check_LTLIBRARIES += tests/backends/misbehave.la
tests_backends_misbehave_la_SOURCES = tests/backends/misbehave.c tests/backends/module_name.h
tests_backends_misbehave_la_LDFLAGS = $(AM_LDFLAGS) $(TEST_MODULE_LDFLAGS)
tests_backends_misbehave_la_LIBADD = libvimana_backend.la
MISBEHAVE_MODULES = tests/backends/bad_twice.la tests/backends/bad_unknown.la tests/backends/bad_backwards.la \
	tests/backends/bad_in_send.la tests/backends/bad_null_name.la tests/backends/bad_init_no_nul.la \
	tests/backends/bad_dims_wrap.la tests/backends/bad_many_links.la tests/backends/bad_early.la \
	tests/backends/bad_log_null.la tests/backends/bad_hang.la tests/backends/bad_never.la \
	tests/backends/bad_storm.la tests/backends/bad_late_stop.la tests/backends/bad_inline_zero.la \
	tests/backends/bad_descriptor.la
check_DATA += $(MISBEHAVE_MODULES)
CLEANFILES += $(MISBEHAVE_MODULES)
$(MISBEHAVE_MODULES): tests/backends/misbehave.la $(srcdir)/tests/backends/copy-module
	$(AM_V_GEN)$(SHELL) $(srcdir)/tests/backends/copy-module tests/backends/misbehave.la $@
EXTRA_DIST += tests/backends/copy-module
SHELL_TESTS += tests/e2e/sim_backend_contract.sh

SHELL_TESTS += tests/e2e/backend_check.sh tests/e2e/exported_symbols.sh

# Silent traps and wrongly accepted inputs (warnings and clear errors).
SHELL_TESTS += tests/e2e/sim_traps.sh tests/e2e/sim_npu_scale.sh

# Single-trace workloads (PREFIX.et), shared identical traces, symmetry
# detection and the exact reduced simulation (issue 14).
SHELL_TESTS += tests/e2e/single_file.sh tests/e2e/single_file_generate.sh tests/e2e/symmetry.sh \
	tests/e2e/symmetry_equivalence.sh tests/e2e/symmetry_roles.sh tests/e2e/compact_workload.sh
EXTRA_DIST += tests/e2e/symmetry_compare.sh

# --timeline / --report JSON (units, track names, UTF-8) and --logging-folder.
SHELL_TESTS += tests/e2e/sim_outputs.sh

# --compute-scale and --comm-scale.
SHELL_TESTS += tests/e2e/sim_scales.sh

# The host side of ABI 1.1 and later (tests/backends/host11.c: one module,
# copied under the name of each variant, a 1.0 to 1.5 backend, correct or
# with one fault): stop() at the run's first error, host->failed, the
# MULTI_DIM and LINK_STATS capabilities, the dimension bandwidth; and
# --report's network and per-link records. ABI 1.2 (link statistics):
# queueing counters and device names in --report, a name the host refuses,
# and a 1.1 backend whose 1.2 slot and counters the host must not read.
# ABI 1.5's options table: listed, a key twice, set in a 1.4 descriptor.
check_LTLIBRARIES += tests/backends/host11.la
tests_backends_host11_la_SOURCES = tests/backends/host11.c tests/backends/module_name.h
tests_backends_host11_la_LDFLAGS = $(AM_LDFLAGS) $(TEST_MODULE_LDFLAGS)
tests_backends_host11_la_LIBADD = libvimana_backend.la
HOST11_MODULES = tests/backends/host11_ok.la tests/backends/host10_ok.la tests/backends/host11_failed.la \
	tests/backends/host11_bad_token.la tests/backends/host10_bad_token.la tests/backends/host11_multi_dim.la \
	tests/backends/host11_cap_no_fn.la tests/backends/host11_fn_no_cap.la tests/backends/host11_bad_bw.la \
	tests/backends/host11_links.la tests/backends/host12_ok.la tests/backends/host12_bad_name.la \
	tests/backends/host12_bad_queue.la tests/backends/host12_too_fast.la tests/backends/host12_slow.la \
	tests/backends/host12_slow_fixed.la tests/backends/host14_options.la tests/backends/host15_options.la \
	tests/backends/host15_bad_options.la
check_DATA += $(HOST11_MODULES)
CLEANFILES += $(HOST11_MODULES)
$(HOST11_MODULES): tests/backends/host11.la $(srcdir)/tests/backends/copy-module
	$(AM_V_GEN)$(SHELL) $(srcdir)/tests/backends/copy-module tests/backends/host11.la $@
SHELL_TESTS += tests/e2e/sim_host_abi11.sh
# congestion_aware on 2-D networks: routes, FIFO waits, link records.
SHELL_TESTS += tests/e2e/sim_ca_multidim.sh
# congestion_aware on topology graphs: hand-computed routes, FIFO, ECMP,
# incast, the shipped topologies, bad topology files.
SHELL_TESTS += tests/e2e/sim_ca_graph.sh tests/e2e/sim_analytical_graph.sh
SHELL_TESTS += tests/e2e/network_faults.sh
# The Garnet-style flit-level backend: exact point-to-point and credit-bound
# cycles, ring all-reduce vs analytical, incast, deadlock -> stalled,
# backend-check, options.
SHELL_TESTS += tests/e2e/sim_garnet.sh
# garnet's link faults (--network-faults): bandwidth factors from their
# cycle, down links routed around (a waiting head chooses again, a
# committed packet crosses), partitions and down links on dimensions refused.
SHELL_TESTS += tests/e2e/sim_garnet_faults.sh
# The 64-NPU incast: garnet's default options within 20 % of ns3_shim's
# (that part skipped when ns3_shim is not built).
SHELL_TESTS += tests/e2e/sim_garnet_incast.sh
EXTRA_DIST += tests/data/garnet/switch64.yml
# core/trace: the trace loader and ready set shared by workload and
# custom-collective traces; end-to-end, both callers' messages and a custom
# collective with many ready nodes.
UNIT_TESTS += tests/unit/test_trace_graph
tests_unit_test_trace_graph_SOURCES = tests/unit/test_trace_graph.c $(ET_TEST_UTIL)
tests_unit_test_trace_graph_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_trace_graph_LDADD = libvimana_core.la libvimana_et.la $(CMOCKA_LIBS)
SHELL_TESTS += tests/e2e/sim_trace_graph.sh
# The ns3_shim backend on real ns-3 (skips with 77 when configure did not
# build it): p2p within 2 %, ring all-reduce within 5 %, incast, graph
# routes, backend-check, bad inputs.
SHELL_TESTS += tests/e2e/sim_ns3.sh
# ns3_shim under --network-faults (skips with 77 likewise): bandwidth
# factors from their tick, a link down rerouted, a partition and a link
# down on a network of dimensions refused; exact times.
SHELL_TESTS += tests/e2e/sim_ns3_faults.sh
# ns3_shim's physics arithmetic (C, no ns-3 needed): the ECN rule at kmin
# and kmax, DCQCN's rate updates and HPCC's window, by hand.
UNIT_TESTS += tests/unit/test_ns3_cc_math
tests_unit_test_ns3_cc_math_SOURCES = tests/unit/test_ns3_cc_math.c backends/ns3_shim/cc_math.c
tests_unit_test_ns3_cc_math_CPPFLAGS = $(UNIT_CPPFLAGS) -I$(srcdir)/backends
tests_unit_test_ns3_cc_math_LDADD = libvimana_backend.la $(CMOCKA_LIBS)
# ns3_shim with packet physics (buffers, PFC, ECN, ACKs, DCQCN, HPCC):
# an 8-flow incast against a fluid model, a lossy run, bad options.
SHELL_TESTS += tests/e2e/sim_ns3_physics.sh tests/e2e/sim_ns3_upstream.sh

# Upstream flag spellings, Switch.json and the summary line of large runs.
SHELL_TESTS += tests/e2e/upstream_spellings.sh
