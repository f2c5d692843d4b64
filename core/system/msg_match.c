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
 * A key with such a queue is a channel: a 40-byte record holding the key
 * and its queue's ends, found through an open-addressing hash of 8-byte
 * slots. A channel leaves the hash as soon as its queue is empty, and the
 * hash halves when it is mostly empty, so memory follows the posts
 * waiting for a partner -- unless a caller holds the channel through a
 * hint. A collective's stream sends every message of a phase to one peer
 * under one key and receives from one peer under another: holding both
 * channels for the phase, it posts with a comparison of the key against
 * a record it touched last time, without hashing, probing, or adding and
 * removing the key once per message as the queue empties and fills.
 * Paired entries belong to no channel: they only wait for their arrival.
 */
#include "system/msg_match.h"

#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/huge_pages.h"

/* Entry indices fit in ENTRY_BITS (the other bits of the word hold the
 * flags), so the pool stops below 2^29 entries (30 GB of messages). */
#define ENTRY_BITS 29
#define NIL ((1u << ENTRY_BITS) - 1)
#define MAX_ENTRIES (NIL - 1)
#define MAX_CHANS (UINT32_MAX - 1)
#define NO_CHAN UINT32_MAX
#define MIN_SLOTS 1024u

enum { HAS_SEND = 1, HAS_RECV = 2, ARRIVED = 4 };

/* The key of a message. */
typedef struct msg_key {
    uint64_t size;
    uint32_t tag, src, dst;
} msg_key;

enum { SEND_SIDE = 0, RECV_SIDE = 1 };

/* A message: a send and its receive share one entry (48 bytes). Each side
 * holds a completion's obj and data; its function is an index into the
 * table's list of the few distinct callback functions. */
typedef struct msg_entry {
    uint32_t next : ENTRY_BITS;  /* next post in its channel's queue, or free link */
    uint32_t flags : 3;
    uint32_t gen;                /* bumped when the entry is freed: stale tokens no longer match */
    uint16_t fn[2];              /* [SEND_SIDE], [RECV_SIDE]: index in msg_table.fns, 0 = none */
    struct {
        void *obj;
        uint64_t data;
    } side[2];
} msg_entry;

/* A key with posts waiting for their partner, or held by a caller. */
typedef struct msg_chan {
    uint64_t size;
    uint32_t tag, src, dst;
    uint32_t head, tail;         /* the queue, oldest first, linked through entry.next; head NIL: empty */
    uint32_t holders;            /* hints holding the channel */
    uint32_t hash;               /* of the key: finds its slot when it leaves */
} msg_chan;

/* A slot of the hash: a channel (NO_CHAN: empty) and its key's hash, which
 * is all a probe, a shift or a resize needs. */
typedef struct key_slot {
    uint32_t hash, chan;
} key_slot;

