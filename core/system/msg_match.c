/*
 * Matching tables, sized for a million messages in flight.
 *
 * A message is one entry (a send and its receive share it), reached by
 * index through the backend's token, so an arrival costs no lookup and
 * touches one 48-byte entry. Entries live in an index pool with a free
 * list: no malloc per message.
 *
 * The k-th send with a key matches the k-th receive with that key, so the
 * posts of one key not yet paired form a FIFO of one kind only (all sends
 * or all receives): a post of the other kind pairs with the queue's head.
 * Only keys with such a queue are in the open-addressing hash, as a
 * 12-byte slot (the key's hash and its queue's ends); the key itself is
 * kept by the waiting posts, in the place of the callback their partner
 * will bring. A key leaves the table as soon as its queue is empty, and
 * the table halves when it is mostly empty, so memory follows the posts
 * waiting for a partner. Paired entries belong to no key: they only wait
 * for their arrival.
 */
#include "system/msg_match.h"

#include <stdlib.h>
#include <string.h>

#include "util/huge_pages.h"

/* Entry indices fit in ENTRY_BITS (the other bits of the word hold the
 * flags), so the pool stops below 2^29 entries (30 GB of messages). */
#define ENTRY_BITS 29
#define NIL ((1u << ENTRY_BITS) - 1)
#define MAX_ENTRIES (NIL - 1)
#define MIN_SLOTS 1024u

enum { HAS_SEND = 1, HAS_RECV = 2, ARRIVED = 4 };

/* The key of a post waiting for its partner. */
typedef struct msg_key {
    uint64_t size;
    uint32_t tag, src, dst;
} msg_key;

/* A message: a send and its receive share one entry (48 bytes). Each side
 * holds a completion's obj and data; its function is an index into the
 * table's list of the few distinct callback functions. A post waiting in
 * its key's queue has one completion only (its own kind's), so the key
 * lives in the other kind's place (and key_tag) until a partner fills it. */
typedef union side_rec {
    struct {
        void *obj;
        uint64_t data;
    } cb;
    struct {
        uint32_t src, dst;
        uint64_t size;
    } key;
} side_rec;

enum { SEND_SIDE = 0, RECV_SIDE = 1 };

typedef struct msg_entry {
    uint32_t next : ENTRY_BITS;  /* next post in its key's queue, or free link */
    uint32_t flags : 3;
    uint32_t gen;                /* bumped when the entry is freed: stale tokens no longer match */
    uint16_t fn[2];              /* [SEND_SIDE], [RECV_SIDE]: index in msg_table.fns, 0 = none */
    uint32_t key_tag;
    side_rec side[2];
} msg_entry;

/* A key with posts waiting for their partner (head == NIL: an empty slot).
 * The key itself is in the posts; the slot keeps its hash, which is all a
 * probe, a shift or a resize needs. */
typedef struct key_slot {
    uint32_t hash;
    uint32_t head, tail;         /* the queue, oldest first, linked through entry.next */
} key_slot;

typedef struct msg_table {
    msg_entry *entries;
    uint32_t n_entries, cap_entries, free_entries;
    uint64_t live;               /* entries not yet freed: messages outstanding */
    uint64_t in_network;         /* sends the backend accepted and has not delivered yet */
    key_slot *slots;
    uint32_t slot_mask, slot_used;
    msg_fn *fns;                 /* the callback functions seen; [0] = NULL */
    uint32_t n_fns, cap_fns;
    msg_cb *deferred;            /* receive callbacks waiting for their zero-delay event */
    bool in_send;                /* inside the backend's sim_send: delivering now breaks the contract */
    uint32_t n_deferred, cap_deferred, free_deferred;
} msg_table;

static uint32_t hash_key(const msg_key *k)
{
    uint64_t h = (uint64_t)k->tag * 0x9e3779b97f4a7c15ULL;
    h ^= ((uint64_t)k->src << 32 | k->dst) * 0xc2b2ae3d27d4eb4fULL;
    h ^= k->size * 0x165667b19e3779f9ULL;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return (uint32_t)h;
}

static bool key_eq(const msg_key *a, const msg_key *b)
{
    return a->tag == b->tag && a->src == b->src && a->dst == b->dst && a->size == b->size;
}

