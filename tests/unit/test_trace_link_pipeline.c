/*
 * Stage-by-stage tests of `vimana-et link` on the hand-built fixtures in
 * tests/data/trace_link (see the README there for how each expected value
 * is derived): exclusive durations, inter-thread groups, GPU op launchers,
 * sync edges, matching and renumbering.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include "unit_main.h"

#include "trace_link/exclusive_dur.h"
#include "trace_link/gpu_launcher.h"
#include "trace_link/host_trace.h"
#include "trace_link/inter_thread.h"
#include "trace_link/kineto_trace.h"
#include "trace_link/link_plan.h"
#include "trace_link/sync_dep.h"

#ifndef TL_TEST_DATA
#define TL_TEST_DATA "tests/data/trace_link"
#endif

typedef struct fixture {
    host_trace h;
    kineto_trace k;
    launcher_stats launchers;
    sync_edges edges;
    link_plan plan;
    tl_diag d;
} fixture;

/* Runs every stage on NAME_host.json + NAME_kineto.json. */
static void link_fixture(fixture *f, const char *name)
{
    char host[512], kineto[512];
    snprintf(host, sizeof host, "%s/%s_host.json", TL_TEST_DATA, name);
    snprintf(kineto, sizeof kineto, "%s/%s_kineto.json", TL_TEST_DATA, name);
    tl_diag_init(&f->d, "test", TL_ERROR);
    link_options o = {false, false};
    int rc = host_trace_load(&f->h, host, false, &f->d);
    if (rc == 0)
        rc = kineto_trace_load(&f->k, kineto, &f->d);
    if (rc == 0)
        rc = exclusive_durations(&f->k, &f->d);
    if (rc == 0)
        rc = inter_thread_deps(&f->k, &f->d);
    if (rc == 0)
        rc = find_gpu_launchers(&f->k, &f->launchers, &f->d);
    if (rc == 0)
        rc = find_sync_edges(&f->k, &f->edges, &f->d);
    if (rc == 0)
        rc = link_plan_build(&f->plan, &f->h, &f->k, &f->edges, &o, &f->d);
    if (rc != 0)
        fail_msg("%s", f->d.msg);
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    *state = f;
    return f ? 0 : -1;
}

static int teardown(void **state)
{
    fixture *f = *state;
    link_plan_free(&f->plan);
    sync_edges_free(&f->edges);
    kineto_trace_free(&f->k);
    host_trace_free(&f->h);
    free(f);
    return 0;
}

static uint32_t cpu_op(const fixture *f, const char *name)
{
    for (uint32_t i = 0; i < f->k.n_cpu; i++)
        if (f->k.cpu[i].name_len == strlen(name) && memcmp(f->k.text.data + f->k.cpu[i].name_off, name, strlen(name)) == 0)
            return i;
    fail_msg("no CPU op %s", name);
    return K_NONE;
}

static uint32_t gpu_op(const fixture *f, const char *prefix)
{
    for (uint32_t i = 0; i < f->k.n_gpu; i++)
        if (strncmp(f->k.text.data + f->k.gpu[i].name_off, prefix, strlen(prefix)) == 0)
            return i;
    fail_msg("no GPU op %s", prefix);
    return K_NONE;
}

static size_t host(const fixture *f, int64_t id)
{
    size_t i = host_trace_find(&f->h, id);
    assert_true(i != SIZE_MAX);
    return i;
}

static void assert_excl_int(const fixture *f, const char *name, int64_t want)
{
    pynum e = f->k.cpu[cpu_op(f, name)].excl;
    assert_false(e.is_float);
    assert_int_equal(e.v.i, want);
}

typedef struct excl_want {
    const char *name;
    int64_t want;
} excl_want;

static void assert_inter(const fixture *f, const char *name, int64_t rf)
{
    const k_cpu_op *op = &f->k.cpu[cpu_op(f, name)];
    if (rf < 0) {
        assert_false(op->flags & K_HAS_INTER);
        return;
    }
    assert_true(op->flags & K_HAS_INTER);
    assert_int_equal(op->inter_rf, rf);
}

