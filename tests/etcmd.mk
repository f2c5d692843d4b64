# Tests of the vimana-et ET commands (tools/etcmd): cmocka tests of the
# JSON pieces, and end-to-end shell tests of every command.

UNIT_TESTS += tests/unit/test_etcmd_json
tests_unit_test_etcmd_json_SOURCES = tests/unit/test_etcmd_json.c $(ET_TEST_UTIL)
tests_unit_test_etcmd_json_CPPFLAGS = $(TOOLS_UNIT_CPPFLAGS) $(ZLIB_CFLAGS)
tests_unit_test_etcmd_json_LDADD = $(TOOLS_UNIT_LDADD)

UNIT_TESTS += tests/unit/test_etcmd_corpus
tests_unit_test_etcmd_corpus_SOURCES = tests/unit/test_etcmd_corpus.c $(ET_TEST_UTIL)
tests_unit_test_etcmd_corpus_CPPFLAGS = $(TOOLS_UNIT_CPPFLAGS) $(ZLIB_CFLAGS)
tests_unit_test_etcmd_corpus_LDADD = $(TOOLS_UNIT_LDADD)

UNIT_TESTS += tests/unit/test_p2p_roles
tests_unit_test_p2p_roles_CPPFLAGS = $(TOOLS_UNIT_CPPFLAGS)
tests_unit_test_p2p_roles_LDADD = $(TOOLS_UNIT_LDADD)

SHELL_TESTS += tests/e2e/etcmd_generate.sh tests/e2e/etcmd_json.sh tests/e2e/etcmd_validate.sh \
	tests/e2e/etcmd_dot.sh tests/e2e/etcmd_stats.sh tests/e2e/etcmd_errors.sh tests/e2e/etcmd_inputs.sh \
	tests/e2e/etcmd_merge.sh

# vimana-et obfuscate and synth (tools/synth).
UNIT_TESTS += tests/unit/test_synth_dist
tests_unit_test_synth_dist_CPPFLAGS = $(TOOLS_UNIT_CPPFLAGS) $(JSON_C_CFLAGS)
tests_unit_test_synth_dist_LDADD = $(TOOLS_UNIT_LDADD)
SHELL_TESTS += tests/e2e/obfuscate.sh tests/e2e/synth.sh tests/e2e/synth_sample.sh
# The models the unit tests of the generators share.
GEN_MODELS = tests/unit/gen_models.c tests/unit/gen_models.h
# vimana-et generate transformer (tools/transformer).
UNIT_TESTS += tests/unit/test_transformer
tests_unit_test_transformer_SOURCES = tests/unit/test_transformer.c $(GEN_MODELS)
tests_unit_test_transformer_CPPFLAGS = $(TOOLS_UNIT_CPPFLAGS)
tests_unit_test_transformer_LDADD = $(TOOLS_UNIT_LDADD)
UNIT_TESTS += tests/unit/test_inference
tests_unit_test_inference_SOURCES = tests/unit/test_inference.c $(GEN_MODELS)
tests_unit_test_inference_CPPFLAGS = $(TOOLS_UNIT_CPPFLAGS)
tests_unit_test_inference_LDADD = $(TOOLS_UNIT_LDADD)
UNIT_TESTS += tests/unit/test_inf_serving
tests_unit_test_inf_serving_SOURCES = tests/unit/test_inf_serving.c $(GEN_MODELS)
tests_unit_test_inf_serving_CPPFLAGS = $(TOOLS_UNIT_CPPFLAGS)
tests_unit_test_inf_serving_LDADD = $(TOOLS_UNIT_LDADD)
UNIT_TESTS += tests/unit/test_moe
tests_unit_test_moe_SOURCES = tests/unit/test_moe.c $(GEN_MODELS)
tests_unit_test_moe_CPPFLAGS = $(TOOLS_UNIT_CPPFLAGS)
tests_unit_test_moe_LDADD = $(TOOLS_UNIT_LDADD)
UNIT_TESTS += tests/unit/test_transformer_pb
tests_unit_test_transformer_pb_CPPFLAGS = $(TOOLS_UNIT_CPPFLAGS)
tests_unit_test_transformer_pb_LDADD = $(TOOLS_UNIT_LDADD)
SHELL_TESTS += tests/e2e/calibrate_compute.sh tests/e2e/gen_transformer.sh \
	tests/e2e/gen_transformer_moe.sh tests/e2e/examples_moe.sh tests/e2e/gen_transformer_bytes.sh \
	tests/e2e/gen_transformer_interleaved.sh tests/e2e/gen_transformer_options.sh \
	tests/e2e/gen_transformer_durations.sh tests/e2e/gen_transformer_kernels.sh \
	tests/e2e/gen_transformer_tensors.sh
SHELL_TESTS += tests/e2e/gen_inference.sh tests/e2e/gen_inference_serving.sh
EXTRA_DIST += tests/data/serving_100.txt tests/data/serving_100.py
EXTRA_DIST += tests/e2e/tf_list.py tests/e2e/gen_lib.sh
EXTRA_DIST += examples/moe/README.md examples/moe/mixtral-8x7b.sh examples/moe/deepseek-v3.sh
EXTRA_DIST += examples/validation/README.md examples/validation/dgx-h100.sh
