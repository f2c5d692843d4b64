# `vimana --jobs`: the jobs file reader and the placement rules (unit), and
# end-to-end runs of the shipped examples (exact cycles, hand-derived
# contention) and one-line errors for bad jobs files and placements.
UNIT_TESTS += tests/unit/test_jobs
tests_unit_test_jobs_SOURCES = tests/unit/test_jobs.c $(TEMP_TEXT)
tests_unit_test_jobs_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_jobs_CFLAGS = $(AM_CFLAGS) $(YAML_CFLAGS)
tests_unit_test_jobs_LDADD = libvimana_core.la $(CMOCKA_LIBS) $(YAML_LIBS)

SHELL_TESTS += tests/e2e/jobs.sh tests/e2e/jobs_errors.sh tests/e2e/jobs_sweep.sh

# The job view: logical topology, rank -> NPU, the table of messages in flight.
UNIT_TESTS += tests/unit/test_job_net
tests_unit_test_job_net_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_job_net_LDADD = libvimana_core.la $(CMOCKA_LIBS)
# --network-faults (core/host/network_faults.c).
UNIT_TESTS += tests/unit/test_network_faults
tests_unit_test_network_faults_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_network_faults_CFLAGS = $(AM_CFLAGS) $(YAML_CFLAGS)
tests_unit_test_network_faults_LDADD = libvimana_core.la $(CMOCKA_LIBS) $(YAML_LIBS)