static key_slot *slots_new(uint32_t n)
{
    key_slot *slots = malloc((size_t)n * sizeof *slots);
    huge_pages_advise(slots, (size_t)n * sizeof *slots);
    if (slots)
        for (uint32_t i = 0; i < n; i++)
            slots[i].head = NIL;
    return slots;
}

int msg_table_init(sim *s)
{
    msg_table *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    t->free_entries = NIL;
    t->free_deferred = UINT32_MAX;
    t->slot_mask = MIN_SLOTS - 1;
    t->slots = slots_new(MIN_SLOTS);
    t->fns = malloc(8 * sizeof *t->fns);
    if (!t->slots || !t->fns) {
        free(t->slots);
        free(t->fns);
        free(t);
        return -1;
    }
    t->fns[0] = NULL;
    t->n_fns = 1;
    t->cap_fns = 8;
    s->msgs = t;
    return 0;
}

void msg_table_fini(sim *s)
{
    msg_table *t = s->msgs;
    if (!t)
        return;
    free(t->entries);
    free(t->slots);
    free(t->fns);
    free(t->deferred);
    free(t);
    s->msgs = NULL;
}

/* Grows an index pool by one element; returns false when out of memory or
 * at `max`. The capacity doubles, but realloc of a large block remaps it
 * and the pool writes an element only when it hands it out, so the unused
 * half costs address space, not memory. */
static bool pool_grow(void **items, uint32_t *n, uint32_t *cap, size_t size, uint32_t max)
{
    if (*n < *cap)
        return true;
    if (*cap >= max)
        return false;
    uint32_t c = *cap ? (*cap > max / 2 ? max : *cap * 2) : 1024;
    void *p = realloc(*items, (size_t)c * size);
    if (!p)
        return false;
    huge_pages_advise(p, (size_t)c * size);
    *items = p;
    *cap = c;
    return true;
}

/* ---- entries ------------------------------------------------------------- */

static uint32_t entry_alloc(msg_table *t)
{
    uint32_t e;
    if (t->free_entries != NIL) {
        e = t->free_entries;
        t->free_entries = t->entries[e].next;
        /* Freed entries are scattered and cold, and the next allocation
         * needs this one's link: start loading it now. */
        if (t->free_entries != NIL)
            __builtin_prefetch(&t->entries[t->free_entries], 1);
    } else {
        if (!pool_grow((void **)&t->entries, &t->n_entries, &t->cap_entries, sizeof *t->entries, MAX_ENTRIES))
            return NIL;
        e = t->n_entries++;
        t->entries[e].gen = 0;
    }
    msg_entry *m = &t->entries[e];
    m->next = NIL;
    m->flags = 0;
    t->live++;
    return e;
}

static void entry_free(msg_table *t, uint32_t e)
{
    msg_entry *m = &t->entries[e];
    m->flags = 0;
    m->gen++;
    m->next = t->free_entries;
    t->free_entries = e;
    t->live--;
}

/* The index of a callback function, added when new; false when out of
 * memory (or past 65535 distinct functions, which no caller has). */
static bool fn_index(msg_table *t, msg_fn fn, uint16_t *index)
{
    if (!fn) {
        *index = 0;
        return true;
    }
    for (uint32_t i = 1; i < t->n_fns; i++)
        if (t->fns[i] == fn) {
            *index = (uint16_t)i;
            return true;
        }
    if (t->n_fns > UINT16_MAX)
        return false;
    if (t->n_fns == t->cap_fns) {
        uint32_t cap = t->cap_fns * 2;
        msg_fn *fns = realloc(t->fns, cap * sizeof *fns);
        if (!fns)
            return false;
        t->fns = fns;
        t->cap_fns = cap;
    }
    t->fns[t->n_fns] = fn;
    *index = (uint16_t)t->n_fns++;
    return true;
}

static bool entry_set_cb(msg_table *t, uint32_t e, int side, msg_cb cb)
{
    uint16_t fn;
    if (!fn_index(t, cb.fn, &fn))
        return false;
    msg_entry *m = &t->entries[e];
    m->fn[side] = fn;
    m->side[side].cb.obj = cb.obj;
    m->side[side].cb.data = cb.data;
    return true;
}

