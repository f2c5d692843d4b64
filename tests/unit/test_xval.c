/* The writers of `vimana xval` on a fixed result (wall time and memory
 * fixed too, which real runs cannot give): the table, CSV, JSON and SVG
 * byte for byte, and the escaping of names and errors in each form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "expect_text.h"
#include "cmd/xval/xval_output.h"
#include "cmd/xval/xval_plot.h"

/* analytical (the baseline), congestion_aware outside a 5 % band, a
 * backend given by a path with markup characters that failed to load, and
 * a backend that never ran (no measurement). */
static xval_row rows[4];

static xval_table fixed_table(void)
{
    memset(rows, 0, sizeof rows);
    rows[0] = (xval_row){.backend = "analytical", .status = XVAL_OK, .npus = 8, .finish = 6520,
                         .finish_sum = 52160, .has_ratio = true, .ratio = 1.0, .measured = true,
                         .cpu_s = 0.2, .wall_s = 0.25, .peak_kib = 4096};
    rows[1] = (xval_row){.backend = "congestion_aware", .status = XVAL_OUTSIDE, .npus = 8, .finish = 23600,
                         .finish_sum = 188800, .has_ratio = true, .ratio = 23600.0 / 6520.0, .measured = true,
                         .cpu_s = 1.375, .wall_s = 1.5, .peak_kib = 10240};
    rows[2] = (xval_row){.backend = "./a<b>&\"c\",d.so", .status = XVAL_ERROR, .measured = true,
                         .cpu_s = 0.0625, .wall_s = 0.125, .peak_kib = 2048};
    snprintf(rows[2].error, sizeof rows[2].error, "%s", "./a<b>&\"c\",d.so: cannot load network backend: file not found (looked in: /opt/v)");
    rows[3] = (xval_row){.backend = "garnet_stub", .status = XVAL_ERROR};
    snprintf(rows[3].error, sizeof rows[3].error, "%s", "timed out after 2 s (killed)");
    return (xval_table){.rows = rows, .n = 4, .baseline = "analytical", .has_tolerance = true, .tolerance = 0.05};
}

/* fixed_table() cut to its first row, the baseline. */
static xval_table baseline_alone(void)
{
    xval_table t = fixed_table();
    t.n = 1;
    return t;
}

/* What writer(t) writes, as a NUL-terminated string (freed by the caller). */
static char *written(void (*writer)(FILE *, const xval_table *), const xval_table *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    writer(f, t);
    assert_int_equal(fclose(f), 0);
    return buf;
}

/* Checks what writer writes for fixed_table(). */
static void expect_written(void (*writer)(FILE *, const xval_table *), const char *want)
{
    xval_table t = fixed_table();
    expect_text(written(writer, &t), want);
}

static void test_table(void **state)
{
    (void)state;
    expect_written(xval_write_table,
                   "backend           status   npus  finish  finish_sum     ratio  cpu_s  wall_s  peak_mib\n"
                   "analytical        ok          8    6520       52160  1.000000  0.200   0.250       4.0\n"
                   "congestion_aware  outside     8   23600      188800  3.619632  1.375   1.500      10.0\n"
                   "./a<b>&\"c\",d.so   error       -       -           -         -  0.062   0.125       2.0  "
                   "./a<b>&\"c\",d.so: cannot load network backend: file not found (looked in: /opt/v)\n"
                   "garnet_stub       error       -       -           -         -      -       -         -  "
                   "timed out after 2 s (killed)\n");
}

static void test_csv(void **state)
{
    (void)state;
    expect_written(xval_write_csv,
                   "backend,status,npus,finish,finish_sum,ratio,cpu_seconds,wall_seconds,peak_memory_kib,error\n"
                   "analytical,ok,8,6520,52160,1.000000,0.200000,0.250000,4096,\n"
                   "congestion_aware,outside,8,23600,188800,3.619632,1.375000,1.500000,10240,\n"
                   "\"./a<b>&\"\"c\"\",d.so\",error,,,,,0.062500,0.125000,2048,"
                   "\"./a<b>&\"\"c\"\",d.so: cannot load network backend: file not found (looked in: /opt/v)\"\n"
                   "garnet_stub,error,,,,,,,,timed out after 2 s (killed)\n");
}

/* Checks that what writer writes for t holds part. */
static void expect_written_holds(void (*writer)(FILE *, const xval_table *), const xval_table *t, const char *part)
{
    char *got = written(writer, t);
    assert_non_null(strstr(got, part));
    free(got);
}

/* The JSON without a divergence report (one backend, or the writers alone). */
static void write_json(FILE *f, const xval_table *t)
{
    xval_write_json(f, t, NULL);
}

