/* Every ET of the shared reference data, read with the streaming reader
 * and written again with the writer, must come out byte for byte the
 * same (gzip files compared decompressed); every file of the pre-0.0.4
 * schema must be refused with the "schema too old" message. The data is
 * ../shared when it is there, else its copy in tests/data. */
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
#include "vimana/et.h"

typedef void (*file_fn)(const char *path, void *ctx);

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Calls fn for every *.et / *.et.gz below dir, skipping `skip_dir`. */
static void walk(const char *dir, const char *skip_dir, file_fn fn, void *ctx)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (!skip_dir || strcmp(e->d_name, skip_dir) != 0)
                walk(path, skip_dir, fn, ctx);
        } else if (ends_with(path, ".et") || ends_with(path, ".et.gz")) {
            fn(path, ctx);
        }
    }
    closedir(d);
}

typedef struct tally {
    int files;
    unsigned long long nodes;
} tally;

static void rewrite_and_compare(const char *path, void *ctx)
{
    tally *t = ctx;
    vet_error err;
    vet_reader *r = vet_reader_open(path, &err);
    if (!r)
        fail_msg("%s", err.msg);
    char *out = tu_temp_path(".et");
    vet_writer *w = vet_writer_open(out, &err);
    assert_non_null(w);
    assert_int_equal(vet_writer_put_metadata(w, vet_reader_metadata(r), &err), 0);
    const vet_node *n;
    int rc;
    while ((rc = vet_reader_next(r, &n, &err)) == 1) {
        if (vet_writer_put_node(w, n, &err) != 0)
            fail_msg("%s", err.msg);
        t->nodes++;
    }
    if (rc < 0)
        fail_msg("%s", err.msg);
    vet_reader_close(r);
    assert_int_equal(vet_writer_close(w, &err), 0);
    size_t a_len, b_len;
    uint8_t *a = tu_read_file(path, &a_len), *b = tu_read_file(out, &b_len);
    assert_non_null(a);
    assert_non_null(b);
    if (a_len != b_len || memcmp(a, b, a_len) != 0)
        fail_msg("%s: rewritten file differs (%zu vs %zu bytes)", path, a_len, b_len);
    free(a);
    free(b);
    unlink(out);
    free(out);
    t->files++;
}

static void test_corpus_round_trip(void **state)
{
    (void)state;
    const char *shared = tu_ref();
    char dir[4096];
    tally t = {0};
    snprintf(dir, sizeof dir, "%s/corpus/et", shared);
    walk(dir, "chakra-old-standard_output", rewrite_and_compare, &t);
    /* the same in ../shared and tests/data (chakra.0.et gzip'd there) */
    assert_int_equal(t.files, 101);
    /* 3664 (chakra.0) + 280 (custom collectives) + 928 (MLP) + 16 + 8 + 8
     * (single-collective files) + 32 (generator) */
    assert_true(t.nodes == 4936);
    tally g = {0};
    snprintf(dir, sizeof dir, "%s/golden/inputs/workload", shared);
    walk(dir, NULL, rewrite_and_compare, &g);
    assert_true(g.files >= 332);
}

static void refused_as_old(const char *path, void *ctx)
{
    int *count = ctx;
    vet_error err;
    vet_reader *r = vet_reader_open(path, &err);
    if (r)
        fail_msg("%s: opened, but it is a pre-0.0.4 file", path);
    char want[600];
    snprintf(want, sizeof want,
             "%s: record 0 (byte offset 0): pre-0.0.4 Chakra file (schema too old): the first record "
             "is a Node, not a GlobalMetadata; regenerate it with Chakra 0.0.4 or later", path);
    assert_string_equal(err.msg, want);
    (*count)++;
}

static void test_old_schema_refused(void **state)
{
    (void)state;
    const char *shared = tu_ref();
    char dir[4096];
    int count = 0;
    snprintf(dir, sizeof dir, "%s/corpus/et/chakra-old-standard_output", shared);
    walk(dir, NULL, refused_as_old, &count);
    assert_int_equal(count, 19);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_corpus_round_trip),
    cmocka_unit_test(test_old_schema_refused)
)
