/* The jobs file reader (cmd/jobs/jobs_spec.h): paths are the file's, dims and
 * start are read, and each placement rule gives the documented NPUs
 * (contiguous, strided, explicit, random = a splitmix64 Fisher-Yates
 * shuffle of the NPUs earlier jobs left); overlaps are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit_main.h"
#include "temp_text.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/jobs/jobs_spec.h"
#include "util/hash.h"

/* Writes text to DIR/j.yaml in a fresh folder; returns the path. */
static char *jobs_file(const char *text)
{
    return temp_text_write("test_jobs", "j.yaml", text);
}

#define JOB(name, placement) \
    "  - name: " name "\n    workload: w/" name "\n    system: /abs/sys.json\n    dims: [2, 2]\n" \
    "    placement: " placement "\n"

static void test_reads_paths_dims_and_start(void **state)
{
    (void)state;
    char *path = jobs_file("network: net.yml\nbackend: congestion_unaware\njobs:\n" JOB("a", "contiguous")
                           "    start: 1500\n    remote-memory: m.json\n");
    jobs_spec s;
    char err[512] = "";
    assert_int_equal(jobs_spec_load(path, &s, err, sizeof err), 0);
    char want[128];
    snprintf(want, sizeof want, "%.*s/net.yml", (int)(strrchr(path, '/') - path), path);
    assert_string_equal(s.network, want);
    assert_string_equal(s.backend, "analytical");
    assert_int_equal(s.n_jobs, 1);
    assert_string_equal(s.jobs[0].name, "a");
    assert_string_equal(s.jobs[0].system, "/abs/sys.json");
    assert_non_null(strstr(s.jobs[0].workload, "/w/a"));
    assert_non_null(strstr(s.jobs[0].memory, "/m.json"));
    assert_int_equal(s.jobs[0].n_dims, 2);
    assert_int_equal(s.jobs[0].n_npus, 4);
    assert_int_equal(s.jobs[0].start, 1500);
    assert_int_equal(s.jobs[0].line, 4);
    jobs_spec_free(&s);
    temp_text_remove(path);
}

static void load_and_place(const char *text, uint32_t n_npus, jobs_spec *s, int want_rc, char *err, size_t len)
{
    char *path = jobs_file(text);
    assert_int_equal(jobs_spec_load(path, s, err, len), 0);
    assert_int_equal(jobs_spec_place(s, n_npus, err, len), want_rc);
    temp_text_remove(path);
}

static void test_rules(void **state)
{
    (void)state;
    jobs_spec s;
    char err[512] = "";
    load_and_place("network: n.yml\njobs:\n" JOB("a", "{rule: strided, offset: 1, stride: 3}")
                   JOB("b", "{rule: contiguous, offset: 11}") JOB("c", "[0, 15, 3, 6]"), 16, &s, 0, err,
                   sizeof err);
    const uint32_t a[] = {1, 4, 7, 10}, b[] = {11, 12, 13, 14}, c[] = {0, 15, 3, 6};
    assert_memory_equal(s.jobs[0].npus, a, sizeof a);
    assert_memory_equal(s.jobs[1].npus, b, sizeof b);
    assert_memory_equal(s.jobs[2].npus, c, sizeof c);
    jobs_spec_free(&s);
}

/* splitmix64's published first output for seed 0. */
static void test_splitmix64(void **state)
{
    (void)state;
    uint64_t st = 0;
    assert_true(hash_splitmix64(&st) == 0xe220a8397b1dcdafull);
}

/* The shuffle by hand: free NPUs of 8 after job a (0-3) are [4 5 6 7];
 * i = 4, 3, 2: swap slot i-1 with slot splitmix64 % i. */
static void test_random_draws_from_the_npus_left(void **state)
{
    (void)state;
    jobs_spec s;
    char err[512] = "";
    load_and_place("network: n.yml\njobs:\n" JOB("a", "contiguous") JOB("b", "{rule: random, seed: 42}"), 8, &s, 0,
                   err, sizeof err);
    uint32_t ids[4] = {4, 5, 6, 7};
    uint64_t st = 42;
    for (uint32_t i = 4; i > 1; i--) {
        uint32_t k = (uint32_t)(hash_splitmix64(&st) % i), t = ids[i - 1];
        ids[i - 1] = ids[k];
        ids[k] = t;
    }
    assert_memory_equal(s.jobs[1].npus, ids, sizeof ids);
    jobs_spec s2;
    load_and_place("network: n.yml\njobs:\n" JOB("a", "contiguous") JOB("b", "{rule: random, seed: 42}"), 8, &s2, 0,
                   err, sizeof err);
    assert_memory_equal(s.jobs[1].npus, s2.jobs[1].npus, sizeof ids);
    jobs_spec_free(&s);
    jobs_spec_free(&s2);
}

