# Tests of the ET library (core/et): cmocka unit tests.
ET_TEST_LDADD = libvimana_et.la libvimana_util.la $(CMOCKA_LIBS) $(ZLIB_LIBS)
ET_TEST_UTIL = tests/unit/et_test_util.c tests/unit/et_test_util.h

UNIT_TESTS += tests/unit/test_et_reader
tests_unit_test_et_reader_SOURCES = tests/unit/test_et_reader.c $(ET_TEST_UTIL)
tests_unit_test_et_reader_CPPFLAGS = $(UNIT_CPPFLAGS) $(ZLIB_CFLAGS)
tests_unit_test_et_reader_LDADD = $(ET_TEST_LDADD)

UNIT_TESTS += tests/unit/test_et_attrs
tests_unit_test_et_attrs_SOURCES = tests/unit/test_et_attrs.c $(ET_TEST_UTIL)
tests_unit_test_et_attrs_CPPFLAGS = $(UNIT_CPPFLAGS) $(ZLIB_CFLAGS)
tests_unit_test_et_attrs_LDADD = $(ET_TEST_LDADD)

# The reader's decoder against protobuf-c: built from the library's
# internal sources, which the shared library does not export.
UNIT_TESTS += tests/unit/test_et_decode
tests_unit_test_et_decode_SOURCES = tests/unit/test_et_decode.c $(ET_TEST_UTIL) \
	core/et/et_decode.c core/et/et_pb.c
nodist_tests_unit_test_et_decode_SOURCES = proto/et_def.pb-c.c
tests_unit_test_et_decode_CPPFLAGS = $(UNIT_CPPFLAGS) $(PROTOBUF_C_CFLAGS) $(ZLIB_CFLAGS)
tests_unit_test_et_decode_LDADD = $(ET_TEST_LDADD) $(PROTOBUF_C_LIBS)

UNIT_TESTS += tests/unit/test_et_corpus
tests_unit_test_et_corpus_SOURCES = tests/unit/test_et_corpus.c $(ET_TEST_UTIL)
tests_unit_test_et_corpus_CPPFLAGS = $(UNIT_CPPFLAGS) $(ZLIB_CFLAGS)
tests_unit_test_et_corpus_LDADD = $(ET_TEST_LDADD)
