/* A trace's tensors and an NPU's peak live tensor bytes (see the header;
 * docs/simulator.md, "Peak tensor memory"). */
#include "workload/tensor_mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/arena.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/msg_escape.h"
#include "util/number_text.h"
#include "workload/workload.h"

/* A tensor being interned: its name (in the builder's arena), the name's
 * hash (for growing the table) and whether a node wrote it yet. */
typedef struct tensor_entry {
    const char *name;
    uint64_t hash;
    bool written;
} tensor_entry;

struct wl_tensor_builder {
    uint32_t *slot;          /* open addressing: 1 + tensor id, 0 = empty */
    uint32_t mask;
    tensor_entry *entry;     /* [n] */
    size_t entry_cap;
    uint64_t *size;          /* [n]: handed over as wl_tensors.size */
    size_t size_cap;
    uint32_t n;
    uint32_t *io;
    size_t io_cap;
    uint32_t io_len;
    arena names;
};

wl_tensor_builder *wl_tensor_builder_new(void)
{
    wl_tensor_builder *b = calloc(1, sizeof *b);
    if (b)
        arena_init(&b->names, 1 << 16);
    return b;
}

/* Back to empty (its names too: they are not needed once loaded). */
static void builder_clear(wl_tensor_builder *b)
{
    free(b->slot);
    free(b->entry);
    free(b->size);
    free(b->io);
    arena_free(&b->names);
    *b = (wl_tensor_builder){0};
    arena_init(&b->names, 1 << 16);
}

void wl_tensor_builder_free(wl_tensor_builder *b)
{
    if (!b)
        return;
    builder_clear(b);
    free(b);
}

void wl_tensors_free(wl_tensors *t)
{
    free(t->io);
    free(t->size);
    memset(t, 0, sizeof *t);
}

void wl_tensor_builder_finish(wl_tensor_builder *b, wl_tensors *out)
{
    *out = (wl_tensors){0};
    if (b->n > 0) {
        out->io = b->io;
        out->io_len = b->io_len;
        out->size = b->size;
        out->n = b->n;
        b->io = NULL;
        b->size = NULL;
    }
    builder_clear(b);
}

/* FNV-1a: names are short and the table is load-time only. (It started
 * from a mistyped offset basis; the table maps names to ids in the order
 * they were added, so no output depends on which.) */
static uint64_t name_hash(const char *s)
{
    return hash_fnv1a_str(HASH_FNV1A_SEED, s);
}

static int rehash(wl_tensor_builder *b)
{
    uint32_t size = b->mask ? (b->mask + 1) * 2 : 1024;
    if (size == 0)
        return -1;
    uint32_t *slot = calloc(size, sizeof *slot);
    if (!slot)
        return -1;
    for (uint32_t id = 0; id < b->n; id++) {
        uint32_t k = (uint32_t)b->entry[id].hash & (size - 1);
        while (slot[k])
            k = (k + 1) & (size - 1);
        slot[k] = id + 1;
    }
    free(b->slot);
    b->slot = slot;
    b->mask = size - 1;
    return 0;
}

/* The id of tensor `name` (of `size` bytes when new); -1 when out of memory. */
static int64_t intern(wl_tensor_builder *b, const char *name, uint64_t size)
{
    uint64_t h = name_hash(name);
    if (b->mask) {
        for (uint32_t k = (uint32_t)h & b->mask; b->slot[k]; k = (k + 1) & b->mask) {
            uint32_t id = b->slot[k] - 1;
            if (b->entry[id].hash == h && strcmp(b->entry[id].name, name) == 0)
                return id;
        }
    }
    if (b->n == UINT32_MAX - 1)
        return -1;
    /* at most half full */
    if ((uint64_t)(b->n + 1) * 2 > (uint64_t)b->mask + 1 && rehash(b) != 0)
        return -1;
    void *entry = b->entry, *sizes = b->size;
    if (grow_array(&entry, &b->entry_cap, (size_t)b->n + 1, sizeof *b->entry, 64) != 0)
        return -1;
    b->entry = entry;
    if (grow_array(&sizes, &b->size_cap, (size_t)b->n + 1, sizeof *b->size, 64) != 0)
        return -1;
    b->size = sizes;
    size_t len = strlen(name) + 1;
    char *kept = arena_alloc(&b->names, len);
    if (!kept)
        return -1;
    memcpy(kept, name, len);
    uint32_t id = b->n++;
    b->entry[id] = (tensor_entry){.name = kept, .hash = h};
    b->size[id] = size;
    uint32_t k = (uint32_t)h & b->mask;
    while (b->slot[k])
        k = (k + 1) & b->mask;
    b->slot[k] = id + 1;
    return id;
}