static void test_overlap_and_range(void **state)
{
    (void)state;
    jobs_spec s;
    char err[512] = "";
    load_and_place("network: n.yml\njobs:\n" JOB("a", "contiguous") JOB("b", "{rule: strided, offset: 3, stride: 1}"),
                   8, &s, -1, err, sizeof err);
    assert_non_null(strstr(err, ":8: job 'b': placement: NPU 3 is taken by job 'a' (line 3): jobs may not share an NPU"));
    jobs_spec_free(&s);
    load_and_place("network: n.yml\njobs:\n" JOB("a", "{rule: contiguous, offset: 5}"), 8, &s, -1, err, sizeof err);
    assert_non_null(strstr(err, ":3: job 'a': placement: NPU 8 (rank 3) is out of range: the network "));
    jobs_spec_free(&s);
}

static void test_generator_sizes_and_kinds(void **state)
{
    (void)state;
    uint64_t b = 0;
    assert_int_equal(jobs_gen_size("1048576", &b), 0);
    assert_true(b == 1048576);
    assert_int_equal(jobs_gen_size("64KiB", &b), 0);
    assert_true(b == 65536);
    assert_int_equal(jobs_gen_size("3MiB", &b), 0);
    assert_true(b == 3 * 1048576ull);
    assert_int_equal(jobs_gen_size("2GiB", &b), 0);
    assert_true(b == 2ull << 30);
    assert_int_equal(jobs_gen_size("7B", &b), 0);
    assert_true(b == 7);
    static const char *const bad[] = {"", "0", "0MiB", "1MB", "1 MiB", "-1", "1.5MiB", "MiB", "99999999999999999999",
                                      "4294967296GiB"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (jobs_gen_size(bad[i], &b) == 0)
            fail_msg("size '%s' accepted", bad[i]);
    assert_int_equal(jobs_gen_kind("all-to-all"), GEN_ALL_TO_ALL);
    assert_int_equal(jobs_gen_kind("reduce_scatter"), GEN_REDUCE_SCATTER);
    assert_int_equal(jobs_gen_kind("broadcast"), GEN_NONE);
}

static void test_refused_forms(void **state)
{
    (void)state;
    static const char *const bad[][2] = {
        {"network: n.yml\njobs:\n" JOB("a", "[0, 1]"), ":3: job 'a': placement names 2 NPUs but dims [2, 2] make 4"},
        {"network: n.yml\njobs:\n" JOB("a", "{rule: random}"), ":7: job 'a': placement: rule random needs a seed"},
        {"network: n.yml\njobs:\n" JOB("a", "{rule: strided, stride: 0}"), ":7: job 'a': placement: stride must be at least 1"},
        {"network: n.yml\njobs:\n" JOB("a", "{rule: contiguous, when: 1}"), ":7: job 'a': placement: unknown key 'when' (rule, offset, stride, seed)"},
        {"network: n.yml\njobs:\n" JOB("a", "[0, 1, 2, x]"), ":7: job 'a': placement: 'x' is not a non-negative integer of at most 4294967295"},
        {"network: n.yml\nnetwork: m.yml\n", ":2: network: given twice"},
        {"- a\n", ":1: expected a mapping (network, backend, jobs)"},
        {"network: n.yml\njobs: {}\n", ":2: jobs: expected a non-empty list of jobs"},
        {"network: n.yml\njobs:\n  - 3\n", ":3: a job is a mapping (name, workload, system, dims, placement, start)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *path = jobs_file(bad[i][0]);
        jobs_spec s;
        char err[512] = "";
        assert_int_equal(jobs_spec_load(path, &s, err, sizeof err), -1);
        if (!strstr(err, bad[i][1]))
            fail_msg("case %zu: got '%s', want '%s'", i, err, bad[i][1]);
        jobs_spec_free(&s);
        temp_text_remove(path);
    }
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_reads_paths_dims_and_start),
    cmocka_unit_test(test_rules),
    cmocka_unit_test(test_splitmix64),
    cmocka_unit_test(test_random_draws_from_the_npus_left),
    cmocka_unit_test(test_overlap_and_range),
    cmocka_unit_test(test_generator_sizes_and_kinds),
    cmocka_unit_test(test_refused_forms)
)
