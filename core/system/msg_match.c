/*
 * Matching tables. A key record (tag, src, dst, size) holds the send and
 * receive counters and the live entries of that key in sequence order; an
 * entry is one (key, k) pairing. Records are found through an open-addressing
 * hash; entries are reached by index (the backend's token), so an arrival
 * costs no lookup. Both live in index pools: no malloc per message.
 */
#include "system/msg_match.h"

#include <stdlib.h>
#include <string.h>

#define NIL UINT32_MAX
#define MIN_SWEEP 8192u

enum { HAS_SEND = 1, HAS_RECV = 2, ARRIVED = 4 };

typedef struct msg_key {
    uint32_t tag, src, dst;
    uint64_t size;
} msg_key;

typedef struct key_rec {
    msg_key key;
    uint64_t send_seq, recv_seq;
    uint32_t head, tail;    /* live entries, ascending seq; head doubles as free link */
    bool live;              /* in the hash (not on the free list) */
} key_rec;

typedef struct msg_entry {
    uint32_t rec;
    uint32_t next;          /* next live entry of the key, or free link */
    uint64_t seq;
    msg_cb send_cb, recv_cb;
    uint32_t gen;           /* bumped when the entry is freed: stale tokens no longer match */
    uint8_t flags;
} msg_entry;

typedef struct msg_table {
    key_rec *recs;
    uint32_t n_recs, cap_recs, free_recs;
    msg_entry *entries;
    uint32_t n_entries, cap_entries, free_entries;
    uint32_t *slots;        /* record index or NIL */
    uint32_t slot_mask, slot_used;
    msg_cb *deferred;       /* receive callbacks waiting for their zero-delay event */
    bool in_send;           /* inside the backend's sim_send: delivering now breaks the contract */
    uint32_t n_deferred, cap_deferred, free_deferred;
    /* Idle key records (both sides in step, nothing pending) stay in the
     * hash: a phase sends many messages on one key, and dropping the record
     * after each would make every message pay an insert and a delete. They
     * are swept out together when the table reaches sweep_at records. */
    uint32_t sweep_at;
} msg_table;

static uint64_t hash_key(const msg_key *k)
{
    uint64_t h = (uint64_t)k->tag * 0x9e3779b97f4a7c15ULL;
    h ^= ((uint64_t)k->src << 32 | k->dst) * 0xc2b2ae3d27d4eb4fULL;
    h ^= k->size * 0x165667b19e3779f9ULL;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return h;
}

static bool key_eq(const msg_key *a, const msg_key *b)
{
    return a->tag == b->tag && a->src == b->src && a->dst == b->dst && a->size == b->size;
}

int msg_table_init(sim *s)
{
    msg_table *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    t->free_recs = t->free_entries = t->free_deferred = NIL;
    t->sweep_at = MIN_SWEEP;
    t->slot_mask = 1023;
    t->slots = malloc(1024 * sizeof *t->slots);
    if (!t->slots) {
        free(t);
        return -1;
    }
    memset(t->slots, 0xff, 1024 * sizeof *t->slots);
    s->msgs = t;
    return 0;
}

void msg_table_fini(sim *s)
{
    msg_table *t = s->msgs;
    if (!t)
        return;
    free(t->recs);
    free(t->entries);
    free(t->slots);
    free(t->deferred);
    free(t);
    s->msgs = NULL;
}

/* Grows an index pool by one element; returns false when out of memory. */
static bool pool_grow(void **items, uint32_t *n, uint32_t *cap, size_t size)
{
    if (*n < *cap)
        return true;
    uint32_t c = *cap ? *cap * 2 : 1024;
    void *p = realloc(*items, (size_t)c * size);
    if (!p)
        return false;
    *items = p;
    *cap = c;
    return true;
}

/* ---- hash of key records ------------------------------------------------- */