static int push_io(wl_tensor_builder *b, uint32_t v)
{
    if (b->io_len == UINT32_MAX)
        return -1;
    if (grow_array((void **)&b->io, &b->io_cap, (size_t)b->io_len + 1, sizeof *b->io, 256) != 0)
        return -1;
    b->io[b->io_len++] = v;
    return 0;
}

/* The list of attribute `key` (NULL when absent or empty); -1 with err
 * when it is not a list of name and size pairs. */
static int io_list(const vet_node *n, const char *key, const vet_list **out, char *err, size_t len)
{
    *out = NULL;
    const vet_attr *a = vet_node_attr(n, key);
    if (!a)
        return 0;
    if (a->kind != VET_STRING_LIST) {
        snprintf(err, len, "attribute %s must be a string list of tensor names and sizes", key);
        return -1;
    }
    if (a->v.list.n % 2 != 0) {
        snprintf(err, len, "attribute %s: %zu strings, not tensor name and size pairs", key, a->v.list.n);
        return -1;
    }
    if (a->v.list.n > 0)
        *out = &a->v.list;
    return 0;
}

/* One list's tensors into the node's entries. */
static int add_list(wl_tensor_builder *b, const char *key, const vet_list *l, bool written, char *err, size_t len)
{
    const char *const *s = l->items;
    for (size_t i = 0; i < l->n; i += 2) {
        char shown[96], shown_size[48];
        uint64_t size;
        /* a size: decimal digits only, at most WL_TENSOR_MAX_BYTES */
        if (!whole_number_parse(s[i + 1], WL_TENSOR_MAX_BYTES, &size)) {
            snprintf(err, len, "attribute %s: tensor '%s': size '%s' is not a whole number of bytes up to 2^50",
                     key, msg_escape(s[i], shown, sizeof shown), msg_escape(s[i + 1], shown_size, sizeof shown_size));
            return -1;
        }
        if (size == 0)
            continue;   /* nothing to hold */
        int64_t id = intern(b, s[i], size);
        if (id < 0 || push_io(b, (uint32_t)id << 1 | (written ? 1u : 0u)) != 0) {
            snprintf(err, len, "out of memory reading attribute %s", key);
            return -1;
        }
        if (!written)
            continue;
        if (b->entry[id].written) {
            snprintf(err, len, "attribute %s: tensor '%s' is written more than once (by this node or an earlier one)",
                     key, msg_escape(s[i], shown, sizeof shown));
            return -1;
        }
        b->entry[id].written = true;
        b->size[id] = size;   /* the writer's size stands */
    }
    return 0;
}

int wl_tensor_builder_add(wl_tensor_builder *b, const vet_node *n, uint32_t *io, char *err, size_t err_len)
{
    *io = 0;
    const vet_list *in, *out;
    if (io_list(n, "inputs", &in, err, err_len) != 0 || io_list(n, "outputs", &out, err, err_len) != 0)
        return -1;
    if (!in && !out)
        return 0;
    /* offset 0 means "none": the table starts with an unused entry */
    if ((b->io_len == 0 && push_io(b, 0) != 0) || push_io(b, 0) != 0) {
        snprintf(err, err_len, "out of memory reading attribute %s", in ? "inputs" : "outputs");
        return -1;
    }
    uint32_t at = b->io_len - 1;
    if ((in && add_list(b, "inputs", in, false, err, err_len) != 0) ||
        (out && add_list(b, "outputs", out, true, err, err_len) != 0))
        return -1;
    b->io[at] = b->io_len - at - 1;
    *io = b->io[at] ? at : 0;
    if (!*io)
        b->io_len = at;   /* only tensors of 0 bytes: nothing kept */
    return 0;
}

