/* The Garnet-style backend (backends/garnet_stub) through its descriptor,
 * as vimana loads it: exact delivery cycles of the flit-level rules,
 * round-robin sharing of a link by two packets, stop(), a deadlock that
 * ends the run as "stalled", options refused in init. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "vimana/network_api.h"

typedef struct host_rec {
    const vimana_backend *be;
    void *ctx;
    uint64_t tokens[8];
    vimana_tick at[8];
    int n;
    int stop_after;
    char failed[512];
} host_rec;

static void host_log(void *host, enum vimana_log_level level, const char *message)
{
    (void)host;
    if (level != VIMANA_LOG_DEBUG)
        fail_msg("unexpected log (level %d): %s", (int)level, message);
}

static void host_delivered(void *host, uint64_t token)
{
    host_rec *h = host;
    assert_true(h->n < 8);
    h->at[h->n] = h->be->now(h->ctx);
    h->tokens[h->n++] = token;
    if (h->n == h->stop_after)
        h->be->stop(h->ctx);
}

static void host_failed(void *host, const char *message)
{
    host_rec *h = host;
    snprintf(h->failed, sizeof h->failed, "%s", message);
    h->be->stop(h->ctx);
}

static const vimana_backend *load(void)
{
    const char *build = getenv("VIMANA_BUILDDIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/backends/garnet_stub/.libs/garnet.so", build ? build : ".");
    void *so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!so)
        fail_msg("%s", dlerror());
    vimana_backend_entry_fn entry = (vimana_backend_entry_fn)dlsym(so, VIMANA_BACKEND_ENTRY_SYMBOL);
    assert_non_null(entry);
    return entry();
}

/* Writes text into path (a mkstemp template; the toolkit tells a
 * topology .txt from a YAML by its first word, not by its name). */
static void write_file(char *path, const char *text)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}

/* Two NPUs on one link of 400Gbps = 50 bytes per ns, 500 ns. */
static const char p2p_text[] = "2 0 1\n\n0 1 400Gbps 500ns 0\n";
static const char ring4_text[] = "topology: [ Ring ]\nnpus_count: [ 4 ]\nbandwidth: [ 50 ]\nlatency: [ 500 ]\n";

static int open_backend(host_rec *h, vimana_host *cb, const char *net, const char *options, char *err,
                        size_t len)
{
    h->be = load();
    *cb = (vimana_host){.struct_size = sizeof *cb, .host = h, .log = host_log, .delivered = host_delivered,
                        .failed = host_failed};
    vimana_backend_params p = {.struct_size = sizeof p, .network_config = net, .options = options};
    return h->be->init(&p, cb, &h->ctx, err, len);
}

static void test_descriptor(void **state)
{
    (void)state;
    const vimana_backend *be = load();
    assert_string_equal(be->name, "garnet");
    assert_int_equal(be->abi_minor, VIMANA_NETWORK_ABI_MINOR);
    assert_int_equal(be->capabilities, VIMANA_CAP_CONGESTION | VIMANA_CAP_LINK_STATS | VIMANA_CAP_MULTI_DIM);
    assert_non_null(be->stop);
    assert_non_null(be->device_name);
}

/* One flit (16 bytes) sent at 0: ready at 0 + 1, leaves at 1, ejected at
 * 1 + 500 + 1 = 502. */
static void test_one_flit(void **state)
{
    (void)state;
    char path[] = "/tmp/garnet_p2pXXXXXX", err[512] = "";
    host_rec h = {0};
    vimana_host cb;
    write_file(path, p2p_text);
    assert_int_equal(open_backend(&h, &cb, path, NULL, err, sizeof err), VIMANA_OK);
    assert_int_equal(h.be->sim_send(h.ctx, 0, 1, 16, 0, 7), VIMANA_OK);
    assert_int_equal(h.be->run(h.ctx), VIMANA_OK);
    assert_int_equal(h.n, 1);
    assert_int_equal(h.tokens[0], 7);
    assert_int_equal(h.at[0], 502);
    vimana_link_stats s = {0};
    assert_int_equal(h.be->link_stats(h.ctx, 0, &s), VIMANA_OK);
    assert_int_equal(s.bytes, 16);
    assert_int_equal(s.messages, 1);
    h.be->fini(h.ctx);
    unlink(path);
}

/* Two packets of 64 flits share the link round robin, flit by flit: 128
 * flits at 0.32 cycles each from cycle 1, the last (index 127) leaves at
 * 1 + floor(127 * 0.32) = 41; A's tail (index 126) too: both are ejected
 * at 41 + 501 = 542, A first. Alone, A would arrive at 1 + floor(63 *
 * 0.32) + 501 = 522. */
