/* The --network-faults reader (host/network_faults.h): the fields of each
 * fault, the defaults, and every refused input's exact one-line message
 * naming the file and the line. */
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

#include "host/network_faults.h"

/* Writes text to a fresh file; returns its path (a static buffer). */
static const char *faults_file(const char *text)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/test_faults.XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

static void test_reads_faults(void **state)
{
    (void)state;
    const char *path = faults_file("# a spine link slows, then goes down\n"
                                   "- {link: [switch8, switch10], at: 5000, bandwidth-factor: 0.1}\n"
                                   "- link: [8, 10]\n"
                                   "  at: 20000\n"
                                   "  down: true\n"
                                   "- {link: [npu0, switch8], bandwidth-factor: 1e6}\n");
    net_faults f;
    char err[512] = "";
    assert_int_equal(net_faults_load(path, &f, err, sizeof err), 0);
    assert_int_equal(f.n, 3);
    assert_string_equal(f.items[0].end[0], "switch8");
    assert_string_equal(f.items[0].end[1], "switch10");
    assert_int_equal(f.items[0].at, 5000);
    assert_true(f.items[0].factor == 0.1);
    assert_int_equal(f.items[0].line, 2);
    assert_string_equal(f.items[1].end[0], "8");
    assert_int_equal(f.items[1].at, 20000);
    assert_true(f.items[1].factor == 0);
    assert_int_equal(f.items[1].line, 3);
    assert_int_equal(f.items[2].at, 0);   /* at defaults to 0 */
    assert_true(f.items[2].factor == 1e6);
    net_faults_free(&f);
    unlink(path);
}

/* `text` must be refused with "PATH:" + `want`. */
static void expect_refused(const char *text, const char *want)
{
    const char *path = faults_file(text);
    net_faults f;
    char err[512] = "", full[600];
    assert_int_equal(net_faults_load(path, &f, err, sizeof err), -1);
    snprintf(full, sizeof full, "%s:%s", path, want);
    assert_string_equal(err, full);
    net_faults_free(&f);
    unlink(path);
}

static void test_refuses(void **state)
{
    (void)state;
    /* no node at all (the fuzz target's first finding once its backend
     * loaded: a NULL root) */
    expect_refused("", " empty network faults file (expected a list of faults: - {link: [SRC, DST], at: TICK, "
                       "bandwidth-factor: F})");
    expect_refused("# nothing yet\n", " empty network faults file (expected a list of faults: - {link: [SRC, DST], "
                                      "at: TICK, bandwidth-factor: F})");
    expect_refused("link: [a, b]\n", "1: expected a list of faults (- {link: [SRC, DST], at: TICK, "
                                     "bandwidth-factor: F})");
    expect_refused("- [a, b]\n", "1: a fault is a mapping {link: [SRC, DST], at: TICK, bandwidth-factor: F | "
                                 "down: true}");
    expect_refused("- {at: 5, down: true}\n", "1: a fault needs link: [SRC, DST]");
    expect_refused("- {link: [a, b]}\n", "1: a fault needs bandwidth-factor: F or down: true");
    expect_refused("- {link: [a, b], down: true, bandwidth-factor: 2}\n",
                   "1: a fault has bandwidth-factor or down: true, not both");
    expect_refused("- {link: [a], down: true}\n", "1: link: expected [SRC, DST], two device ids or names");
    expect_refused("- {link: [a, a], down: true}\n", "1: link: both ends are 'a'");
    expect_refused("- {link: [a, b], bandwidth-factor: 0}\n",
                   "1: bandwidth-factor: expected a number in (0, 1000000], got '0'");
    expect_refused("- {link: [a, b], bandwidth-factor: nan}\n",
                   "1: bandwidth-factor: expected a number in (0, 1000000], got 'nan'");
    expect_refused("- {link: [a, b], bandwidth-factor: 2x}\n",
                   "1: bandwidth-factor: expected a number in (0, 1000000], got '2x'");
    expect_refused("- {link: [a, b], down: false}\n",
                   "1: down: expected true (a link comes back with bandwidth-factor: 1)");
    expect_refused("- {link: [a, b], down: true, at: -1}\n", "1: at: expected a tick below 2^63, got '-1'");
    expect_refused("- {link: [a, b], down: true, at: 9223372036854775808}\n",
                   "1: at: expected a tick below 2^63, got '9223372036854775808'");
    expect_refused("- {link: [a, b], down: true}\n- {link: [a, b], down: true, down: true}\n",
                   "2: down: given twice");
    expect_refused("- {link: [a, b], up: true}\n",
                   "1: unknown key 'up' (expected link, at, bandwidth-factor or down)");
    expect_refused("- {link: [a, b], down: true}\n---\n- {link: [a, b], down: true}\n",
                   "2: a second YAML document (a network faults file is one)");
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_reads_faults),
    cmocka_unit_test(test_refuses)
)
