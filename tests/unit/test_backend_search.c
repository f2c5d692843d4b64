/* Where vimana looks for a backend given by name: only the build tree's
 * own program searches the build tree, and an installed one starts with
 * $VIMANA_BACKEND_PATH, then its install directory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit_main.h"
#include <stdio.h>
#include <string.h>

#include "host/backend_loader.h"

static void test_build_tree_exe(void **state)
{
    (void)state;
    assert_true(backend_is_build_tree_exe("/src/v/vimana", "/src/v"));
    assert_true(backend_is_build_tree_exe("/src/v/.libs/vimana", "/src/v"));
    assert_true(backend_is_build_tree_exe("/src/v/.libs/lt-vimana", "/src/v"));
    /* Installed under the build tree, in a sibling, or a prefix of the name. */
    assert_false(backend_is_build_tree_exe("/src/v/inst/bin/vimana", "/src/v"));
    assert_false(backend_is_build_tree_exe("/src/v2/vimana", "/src/v"));
    assert_false(backend_is_build_tree_exe("/src/v/.libsx/vimana", "/src/v"));
    assert_false(backend_is_build_tree_exe("/usr/local/bin/vimana", "/src/v"));
    assert_false(backend_is_build_tree_exe("vimana", "/src/v"));
    assert_false(backend_is_build_tree_exe("/src/v/vimana", ""));
}

/* The build tree's folders appear only for an uninstalled program, after
 * $VIMANA_BACKEND_PATH and before the install directory, which comes last. */
static void test_search_order(void **state)
{
    (void)state;
    char installed[4096], uninstalled[4096];
    backend_search_path("/env/a:/env/b", false, installed, sizeof installed);
    backend_search_path("/env/a:/env/b", true, uninstalled, sizeof uninstalled);
    assert_non_null(strstr(installed, "/env/a:/env/b:"));
    assert_ptr_equal(strstr(installed, "/env/a:/env/b:"), installed);
    assert_null(strstr(installed, "/backends/analytical"));
    assert_null(strstr(installed, "garnet_stub"));
    assert_ptr_equal(strstr(uninstalled, "/env/a:/env/b:"), uninstalled);
    const char *build = strstr(uninstalled, "/backends/analytical:");
    assert_non_null(build);
    /* ns3_shim is a backend of the build tree (when configure found ns-3;
     * its folder is searched either way), and so is garnet_stub. */
    assert_non_null(strstr(uninstalled, "/backends/ns3_shim"));
    assert_non_null(strstr(uninstalled, "/backends/garnet_stub"));
    assert_null(strstr(installed, "ns3_shim"));
    /* The install directory ends both lists. */
    const char *install = strrchr(installed, ':') + 1;
    size_t n = strlen(install);
    assert_true(n > 0);
    assert_string_equal(uninstalled + strlen(uninstalled) - n, install);
    assert_true(build < uninstalled + strlen(uninstalled) - n);

    char no_env[4096];
    backend_search_path(NULL, false, no_env, sizeof no_env);
    assert_string_equal(no_env, install);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_build_tree_exe),
    cmocka_unit_test(test_search_order)
)
