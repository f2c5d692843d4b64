#include "etcmd/p2p_roles.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/sorted.h"

/* A message of a role's trace, by its offset d = destination - source. */
typedef struct role_msg {
    uint32_t role;
    bool send;
    int64_t d;
    size_t item;     /* in the p2p_set */
} role_msg;

/* A (sending role, offset, receiving role) some rank realises, with one
 * rank x that does and how many do. */
typedef struct triple {
    uint32_t from, to;
    int64_t d;
    uint32_t x;
    uint64_t ranks;
} triple;

typedef struct arrays {
    role_msg *msgs;
    size_t n_msgs, cap_msgs;
    size_t *last;    /* [n_msgs]: at a group's first message, its last triple + 1 */
    bool *reported;  /* [n_msgs]: its peer was found outside the ranks (said for its first rank only) */
    triple *tr;
    size_t n_tr, cap_tr;
} arrays;

static int cmp_msg(const void *a, const void *b)
{
    const role_msg *x = a, *y = b;
    uint64_t kx[] = {x->role, x->send, sorted_i64_key(x->d), x->item};
    uint64_t ky[] = {y->role, y->send, sorted_i64_key(y->d), y->item};
    return keys_order(kx, ky, 4);
}

static int cmp_triple(const void *a, const void *b)
{
    const triple *x = a, *y = b;
    uint64_t kx[] = {x->from, sorted_i64_key(x->d), x->to, x->x}, ky[] = {y->from, sorted_i64_key(y->d), y->to, y->x};
    return keys_order(kx, ky, 4);
}

static int64_t offset_of(const p2p_entry *e)
{
    return e->dst - e->src;
}

static int add_triple(arrays *a, uint32_t from, int64_t d, uint32_t to, uint32_t x, uint64_t ranks)
{
    if (grow_array((void **)&a->tr, &a->cap_tr, a->n_tr + 1, sizeof *a->tr, 64) != 0)
        return -1;
    a->tr[a->n_tr++] = (triple){.from = from, .to = to, .d = d, .x = x, .ranks = ranks};
    return 0;
}