bool wl_tensors_same_io(const wl_tensors *a, uint32_t ia, const wl_tensors *b, uint32_t ib)
{
    if (!ia || !ib)
        return !ia && !ib;
    uint32_t n = a->io[ia];
    if (n != b->io[ib])
        return false;
    for (uint32_t k = 1; k <= n; k++) {
        uint32_t x = a->io[ia + k], y = b->io[ib + k];
        if (x != y || a->size[x >> 1] != b->size[y >> 1])
            return false;
    }
    return true;
}

/* ---- the peak --------------------------------------------------------------- */

typedef struct mem_event {
    vimana_tick tick;
    uint64_t bytes;
    bool alloc;
} mem_event;

static int cmp_event(const void *a, const void *b)
{
    const mem_event *x = a, *y = b;
    return x->tick < y->tick ? -1 : x->tick > y->tick;
}

/* Each tensor's life: from its writer's start (0 without one) to the
 * latest end of a reader that ends from then on (the NPU's finish without
 * one: an unread tensor stays). */
static void lifetimes(const workload *w, vimana_tick *from, vimana_tick *to, uint8_t *read)
{
    const wl_tensors *t = &w->trace->tensors;
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < w->n_nodes; i++) {
            uint32_t at = w->nodes[i].io;
            for (uint32_t k = 1; at && k <= t->io[at]; k++) {
                uint32_t e = t->io[at + k], id = e >> 1;
                if (pass == 0 && (e & 1))
                    from[id] = w->live[i].start;
                else if (pass == 1 && !(e & 1) && w->live[i].end >= from[id] && (!read[id] || w->live[i].end > to[id])) {
                    to[id] = w->live[i].end;
                    read[id] = 1;
                }
            }
        }
    }
    for (uint32_t id = 0; id < t->n; id++)
        if (!read[id])
            to[id] = w->finish_tick;
}

int wl_tensor_peak(const workload *w, uint64_t *peak)
{
    const wl_tensors *t = &w->trace->tensors;
    *peak = 0;
    if (t->n == 0)
        return 0;
    vimana_tick *from = calloc(t->n, sizeof *from), *to = calloc(t->n, sizeof *to);
    uint8_t *read = calloc(t->n, 1);
    mem_event *ev = calloc((size_t)t->n * 2, sizeof *ev);
    int rc = -1;
    if (!from || !to || !read || !ev)
        goto out;
    lifetimes(w, from, to, read);
    for (uint32_t id = 0; id < t->n; id++) {
        ev[2 * id] = (mem_event){from[id], t->size[id], true};
        ev[2 * id + 1] = (mem_event){to[id], t->size[id], false};
    }
    qsort(ev, (size_t)t->n * 2, sizeof *ev, cmp_event);
    /* live bytes in 128 bits (hi:lo): 2^32 tensors of 2^50 bytes pass 2^64 */
    uint64_t lo = 0, hi = 0;
    for (size_t i = 0, n = (size_t)t->n * 2; i < n;) {
        vimana_tick tick = ev[i].tick;
        /* every change at this tick first: the tensors ending here are gone */
        for (; i < n && ev[i].tick == tick; i++) {
            if (ev[i].alloc) {
                hi += lo + ev[i].bytes < lo;
                lo += ev[i].bytes;
            } else {
                hi -= lo < ev[i].bytes;
                lo -= ev[i].bytes;
            }
        }
        uint64_t live = hi ? UINT64_MAX : lo;
        if (live > *peak)
            *peak = live;
    }
    rc = 0;
out:
    free(from);
    free(to);
    free(read);
    free(ev);
    return rc;
}
