/* The backend ABI version rule and the loader's refusals. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/backend_loader.h"
#include "host/device_name.h"

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

static void fake_stop(void *ctx)
{
    (void)ctx;
}

static uint32_t fake_num_links(void *ctx)
{
    (void)ctx;
    return 0;
}

static int fake_link_stats(void *ctx, uint32_t link, vimana_link_stats *out)
{
    (void)ctx, (void)link, (void)out;
    return VIMANA_ERR_ARGUMENT;
}

/* The minor rule: a 1.0 descriptor (stop() did not exist: its slot is a
 * reserved one, zero) still loads, and the host never takes the slot for
 * stop(), even when it holds something; a 1.1 one's stop() is used. */
static void test_stop_needs_abi_1_1(void **state)
{
    (void)state;
    char err[512];
    vimana_backend d = good();
    d.abi_minor = 0;
    assert_int_equal(backend_check_version("b.so", &d, err, sizeof err), 0);
    assert_null(backend_stop_fn(&d));
    d.stop = fake_stop;
    assert_null(backend_stop_fn(&d));
    d.abi_minor = 1;
    assert_ptr_equal(backend_stop_fn(&d), fake_stop);
    /* A descriptor that ends before the slot has no stop(). */
    d.struct_size = (uint32_t)offsetof(vimana_backend, stop);
    assert_int_equal(backend_check_version("b.so", &d, err, sizeof err), 0);
    assert_null(backend_stop_fn(&d));
    d = good();
    assert_null(backend_stop_fn(&d));
}

/* 1.2 appends to the link counters and takes a reserved slot of the
 * descriptor: the offsets of 1.0/1.1 fields and the descriptor's size stay. */
static void test_abi_1_2_layout(void **state)
{
    (void)state;
    assert_int_equal(offsetof(vimana_link_stats, busy_ticks), 24);
    assert_int_equal(offsetof(vimana_link_stats, max_queue_ticks), 32);
    assert_int_equal(offsetof(vimana_link_stats, queue_ticks), 40);
    /* 1.1: 16 bytes of header and capabilities, 2 strings, 13 functions
     * and 15 reserved slots; 1.2: one function more, one slot less. */
    assert_int_equal(sizeof(vimana_backend), 16 + 30 * sizeof(void *));
    assert_int_equal(offsetof(vimana_backend, device_name), offsetof(vimana_backend, stop) + sizeof(void *));
}

static const char *name_null(void *ctx, uint32_t device, char *buf, size_t len)
{
    (void)ctx, (void)device, (void)buf, (void)len;
    return NULL;
}

/* Fills buf with a name of `device` bytes ('a' repeated). */
static const char *name_of_length(void *ctx, uint32_t device, char *buf, size_t len)
{
    (void)ctx;
    static char text[128];
    memset(text, 'a', sizeof text);
    text[device < sizeof text ? device : sizeof text - 1] = '\0';
    snprintf(buf, len, "%s", text);
    return device <= VIMANA_DEVICE_NAME_MAX ? buf : text;
}

static const char *name_utf8(void *ctx, uint32_t device, char *buf, size_t len)
{
    (void)ctx, (void)device, (void)buf, (void)len;
    return "gpu\xc3\xa9";
}

/* The device_name rule: a 1.1 descriptor's slot is never called; without
 * the function the host names NPUs then switches; a name must be 1 to 63
 * printable ASCII bytes. */
static void test_device_names(void **state)
{
    (void)state;
    char name[DEVICE_NAME_SIZE], why[160];
    vimana_backend d = good();
    d.device_name = name_null;
    d.abi_minor = 1;
    assert_null(backend_device_name_fn(&d));
    assert_false(backend_has_queue_stats(&d));
    assert_int_equal(device_name_get(&d, NULL, 8, 7, name, why, sizeof why), 0);
    assert_string_equal(name, "npu7");
    assert_int_equal(device_name_get(&d, NULL, 8, 8, name, why, sizeof why), 0);
    assert_string_equal(name, "switch0");
    assert_int_equal(device_name_get(&d, NULL, 8, UINT32_MAX, name, why, sizeof why), 0);
    assert_string_equal(name, "switch4294967287");
    d.abi_minor = 2;
    assert_true(backend_has_queue_stats(&d));
    assert_ptr_equal(backend_device_name_fn(&d), name_null);
    assert_int_equal(device_name_get(&d, NULL, 8, 3, name, why, sizeof why), -1);
    assert_string_equal(why, "device_name(3) returned NULL");
    d.device_name = name_of_length;
    assert_int_equal(device_name_get(&d, NULL, 8, 63, name, why, sizeof why), 0);
    assert_int_equal(strlen(name), 63);
    assert_int_equal(device_name_get(&d, NULL, 8, 64, name, why, sizeof why), -1);
    assert_string_equal(why, "device_name(64) returned a name longer than 63 bytes");
    assert_int_equal(device_name_get(&d, NULL, 8, 0, name, why, sizeof why), -1);
    assert_string_equal(why, "device_name(0) returned an empty name");
    d.device_name = name_utf8;
    assert_int_equal(device_name_get(&d, NULL, 8, 1, name, why, sizeof why), -1);
    assert_string_equal(why, "device_name(1) returned a name with byte 0xc3 at offset 3 (names are printable ASCII)");
    /* A descriptor that ends before the slot has none. */
    d.struct_size = (uint32_t)offsetof(vimana_backend, device_name);
    assert_null(backend_device_name_fn(&d));
}