static void test_json(void **state)
{
    (void)state;
    expect_written(write_json,
                   "{\n\"generator\": \"vimana " PACKAGE_VERSION "\",\n\"baseline\": \"analytical\",\n"
                   "\"tolerance\": 0.05,\n\"backends\": [\n"
                   "{\"backend\": \"analytical\", \"status\": \"ok\", \"npus\": 8, \"finish\": 6520, "
                   "\"finish_sum\": 52160, \"ratio\": 1.000000, \"cpu_seconds\": 0.200000, \"wall_seconds\": 0.250000, "
                   "\"peak_memory_kib\": 4096, \"error\": null},\n"
                   "{\"backend\": \"congestion_aware\", \"status\": \"outside\", \"npus\": 8, \"finish\": 23600, "
                   "\"finish_sum\": 188800, \"ratio\": 3.619632, \"cpu_seconds\": 1.375000, \"wall_seconds\": 1.500000, "
                   "\"peak_memory_kib\": 10240, \"error\": null},\n"
                   "{\"backend\": \"./a<b>&\\\"c\\\",d.so\", \"status\": \"error\", \"npus\": null, \"finish\": null, "
                   "\"finish_sum\": null, \"ratio\": null, \"cpu_seconds\": 0.062500, \"wall_seconds\": 0.125000, "
                   "\"peak_memory_kib\": 2048, "
                   "\"error\": \"./a<b>&\\\"c\\\",d.so: cannot load network backend: file not found (looked in: "
                   "/opt/v)\"},\n"
                   "{\"backend\": \"garnet_stub\", \"status\": \"error\", \"npus\": null, \"finish\": null, "
                   "\"finish_sum\": null, \"ratio\": null, \"cpu_seconds\": null, \"wall_seconds\": null, "
                   "\"peak_memory_kib\": null, "
                   "\"error\": \"timed out after 2 s (killed)\"}\n"
                   "]\n}\n");
}

/* The longest finish (23600) is the full 360 pixels; analytical's 6520 is
 * 360 * 6520 / 23600 = 99.46 -> 99, and the dashed line marks it. Names
 * and errors are XML-escaped, long ones cut with an ellipsis. */
static void test_plot(void **state)
{
    (void)state;
    expect_written(xval_plot_write,
                   "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                   "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"192\" viewBox=\"0 0 760 192\" "
                   "font-family=\"sans-serif\" font-size=\"12\">\n"
                   "<rect width=\"760\" height=\"192\" fill=\"#ffffff\"/>\n"
                   "<text x=\"16\" y=\"28\" font-size=\"16\" font-weight=\"bold\">Finish time per network backend"
                   "</text>\n"
                   "<text x=\"16\" y=\"48\">ticks (1 tick = 1 ns) of the last NPU to finish; ratios to analytical, "
                   "tolerance 0.05</text>\n"
                   "<g><title>analytical</title>\n"
                   "<text x=\"200\" y=\"77\" text-anchor=\"end\">analytical</text>\n"
                   "<rect x=\"208\" y=\"64\" width=\"99\" height=\"18\" fill=\"#7f7f7f\"/>\n"
                   "<text x=\"313\" y=\"77\">6520 (1.000000)</text></g>\n"
                   "<g><title>congestion_aware</title>\n"
                   "<text x=\"200\" y=\"105\" text-anchor=\"end\">congestion_aware</text>\n"
                   "<rect x=\"208\" y=\"92\" width=\"360\" height=\"18\" fill=\"#d7191c\"/>\n"
                   "<text x=\"574\" y=\"105\">23600 (3.619632)</text></g>\n"
                   "<g><title>./a&lt;b&gt;&amp;&quot;c&quot;,d.so</title>\n"
                   "<text x=\"200\" y=\"133\" text-anchor=\"end\">./a&lt;b&gt;&amp;&quot;c&quot;,d.so</text>\n"
                   "<text x=\"208\" y=\"133\" fill=\"#d7191c\">error: ./a&lt;b&gt;&amp;&quot;c&quot;,d.so: cannot "
                   "load network backend: file not found (lo\xe2\x80\xa6</text></g>\n"
                   "<g><title>garnet_stub</title>\n"
                   "<text x=\"200\" y=\"161\" text-anchor=\"end\">garnet_stub</text>\n"
                   "<text x=\"208\" y=\"161\" fill=\"#d7191c\">error: timed out after 2 s (killed)</text></g>\n"
                   "<line x1=\"307\" y1=\"58\" x2=\"307\" y2=\"170\" stroke=\"#000000\" "
                   "stroke-dasharray=\"4 3\"/>\n"
                   "</svg>\n");
}

/* Control bytes and bytes that are not UTF-8 cannot go into XML. */
static void test_plot_bad_bytes(void **state)
{
    (void)state;
    xval_table t = baseline_alone();
    snprintf(rows[0].backend, sizeof rows[0].backend, "%s", "ana\x01\xff");
    t.baseline = rows[0].backend;
    expect_written_holds(xval_plot_write, &t, "<title>ana?" "?</title>");
    expect_written_holds(xval_plot_write, &t, "ratios to ana?" "?, tolerance 0.05</text>");
}

/* Without a band the JSON's tolerance is null. */
static void test_json_without_tolerance(void **state)
{
    (void)state;
    xval_table t = baseline_alone();
    t.has_tolerance = false;
    expect_written_holds(write_json, &t, "\n\"tolerance\": null,\n");
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_table),      cmocka_unit_test(test_csv),  cmocka_unit_test(test_json),
    cmocka_unit_test(test_json_without_tolerance), cmocka_unit_test(test_plot),
    cmocka_unit_test(test_plot_bad_bytes)
)
