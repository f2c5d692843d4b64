# Install and out-of-tree backends: where vimana looks for a backend, the
# dynamic linker's reason when a module does not load, and the man pages.
# (scripts/test-install checks a real installation.)
UNIT_TESTS += tests/unit/test_backend_search
tests_unit_test_backend_search_CPPFLAGS = $(UNIT_CPPFLAGS)
tests_unit_test_backend_search_LDADD = libvimana_core.la libvimana_backend.la $(CMOCKA_LIBS)

# A backend module that needs a library the dynamic linker cannot find. It
# is linked without libtool, which would give it a run path to the library.
MISSING_DEP_DIR = tests/backends/missing
check_DATA += tests/backends/needs_missing.so
tests/backends/needs_missing.so: $(srcdir)/tests/backends/needs_missing.c $(srcdir)/$(MISSING_DEP_DIR)/missing.c
	$(AM_V_CCLD)$(MKDIR_P) $(MISSING_DEP_DIR) && \
	$(CC) $(CFLAGS) -shared -fPIC -o $(MISSING_DEP_DIR)/libvimana_test_missing.so $(srcdir)/$(MISSING_DEP_DIR)/missing.c && \
	$(CC) $(CFLAGS) -shared -fPIC -I$(top_srcdir)/core/include -o $@ $(srcdir)/tests/backends/needs_missing.c \
		-L$(MISSING_DEP_DIR) -lvimana_test_missing
CLEANFILES += tests/backends/needs_missing.so $(MISSING_DEP_DIR)/libvimana_test_missing.so
EXTRA_DIST += tests/backends/needs_missing.c $(MISSING_DEP_DIR)/missing.c

SHELL_TESTS += tests/e2e/backend_search.sh tests/e2e/man_pages.sh