static msg_cb entry_cb(const msg_table *t, const msg_entry *m, int side)
{
    return (msg_cb){m->fn[side] ? t->fns[m->fn[side]] : NULL, m->side[side].cb.obj, m->side[side].cb.data};
}

static void entry_set_key(msg_entry *m, int side, const msg_key *k)
{
    m->side[side].key.src = k->src;
    m->side[side].key.dst = k->dst;
    m->side[side].key.size = k->size;
    m->key_tag = k->tag;
}

/* The key of a waiting post: in the place of the completion it waits for. */
static msg_key entry_key(const msg_entry *m)
{
    int side = m->flags & HAS_SEND ? RECV_SIDE : SEND_SIDE;
    return (msg_key){.size = m->side[side].key.size, .tag = m->key_tag, .src = m->side[side].key.src,
                     .dst = m->side[side].key.dst};
}

/* ---- the hash of keys with waiting posts ---------------------------------- */

static void slot_put(key_slot *slots, uint32_t mask, key_slot k)
{
    uint32_t i = k.hash & mask;
    while (slots[i].head != NIL)
        i = (i + 1) & mask;
    slots[i] = k;
}

/* Moves the slots into a table of n (a power of two). */
static bool resize(msg_table *t, uint32_t n)
{
    key_slot *slots = slots_new(n);
    if (!slots)
        return false;
    for (uint32_t i = 0; i <= t->slot_mask; i++)
        if (t->slots[i].head != NIL)
            slot_put(slots, n - 1, t->slots[i]);
    free(t->slots);
    t->slots = slots;
    t->slot_mask = n - 1;
    return true;
}

static bool slot_holds(const msg_table *t, uint32_t i, uint32_t hash, const msg_key *k)
{
    if (t->slots[i].head == NIL || t->slots[i].hash != hash)
        return false;
    msg_key held = entry_key(&t->entries[t->slots[i].head]);
    return key_eq(&held, k);
}

/* The slot of the key, or of the empty slot where it would go (the hash
 * is never full). The hint, when given, is tried first. */
static uint32_t key_find(const msg_table *t, const msg_key *k, uint32_t hash, const uint32_t *hint)
{
    if (hint && *hint <= t->slot_mask && slot_holds(t, *hint, hash, k))
        return *hint;
    uint32_t i = hash & t->slot_mask;
    while (t->slots[i].head != NIL && !slot_holds(t, i, hash, k))
        i = (i + 1) & t->slot_mask;
    return i;
}

/* Adds a key whose queue is entry e alone at `slot` (found empty by
 * key_find); returns the slot it ended in (the table doubles past 3/4
 * full, so that linear probing stays short), or NIL when out of memory. */
static uint32_t key_add(msg_table *t, uint32_t slot, uint32_t hash, uint32_t e)
{
    if ((t->slot_used + 1) * 4 > (t->slot_mask + 1) * 3) {
        if (!resize(t, (t->slot_mask + 1) * 2))
            return NIL;
        for (slot = hash & t->slot_mask; t->slots[slot].head != NIL; slot = (slot + 1) & t->slot_mask)
            ;
    }
    t->slots[slot] = (key_slot){.hash = hash, .head = e, .tail = e};
    t->slot_used++;
    return slot;
}

/* Removes the key in `slot`, shifting later slots of its probe run back so
 * lookups need no tombstones; halves the table once it is 1/8 full, so a
 * burst does not leave its peak size behind. */
static void key_remove(msg_table *t, uint32_t slot)
{
    uint32_t mask = t->slot_mask, hole = slot;
    for (uint32_t j = (hole + 1) & mask; t->slots[j].head != NIL; j = (j + 1) & mask) {
        uint32_t home = t->slots[j].hash & mask;
        /* Move j into the hole unless its home lies cyclically in (hole, j]. */
        bool home_between = hole < j ? (home > hole && home <= j) : (home > hole || home <= j);
        if (!home_between) {
            t->slots[hole] = t->slots[j];
            hole = j;
        }
    }
    t->slots[hole].head = NIL;
    t->slot_used--;
    if (mask + 1 > MIN_SLOTS && t->slot_used * 8 < mask + 1)
        resize(t, (mask + 1) / 2); /* out of memory: keep the bigger table */
}

