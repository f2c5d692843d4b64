/* The sweep file reader (sim/sweep_spec.h) and the order of the points
 * (sim/sweep_points.h): the grid is an odometer, last axis fastest; lists
 * and quoted scalars keep their form; explicit points leave the axes they
 * do not name at the base; paths are the sweep file's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/sweep_points.h"
#include "sim/sweep_spec.h"

/* Writes text to a fresh file in a fresh folder; returns its path. */
static char *spec_file(const char *text)
{
    static char dir[64];
    snprintf(dir, sizeof dir, "/tmp/test_sweep.XXXXXX");
    assert_non_null(mkdtemp(dir));
    char *path = malloc(strlen(dir) + 16);
    sprintf(path, "%s/s.yaml", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void remove_spec(char *path)
{
    unlink(path);
    *strrchr(path, '/') = '\0';
    rmdir(path);
    free(path);
}

static const char grid[] = "workload: w\nsystem: s.json\nnetwork: n.yml\n"
                           "axes:\n  backend: [a, b]\n  network.bandwidth: [[1, 2], [3, 4], [5, 6]]\n"
                           "  system.x: [\"4\", 5]\n";

static void grid_is_read(void **state)
{
    (void)state;
    char *path = spec_file(grid);
    sweep_spec s;
    char err[512] = "";
    assert_int_equal(sweep_spec_load(path, &s, err, sizeof err), 0);
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
    /* A quoted value stays a string (sim/sweep_config.c reads the flag). */
    assert_int_equal(s.axes[2].n_values, 2);
    assert_true(s.axes[2].values[0].quoted[0]);
    assert_false(s.axes[2].values[1].quoted[0]);
    assert_string_equal(s.backend, "analytical");
    char *net = sweep_spec_path(&s, s.network);
    assert_int_equal(strncmp(net, path, strlen(path) - strlen("s.yaml")), 0);
    assert_string_equal(net + strlen(path) - strlen("s.yaml"), "n.yml");
    free(net);
    sweep_spec_free(&s);
    remove_spec(path);
}

static void grid_order_is_last_axis_fastest(void **state)
{
    (void)state;
    char *path = spec_file(grid);
    sweep_spec s;
    char err[512];
    assert_int_equal(sweep_spec_load(path, &s, err, sizeof err), 0);
    size_t *rows, n;
    assert_int_equal(sweep_points_expand(&s, &rows, &n, err, sizeof err), 0);
    assert_int_equal(n, 12);
    for (size_t p = 0; p < n; p++) {
        assert_int_equal(rows[p * 3 + 0], p / 6);
        assert_int_equal(rows[p * 3 + 1], p / 2 % 3);
        assert_int_equal(rows[p * 3 + 2], p % 2);
    }
    free(rows);
    sweep_spec_free(&s);
    remove_spec(path);
}

static void explicit_points(void **state)
{
    (void)state;
    char *path = spec_file("workload: w\nsystem: s.json\npoints:\n"
                           "  - {network: a.yml, backend: x}\n  - {network: b.yml}\n  - {network: a.yml, "
                           "system.k: [1]}\n");
    sweep_spec s;
    char err[512];
    assert_int_equal(sweep_spec_load(path, &s, err, sizeof err), 0);
    size_t *rows, n;
    assert_int_equal(sweep_points_expand(&s, &rows, &n, err, sizeof err), 0);
    assert_int_equal(n, 3);
    assert_int_equal(s.n_axes, 3);  /* network, backend, system.k: in order of appearance */
    assert_string_equal(s.axes[2].name, "system.k");
    assert_int_equal(s.axes[0].n_values, 2);  /* a.yml once */
    size_t want[] = {0, 0, SWEEP_BASE, 1, SWEEP_BASE, SWEEP_BASE, 0, SWEEP_BASE, 0};
    for (size_t i = 0; i < 9; i++)
        assert_int_equal(rows[i], want[i]);
    free(rows);
    sweep_spec_free(&s);
    remove_spec(path);
}

static void errors_name_the_line(void **state)
{
    (void)state;
    static const struct { const char *text, *want; } cases[] = {
        {"workload: w\nsystem: s\nnetwork: n\naxes:\n  bogus: [1]\n",
         ":5: unknown axis 'bogus' (expected system.KEY, network.KEY, system, network, backend, workload or jobs-file)"},
        {"workload: w\nsystem: s\nnetwork: n\naxes:\n  system.x: [[[1]]]\n",
         ":5: system.x: a value is a scalar or a list of scalars"},
        {"workload: w\nsystem: s\nsystem: t\naxes:\n  backend: [a]\n", ":3: key 'system' given twice"},
        {"workload: w\nsystem: s\nnetwork: n\npoints:\n  - {backend: a}\n  - 3\n",
         ":6: points: each point is a mapping of axis names to values"},
        {"workload: w\nsystem: s\npoints:\n  - {network: a}\n  - {backend: b}\n",
         ":1: missing key 'network' (the base run; or an axis 'network' that every point sets)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *path = spec_file(cases[i].text);
        sweep_spec s;
        char err[512], want[1024];
        assert_int_equal(sweep_spec_load(path, &s, err, sizeof err), -1);
        snprintf(want, sizeof want, "%s%s", path, cases[i].want);
        assert_string_equal(err, want);
        sweep_spec_free(&s);
        remove_spec(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grid_is_read),
        cmocka_unit_test(grid_order_is_last_axis_fastest),
        cmocka_unit_test(explicit_points),
        cmocka_unit_test(errors_name_the_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
