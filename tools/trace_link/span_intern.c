#include "trace_link/span_intern.h"

#include <stdlib.h>
#include <string.h>

#include "util/hash.h"

static int allocate(span_intern *t, size_t cap)
{
    t->slots = malloc(cap * sizeof *t->slots);
    if (!t->slots)
        return -1;
    for (size_t i = 0; i < cap; i++)
        t->slots[i].index = UINT32_MAX;
    t->cap = cap;
    return 0;
}

int span_intern_init(span_intern *t, const char *buf)
{
    t->buf = buf;
    t->count = 0;
    return allocate(t, 64);
}

void span_intern_free(span_intern *t)
{
    free(t->slots);
    t->slots = NULL;
    t->cap = t->count = 0;
}

static span_intern_slot *find(span_intern *t, uint64_t hash, const char *p, size_t len)
{
    size_t mask = t->cap - 1, i = (size_t)hash & mask;
    for (;; i = (i + 1) & mask) {
        span_intern_slot *s = &t->slots[i];
        if (s->index == UINT32_MAX)
            return s;
        if (s->hash == hash && s->len == len && memcmp(t->buf + s->off, p, len) == 0)
            return s;
    }
}

static int grow(span_intern *t)
{
    span_intern_slot *old = t->slots;
    size_t old_cap = t->cap;
    if (allocate(t, old_cap * 2) != 0) {
        t->slots = old;
        t->cap = old_cap;
        return -1;
    }
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].index != UINT32_MAX)
            *find(t, old[i].hash, t->buf + old[i].off, old[i].len) = old[i];
    free(old);
    return 0;
}

int64_t span_intern_get(span_intern *t, size_t off, size_t len)
{
    const char *p = t->buf + off;
    uint64_t hash = hash_fnv1a(HASH_FNV1A_SEED, p, len);
    span_intern_slot *s = find(t, hash, p, len);
    if (s->index != UINT32_MAX)
        return s->index;
    if (len > UINT32_MAX || t->count >= UINT32_MAX - 1)
        return -1;
    if ((t->count + 1) * 2 > t->cap) {
        if (grow(t) != 0)
            return -1;
        s = find(t, hash, p, len);
    }
    s->hash = hash;
    s->off = off;
    s->len = (uint32_t)len;
    s->index = (uint32_t)t->count++;
    return s->index;
}
