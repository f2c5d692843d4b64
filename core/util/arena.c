#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>

struct arena_chunk {
    arena_chunk *next;
    size_t size;
    _Alignas(16) unsigned char data[];
};

#define ARENA_ALIGN 16u

void arena_init(arena *a, size_t chunk_size)
{
    a->head = NULL;
    a->used = 0;
    a->chunk_size = chunk_size ? chunk_size : 64 * 1024;
}

static arena_chunk *chunk_new(size_t size, arena_chunk *next)
{
    arena_chunk *c = malloc(sizeof *c + size);
    if (c) {
        c->next = next;
        c->size = size;
    }
    return c;
}

void *arena_alloc(arena *a, size_t size)
{
    size_t rounded = (size + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (rounded < size)
        return NULL;
    if (!a->head || a->head->size - a->used < rounded) {
        size_t want = rounded > a->chunk_size ? rounded : a->chunk_size;
        arena_chunk *c = chunk_new(want, a->head);
        if (!c)
            return NULL;
        a->head = c;
        a->used = 0;
    }
    void *p = a->head->data + a->used;
    a->used += rounded;
    return p;
}

void arena_reset(arena *a)
{
    /* Keep the largest chunk and grow the default size to the total used,
     * so a record that needed several chunks fits in one next time. */
    arena_chunk *keep = NULL;
    size_t total = 0;
    for (arena_chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        total += c->size;
        if (!keep || c->size > keep->size) {
            if (keep)
                free(keep);
            keep = c;
        } else {
            free(c);
        }
    }
    if (keep && keep->size < total) {
        free(keep);
        keep = chunk_new(total, NULL);
    }
    if (keep)
        keep->next = NULL;
    a->head = keep;
    a->used = 0;
}

void arena_free(arena *a)
{
    for (arena_chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    a->head = NULL;
    a->used = 0;
}