static void slot_put(uint32_t *slots, uint32_t mask, const key_rec *recs, uint32_t rec)
{
    uint32_t i = (uint32_t)hash_key(&recs[rec].key) & mask;
    while (slots[i] != NIL)
        i = (i + 1) & mask;
    slots[i] = rec;
}

static bool rehash(msg_table *t)
{
    uint32_t cap = (t->slot_mask + 1) * 2;
    uint32_t *slots = malloc((size_t)cap * sizeof *slots);
    if (!slots)
        return false;
    memset(slots, 0xff, (size_t)cap * sizeof *slots);
    for (uint32_t i = 0; i <= t->slot_mask; i++)
        if (t->slots[i] != NIL)
            slot_put(slots, cap - 1, t->recs, t->slots[i]);
    free(t->slots);
    t->slots = slots;
    t->slot_mask = cap - 1;
    return true;
}

static uint32_t rec_lookup_or_add(sim *s, const msg_key *k);
static void sweep_idle(msg_table *t);

static uint32_t rec_find_or_add(sim *s, const msg_key *k, uint32_t *hint)
{
    msg_table *t = s->msgs;
    /* Callers that send many messages on one key remember its record. */
    if (hint && *hint < t->n_recs && t->recs[*hint].live && key_eq(&t->recs[*hint].key, k))
        return *hint;
    uint32_t r = rec_lookup_or_add(s, k);
    if (hint)
        *hint = r;
    return r;
}

static uint32_t rec_lookup_or_add(sim *s, const msg_key *k)
{
    msg_table *t = s->msgs;
    uint32_t i = (uint32_t)hash_key(k) & t->slot_mask;
    for (; t->slots[i] != NIL; i = (i + 1) & t->slot_mask)
        if (key_eq(&t->recs[t->slots[i]].key, k))
            return t->slots[i];
    if (t->slot_used + 1 >= t->sweep_at) {
        sweep_idle(t);
        i = (uint32_t)hash_key(k) & t->slot_mask;
        while (t->slots[i] != NIL)
            i = (i + 1) & t->slot_mask;
    }
    uint32_t r;
    if (t->free_recs != NIL) {
        r = t->free_recs;
        t->free_recs = t->recs[r].head;
    } else {
        if (!pool_grow((void **)&t->recs, &t->n_recs, &t->cap_recs, sizeof *t->recs))
            return NIL;
        r = t->n_recs++;
    }
    t->recs[r] = (key_rec){.key = *k, .head = NIL, .tail = NIL, .live = true};
    if ((t->slot_used + 1) * 2 > t->slot_mask + 1) {
        if (!rehash(t))
            return NIL;
        slot_put(t->slots, t->slot_mask, t->recs, r);
    } else {
        t->slots[i] = r;
    }
    t->slot_used++;
    return r;
}

static bool rec_idle(const key_rec *rec)
{
    return rec->head == NIL && rec->send_seq == rec->recv_seq;
}

/* Frees every idle record and rebuilds the hash from the rest, so memory
 * follows the messages in flight, not the history. The next sweep waits
 * until the table has doubled, which keeps the cost per message constant. */
static void sweep_idle(msg_table *t)
{
    uint32_t cap = t->slot_mask + 1;
    uint32_t *old = malloc((size_t)cap * sizeof *old);
    if (!old)
        return;
    memcpy(old, t->slots, (size_t)cap * sizeof *old);
    memset(t->slots, 0xff, (size_t)cap * sizeof *t->slots);
    t->slot_used = 0;
    for (uint32_t i = 0; i < cap; i++) {
        uint32_t r = old[i];
        if (r == NIL)
            continue;
        key_rec *rec = &t->recs[r];
        if (rec_idle(rec)) {
            rec->live = false;
            rec->head = t->free_recs;
            t->free_recs = r;
        } else {
            slot_put(t->slots, t->slot_mask, t->recs, r);
            t->slot_used++;
        }
    }
    free(old);
    t->sweep_at = 2 * t->slot_used > MIN_SWEEP ? 2 * t->slot_used : MIN_SWEEP;
}