/* backend_check_capabilities refuses d with the message want. */
static void expect_capabilities_refused(const vimana_backend *d, const char *want)
{
    char err[512];
    assert_int_equal(backend_check_capabilities("b.so", d, err, sizeof err), -1);
    assert_string_equal(err, want);
}

/* VIMANA_CAP_LINK_STATS and num_links()/link_stats() must agree. */
static void test_link_stats_capability(void **state)
{
    (void)state;
    char err[512];
    vimana_backend d = good();
    d.capabilities = VIMANA_CAP_LINK_STATS;
    assert_int_equal(backend_check_version("b.so", &d, err, sizeof err), -1);
    assert_string_equal(err, "b.so: backend 'x' advertises VIMANA_CAP_LINK_STATS but does not implement num_links() "
                             "and link_stats()");
    d.num_links = fake_num_links;
    expect_capabilities_refused(&d,
                                "b.so: backend 'x' implements num_links() without link_stats(): give both or neither");
    d.link_stats = fake_link_stats;
    assert_int_equal(backend_check_capabilities("b.so", &d, err, sizeof err), 0);
    d.capabilities = VIMANA_CAP_MULTI_DIM;
    expect_capabilities_refused(&d, "b.so: backend 'x' implements num_links() and link_stats() but does not "
                                    "advertise VIMANA_CAP_LINK_STATS");
    d.num_links = NULL;
    expect_capabilities_refused(&d,
                                "b.so: backend 'x' implements link_stats() without num_links(): give both or neither");
}

static void module_path(char *out, size_t len, const char *name)
{
    const char *build = getenv("VIMANA_BUILDDIR");
    snprintf(out, len, "%s/tests/backends/%s.la", build ? build : ".", name);
}

/* The test module name (tests/backends) loads into lb. */
static void load_module(const char *name, loaded_backend *lb)
{
    char path[1024], err[1024];
    module_path(path, sizeof path, name);
    assert_int_equal(backend_load(path, lb, err, sizeof err), 0);
}

/* The test module name loads as ABI 1.minor, with stop() offered or not. */
static void expect_module_stop(const char *name, uint32_t minor, bool offered)
{
    loaded_backend lb;
    load_module(name, &lb);
    assert_int_equal(lb.desc->abi_minor, minor);
    assert_int_equal(backend_stop_fn(lb.desc) != NULL, offered);
    backend_unload(&lb);
}

static void test_load_real_modules(void **state)
{
    (void)state;
    char path[1024], err[1024];
    loaded_backend lb;
    load_module("abi_current", &lb);
    assert_string_equal(lb.desc->name, "test");
    backend_unload(&lb);

    module_path(path, sizeof path, "abi_wrong_major");
    assert_int_equal(backend_load(path, &lb, err, sizeof err), -1);
    assert_non_null(strstr(err, "abi_wrong_major"));
    assert_non_null(strstr(err, "major versions differ"));

    module_path(path, sizeof path, "abi_no_entry");
    assert_int_equal(backend_load(path, &lb, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a vimana network backend (no symbol vimana_backend_entry)"));

    /* Built as ABI 1.0 (stop slot zero) and 1.1 from one source; both
     * load, and only the 1.1 one offers stop(). (tests/e2e/sim_host_abi11.sh
     * runs both.) */
    expect_module_stop("host10_ok", 0, false);
    expect_module_stop("host11_ok", 1, true);
    /* A 1.1 module that fills the device_name slot anyway: not used. */
    load_module("host11_links", &lb);
    assert_non_null(lb.desc->device_name);
    assert_null(backend_device_name_fn(lb.desc));
    backend_unload(&lb);
    load_module("host12_ok", &lb);
    assert_int_equal(lb.desc->abi_minor, 2);
    assert_non_null(backend_device_name_fn(lb.desc));
    backend_unload(&lb);

    assert_int_equal(backend_load("./no/such/backend.so", &lb, err, sizeof err), -1);
    assert_non_null(strstr(err, "./no/such/backend.so: cannot load network backend"));
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_version_rule),
    cmocka_unit_test(test_stop_needs_abi_1_1),
    cmocka_unit_test(test_abi_1_2_layout),
    cmocka_unit_test(test_device_names),
    cmocka_unit_test(test_link_stats_capability),
    cmocka_unit_test(test_load_real_modules)
)
