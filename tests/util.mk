# Tests of the small utilities in core/util (libvimana_util) shared by the
# core and the tools.
UNIT_TESTS += tests/unit/test_util
tests_unit_test_util_SOURCES = tests/unit/test_util.c $(TEMP_TEXT)
tests_unit_test_util_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_util_LDADD = libvimana_util.la $(CMOCKA_LIBS)

# util/json_doc, json_check, json_escape: the strict JSON reader (issue 29).
UNIT_TESTS += tests/unit/test_json_doc
tests_unit_test_json_doc_CPPFLAGS = $(UNIT_CPPFLAGS) $(JSON_C_CFLAGS)
tests_unit_test_json_doc_LDADD = libvimana_util.la $(JSON_C_LIBS) $(CMOCKA_LIBS)

# util/hash: the FNV-1a and splitmix64 test vectors (issue 29).
UNIT_TESTS += tests/unit/test_hash
tests_unit_test_hash_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_hash_LDADD = libvimana_util.la $(CMOCKA_LIBS)

# util/file_digest: file digests, byte comparison (issue 14).
UNIT_TESTS += tests/unit/test_file_digest
tests_unit_test_file_digest_SOURCES = tests/unit/test_file_digest.c $(TEMP_TEXT)
tests_unit_test_file_digest_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_file_digest_LDADD = libvimana_util.la $(CMOCKA_LIBS)
