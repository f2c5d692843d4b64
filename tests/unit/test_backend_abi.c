/* The backend ABI version rule and the loader's refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/backend_loader.h"

static vimana_backend good(void)
{
    vimana_backend d;
    memset(&d, 0, sizeof d);
    d.abi_major = VIMANA_NETWORK_ABI_MAJOR;
    d.abi_minor = VIMANA_NETWORK_ABI_MINOR;
    d.struct_size = sizeof d;
    d.name = "x";
    d.init = (void *)1, d.fini = (void *)1, d.num_dims = (void *)1, d.dim_size = (void *)1;
    d.sim_send = (void *)1, d.schedule = (void *)1, d.now = (void *)1, d.run = (void *)1;
    return d;
}

static void test_version_rule(void **state)
{
    (void)state;
    char err[512];
    vimana_backend d = good();
    assert_int_equal(backend_check_version("b.so", &d, err, sizeof err), 0);
    d.abi_major = VIMANA_NETWORK_ABI_MAJOR + 1;
    assert_int_equal(backend_check_version("b.so", &d, err, sizeof err), -1);
    char want[512];
    snprintf(want, sizeof want, "b.so: backend ABI %d.%d is not compatible with this vimana (ABI %d.%d): major "
             "versions differ; rebuild the backend against this vimana's network_api.h",
             VIMANA_NETWORK_ABI_MAJOR + 1, VIMANA_NETWORK_ABI_MINOR, VIMANA_NETWORK_ABI_MAJOR, VIMANA_NETWORK_ABI_MINOR);
    assert_string_equal(err, want);
    d = good();
    d.abi_minor = VIMANA_NETWORK_ABI_MINOR + 1;
    assert_int_equal(backend_check_version("b.so", &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "the backend is newer; upgrade vimana"));
    d = good();
    d.struct_size = 8;
    assert_int_equal(backend_check_version("b.so", &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "backend descriptor is 8 bytes, too small"));
    d = good();
    d.run = NULL;
    assert_int_equal(backend_check_version("b.so", &d, err, sizeof err), -1);
    assert_string_equal(err, "b.so: backend 'x' does not implement run()");
}

static void module_path(char *out, size_t len, const char *name)
{
    const char *build = getenv("VIMANA_BUILDDIR");
    snprintf(out, len, "%s/tests/backends/%s.la", build ? build : ".", name);
}

static void test_load_real_modules(void **state)
{
    (void)state;
    char path[1024], err[1024];
    loaded_backend lb;
    module_path(path, sizeof path, "abi_current");
    assert_int_equal(backend_load(path, &lb, err, sizeof err), 0);
    assert_string_equal(lb.desc->name, "test");
    backend_unload(&lb);

    module_path(path, sizeof path, "abi_wrong_major");
    assert_int_equal(backend_load(path, &lb, err, sizeof err), -1);
    assert_non_null(strstr(err, "abi_wrong_major"));
    assert_non_null(strstr(err, "major versions differ"));

    module_path(path, sizeof path, "abi_no_entry");
    assert_int_equal(backend_load(path, &lb, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a vimana network backend (no symbol vimana_backend_entry)"));

    assert_int_equal(backend_load("./no/such/backend.so", &lb, err, sizeof err), -1);
    assert_non_null(strstr(err, "./no/such/backend.so: cannot load network backend"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_version_rule),
        cmocka_unit_test(test_load_real_modules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
