/* The sweep plot on hand-made results: a legend as wide as its longest
 * entry, grouped bars (not one-point lines) against a categorical axis. */
#define _GNU_SOURCE

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/sweep/sweep_plot.h"
#include "cmd/sweep/sweep_points.h"
#include "cmd/sweep/sweep_spec.h"

/* A sweep file loaded and expanded, with a result per point. */
typedef struct loaded {
    char dir[64], path[80];
    sweep_spec spec;
    size_t *rows, n;
    sweep_result results[8];
} loaded;

static void load(loaded *l, const char *text, const uint64_t *finish)
{
    snprintf(l->dir, sizeof l->dir, "/tmp/test_sweep_plot.XXXXXX");
    assert_non_null(mkdtemp(l->dir));
    snprintf(l->path, sizeof l->path, "%s/s.yaml", l->dir);
    FILE *f = fopen(l->path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    char err[512] = "";
    assert_int_equal(sweep_spec_load(l->path, &l->spec, err, sizeof err), 0);
    assert_int_equal(sweep_points_expand(&l->spec, &l->rows, &l->n, err, sizeof err), 0);
    assert_true(l->n <= 8);
    for (size_t p = 0; p < l->n; p++)
        l->results[p] = (sweep_result){.status = SWEEP_OK, .npus = 8, .finish = finish[p]};
}

static char *plot(loaded *l, const char *what)
{
    sweep_plot_spec ps;
    char err[256];
    assert_int_equal(sweep_plot_parse(&l->spec, what, &ps, err, sizeof err), 0);
    sweep_table t = {&l->spec, l->rows, l->n, l->results};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    sweep_plot_write(f, &t, &ps);
    fclose(f);
    return buf;
}

static void unload(loaded *l)
{
    free(l->rows);
    sweep_spec_free(&l->spec);
    unlink(l->path);
    rmdir(l->dir);
}

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

/* The algorithms' names, the part that tells the lines apart, are whole
 * in the legend and inside the picture: at 7 px a character (the charts'
 * estimate for 12 px sans-serif) every legend entry ends left of the
 * width. Before, the width was a fixed 820 px and these entries ran to
 * about 943. */
static void legend_fits_its_longest_entry(void **state)
{
    (void)state;
    loaded l;
    static const uint64_t finish[] = {100, 90, 80, 70, 60, 50, 40, 30};
    load(&l, "workload: w\nsystem: s.json\nnetwork: n.yml\naxes:\n  network.bandwidth: [[25], [100]]\n"
             "  system.all-reduce-implementation: [[ring], [direct], [halvingDoubling], [doubleBinaryTree]]\n",
         finish);
    char *svg = plot(&l, "finish:network.bandwidth");
    assert_non_null(strstr(svg, ">system.all-reduce-implementation=[halvingDoubling]</text>"));
    assert_non_null(strstr(svg, ">system.all-reduce-implementation=[doubleBinaryTree]</text>"));
    int width = 0;
    assert_int_equal(sscanf(strstr(svg, "<svg "), "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\"", &width),
                     1);
    /* 560 (the legend) + 20 (swatch) + 6 + 51 characters x 7 + 16. */
    assert_int_equal(width, 959);
    size_t entries = 0;
    for (const char *p = strstr(svg, "<text x=\""); p; p = strstr(p + 1, "<text x=\"")) {
        int x, y;
        char text[128];
        if (sscanf(p, "<text x=\"%d\" y=\"%d\">%127[^<]", &x, &y, text) != 3 || !strchr(text, '='))
            continue;
        entries++;
        assert_true(x + 7 * (int)strlen(text) <= width);
    }
    assert_int_equal(entries, 4);
    assert_int_equal(count(svg, "<polyline"), 4);
    assert_int_equal(count(svg, "class=\"bar\""), 0);
    free(svg);
    unload(&l);
}

/* Algorithms are names, not quantities: each gets a slot with a bar per
 * bandwidth. The axis tops at 200000 (above 150000), so a bar of F ticks
 * is round(F / 200000 * 280) px high from y = 340; the slots are 220 px
 * (440 / 2) with 80 % of each (176 px) for two 88 px bars. */
static void categories_are_grouped_bars(void **state)
{
    (void)state;
    loaded l;
    static const uint64_t finish[] = {100000, 150000, 60000, 90000};
    load(&l, "workload: w\nsystem: s.json\nnetwork: n.yml\npoints:\n"
             "  - {system.all-reduce-implementation: [ring], network.bandwidth: [25]}\n"
             "  - {system.all-reduce-implementation: [halvingDoubling], network.bandwidth: [25]}\n"
             "  - {system.all-reduce-implementation: [ring], network.bandwidth: [100]}\n"
             "  - {system.all-reduce-implementation: [halvingDoubling], network.bandwidth: [100]}\n",
         finish);
    char *svg = plot(&l, "finish:system.all-reduce-implementation");
    assert_int_equal(count(svg, "<polyline"), 0);
    assert_int_equal(count(svg, "<circle"), 0);
    assert_int_equal(count(svg, "class=\"bar\""), 4);
    assert_non_null(strstr(svg,
        "<rect class=\"bar\" x=\"112\" y=\"200\" width=\"88\" height=\"140\" fill=\"#1f77b4\"/>\n"
        "<rect class=\"bar\" x=\"332\" y=\"130\" width=\"88\" height=\"210\" fill=\"#1f77b4\"/>\n"
        "<rect x=\"560\" y=\"59\" width=\"20\" height=\"10\" fill=\"#1f77b4\"/>\n"
        "<text x=\"586\" y=\"68\">network.bandwidth=[25]</text>\n"
        "<rect class=\"bar\" x=\"200\" y=\"256\" width=\"88\" height=\"84\" fill=\"#ff7f0e\"/>\n"
        "<rect class=\"bar\" x=\"420\" y=\"214\" width=\"88\" height=\"126\" fill=\"#ff7f0e\"/>\n"));
    /* The categories' names under the middles of their slots. */
    assert_non_null(strstr(svg, "<text x=\"200\" y=\"358\" text-anchor=\"middle\">[ring]</text>\n"
                                "<text x=\"420\" y=\"358\" text-anchor=\"middle\">[halvingDoubling]</text>\n"));
    free(svg);
    unload(&l);
}

/* A failed point leaves its bar out; a quoted number is a name too. */
static void quoted_numbers_are_categories(void **state)
{
    (void)state;
    loaded l;
    static const uint64_t finish[] = {100, 200};
    load(&l, "workload: w\nsystem: s.json\nnetwork: n.yml\naxes:\n  system.x: [\"1\", \"2\"]\n", finish);
    l.results[1].status = SWEEP_FAILED;
    char *svg = plot(&l, "finish:system.x");
    assert_int_equal(count(svg, "class=\"bar\""), 1);
    assert_int_equal(count(svg, "<polyline"), 0);
    free(svg);
    unload(&l);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(legend_fits_its_longest_entry),
    cmocka_unit_test(categories_are_grouped_bars),
    cmocka_unit_test(quoted_numbers_are_categories)
)