/* ---- entries ------------------------------------------------------------- */

/* The entry of key record r with sequence number seq, created if absent. */
static uint32_t entry_for(sim *s, uint32_t r, uint64_t seq)
{
    msg_table *t = s->msgs;
    for (uint32_t e = t->recs[r].head; e != NIL; e = t->entries[e].next)
        if (t->entries[e].seq == seq)
            return e;
    uint32_t e;
    if (t->free_entries != NIL) {
        e = t->free_entries;
        t->free_entries = t->entries[e].next;
    } else {
        if (!pool_grow((void **)&t->entries, &t->n_entries, &t->cap_entries, sizeof *t->entries))
            return NIL;
        e = t->n_entries++;
        t->entries[e].gen = 0;
    }
    t->entries[e] = (msg_entry){.rec = r, .next = NIL, .seq = seq, .gen = t->entries[e].gen};
    key_rec *rec = &t->recs[r];
    /* Entries are created in ascending sequence order, so appending keeps
     * the list sorted. */
    if (rec->tail == NIL)
        rec->head = e;
    else
        t->entries[rec->tail].next = e;
    rec->tail = e;
    return e;
}

static void entry_remove(msg_table *t, uint32_t e)
{
    key_rec *rec = &t->recs[t->entries[e].rec];
    uint32_t prev = NIL;
    for (uint32_t cur = rec->head; cur != e; cur = t->entries[cur].next)
        prev = cur;
    uint32_t next = t->entries[e].next;
    if (prev == NIL)
        rec->head = next;
    else
        t->entries[prev].next = next;
    if (rec->tail == e)
        rec->tail = prev;
    t->entries[e].flags = 0;
    t->entries[e].gen++;
    t->entries[e].next = t->free_entries;
    t->free_entries = e;
}

static void run_cb(sim *s, msg_cb cb)
{
    if (cb.fn)
        cb.fn(s, cb.obj, cb.data);
}

void msg_send(sim *s, uint32_t src, uint32_t dst, uint64_t size, uint32_t tag, msg_cb on_arrival, uint32_t *hint)
{
    msg_table *t = s->msgs;
    msg_key k = {.tag = tag, .src = src, .dst = dst, .size = size};
    uint32_t r = rec_find_or_add(s, &k, hint);
    uint32_t e = r == NIL ? NIL : entry_for(s, r, t->recs[r].send_seq);
    if (e == NIL) {
        sim_fail(s, "out of memory (message table)");
        return;
    }
    t->recs[r].send_seq++;
    if (++s->messages == s->hooks.messages_at)
        s->hooks.messages_reached(s->hooks.messages_ctx);
    t->entries[e].send_cb = on_arrival;
    t->entries[e].flags |= HAS_SEND;
    /* The token names the entry and its generation, so a token delivered
     * twice or made up by the backend is caught without a lookup. */
    uint64_t token = (uint64_t)t->entries[e].gen << 32 | e;
    t->in_send = true;
    int rc = s->be->sim_send(s->be_ctx, src, dst, size, tag, token);
    t->in_send = false;
    if (rc != VIMANA_OK)
        sim_fail_backend(s, "network backend %s refused the message %u -> %u (%llu bytes, tag %u): status %d",
                 s->be->name, src, dst, (unsigned long long)size, tag, rc);
}

/* Says which rule a failed delivery broke, in one line naming the backend.
 * Out of line: it runs at most once per run. */
static __attribute__((cold, noinline)) void report_bad_delivery(sim *s, uint64_t token)
{
    const msg_table *t = s->msgs;
    uint32_t e = (uint32_t)token, gen = (uint32_t)(token >> 32);
    const char *what;
    if (t->in_send)
        what = "called host->delivered from inside sim_send (deliver from a scheduled event instead)";
    else if (e >= t->n_entries || gen > t->entries[e].gen ||
             (gen == t->entries[e].gen && !(t->entries[e].flags & HAS_SEND)))
        what = "delivered an unknown message";
    else
        what = "delivered a message twice";
    sim_fail(s, "network backend %s broke the network API contract: %s (token %llu)", s->be->name, what,
             (unsigned long long)token);
}

