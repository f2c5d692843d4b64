/* FNV-1a (util/hash.h). */
#include "util/hash.h"

#define FNV_PRIME 0x100000001b3ull

uint64_t hash_fnv1a(uint64_t hash, const void *bytes, size_t len)
{
    const unsigned char *p = bytes;
    for (size_t i = 0; i < len; i++)
        hash = (hash ^ p[i]) * FNV_PRIME;
    return hash;
}

uint64_t hash_fnv1a_str(uint64_t hash, const char *s)
{
    for (const unsigned char *c = (const unsigned char *)s; *c; c++)
        hash = (hash ^ *c) * FNV_PRIME;
    return hash;
}