/* A new post of kind `flag` (HAS_SEND or HAS_RECV) that waits in a queue:
 * it holds the key in the other kind's place. */
static uint32_t entry_new_waiting(msg_table *t, const msg_key *k, uint8_t flag)
{
    uint32_t e = entry_alloc(t);
    if (e != NIL) {
        t->entries[e].flags = flag;
        entry_set_key(&t->entries[e], flag == HAS_SEND ? RECV_SIDE : SEND_SIDE, k);
    }
    return e;
}

/* The entry for a post of kind `flag`: the oldest waiting post of the
 * other kind, taken off its queue, or a new entry queued behind the posts
 * of the same kind. NIL when out of memory. */
static uint32_t entry_for(msg_table *t, const msg_key *k, uint8_t flag, uint32_t *hint)
{
    uint32_t hash = hash_key(k);
    uint32_t slot = key_find(t, k, hash, hint);
    if (t->slots[slot].head == NIL) {
        uint32_t e = entry_new_waiting(t, k, flag);
        if (e == NIL)
            return NIL;
        slot = key_add(t, slot, hash, e);
        if (slot == NIL) {
            entry_free(t, e);
            return NIL;
        }
        if (hint)
            *hint = slot;
        return e;
    }
    if (hint)
        *hint = slot;
    uint32_t e = t->slots[slot].head;
    if (t->entries[e].flags & flag) {   /* the queue holds this kind: wait behind it */
        uint32_t n = entry_new_waiting(t, k, flag);
        if (n == NIL)
            return NIL;
        t->entries[t->slots[slot].tail].next = n;
        t->slots[slot].tail = n;
        return n;
    }
    t->slots[slot].head = t->entries[e].next;
    t->entries[e].next = NIL;
    if (t->slots[slot].head == NIL)
        key_remove(t, slot);
    t->entries[e].flags |= flag;
    return e;
}

void msg_prefetch(const sim *s, uint32_t src, uint32_t dst, uint64_t size, uint32_t tag, int stage)
{
    const msg_table *t = s->msgs;
    msg_key k = {.size = size, .tag = tag, .src = src, .dst = dst};
    uint32_t hash = hash_key(&k), i = hash & t->slot_mask;
    if (stage == 0) {
        __builtin_prefetch(&t->slots[i]);
        return;
    }
    /* The first slot with the key's hash is almost always the key's. */
    for (uint32_t n = 0; n < 8 && t->slots[i].head != NIL; n++, i = (i + 1) & t->slot_mask)
        if (t->slots[i].hash == hash) {
            __builtin_prefetch(&t->entries[t->slots[i].head], 1);
            return;
        }
}

/* The lines of a completion's object its function reads first (a
 * stream's hot fields: system.h STREAM_HOT_BYTES). */
#define CB_OBJ_LINES 3

static void prefetch_obj(const void *obj)
{
    for (int i = 0; i < CB_OBJ_LINES; i++)
        __builtin_prefetch((const char *)obj + 64 * i);
}

void msg_look_ahead(const sim *s, uint64_t token, int stage)
{
    const msg_table *t = s->msgs;
    uint32_t e = (uint32_t)token;
    if (e >= t->n_entries)
        return;   /* a bad token: its delivery reports it */
    const msg_entry *m = &t->entries[e];
    if (stage == 0) {
        __builtin_prefetch(m);
        return;
    }
    for (int side = SEND_SIDE; side <= RECV_SIDE; side++)
        if (m->fn[side] && (m->flags & (side == SEND_SIDE ? HAS_SEND : HAS_RECV)))
            prefetch_obj(m->side[side].cb.obj);
}

static void run_cb(sim *s, msg_cb cb)
{
    if (cb.fn)
        cb.fn(s, cb.obj, cb.data);
}

void msg_send(sim *s, uint32_t src, uint32_t dst, uint64_t size, uint32_t tag, msg_cb on_arrival, uint32_t *hint)
{
    msg_send_cb(s, src, dst, size, tag, on_arrival.fn, on_arrival.obj, on_arrival.data, hint);
}

