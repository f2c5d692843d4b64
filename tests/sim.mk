# Simulator tests: unit tests of the event queue, configuration readers,
# backend ABI and message matching; end-to-end runs of the real binary.
SIM_UNIT_LDADD = libvimana_core.la libvimana_evq.la $(CMOCKA_LIBS)

check_PROGRAMS += tests/unit/test_event_queue
tests_unit_test_event_queue_SOURCES = tests/unit/test_event_queue.c
tests_unit_test_event_queue_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_event_queue_LDADD = libvimana_evq.la $(CMOCKA_LIBS)

check_PROGRAMS += tests/unit/test_configs
tests_unit_test_configs_SOURCES = tests/unit/test_configs.c
tests_unit_test_configs_CPPFLAGS = $(UNIT_CPPFLAGS) -I$(top_srcdir)/backends
tests_unit_test_configs_LDADD = libvimana_core.la backends/common/libnetwork_yaml.la $(CMOCKA_LIBS)

check_PROGRAMS += tests/unit/test_backend_abi
tests_unit_test_backend_abi_SOURCES = tests/unit/test_backend_abi.c
tests_unit_test_backend_abi_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_backend_abi_LDADD = $(SIM_UNIT_LDADD)

check_PROGRAMS += tests/unit/test_msg_match
tests_unit_test_msg_match_SOURCES = tests/unit/test_msg_match.c
tests_unit_test_msg_match_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_msg_match_LDADD = $(SIM_UNIT_LDADD)

TESTS += tests/unit/test_event_queue tests/unit/test_configs tests/unit/test_backend_abi tests/unit/test_msg_match

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

# End-to-end: the golden cases and bad inputs, against the real binaries.
TESTS += tests/e2e/sim_golden.sh
EXTRA_DIST += tests/e2e/sim_golden.sh

# The real system layer on a recording fake network.
check_PROGRAMS += tests/unit/test_algorithms tests/unit/test_scheduler
tests_unit_test_algorithms_SOURCES = tests/unit/test_algorithms.c tests/unit/sim_harness.c tests/unit/sim_harness.h
tests_unit_test_algorithms_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_algorithms_LDADD = $(SIM_UNIT_LDADD)
tests_unit_test_scheduler_SOURCES = tests/unit/test_scheduler.c tests/unit/sim_harness.c tests/unit/sim_harness.h
tests_unit_test_scheduler_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_scheduler_LDADD = $(SIM_UNIT_LDADD)
TESTS += tests/unit/test_algorithms tests/unit/test_scheduler

# The example third-party backend, built from the public headers only, and
# an end-to-end run through it.
check_LTLIBRARIES += examples/backends/fixed_latency/fixed_latency.la
examples_backends_fixed_latency_fixed_latency_la_SOURCES = examples/backends/fixed_latency/fixed_latency.c
examples_backends_fixed_latency_fixed_latency_la_CPPFLAGS = -I$(top_srcdir)/core/include
examples_backends_fixed_latency_fixed_latency_la_CFLAGS = $(AM_CFLAGS) -fvisibility=hidden
examples_backends_fixed_latency_fixed_latency_la_LDFLAGS = $(AM_LDFLAGS) -module -avoid-version -shared -rpath $(abs_builddir)/examples/backends/fixed_latency
examples_backends_fixed_latency_fixed_latency_la_LIBADD = libvimana_evq.la
EXTRA_DIST += examples/backends/fixed_latency/net8.conf
TESTS += tests/e2e/sim_example_backend.sh
EXTRA_DIST += tests/e2e/sim_example_backend.sh

# Converted corpus workloads: every row of shared/corpus/expected/simulated.md.
TESTS += tests/e2e/sim_corpus.sh
EXTRA_DIST += tests/e2e/sim_corpus.sh

# The LogGP shared-bus model (model-shared-bus), directly and under the
# algorithms on the recording fake network.
check_PROGRAMS += tests/unit/test_shared_bus
tests_unit_test_shared_bus_SOURCES = tests/unit/test_shared_bus.c tests/unit/sim_harness.c tests/unit/sim_harness.h
tests_unit_test_shared_bus_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_shared_bus_LDADD = $(SIM_UNIT_LDADD)
TESTS += tests/unit/test_shared_bus

