/*
 * util/hash.h - the project's two non-cryptographic hashes, written once:
 * FNV-1a over bytes (stable names, file digests, string-keyed tables) and
 * splitmix64 (its finaliser for integer-keyed tables and ECMP, its
 * generator for seeded random streams). Beside them, the test of
 * backward-shift deletion that the linear-probing tables (message matching,
 * the backends' event queue) share.
 *
 * Both are fixed functions of their input on every platform: cache folder
 * names, ECMP routes, jitter and random placements computed from them are
 * the same everywhere, so they may never change.
 */
#ifndef VIMANA_UTIL_HASH_H
#define VIMANA_UTIL_HASH_H

#include "util/exported_names.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* FNV-1a's 64-bit offset basis: where a hash starts. */
#define HASH_FNV1A_SEED 0xcbf29ce484222325ull

/* FNV-1a over `len` more bytes, continuing from `hash` (start from
 * HASH_FNV1A_SEED), so that a stream read in blocks hashes as one. */
uint64_t hash_fnv1a(uint64_t hash, const void *bytes, size_t len);

/* The same over the bytes of a NUL-terminated string. */
uint64_t hash_fnv1a_str(uint64_t hash, const char *s);

/* splitmix64's finaliser (Stafford's mix 13): every input bit changes
 * every output bit, so dense or strided keys spread over a table. Inline:
 * it sits in the probe loops of hash tables. */
static inline uint64_t hash_mix64(uint64_t x)
{
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* The next number of the splitmix64 generator whose state is *state
 * (advanced by the golden-ratio increment). */
static inline uint64_t hash_splitmix64(uint64_t *state)
{
    return hash_mix64(*state += 0x9e3779b97f4a7c15ull);
}

/* Backward-shift deletion in a linear-probing table of mask + 1 slots: slot
 * `hole` is being emptied, and the entry at slot j further on in its probe
 * run has home slot `home`. True when that home lies cyclically in
 * (hole, j]: the entry must stay, for its lookup never passes the hole;
 * else it moves into the hole, so lookups need no tombstones. Inline: it
 * sits in the removal loops of hash tables. */
static inline bool hash_home_between(uint32_t home, uint32_t hole, uint32_t j)
{
    return hole < j ? (home > hole && home <= j) : (home > hole || home <= j);
}

#endif