void msg_send_cb(sim *s, uint32_t src, uint32_t dst, uint64_t size, uint32_t tag, msg_fn fn, void *obj,
                 uint64_t data, uint32_t *hint)
{
    msg_cb on_arrival = {fn, obj, data};
    msg_table *t = s->msgs;
    msg_key k = {.size = size, .tag = tag, .src = src, .dst = dst};
    uint32_t e = entry_for(t, &k, HAS_SEND, hint);
    if (e == NIL) {
        sim_fail(s, "out of memory (message table)");
        return;
    }
    if (!entry_set_cb(t, e, SEND_SIDE, on_arrival)) {
        sim_fail(s, "out of memory (message table)");
        return;
    }
    if (++s->messages == s->hooks.messages_at)
        s->hooks.messages_reached(s->hooks.messages_ctx);
    /* The token names the entry and its generation, so a token delivered
     * twice or made up by the backend is caught without a lookup. */
    uint64_t token = (uint64_t)t->entries[e].gen << 32 | e;
    t->in_send = true;
    int rc = s->be->sim_send(s->be_ctx, src, dst, size, tag, token);
    t->in_send = false;
    if (rc != VIMANA_OK)
        sim_fail_backend(s, "network backend %s refused the message %u -> %u (%llu bytes, tag %u): status %d",
                 s->be->name, src, dst, (unsigned long long)size, tag, rc);
    else
        t->in_network++;
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
    t->in_network--;
    uint32_t e = (uint32_t)token;
    msg_entry *m = &t->entries[e];
    msg_cb send_cb = entry_cb(t, m, SEND_SIDE);
    if (m->flags & HAS_RECV) {
        msg_cb recv_cb = entry_cb(t, m, RECV_SIDE);
        entry_free(t, e);
        run_cb(s, send_cb);
        run_cb(s, recv_cb);
        return;
    }
    m->flags |= ARRIVED;   /* still queued under its key until a receive takes it */
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
    msg_recv_cb(s, src, dst, size, tag, on_receive.fn, on_receive.obj, on_receive.data, hint);
}

void msg_recv_cb(sim *s, uint32_t src, uint32_t dst, uint64_t size, uint32_t tag, msg_fn fn, void *obj,
                 uint64_t data, uint32_t *hint)
{
    msg_cb on_receive = {fn, obj, data};
    msg_table *t = s->msgs;
    msg_key k = {.size = size, .tag = tag, .src = src, .dst = dst};
    uint32_t e = entry_for(t, &k, HAS_RECV, hint);
    if (e == NIL) {
        sim_fail(s, "out of memory (message table)");
        return;
    }
    if (t->entries[e].flags & ARRIVED) {
        entry_free(t, e);
        uint32_t d;
        if (t->free_deferred != UINT32_MAX) {
            d = t->free_deferred;
            t->free_deferred = (uint32_t)t->deferred[d].data;
        } else {
            if (!pool_grow((void **)&t->deferred, &t->n_deferred, &t->cap_deferred, sizeof *t->deferred,
                           UINT32_MAX - 1)) {
                sim_fail(s, "out of memory (message table)");
                return;
            }
            d = t->n_deferred++;
        }
        t->deferred[d] = on_receive;
        sim_schedule(s, 0, run_deferred, s, d);
        return;
    }
    if (!entry_set_cb(t, e, RECV_SIDE, on_receive))
        sim_fail(s, "out of memory (message table)");
}

uint64_t msg_outstanding(sim *s, msg_visit_fn visit, void *ctx)
{
    msg_table *t = s->msgs;
    if (visit)
        for (uint32_t i = 0; i <= t->slot_mask; i++) {
            if (t->slots[i].head == NIL)
                continue;
            msg_key k = entry_key(&t->entries[t->slots[i].head]);
            for (uint32_t e = t->slots[i].head; e != NIL; e = t->entries[e].next) {
                const msg_entry *m = &t->entries[e];
                visit(ctx, k.src, k.dst, k.size, k.tag, !(m->flags & HAS_SEND), (m->flags & ARRIVED) != 0);
            }
        }
    return t->live;
}

uint64_t msg_in_network(const sim *s)
{
    const msg_table *t = s->msgs;
    return t->in_network;
}