typedef struct msg_table {
    msg_entry *entries;
    uint32_t n_entries, cap_entries, free_entries;
    uint64_t live;               /* entries not yet freed: messages outstanding */
    uint64_t in_network;         /* sends the backend accepted and has not delivered yet */
    msg_chan *chans;
    uint32_t n_chans, cap_chans, free_chans;
    key_slot *slots;
    uint32_t slot_mask, slot_used;
    msg_fn *fns;                 /* the callback functions seen; [0] = NULL */
    uint32_t n_fns, cap_fns, last_fn;
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

static bool chan_is(const msg_chan *c, const msg_key *k)
{
    return c->tag == k->tag && c->src == k->src && c->dst == k->dst && c->size == k->size;
}

static key_slot *slots_new(uint32_t n)
{
    key_slot *slots = malloc((size_t)n * sizeof *slots);
    huge_pages_advise(slots, (size_t)n * sizeof *slots);
    if (slots)
        for (uint32_t i = 0; i < n; i++)
            slots[i].chan = NO_CHAN;
    return slots;
}

int msg_table_init(sim *s)
{
    msg_table *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    t->free_entries = NIL;
    t->free_chans = NO_CHAN;
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
    free(t->chans);
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
 * memory (or past 65535 distinct functions, which no caller has). The
 * function of the previous call is tried first: a run's messages carry
 * one or two. */
static bool fn_index(msg_table *t, msg_fn fn, uint16_t *index)
{
    if (!fn) {
        *index = 0;
        return true;
    }
    if (t->fns[t->last_fn] == fn) {
        *index = (uint16_t)t->last_fn;
        return true;
    }
    for (uint32_t i = 1; i < t->n_fns; i++)
        if (t->fns[i] == fn) {
            *index = (uint16_t)i;
            t->last_fn = i;
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
    t->last_fn = t->n_fns;
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
    m->side[side].obj = cb.obj;
    m->side[side].data = cb.data;
    return true;
}

static msg_cb entry_cb(const msg_table *t, const msg_entry *m, int side)
{
    return (msg_cb){m->fn[side] ? t->fns[m->fn[side]] : NULL, m->side[side].obj, m->side[side].data};
}

/* ---- the hash of channels ------------------------------------------------- */

static void slot_put(key_slot *slots, uint32_t mask, key_slot k)
{
    uint32_t i = k.hash & mask;
    while (slots[i].chan != NO_CHAN)
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
        if (t->slots[i].chan != NO_CHAN)
            slot_put(slots, n - 1, t->slots[i]);
    free(t->slots);
    t->slots = slots;
    t->slot_mask = n - 1;
    return true;
}

/* The slot of the key's channel, or the empty slot where it would go (the
 * hash is never full). */
static uint32_t slot_find(const msg_table *t, const msg_key *k, uint32_t hash)
{
    uint32_t i = hash & t->slot_mask;
    for (; t->slots[i].chan != NO_CHAN; i = (i + 1) & t->slot_mask)
        if (t->slots[i].hash == hash && chan_is(&t->chans[t->slots[i].chan], k))
            break;
    return i;
}

/* Removes the channel in `slot`, shifting later slots of its probe run
 * back so lookups need no tombstones; halves the table once it is 1/8
 * full, so a burst does not leave its peak size behind. */
static void slot_remove(msg_table *t, uint32_t slot)
{
    uint32_t mask = t->slot_mask, hole = slot;
    for (uint32_t j = (hole + 1) & mask; t->slots[j].chan != NO_CHAN; j = (j + 1) & mask) {
        uint32_t home = t->slots[j].hash & mask;
        if (!hash_home_between(home, hole, j)) {
            t->slots[hole] = t->slots[j];
            hole = j;
        }
    }
    t->slots[hole].chan = NO_CHAN;
    t->slot_used--;
    if (mask + 1 > MIN_SLOTS && t->slot_used * 8 < mask + 1)
        resize(t, (mask + 1) / 2); /* out of memory: keep the bigger table */
}

static uint32_t chan_alloc(msg_table *t)
{
    if (t->free_chans != NO_CHAN) {
        uint32_t c = t->free_chans;
        t->free_chans = t->chans[c].head;
        return c;
    }
    if (!pool_grow((void **)&t->chans, &t->n_chans, &t->cap_chans, sizeof *t->chans, MAX_CHANS))
        return NO_CHAN;
    return t->n_chans++;
}

/* The key's channel, added (empty, unheld) at the empty `slot` slot_find
 * gave when new; NO_CHAN when out of memory. The hash doubles past 3/4
 * full, so that linear probing stays short. */
static uint32_t chan_add(msg_table *t, const msg_key *k, uint32_t hash, uint32_t slot)
{
    if ((t->slot_used + 1) * 4 > (t->slot_mask + 1) * 3) {
        if (!resize(t, (t->slot_mask + 1) * 2))
            return NO_CHAN;
        for (slot = hash & t->slot_mask; t->slots[slot].chan != NO_CHAN; slot = (slot + 1) & t->slot_mask)
            ;
    }
    uint32_t c = chan_alloc(t);
    if (c == NO_CHAN)
        return NO_CHAN;
    t->chans[c] = (msg_chan){.size = k->size, .tag = k->tag, .src = k->src, .dst = k->dst, .head = NIL,
                             .tail = NIL, .holders = 0, .hash = hash};
    t->slots[slot] = (key_slot){.hash = hash, .chan = c};
    t->slot_used++;
    return c;
}

/* A channel with no waiting post and no holder leaves the hash. */
static void chan_drop_if_unused(msg_table *t, uint32_t c)
{
    msg_chan *ch = &t->chans[c];
    if (ch->head != NIL || ch->holders > 0)
        return;
    uint32_t i = ch->hash & t->slot_mask;
    while (t->slots[i].chan != c)
        i = (i + 1) & t->slot_mask;
    slot_remove(t, i);
    ch->head = t->free_chans;
    t->free_chans = c;
}

static void hint_release(msg_table *t, uint32_t *hint)
{
    if (*hint == MSG_NO_HINT)
        return;
    uint32_t c = *hint - 1;
    *hint = MSG_NO_HINT;
    t->chans[c].holders--;
    chan_drop_if_unused(t, c);
}

/* The key's channel, added when new; held through the hint when one is
 * given (a hint holds channel index + 1). NO_CHAN when out of memory. */
static uint32_t chan_for(msg_table *t, const msg_key *k, uint32_t *hint)
{
    if (hint && *hint != MSG_NO_HINT) {
        if (chan_is(&t->chans[*hint - 1], k))
            return *hint - 1;
        hint_release(t, hint);
    }
    uint32_t hash = hash_key(k);
    uint32_t slot = slot_find(t, k, hash);
    uint32_t c = t->slots[slot].chan;
    if (c == NO_CHAN && (c = chan_add(t, k, hash, slot)) == NO_CHAN)
        return NO_CHAN;
    if (hint) {
        t->chans[c].holders++;
        *hint = c + 1;
    }
    return c;
}

/* The entry for a post of kind `flag` (HAS_SEND or HAS_RECV): the oldest
 * waiting post of the other kind, taken off its channel's queue, or a new
 * entry queued behind the posts of the same kind. NIL when out of memory. */
static uint32_t entry_for(msg_table *t, const msg_key *k, uint8_t flag, uint32_t *hint)
{
    uint32_t c = chan_for(t, k, hint);
    if (c == NO_CHAN)
        return NIL;
    uint32_t e = t->chans[c].head;
    if (e == NIL || (t->entries[e].flags & flag)) {   /* none to pair with: wait behind this kind */
        uint32_t n = entry_alloc(t);
        msg_chan *ch = &t->chans[c];
        if (n == NIL) {
            chan_drop_if_unused(t, c);
            return NIL;
        }
        t->entries[n].flags = flag;
        if (e == NIL)
            ch->head = n;
        else
            t->entries[ch->tail].next = n;
        ch->tail = n;
        return n;
    }
    msg_chan *ch = &t->chans[c];
    ch->head = t->entries[e].next;
    t->entries[e].next = NIL;
    t->entries[e].flags |= flag;
    if (ch->head == NIL)
        chan_drop_if_unused(t, c);
    return e;
}

void msg_hint_release(sim *s, uint32_t *hint)
{
    if (s->msgs)
        hint_release(s->msgs, hint);
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
    for (uint32_t n = 0; n < 8 && t->slots[i].chan != NO_CHAN; n++, i = (i + 1) & t->slot_mask)
        if (t->slots[i].hash == hash) {
            __builtin_prefetch(&t->chans[t->slots[i].chan], 1);
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
            prefetch_obj(m->side[side].obj);
}

static void run_cb(sim *s, msg_cb cb)
{
    if (cb.fn)
        cb.fn(s, cb.obj, cb.data);
}

/* The entry of message (src, dst, size, tag) with side `flag` (HAS_SEND
 * or HAS_RECV) taken, made when it is new; NIL after failing the run. */
static uint32_t side_entry(sim *s, uint32_t src, uint32_t dst, uint64_t size, uint32_t tag, uint8_t flag,
                           uint32_t *hint)
{
    msg_key k = {.size = size, .tag = tag, .src = src, .dst = dst};
    uint32_t e = entry_for(s->msgs, &k, flag, hint);
    if (e == NIL)
        sim_fail(s, "out of memory (message table)");
    return e;
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
    uint32_t e = side_entry(s, src, dst, size, tag, HAS_SEND, hint);
    if (e == NIL)
        return;
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
    uint32_t e = side_entry(s, src, dst, size, tag, HAS_RECV, hint);
    if (e == NIL)
        return;
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
            if (t->slots[i].chan == NO_CHAN)
                continue;
            const msg_chan *c = &t->chans[t->slots[i].chan];
            for (uint32_t e = c->head; e != NIL; e = t->entries[e].next) {
                const msg_entry *m = &t->entries[e];
                visit(ctx, c->src, c->dst, c->size, c->tag, !(m->flags & HAS_SEND), (m->flags & ARRIVED) != 0);
            }
        }
    return t->live;
}

uint64_t msg_in_network(const sim *s)
{
    const msg_table *t = s->msgs;
    return t->in_network;
}
