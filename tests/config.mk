# Configuration readers (system, remote-memory and communicator-group JSON,
# network YAML, per-node custom map) on the bad inputs of tests/data/bad-inputs.
# The unit test tests/unit/test_configs is registered in tests/sim.mk.
SHELL_TESTS += tests/e2e/config_errors.sh