/* The first index of role r's messages of one kind (msgs sorted). */
static size_t first_of(const arrays *a, uint32_t role, bool send)
{
    size_t lo = 0, hi = a->n_msgs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const role_msg *m = &a->msgs[mid];
        if (m->role < role || (m->role == role && m->send < send))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Every rank's realised triples, from the side of `send` messages: rank x
 * of role k with a message at offset d (a send to x + d, or a receive
 * from x - d). A peer outside the ranks is reported at once. */
static int realise(arrays *a, const p2p_set *items, const vet_roles *m, bool send, p2p_roles_fn unmatched,
                   void *ctx)
{
    for (uint32_t x = 0; x < m->n_ranks; x++) {
        uint32_t k = m->role_of[x];
        for (size_t i = first_of(a, k, send); i < a->n_msgs && a->msgs[i].role == k && a->msgs[i].send == send;) {
            int64_t d = a->msgs[i].d;
            size_t end = i;
            while (end < a->n_msgs && a->msgs[end].role == k && a->msgs[end].send == send && a->msgs[end].d == d)
                end++;
            int64_t peer = send ? (int64_t)x + d : (int64_t)x - d;
            if (peer < 0 || peer >= (int64_t)m->n_ranks) {
                for (size_t j = i; j < end && !a->reported[j]; j++) {
                    const p2p_entry *e = &items->items[a->msgs[j].item];
                    unmatched(ctx, e, items->names + e->name_off, x, peer);
                    a->reported[j] = true;
                }
            } else {
                uint32_t other = m->role_of[peer];
                /* consecutive ranks of a role mostly realise the same
                 * triple of a group: one record per change, merged after
                 * sorting */
                uint32_t from = send ? k : other, to = send ? other : k, sender = send ? x : (uint32_t)peer;
                triple *last = a->last[i] ? &a->tr[a->last[i] - 1] : NULL;
                if (last && last->from == from && last->to == to) {
                    last->ranks += send;
                } else {
                    if (add_triple(a, from, d, to, sender, send ? 1 : 0) != 0)
                        return -1;
                    a->last[i] = a->n_tr;
                }
            }
            i = end;
        }
    }
    return 0;
}

/* Merges the records of one triple: the lowest x, the ranks summed. */
static void merge_triples(arrays *a)
{
    if (a->n_tr == 0)
        return;
    qsort(a->tr, a->n_tr, sizeof *a->tr, cmp_triple);
    size_t out = 0;
    for (size_t i = 1; i < a->n_tr; i++) {
        triple *t = &a->tr[out];
        if (a->tr[i].from == t->from && a->tr[i].to == t->to && a->tr[i].d == t->d)
            t->ranks += a->tr[i].ranks;
        else
            a->tr[++out] = a->tr[i];
    }
    a->n_tr = out + 1;
}

typedef struct relay {
    p2p_roles_fn unmatched;
    void *ctx;
    const p2p_set *items;
    const triple *t;
} relay;

/* A leftover of one triple's match: back to the role's own item. */
static void on_unmatched(void *ctx, const p2p_entry *e, const char *name)
{
    const relay *r = ctx;
    const p2p_entry *orig = &r->items->items[e->seq];
    int64_t d = r->t->d;
    uint32_t x = e->send ? r->t->x : (uint32_t)((int64_t)r->t->x + d);
    r->unmatched(r->ctx, orig, name, x, e->send ? (int64_t)x + d : (int64_t)x - d);
}

/* One triple: the sending role's sends at offset d against the receiving
 * role's receives at d, relabelled to the ranks x and x + d. */
static int match_triple(const arrays *a, const p2p_set *items, const vet_roles *m, const triple *t,
                        p2p_roles_fn unmatched, void *ctx, size_t *pairs)
{
    p2p_set one = {0};
    int64_t x = t->x, y = x + t->d;
    for (int side = 0; side < 2; side++) {
        uint32_t role = side == 0 ? t->from : t->to;
        bool send = side == 0;
        int64_t shift = (send ? x : y) - (int64_t)m->roles[role].rank;
        for (size_t i = first_of(a, role, send); i < a->n_msgs && a->msgs[i].role == role && a->msgs[i].send == send;
             i++) {
            if (a->msgs[i].d != t->d)
                continue;
            const p2p_entry *e = &items->items[a->msgs[i].item];
            p2p_entry c = *e;
            c.src += shift;
            c.dst += shift;
            c.seq = a->msgs[i].item;   /* p2p_add keeps its own order; the origin travels in rank */
            c.rank = (uint32_t)a->msgs[i].item;
            if (p2p_add(&one, &c, items->names + e->name_off) != 0) {
                p2p_free(&one);
                return -1;
            }
        }
    }
    /* p2p_add numbered the copies in the order added: back to the items */
    for (size_t i = 0; i < one.n; i++)
        one.items[i].seq = one.items[i].rank;
    relay r = {.unmatched = unmatched, .ctx = ctx, .items = items, .t = t};
    size_t matched = p2p_match(&one, on_unmatched, &r);
    *pairs += matched * t->ranks;
    p2p_free(&one);
    return 0;
}

size_t p2p_roles_match(const p2p_set *items, const vet_roles *m, p2p_roles_fn unmatched, void *ctx)
{
    arrays a = {0};
    size_t pairs = 0;
    int rc = grow_array((void **)&a.msgs, &a.cap_msgs, items->n ? items->n : 1, sizeof *a.msgs, 64);
    for (size_t i = 0; rc == 0 && i < items->n; i++)
        a.msgs[a.n_msgs++] = (role_msg){.role = items->items[i].rank, .send = items->items[i].send != 0,
                                        .d = offset_of(&items->items[i]), .item = i};
    if (rc == 0 && a.n_msgs)
        qsort(a.msgs, a.n_msgs, sizeof *a.msgs, cmp_msg);
    if (rc == 0 && (!(a.last = calloc(a.n_msgs ? a.n_msgs : 1, sizeof *a.last)) ||
                    !(a.reported = calloc(a.n_msgs ? a.n_msgs : 1, sizeof *a.reported))))
        rc = -1;
    if (rc == 0)
        rc = realise(&a, items, m, true, unmatched, ctx);
    if (rc == 0)
        rc = realise(&a, items, m, false, unmatched, ctx);
    if (rc == 0)
        merge_triples(&a);
    for (size_t t = 0; rc == 0 && t < a.n_tr; t++)
        rc = match_triple(&a, items, m, &a.tr[t], unmatched, ctx, &pairs);
    free(a.msgs);
    free(a.last);
    free(a.reported);
    free(a.tr);
    return rc == 0 ? pairs : (size_t)-1;
}