/* The backend's half of the contract on a delivery: outside sim_send, a
 * token of a live entry (same generation) that was sent and has not
 * arrived yet. */
static inline bool delivery_valid(sim *s, uint64_t token)
{
    const msg_table *t = s->msgs;
    uint32_t e = (uint32_t)token, gen = (uint32_t)(token >> 32);
    if (!t->in_send && e < t->n_entries && gen == t->entries[e].gen &&
        (t->entries[e].flags & (HAS_SEND | ARRIVED)) == HAS_SEND)
        return true;
    report_bad_delivery(s, token);
    return false;
}

void msg_delivered(sim *s, uint64_t token)
{
    msg_table *t = s->msgs;
    if (!delivery_valid(s, token))
        return;
    sim_enter(s);
    uint32_t e = (uint32_t)token;
    msg_cb send_cb = t->entries[e].send_cb;
    if (t->entries[e].flags & HAS_RECV) {
        msg_cb recv_cb = t->entries[e].recv_cb;
        entry_remove(t, e);
        run_cb(s, send_cb);
        run_cb(s, recv_cb);
        return;
    }
    t->entries[e].flags |= ARRIVED;
    run_cb(s, send_cb);
}

static void run_deferred(void *arg, uint64_t index)
{
    sim *s = arg;
    msg_table *t = s->msgs;
    sim_enter(s);
    msg_cb cb = t->deferred[index];
    t->deferred[index].data = t->free_deferred;
    t->free_deferred = (uint32_t)index;
    run_cb(s, cb);
}

void msg_recv(sim *s, uint32_t src, uint32_t dst, uint64_t size, uint32_t tag, msg_cb on_receive, uint32_t *hint)
{
    msg_table *t = s->msgs;
    msg_key k = {.tag = tag, .src = src, .dst = dst, .size = size};
    uint32_t r = rec_find_or_add(s, &k, hint);
    uint32_t e = r == NIL ? NIL : entry_for(s, r, t->recs[r].recv_seq);
    if (e == NIL) {
        sim_fail(s, "out of memory (message table)");
        return;
    }
    t->recs[r].recv_seq++;
    if (t->entries[e].flags & ARRIVED) {
        entry_remove(t, e);
        uint32_t d;
        if (t->free_deferred != NIL) {
            d = t->free_deferred;
            t->free_deferred = (uint32_t)t->deferred[d].data;
        } else {
            if (!pool_grow((void **)&t->deferred, &t->n_deferred, &t->cap_deferred, sizeof *t->deferred)) {
                sim_fail(s, "out of memory (message table)");
                return;
            }
            d = t->n_deferred++;
        }
        t->deferred[d] = on_receive;
        sim_schedule(s, 0, run_deferred, s, d);
        return;
    }
    t->entries[e].recv_cb = on_receive;
    t->entries[e].flags |= HAS_RECV;
}

uint64_t msg_outstanding(sim *s, msg_visit_fn visit, void *ctx)
{
    msg_table *t = s->msgs;
    uint64_t count = 0;
    for (uint32_t i = 0; i <= t->slot_mask; i++) {
        if (t->slots[i] == NIL)
            continue;
        const key_rec *rec = &t->recs[t->slots[i]];
        for (uint32_t e = rec->head; e != NIL; e = t->entries[e].next) {
            const msg_entry *m = &t->entries[e];
            count++;
            if (visit)
                visit(ctx, rec->key.src, rec->key.dst, rec->key.size, rec->key.tag,
                      !(m->flags & HAS_SEND), (m->flags & ARRIVED) != 0);
        }
    }
    return count;
}
