/* The sweep file reader (cmd/sweep/sweep_spec.h) and the order of the points
 * (cmd/sweep/sweep_points.h): the grid is an odometer, last axis fastest; lists
 * and quoted scalars keep their form; explicit points leave the axes they
 * do not name at the base; paths are the sweep file's; a generator's
 * parameters (generate: and generate.KEY axes) make its command line. */
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

#include "cmd/sweep/sweep_genspec.h"
#include "cmd/sweep/sweep_points.h"
#include "cmd/sweep/sweep_spec.h"

/* Writes text to a fresh file in a fresh folder; returns its path. */
static char *spec_file(const char *text)
{
    return temp_text_write("test_sweep", "s.yaml", text);
}

/* The spec file path loads into s. */
static void load_ok(const char *path, sweep_spec *s)
{
    char err[512] = "";
    assert_int_equal(sweep_spec_load(path, s, err, sizeof err), 0);
}

/* s expands to *n points (*rows, to free). */
static void expand_ok(const sweep_spec *s, size_t **rows, size_t *n)
{
    char err[512] = "";
    assert_int_equal(sweep_points_expand(s, rows, n, err, sizeof err), 0);
}

static void spec_done(sweep_spec *s, char *path)
{
    sweep_spec_free(s);
    temp_text_remove(path);
}