static void test_simple(void **state)
{
    fixture *f = *state;
    link_fixture(f, "simple");
    /* Exclusive durations (the README derives each). */
    static const excl_want excl[] = {
        {"## forward ##", 135}, {"aten::linear", 40}, {"aten::addmm", 60}, {"aten::relu", 40},
        {"aten::to", 30}, /* same-ts child _to_copy not subtracted */
        {"aten::_to_copy", 20}, {"aten::copy_", 70}, {"aten::item", 20},
    };
    for (size_t i = 0; i < sizeof excl / sizeof excl[0]; i++)
        assert_excl_int(f, excl[i].name, excl[i].want);
    /* One thread: no inter-thread dependency. */
    assert_inter(f, "aten::linear", -1);
    assert_inter(f, "aten::item", -1);
    /* Launchers via correlation + External id. */
    assert_int_equal(f->k.gpu[gpu_op(f, "void gemm_kernel")].launcher, cpu_op(f, "aten::addmm"));
    assert_int_equal(f->k.gpu[gpu_op(f, "void at::native::relu")].launcher, cpu_op(f, "aten::relu"));
    assert_int_equal(f->k.gpu[gpu_op(f, "Memcpy DtoH")].launcher, cpu_op(f, "aten::copy_"));
    assert_int_equal(f->launchers.no_launch_call + f->launchers.no_cpu_op, 0);
    assert_int_equal(f->k.n_memset, 1);
    /* cudaStreamSynchronize: aten::item waits for the memcpy. */
    assert_int_equal(f->edges.n, 1);
    assert_int_equal(f->edges.items[0].waiter, cpu_op(f, "aten::item"));
    assert_int_equal(f->edges.items[0].gpu, gpu_op(f, "Memcpy DtoH"));
    /* Renumbering: GPU ops right after their host op. */
    static const int64_t ids[][2] = {{1, 0}, {2, 1}, {3, 2}, {4, 3}, {5, 4}, {8, 5}, {9, 7}, {10, 9}, {11, 10},
                                     {12, 11}, {13, 13}, {20, 14}};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++)
        assert_int_equal(f->plan.new_id[host(f, ids[i][0])], ids[i][1]);
    /* ctrl_deps remapped; 99 names no node and gets the first free id. */
    assert_int_equal(f->plan.new_ctrl_deps[host(f, 1)], 0);
    assert_int_equal(f->plan.new_ctrl_deps[host(f, 8)], 4);
    assert_int_equal(f->plan.new_ctrl_deps[host(f, 12)], 10);
    assert_int_equal(f->plan.new_ctrl_deps[host(f, 20)], 15);
    /* Linking: node 20 is outside the root's tree, ProfilerStep is not a
     * Kineto CPU op, the roots have rf_id 0. */
    assert_int_equal(f->plan.kop[host(f, 20)], K_NONE);
    assert_int_equal(f->plan.kop[host(f, 3)], K_NONE);
    assert_int_equal(f->plan.kop[host(f, 8)], cpu_op(f, "aten::addmm"));
    assert_int_equal(f->plan.stats.linked, 8);
    assert_int_equal(f->plan.stats.gpu_nodes, 3);
    assert_int_equal(f->plan.stats.out_nodes, 15);
    assert_int_equal(f->plan.n_sync, 1);
    assert_int_equal(f->plan.sync[0].host, host(f, 13));
    assert_int_equal(f->plan.sync[0].node, 12);
}

