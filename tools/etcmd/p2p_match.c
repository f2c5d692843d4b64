#include "etcmd/p2p_match.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/sorted.h"

int p2p_add(p2p_set *s, const p2p_entry *e, const char *name)
{
    size_t len = strlen(name) + 1;
    if (grow_array((void **)&s->items, &s->cap, s->n + 1, sizeof *s->items, 64) != 0 ||
        grow_array((void **)&s->names, &s->names_cap, s->names_len + len, 1, 64) != 0)
        return -1;
    p2p_entry *dst = &s->items[s->n];
    *dst = *e;
    dst->seq = s->n++;
    dst->name_off = s->names_len;
    memcpy(s->names + s->names_len, name, len);
    s->names_len += len;
    return 0;
}

static int cmp_entry(const void *a, const void *b)
{
    const p2p_entry *x = a, *y = b;
    uint64_t kx[] = {sorted_i64_key(x->src), sorted_i64_key(x->dst), sorted_i64_key(x->tag), x->size, x->seq};
    uint64_t ky[] = {sorted_i64_key(y->src), sorted_i64_key(y->dst), sorted_i64_key(y->tag), y->size, y->seq};
    return keys_order(kx, ky, 5);
}

static int same_key(const p2p_entry *a, const p2p_entry *b)
{
    return a->src == b->src && a->dst == b->dst && a->tag == b->tag && a->size == b->size;
}

/* One key's run [begin, end): the surplus of either side is unmatched. */
static size_t match_key(p2p_set *s, size_t begin, size_t *pairs, p2p_unmatched_fn unmatched, void *ctx)
{
    size_t end = begin, sends = 0, recvs = 0;
    for (; end < s->n && same_key(&s->items[end], &s->items[begin]); end++) {
        if (s->items[end].send)
            sends++;
        else
            recvs++;
    }
    *pairs += sends < recvs ? sends : recvs;
    size_t seen_sends = 0, seen_recvs = 0;
    for (size_t i = begin; i < end; i++) {
        const p2p_entry *e = &s->items[i];
        if ((e->send && ++seen_sends > recvs) || (!e->send && ++seen_recvs > sends))
            unmatched(ctx, e, s->names + e->name_off);
    }
    return end;
}

size_t p2p_match(p2p_set *s, p2p_unmatched_fn unmatched, void *ctx)
{
    size_t pairs = 0;
    if (s->n == 0)
        return 0;
    qsort(s->items, s->n, sizeof *s->items, cmp_entry);
    for (size_t i = 0; i < s->n;)
        i = match_key(s, i, &pairs, unmatched, ctx);
    return pairs;
}

void p2p_free(p2p_set *s)
{
    free(s->items);
    free(s->names);
    memset(s, 0, sizeof *s);
}