static void test_two_packets_share_a_link(void **state)
{
    (void)state;
    char path[] = "/tmp/garnet_p2pXXXXXX", err[512] = "";
    host_rec h = {0};
    vimana_host cb;
    write_file(path, p2p_text);
    assert_int_equal(open_backend(&h, &cb, path, NULL, err, sizeof err), VIMANA_OK);
    assert_int_equal(h.be->sim_send(h.ctx, 0, 1, 1024, 0, 1), VIMANA_OK);
    assert_int_equal(h.be->sim_send(h.ctx, 0, 1, 1024, 0, 2), VIMANA_OK);
    assert_int_equal(h.be->run(h.ctx), VIMANA_OK);
    assert_int_equal(h.n, 2);
    assert_int_equal(h.tokens[0], 1);
    assert_int_equal(h.tokens[1], 2);
    assert_int_equal(h.at[0], 542);
    assert_int_equal(h.at[1], 542);
    vimana_link_stats s = {0};
    assert_int_equal(h.be->link_stats(h.ctx, 0, &s), VIMANA_OK);
    assert_int_equal(s.messages, 2);
    h.be->fini(h.ctx);

    h = (host_rec){0};
    assert_int_equal(open_backend(&h, &cb, path, NULL, err, sizeof err), VIMANA_OK);
    assert_int_equal(h.be->sim_send(h.ctx, 0, 1, 1024, 0, 1), VIMANA_OK);
    assert_int_equal(h.be->run(h.ctx), VIMANA_OK);
    assert_int_equal(h.at[0], 522);
    h.be->fini(h.ctx);
    unlink(path);
}

/* stop() from inside delivered(): run() returns with the other message
 * still in flight. */
static void test_stop(void **state)
{
    (void)state;
    char path[] = "/tmp/garnet_p2pXXXXXX", err[512] = "";
    host_rec h = {.stop_after = 1};
    vimana_host cb;
    write_file(path, p2p_text);
    assert_int_equal(open_backend(&h, &cb, path, NULL, err, sizeof err), VIMANA_OK);
    assert_int_equal(h.be->sim_send(h.ctx, 0, 1, 16, 0, 1), VIMANA_OK);
    assert_int_equal(h.be->sim_send(h.ctx, 1, 0, 1 << 20, 0, 2), VIMANA_OK);
    assert_int_equal(h.be->run(h.ctx), VIMANA_OK);
    assert_int_equal(h.n, 1);
    assert_int_equal(h.at[0], 502);
    h.be->fini(h.ctx);
    unlink(path);
}

/* Ring of 4, one VC of one flit, NPU i sends 4 flits to i + 2: every head
 * waits at 502 for a VC its neighbour's packet holds forever. */
static void test_deadlock_is_stalled(void **state)
{
    (void)state;
    char path[] = "/tmp/garnet_ringXXXXXX", err[512] = "";
    write_file(path, ring4_text);
    for (int vcs = 1; vcs <= 2; vcs++) {
        host_rec h = {0};
        vimana_host cb;
        const char *opt = vcs == 1 ? "vcs=1,vc_depth=1" : "vcs=2,vc_depth=1";
        assert_int_equal(open_backend(&h, &cb, path, opt, err, sizeof err), VIMANA_OK);
        for (uint32_t i = 0; i < 4; i++)
            assert_int_equal(h.be->sim_send(h.ctx, i, (i + 2) % 4, 64, 0, i), VIMANA_OK);
        int rc = h.be->run(h.ctx);
        if (vcs == 1) {
            assert_int_equal(rc, VIMANA_ERR_INTERNAL);
            assert_int_equal(h.n, 0);
            assert_string_equal(h.failed, "stalled: 4 messages pending at t = 502 (garnet: no flit can ever move: a "
                                          "routing deadlock; more vcs or a topology without cyclic routes avoids it)");
        } else {
            /* The dateline: all four arrive. */
            assert_int_equal(rc, VIMANA_OK);
            assert_int_equal(h.n, 4);
            assert_string_equal(h.failed, "");
        }
        h.be->fini(h.ctx);
    }
    unlink(path);
}

static void test_bad_options(void **state)
{
    (void)state;
    char path[] = "/tmp/garnet_p2pXXXXXX";
    write_file(path, p2p_text);
    static const struct {
        const char *options, *message;
    } cases[] = {
        {"vcs=4,depth=2", "garnet: --backend-options: unknown key in 'depth=2' (known: flit_bytes, vcs, vc_depth, "
                          "pipeline, stats)"},
        {"pipeline=0", "garnet: --backend-options: 'pipeline=0': pipeline must be an integer from 1 to 1000"},
        {"vc_depth=-1", "garnet: --backend-options: 'vc_depth=-1': vc_depth must be an integer from 1 to 1048576 "
                        "or auto"},
        {"stats=2", "garnet: --backend-options: 'stats=2': stats must be an integer from 0 to 1"},
        {"flit_bytes=\n", "garnet: --backend-options: 'flit_bytes=\\n': flit_bytes must be an integer from 1 to "
                          "65536"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        host_rec h = {0};
        vimana_host cb;
        char err[512] = "";
        assert_int_equal(open_backend(&h, &cb, path, cases[i].options, err, sizeof err), VIMANA_ERR_CONFIG);
        assert_string_equal(err, cases[i].message);
    }
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_descriptor),
        cmocka_unit_test(test_one_flit),
        cmocka_unit_test(test_two_packets_share_a_link),
        cmocka_unit_test(test_stop),
        cmocka_unit_test(test_deadlock_is_stalled),
        cmocka_unit_test(test_bad_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
