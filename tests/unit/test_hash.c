/* util/hash: FNV-1a and splitmix64 against their published test vectors
 * (Fowler, Noll, Vo; Vigna's splitmix64.c seeded with 0 and 1234567).
 * Every caller's output (cache folder names, ECMP routes, jitter, random
 * placements and ECN marks) is a function of these values. Also the
 * backward-shift deletion test of linear-probing tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include "unit_main.h"

#include "util/hash.h"

static void fnv1a_vectors(void **state)
{
    (void)state;
    /* "" is the offset basis. */
    assert_true(hash_fnv1a(HASH_FNV1A_SEED, "", 0) == 0xcbf29ce484222325ull);
    assert_true(hash_fnv1a(HASH_FNV1A_SEED, "a", 1) == 0xaf63dc4c8601ec8cull);
    assert_true(hash_fnv1a(HASH_FNV1A_SEED, "foobar", 6) == 0x85944171f73967e8ull);
    /* continuing a hash equals hashing the whole */
    uint64_t h = hash_fnv1a(HASH_FNV1A_SEED, "foo", 3);
    assert_true(hash_fnv1a(h, "bar", 3) == 0x85944171f73967e8ull);
    /* a string hashes as its bytes do, the NUL excluded */
    assert_true(hash_fnv1a_str(HASH_FNV1A_SEED, "") == 0xcbf29ce484222325ull);
    assert_true(hash_fnv1a_str(HASH_FNV1A_SEED, "foobar") == 0x85944171f73967e8ull);
    assert_true(hash_fnv1a_str(h, "bar") == 0x85944171f73967e8ull);
}

static void splitmix64_vectors(void **state)
{
    (void)state;
    uint64_t s = 0;
    assert_true(hash_splitmix64(&s) == 0xe220a8397b1dcdafull);
    assert_true(hash_splitmix64(&s) == 0x6e789e6aa1b965f4ull);
    assert_true(hash_splitmix64(&s) == 0x06c45d188009454full);
    assert_true(s == 3 * 0x9e3779b97f4a7c15ull);
    s = 1234567;
    assert_true(hash_splitmix64(&s) == 0x599ed017fb08fc85ull);
    assert_true(hash_splitmix64(&s) == 0x2c73f08458540fa5ull);
    /* The finaliser alone is the generator's output for the state after
     * the increment. */
    assert_true(hash_mix64(0x9e3779b97f4a7c15ull) == 0xe220a8397b1dcdafull);
    assert_true(hash_mix64(0) == 0);
}

/* The entry at slot j stays only when its home lies cyclically in
 * (hole, j]: with and without the probe run wrapping past the last slot. */
static void home_between_cases(void **state)
{
    (void)state;
    /* no wrap: hole 3, entry at 6 */
    assert_false(hash_home_between(2, 3, 6)); /* home before the hole: moves */
    assert_false(hash_home_between(3, 3, 6)); /* home is the hole: moves */
    assert_true(hash_home_between(4, 3, 6));
    assert_true(hash_home_between(6, 3, 6));  /* at home: stays */
    assert_false(hash_home_between(7, 3, 6)); /* home after j: it wrapped, moves */
    /* the run wraps: hole 6, entry at 1 of an 8-slot table */
    assert_true(hash_home_between(7, 6, 1));
    assert_true(hash_home_between(0, 6, 1));
    assert_true(hash_home_between(1, 6, 1));
    assert_false(hash_home_between(2, 6, 1));
    assert_false(hash_home_between(5, 6, 1));
    assert_false(hash_home_between(6, 6, 1));
}

UNIT_TEST_MAIN(
    cmocka_unit_test(fnv1a_vectors),
    cmocka_unit_test(splitmix64_vectors),
    cmocka_unit_test(home_between_cases)
)
