#include "util/slab.h"

#include <stdlib.h>

#include "util/grow.h"
#include "util/huge_pages.h"

void slab_init(slab *s, size_t obj_size, size_t per_block)
{
    /* Room for the free-list link, rounded to keep objects aligned. */
    if (obj_size < sizeof(void *))
        obj_size = sizeof(void *);
    obj_size = (obj_size + 15) & ~(size_t)15;
    s->obj_size = obj_size;
    s->per_block = per_block ? per_block : 256;
    s->blocks = NULL;
    s->n_blocks = s->cap_blocks = 0;
    s->used_in_last = s->per_block;
    s->free_list = NULL;
    s->live = 0;
}

void *slab_alloc(slab *s)
{
    void *obj;
    if (s->free_list) {
        obj = s->free_list;
        s->free_list = *(void **)obj;
    } else {
        if (s->used_in_last == s->per_block) {
            if (grow_array((void **)&s->blocks, &s->cap_blocks, s->n_blocks + 1, sizeof *s->blocks, 16) != 0)
                return NULL;
            /* Cache-line aligned, so that objects whose size is a multiple
             * of 64 start a line (system.h: a stream's hot lines). */
            size_t bytes = (s->obj_size * s->per_block + 63) & ~(size_t)63;
            void *block = aligned_alloc(64, bytes);
            if (!block)
                return NULL;
            huge_pages_advise(block, bytes);
            s->blocks[s->n_blocks++] = block;
            s->used_in_last = 0;
        }
        obj = (char *)s->blocks[s->n_blocks - 1] + s->obj_size * s->used_in_last++;
    }
    s->live++;
    return obj;
}

void slab_free(slab *s, void *obj)
{
    *(void **)obj = s->free_list;
    s->free_list = obj;
    s->live--;
}

void slab_destroy(slab *s)
{
    for (size_t i = 0; i < s->n_blocks; i++)
        free(s->blocks[i]);
    free(s->blocks);
    s->blocks = NULL;
    s->n_blocks = s->cap_blocks = 0;
    s->free_list = NULL;
}