# Bad input, and the inputs the reference crashes on but Vimana simulates.
TESTS += tests/e2e/sim_errors.sh
EXTRA_DIST += tests/e2e/sim_errors.sh

# Memory models, replay-only, BROADCAST, INVALID, keys required when used, outputs.
TESTS += tests/e2e/sim_features.sh
EXTRA_DIST += tests/e2e/sim_features.sh

# Backends that break the network API contract (delivering twice, an
# unknown token, time going backwards, delivering inside sim_send), and the
# run that must stop with one line naming each.
MISBEHAVE_SRC = tests/backends/misbehave.c
MISBEHAVE_LIBADD = libvimana_evq.la
check_LTLIBRARIES += tests/backends/bad_twice.la tests/backends/bad_unknown.la tests/backends/bad_backwards.la tests/backends/bad_in_send.la
tests_backends_bad_twice_la_SOURCES = $(MISBEHAVE_SRC)
tests_backends_bad_twice_la_CPPFLAGS = $(AM_CPPFLAGS) -DMISBEHAVE=TWICE -DBACKEND_NAME='"bad_twice"'
tests_backends_bad_twice_la_LDFLAGS = $(AM_LDFLAGS) $(TEST_MODULE_LDFLAGS)
tests_backends_bad_twice_la_LIBADD = $(MISBEHAVE_LIBADD)
tests_backends_bad_unknown_la_SOURCES = $(MISBEHAVE_SRC)
tests_backends_bad_unknown_la_CPPFLAGS = $(AM_CPPFLAGS) -DMISBEHAVE=UNKNOWN -DBACKEND_NAME='"bad_unknown"'
tests_backends_bad_unknown_la_LDFLAGS = $(AM_LDFLAGS) $(TEST_MODULE_LDFLAGS)
tests_backends_bad_unknown_la_LIBADD = $(MISBEHAVE_LIBADD)
tests_backends_bad_backwards_la_SOURCES = $(MISBEHAVE_SRC)
tests_backends_bad_backwards_la_CPPFLAGS = $(AM_CPPFLAGS) -DMISBEHAVE=BACKWARDS -DBACKEND_NAME='"bad_backwards"'
tests_backends_bad_backwards_la_LDFLAGS = $(AM_LDFLAGS) $(TEST_MODULE_LDFLAGS)
tests_backends_bad_backwards_la_LIBADD = $(MISBEHAVE_LIBADD)
tests_backends_bad_in_send_la_SOURCES = $(MISBEHAVE_SRC)
tests_backends_bad_in_send_la_CPPFLAGS = $(AM_CPPFLAGS) -DMISBEHAVE=IN_SEND -DBACKEND_NAME='"bad_in_send"'
tests_backends_bad_in_send_la_LDFLAGS = $(AM_LDFLAGS) $(TEST_MODULE_LDFLAGS)
tests_backends_bad_in_send_la_LIBADD = $(MISBEHAVE_LIBADD)
TESTS += tests/e2e/sim_backend_contract.sh
EXTRA_DIST += tests/e2e/sim_backend_contract.sh

# Silent traps and wrongly accepted inputs (warnings and clear errors).
TESTS += tests/e2e/sim_traps.sh
EXTRA_DIST += tests/e2e/sim_traps.sh

# --timeline / --report JSON (units, track names, UTF-8) and --logging-folder.
TESTS += tests/e2e/sim_outputs.sh
EXTRA_DIST += tests/e2e/sim_outputs.sh

# --compute-scale and --comm-scale.
TESTS += tests/e2e/sim_scales.sh
EXTRA_DIST += tests/e2e/sim_scales.sh

# core/trace: the trace loader and ready set shared by workload and
# custom-collective traces; end-to-end, both callers' messages and a custom
# collective with many ready nodes.
check_PROGRAMS += tests/unit/test_trace_graph
tests_unit_test_trace_graph_SOURCES = tests/unit/test_trace_graph.c $(ET_TEST_UTIL)
tests_unit_test_trace_graph_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_trace_graph_LDADD = libvimana_core.la libvimana_et.la $(CMOCKA_LIBS)
TESTS += tests/unit/test_trace_graph tests/e2e/sim_trace_graph.sh
EXTRA_DIST += tests/e2e/sim_trace_graph.sh