static void test_threads(void **state)
{
    fixture *f = *state;
    link_fixture(f, "threads");
    /* Groups: a1,a2 | a3,a4 on A; b1..b3 | b4 on B; c1; d* (README). */
    assert_inter(f, "a1", 21);
    assert_inter(f, "a2", 21);
    assert_inter(f, "a3", 23);  /* b3 and c1 both start at 1250: B came first */
    assert_inter(f, "a4", 23);
    assert_inter(f, "b1", -1);
    assert_inter(f, "b2", -1);
    assert_inter(f, "b3", -1);
    assert_inter(f, "b4", 14);
    assert_inter(f, "c1", 22);
    assert_inter(f, "d1", 24);
    assert_inter(f, "d4", 24);
    /* Resolved to new ids of host nodes linked so far (in id order). */
    assert_int_equal(f->plan.inter_dep[host(f, 11)], 5);          /* a1 -> b1 (node 10) */
    assert_int_equal(f->plan.inter_dep[host(f, 35)], LINK_NO_ID); /* c1 -> b2 = node 40 > 35 */
    assert_int_equal(f->plan.inter_dep[host(f, 50)], 10);         /* a3 -> b3 (node 41) */
    assert_int_equal(f->plan.inter_dep[host(f, 60)], 12);         /* b4 -> a4 (node 51) */
    assert_int_equal(f->plan.inter_dep[host(f, 71)], 13);         /* d1 -> b4 (node 60) */
    assert_int_equal(f->plan.inter_dep[host(f, 10)], LINK_NO_ID);
    /* Interval union and the same-ts quirk on thread D. */
    assert_excl_int(f, "d1", 40);
    assert_excl_int(f, "d4", 20);
    assert_excl_int(f, "d2", 30);
    assert_excl_int(f, "d3", 40);
    assert_excl_int(f, "a1", 40);
    assert_int_equal(f->plan.stats.linked, 13);
    assert_int_equal(f->plan.stats.gpu_nodes, 0);
}

static void test_dp_rank0(void **state)
{
    fixture *f = *state;
    link_fixture(f, "dp_rank0");
    assert_excl_int(f, "c10d::allreduce_", 10);
    assert_excl_int(f, "record_param_comms", 10);
    assert_excl_int(f, "nccl:all_reduce", 60);
    uint32_t nccl = gpu_op(f, "ncclDevKernel_AllReduce");
    assert_int_equal(f->k.gpu[nccl].launcher, cpu_op(f, "nccl:all_reduce"));
    assert_true(f->k.gpu[nccl].flags & K_NCCL_DEV);
    assert_true(f->k.gpu[nccl].pg_name.len > 0);
    assert_int_equal(f->plan.new_id[host(f, 11)], 8);
    assert_int_equal(f->plan.new_id[host(f, 14)], 10);
    /* cudaDeviceSynchronize: aten::item waits for the last op of each stream. */
    assert_int_equal(f->plan.n_sync, 2);
    assert_int_equal(f->plan.sync[0].node, 9);
    assert_int_equal(f->plan.sync[1].node, 11);
    assert_int_equal(f->plan.sync[0].host, host(f, 15));
}

static void test_dp_rank1(void **state)
{
    fixture *f = *state;
    link_fixture(f, "dp_rank1");
    /* The NCCL kernel's External id matches no CPU op: the latest op on the
     * launching thread wins, skipping nccl:coalesced. */
    assert_int_equal(f->k.gpu[gpu_op(f, "ncclDevKernel_AllReduce")].launcher, cpu_op(f, "nccl:all_reduce"));
    /* Fractional Kineto times: float arithmetic as in Python. */
    pynum e = f->k.cpu[cpu_op(f, "nccl:all_reduce")].excl;
    assert_true(e.is_float);
    assert_true(e.v.f == 55.0);
    pynum mm = f->k.cpu[cpu_op(f, "aten::mm")].dur;
    assert_true(mm.is_float);
    assert_true(mm.v.f == 50.5);
}

UNIT_TEST_MAIN(
    cmocka_unit_test_setup_teardown(test_simple, setup, teardown),
    cmocka_unit_test_setup_teardown(test_threads, setup, teardown),
    cmocka_unit_test_setup_teardown(test_dp_rank0, setup, teardown),
    cmocka_unit_test_setup_teardown(test_dp_rank1, setup, teardown)
)