/* A spec file holding text fails to load with its path followed by tail. */
static void expect_load_error(const char *text, const char *tail)
{
    char *path = spec_file(text);
    sweep_spec s;
    char err[512], want[1024];
    assert_int_equal(sweep_spec_load(path, &s, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s%s", path, tail);
    assert_string_equal(err, want);
    spec_done(&s, path);
}

static const char grid[] = "workload: w\nsystem: s.json\nnetwork: n.yml\n"
                           "axes:\n  backend: [a, b]\n  network.bandwidth: [[1, 2], [3, 4], [5, 6]]\n"
                           "  system.x: [\"4\", 5]\n";

static void grid_is_read(void **state)
{
    (void)state;
    char *path = spec_file(grid);
    sweep_spec s;
    load_ok(path, &s);
    assert_int_equal(s.n_axes, 3);
    assert_string_equal(s.axes[0].name, "backend");
    assert_int_equal(s.axes[0].kind, SWEEP_BACKEND);
    assert_null(s.axes[0].key);
    assert_int_equal(s.axes[1].kind, SWEEP_NETWORK_KEY);
    assert_string_equal(s.axes[1].key, "bandwidth");
    assert_int_equal(s.axes[1].line, 6);
    assert_true(s.axes[1].values[2].is_list);
    assert_int_equal(s.axes[1].values[2].n_items, 2);
    assert_string_equal(s.axes[1].values[2].text, "[5, 6]");
    /* A quoted value stays a string (cmd/sweep/sweep_config.c reads the flag). */
    assert_int_equal(s.axes[2].n_values, 2);
    assert_true(s.axes[2].values[0].quoted[0]);
    assert_false(s.axes[2].values[1].quoted[0]);
    assert_string_equal(s.backend, "analytical");
    char *net = sweep_spec_path(&s, s.network);
    assert_int_equal(strncmp(net, path, strlen(path) - strlen("s.yaml")), 0);
    assert_string_equal(net + strlen(path) - strlen("s.yaml"), "n.yml");
    free(net);
    spec_done(&s, path);
}

static void grid_order_is_last_axis_fastest(void **state)
{
    (void)state;
    char *path = spec_file(grid);
    sweep_spec s;
    load_ok(path, &s);
    size_t *rows, n;
    expand_ok(&s, &rows, &n);
    assert_int_equal(n, 12);
    for (size_t p = 0; p < n; p++) {
        assert_int_equal(rows[p * 3 + 0], p / 6);
        assert_int_equal(rows[p * 3 + 1], p / 2 % 3);
        assert_int_equal(rows[p * 3 + 2], p % 2);
    }
    free(rows);
    spec_done(&s, path);
}

static void explicit_points(void **state)
{
    (void)state;
    char *path = spec_file("workload: w\nsystem: s.json\npoints:\n"
                           "  - {network: a.yml, backend: x}\n  - {network: b.yml}\n  - {network: a.yml, "
                           "system.k: [1]}\n");
    sweep_spec s;
    load_ok(path, &s);
    size_t *rows, n;
    expand_ok(&s, &rows, &n);
    assert_int_equal(n, 3);
    assert_int_equal(s.n_axes, 3);  /* network, backend, system.k: in order of appearance */
    assert_string_equal(s.axes[2].name, "system.k");
    assert_int_equal(s.axes[0].n_values, 2);  /* a.yml once */
    size_t want[] = {0, 0, SWEEP_BASE, 1, SWEEP_BASE, SWEEP_BASE, 0, SWEEP_BASE, 0};
    for (size_t i = 0; i < 9; i++)
        assert_int_equal(rows[i], want[i]);
    free(rows);
    spec_done(&s, path);
}

static void errors_name_the_line(void **state)
{
    (void)state;
    static const struct { const char *text, *want; } cases[] = {
        {"workload: w\nsystem: s\nnetwork: n\naxes:\n  bogus: [1]\n",
         ":5: unknown axis 'bogus' (expected system.KEY, network.KEY, generate.KEY, system, network, backend, workload or jobs-file)"},
        {"workload: w\nsystem: s\nnetwork: n\naxes:\n  system.x: [[[1]]]\n",
         ":5: system.x: a value is a scalar or a list of scalars"},
        {"workload: w\nsystem: s\nsystem: t\naxes:\n  backend: [a]\n", ":3: key 'system' given twice"},
        {"workload: w\nsystem: s\nnetwork: n\npoints:\n  - {backend: a}\n  - 3\n",
         ":6: points: each point is a mapping of axis names to values"},
        {"workload: w\nsystem: s\npoints:\n  - {network: a}\n  - {backend: b}\n",
         ":1: missing key 'network' (the base run; or an axis 'network' that every point sets)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        expect_load_error(cases[i].text, cases[i].want);
    }
}

static const char transformer[] = "generate:\n  kind: transformer\n  layers: 4\n  sp: false\n"
                                  "  durations: d.json\nsystem: s.json\nnetwork: n.yml\n"
                                  "axes:\n  generate.tp: [2, 4]\n  generate.sp: [true]\n";

/* The point's generator arguments, joined by spaces, are `want`. */
static void point_text_is(const sweep_spec *s, const sweep_gen_point *g, const char *want)
{
    char *text = sweep_gen_point_text(s, g);
    assert_string_equal(text, want);
    free(text);
}

static void generator_is_read(void **state)
{
    (void)state;
    char *path = spec_file(transformer);
    sweep_spec s;
    load_ok(path, &s);
    assert_null(s.workload);
    assert_int_equal(s.n_generate, 4);
    assert_int_equal(s.generate_line, 2);
    assert_string_equal(s.generate[1].key, "layers");
    assert_string_equal(s.generate[1].value, "4");
    assert_int_equal(s.generate[1].line, 3);
    assert_string_equal(sweep_spec_generate(&s, "kind")->value, "transformer");
    assert_int_equal(s.n_axes, 2);
    assert_int_equal(s.axes[0].kind, SWEEP_GENERATE_KEY);
    assert_string_equal(s.axes[0].key, "tp");
    assert_int_equal(s.axes[0].line, 9);
    size_t *rows, n;
    expand_ok(&s, &rows, &n);
    assert_int_equal(n, 2);
    /* Point 1: tp 4 from the axis, sp true from its axis over the base's
     * false; keys sorted; the durations file is the sweep file's. */
    sweep_gen_point g;
    sweep_gen_point_of(&s, rows + 2, &g);
    assert_string_equal(g.kind, "transformer");
    char want[512];
    snprintf(want, sizeof want, "transformer --durations %sd.json --layers 4 --sp --tp 4", s.dir);
    point_text_is(&s, &g, want);
    /* A base flag that is false is left out. */
    spec_done(&s, path);
    free(rows);
    path = spec_file("generate: {kind: transformer, recompute: false, tp: 2}\nsystem: s\nnetwork: n\n"
                     "points:\n  - {generate.kind: transformer}\n  - {generate.tp: 8}\n");
    load_ok(path, &s);
    expand_ok(&s, &rows, &n);
    sweep_gen_point_of(&s, rows + 1 * s.n_axes, &g);
    point_text_is(&s, &g, "transformer --tp 8");
    free(rows);
    spec_done(&s, path);
}

static void generator_kind_axis(void **state)
{
    (void)state;
    char *path = spec_file("generate: {kind: all-reduce, npus: 8, size: 1MiB}\nsystem: s\nnetwork: n\n"
                           "axes:\n  generate.kind: [all-gather, all-to-all]\n  generate.npus: [4]\n");
    sweep_spec s;
    load_ok(path, &s);
    size_t *rows, n;
    expand_ok(&s, &rows, &n);
    sweep_gen_point g;
    sweep_gen_point_of(&s, rows + 2, &g);
    point_text_is(&s, &g, "all-to-all --npus 4 --size 1MiB");
    assert_int_equal(sweep_gen_param("transformer", "tp"), GEN_PARAM_VALUE);
    assert_int_equal(sweep_gen_param("transformer", "npus"), GEN_PARAM_UNKNOWN);
    assert_int_equal(sweep_gen_param(NULL, "recompute"), GEN_PARAM_FLAG);
    assert_true(sweep_gen_kind_known("send-recv"));
    assert_false(sweep_gen_kind_known("all_reduce"));
    free(rows);
    spec_done(&s, path);
}

static void generator_errors_name_the_line(void **state)
{
    (void)state;
    static const char base[] = "system: s\nnetwork: n\n";
    static const struct { const char *text, *want; } cases[] = {
        {"generate: {kind: all-reduce, sise: 1MiB}\naxes:\n  backend: [a]\n",
         ":3: generate.sise: vimana-et generate all-reduce has no parameter 'sise' (see vimana-et generate --help)"},
        {"generate: {kind: transformer}\naxes:\n  generate.tpp: [1]\n",
         ":5: generate.tpp: vimana-et generate transformer has no parameter 'tpp' (see vimana-et generate "
         "transformer --help)"},
        {"generate: {kind: all-reduce, npus: 2}\naxes:\n  generate.kind: [transformer]\n",
         ":3: generate.npus: vimana-et generate transformer has no parameter 'npus' (see vimana-et generate "
         "transformer --help)"},
        {"generate: {kind: transformer}\naxes:\n  generate.sp: [true, 1]\n",
         ":5: generate.sp: expected true or false, got '1'"},
        {"generate: {kind: transformer, recompute: yes}\naxes:\n  backend: [a]\n",
         ":3: generate.recompute: expected true or false, got 'yes'"},
        {"generate: {kind: all_reduce}\naxes:\n  backend: [a]\n",
         ":3: generate.kind: unknown generator 'all_reduce' (expected all-reduce, all-gather, reduce-scatter, "
         "all-to-all, three-nodes, send-recv or transformer)"},
        {"generate: {kind: all-reduce}\naxes:\n  generate.kind: [x]\n",
         ":5: generate.kind: unknown generator 'x' (expected all-reduce, all-gather, reduce-scatter, all-to-all, "
         "three-nodes, send-recv or transformer)"},
        {"generate: {npus: 8}\naxes:\n  backend: [a]\n",
         ":3: generate: missing key 'kind' (all-reduce, all-gather, reduce-scatter, all-to-all, three-nodes, "
         "send-recv or transformer)"},
        {"generate: {kind: all-reduce, npus: 8, npus: 4}\naxes:\n  backend: [a]\n", ":3: generate.npus: given twice"},
        {"generate: {kind: all-reduce, size: [1, 2]}\naxes:\n  backend: [a]\n",
         ":3: generate.size: expected a single value"},
        {"generate: [all-reduce]\naxes:\n  backend: [a]\n",
         ":3: generate: expected a mapping: kind and the generator's parameters"},
        {"generate: {kind: all-reduce}\nworkload: w\naxes:\n  backend: [a]\n",
         ":3: give either workload (a prefix) or generate (a generator), not both"},
        {"generate: {kind: all-reduce}\naxes:\n  workload: [w]\n",
         ":5: workload: the base run generates its workload (generate:); vary the generator's parameters "
         "(generate.KEY) instead"},
        {"workload: w\naxes:\n  generate.size: [1MiB]\n",
         ":5: generate.size: a generator parameter needs the base generate: mapping (kind and parameters)"},
        {"generate: {kind: all-reduce}\naxes:\n  generate.size: [[1MiB, 2MiB]]\n",
         ":5: generate.size: expected a single value"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s%s", base, cases[i].text);
        expect_load_error(text, cases[i].want);
    }
}

UNIT_TEST_MAIN(
    cmocka_unit_test(grid_is_read),
    cmocka_unit_test(grid_order_is_last_axis_fastest),
    cmocka_unit_test(explicit_points),
    cmocka_unit_test(errors_name_the_line),
    cmocka_unit_test(generator_is_read),
    cmocka_unit_test(generator_kind_axis),
    cmocka_unit_test(generator_errors_name_the_line)
)
