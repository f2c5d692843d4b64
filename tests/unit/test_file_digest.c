/* util/file_digest: the digest of a file in several blocks (FNV-1a's
 * vectors are in test_hash.c), and the byte comparison that confirms a
 * hash match. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include "temp_text.h"
#include "unit_main.h"

#include "util/file_digest.h"
#include "util/hash.h"

static void write_file(const char *path, const void *bytes, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* A file larger than one read block digests as its bytes do in memory. */
static void digest_of_a_file(void **state)
{
    (void)state;
    char *path = temp_text_write("vimana-digest", "file", "");
    size_t len = 100000;
    unsigned char *bytes = malloc(len);
    assert_non_null(bytes);
    for (size_t i = 0; i < len; i++)
        bytes[i] = (unsigned char)(i * 7 + i / 251);
    write_file(path, bytes, len);
    file_digest d;
    assert_int_equal(file_digest_of(path, &d), 0);
    assert_true(d.size == len);
    assert_true(d.hash == hash_fnv1a(HASH_FNV1A_SEED, bytes, len));
    /* Kept in memory when small enough, with the same digest. */
    unsigned char *kept;
    file_digest k;
    assert_int_equal(file_digest_keep(path, len, &k, &kept), 0);
    assert_non_null(kept);
    assert_true(k.hash == d.hash && k.size == d.size);
    assert_memory_equal(kept, bytes, len);
    free(kept);
    assert_int_equal(file_digest_keep(path, len - 1, &k, &kept), 0);
    assert_null(kept);
    assert_true(k.hash == d.hash && k.size == d.size);
    free(bytes);
    unlink(path);
    assert_int_equal(file_digest_of(path, &d), -1);
    assert_int_equal(file_digest_keep(path, 1000, &k, &kept), -1);
    assert_null(kept);
    assert_int_equal(file_digest_of("/dev/zero", &d), -1);  /* never read for ever */
    assert_int_equal(file_digest_of("/tmp", &d), -1);
    temp_text_remove(path);
}

static void same_bytes(void **state)
{
    (void)state;
    char *a = temp_text_write("vimana-digest", "a", ""), *b = temp_text_write("vimana-digest", "b", "");
    size_t len = 70000; /* more than two compare blocks */
    unsigned char *bytes = calloc(len, 1);
    assert_non_null(bytes);
    write_file(a, bytes, len);
    write_file(b, bytes, len);
    assert_true(file_same_bytes(a, b));
    bytes[len - 1] = 1; /* last byte differs */
    write_file(b, bytes, len);
    assert_false(file_same_bytes(a, b));
    bytes[len - 1] = 0;
    write_file(b, bytes, len - 1); /* a prefix of a */
    assert_false(file_same_bytes(a, b));
    assert_false(file_same_bytes(b, a));
    assert_false(file_same_bytes(a, "/nonexistent/vimana"));
    assert_false(file_same_bytes("/dev/zero", "/dev/zero"));
    free(bytes);
    temp_text_remove(a);
    temp_text_remove(b);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(digest_of_a_file),
    cmocka_unit_test(same_bytes)
)
