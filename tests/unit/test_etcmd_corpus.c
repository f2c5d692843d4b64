/* `vimana-et json` and `from-json` on all the shared reference ETs, run
 * in-process (hundreds of files; a process per file would make the test
 * slow under sanitizers): the JSON equals the corpus' decoded-JSON file
 * byte for byte where one exists, and ET -> JSON -> ET gives back the same
 * bytes for every corpus and golden ET. The data is ../shared when it is
 * there, else its copy in tests/data. */
#define _DEFAULT_SOURCE /* DT_DIR */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include "unit_main.h"

#include "et_test_util.h"
#include "vimana-et/commands.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int same_content(const char *a, const char *b)
{
    size_t la, lb;
    uint8_t *x = tu_read_file(a, &la), *y = tu_read_file(b, &lb);
    int same = x && y && la == lb && memcmp(x, y, la) == 0;
    free(x);
    free(y);
    return same;
}

static int run(int (*cmd)(int, char **), const char *name, const char *in, const char *out)
{
    char *argv[] = {(char *)name, (char *)in, "-o", (char *)out, NULL};
    return cmd(4, argv);
}

typedef struct check {
    const char *root;      /* the tree being walked */
    const char *expected;  /* where reference JSON lives, or NULL */
    char *json, *et;       /* scratch files */
    int files, compared;
} check;

static void check_file(check *c, const char *path)
{
    if (run(cmd_json, "json", path, c->json) != 0)
        fail_msg("vimana-et json %s failed", path);
    if (c->expected) {
        char want[4096];
        struct stat st;
        snprintf(want, sizeof want, "%s%s.json", c->expected, path + strlen(c->root));
        if (stat(want, &st) != 0)
            strcat(want, ".gz");
        if (!same_content(c->json, want))
            fail_msg("vimana-et json %s differs from %s", path, want);
        c->compared++;
    }
    if (run(cmd_from_json, "from-json", c->json, c->et) != 0)
        fail_msg("vimana-et from-json of %s failed", path);
    if (!same_content(c->et, path))
        fail_msg("ET -> JSON -> ET changed %s", path);
    c->files++;
}

static void walk(check *c, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        char path[4096];
        struct stat st;
        if (e->d_name[0] == '.' || strcmp(e->d_name, "chakra-old-standard_output") == 0)
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            walk(c, path);
        else if (ends_with(path, ".et"))
            check_file(c, path);
    }
    closedir(d);
}

static void run_tree(const char *sub, const char *expected_sub, int *files, int *compared)
{
    const char *shared = tu_ref();
    char root[4096], expected[4096];
    snprintf(root, sizeof root, "%s/%s", shared, sub);
    snprintf(expected, sizeof expected, "%s/%s", shared, expected_sub ? expected_sub : "");
    check c = {.root = root, .expected = expected_sub ? expected : NULL,
               .json = tu_temp_path(".json"), .et = tu_temp_path(".et")};
    walk(&c, root);
    unlink(c.json);
    unlink(c.et);
    free(c.json);
    free(c.et);
    *files = c.files;
    *compared = c.compared;
}

static void test_corpus(void **state)
{
    (void)state;
    int files, compared;
    run_tree("corpus/et", "corpus/expected/et", &files, &compared);
    /* tests/data: all but chakra.0.et (kept gzip'd) */
    assert_int_equal(files, tu_shared() ? 101 : 100);
    assert_int_equal(compared, files);
}

static void test_golden(void **state)
{
    (void)state;
    int files, compared;
    run_tree("golden/inputs/workload", NULL, &files, &compared);
    assert_true(files >= 332);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_corpus),
    cmocka_unit_test(test_golden)
)
