#include "trace_link/et_plus_writer.h"

#include <string.h>

#include "trace_link/json_scan.h"

/* Depth of a node's members: {top-level} -> "nodes": [ -> { -> member. */
#define NODE_DEPTH 2
#define MEMBER_DEPTH 3

enum value_kind { V_INT, V_NULL, V_PYNUM, V_KINETO_STRING, V_KINETO_VALUE, V_TEXT, V_ID_LIST };

/* A key whose value the writer supplies: replaced in place when the node
 * has the key, else appended (unless only_if_present). */
typedef struct override {
    const char *key;
    enum value_kind kind;
    bool only_if_present;
    bool used;
    union {
        int64_t i;
        pynum num;
        tl_span span;        /* in the Kineto buffer */
        const char *text;
        struct {
            const sync_ref *items;
            size_t n;
        } list;
    } v;
} override;

typedef struct writer {
    tl_out *out;
    const host_trace *h;
    const kineto_trace *k;
    const link_plan *p;
} writer;

static override ov_int(const char *key, int64_t v)
{
    return (override){.key = key, .kind = V_INT, .v.i = v};
}

static override ov_num(const char *key, pynum v)
{
    return (override){.key = key, .kind = V_PYNUM, .v.num = v};
}

static override ov_dep(const char *key, int64_t id)
{
    if (id == LINK_NO_ID)
        return (override){.key = key, .kind = V_NULL};
    return ov_int(key, id);
}

static void put_value(const writer *w, const override *o)
{
    tl_out *out = w->out;
    const char *kb = w->k->text.data;
    switch (o->kind) {
    case V_INT: tl_out_int64(out, o->v.i); break;
    case V_NULL: tl_out_bytes(out, "null", 4); break;
    case V_PYNUM: tl_out_pynum(out, o->v.num); break;
    case V_KINETO_STRING: tl_out_py_string(out, kb + o->v.span.off, o->v.span.len); break;
    case V_KINETO_VALUE:
        if (o->v.span.len == 0)
            tl_out_bytes(out, "null", 4);
        else
            tl_out_py_value(out, kb + o->v.span.off, o->v.span.len, MEMBER_DEPTH);
        break;
    case V_TEXT:
        tl_out_char(out, '"');
        tl_out_text(out, o->v.text);
        tl_out_char(out, '"');
        break;
    case V_ID_LIST:
        if (o->v.list.n == 0) {
            tl_out_bytes(out, "[]", 2);
            break;
        }
        tl_out_char(out, '[');
        for (size_t i = 0; i < o->v.list.n; i++) {
            if (i)
                tl_out_char(out, ',');
            tl_out_newline(out, MEMBER_DEPTH + 1);
            tl_out_int64(out, o->v.list.items[i].node);
        }
        tl_out_newline(out, MEMBER_DEPTH);
        tl_out_char(out, ']');
        break;
    }
}

static void member_start(tl_out *out, bool *any)
{
    if (*any)
        tl_out_char(out, ',');
    tl_out_newline(out, MEMBER_DEPTH);
    *any = true;
}

/* Re-emits the host node at `n` with the overrides applied. */
static void write_node(const writer *w, const host_node *n, override *ov, size_t n_ov)
{
    tl_out *out = w->out;
    const char *b = w->h->text.data;
    tl_diag quiet;
    tl_diag_init(&quiet, "", TL_ERROR);
    json_scan s;
    js_init(&s, b, n->off + n->len, "", &quiet);
    s.pos = n->off;
    js_iter it;
    tl_span key, value;
    bool any = false;
    tl_out_char(out, '{');
    /* The node was validated when loaded, so the walk cannot fail. */
    js_object_begin(&s, &it);
    while (js_object_next(&s, &it, &key) == 1) {
        js_skip_value(&s, &value);
        member_start(out, &any);
        tl_out_py_string(out, b + key.off, key.len);
        tl_out_bytes(out, ": ", 2);
        override *o = NULL;
        for (size_t i = 0; i < n_ov && !o; i++)
            if (!ov[i].used && js_span_equals(b, key, ov[i].key))
                o = &ov[i];
        if (o) {
            o->used = true;
            put_value(w, o);
        } else {
            tl_out_py_value(out, b + value.off, value.len, MEMBER_DEPTH);
        }
    }
    for (size_t i = 0; i < n_ov; i++) {
        if (ov[i].used || ov[i].only_if_present)
            continue;
        member_start(out, &any);
        tl_out_char(out, '"');
        tl_out_text(out, ov[i].key);
        tl_out_bytes(out, "\": ", 3);
        put_value(w, &ov[i]);
    }
    if (any)
        tl_out_newline(out, NODE_DEPTH);
    tl_out_char(out, '}');
}

/* The sync_dep entries of host node i (a run of the sorted list). */
static void sync_run(const link_plan *p, size_t i, size_t *cursor, const sync_ref **items, size_t *n)
{
    while (*cursor < p->n_sync && p->sync[*cursor].host < i)
        (*cursor)++;
    size_t start = *cursor;
    while (*cursor < p->n_sync && p->sync[*cursor].host == i)
        (*cursor)++;
    *n = *cursor - start;
    /* p->sync is NULL in a trace without sync edges: no pointer arithmetic then */
    *items = *n ? p->sync + start : NULL;
}

static void write_host_node(const writer *w, size_t i, size_t *sync_cursor)
{
    const host_node *n = &w->h->nodes[i];
    const link_plan *p = w->p;
    override ov[8];
    size_t m = 0;
    ov[m++] = ov_int("id", p->new_id[i]);
    if (n->flags & HOST_HAS_CTRL_DEPS) {
        ov[m] = ov_int("ctrl_deps", p->new_ctrl_deps[i]);
        ov[m++].only_if_present = true;
    }
    uint32_t kop = p->kop[i];
    if (kop != K_NONE) {
        const k_cpu_op *op = &w->k->cpu[kop];
        ov[m++] = ov_num("inclusive_dur", op->dur);
        ov[m++] = ov_num("exclusive_dur", op->excl);
        ov[m++] = ov_num("ts", op->ts);
        ov[m++] = ov_dep("inter_thread_dep", p->inter_dep[i]);
        const sync_ref *items;
        size_t n_items;
        sync_run(p, i, sync_cursor, &items, &n_items);
        if (n_items)
            ov[m++] = (override){.key = "sync_dep", .kind = V_ID_LIST, .v.list = {items, n_items}};
    }
    write_node(w, n, ov, m);
}

static void write_gpu_node(const writer *w, size_t i, const k_gpu_op *g, int64_t id)
{
    const link_plan *p = w->p;
    override ov[12];
    size_t m = 0;
    ov[m++] = ov_int("id", id);
    ov[m++] = ov_num("inclusive_dur", g->dur);
    ov[m++] = ov_num("exclusive_dur", g->dur);
    ov[m++] = ov_num("ts", g->ts);
    ov[m++] = ov_dep("inter_thread_dep", p->inter_dep[i]);
    ov[m++] = ov_int("ctrl_deps", p->new_id[i]);
    ov[m++] = (override){.key = "cat", .kind = V_TEXT, .v.text = g->is_memcpy ? "gpu_memcpy" : "kernel"};
    ov[m++] = (override){.key = "name", .kind = V_KINETO_STRING, .v.span = {g->name_off, g->name_len}};
    ov[m++] = (override){.key = "ph", .kind = V_KINETO_VALUE, .v.span = g->ph};
    ov[m++] = (override){.key = "stream", .kind = V_KINETO_VALUE, .v.span = g->stream};
    if ((g->flags & K_NCCL_DEV) && g->pg_name.len)
        ov[m++] = (override){.key = "pg_name", .kind = V_KINETO_VALUE, .v.span = g->pg_name};
    write_node(w, &w->h->nodes[i], ov, m);
}

static void write_nodes(const writer *w)
{
    tl_out *out = w->out;
    const link_plan *p = w->p;
    if (w->p->stats.out_nodes == 0) {
        tl_out_bytes(out, "[]", 2);
        return;
    }
    tl_out_char(out, '[');
    bool first = true;
    size_t sync_cursor = 0;
    for (size_t i = 0; i < w->h->n_nodes; i++) {
        if (!first)
            tl_out_char(out, ',');
        first = false;
        tl_out_newline(out, NODE_DEPTH);
        write_host_node(w, i, &sync_cursor);
        uint32_t kop = p->kop[i];
        if (kop == K_NONE)
            continue;
        for (uint32_t j = p->gpu_begin[kop]; j < p->gpu_begin[kop + 1]; j++) {
            tl_out_char(out, ',');
            tl_out_newline(out, NODE_DEPTH);
            write_gpu_node(w, i, &w->k->gpu[p->gpu_ops[j]], p->new_id[i] + 1 + (j - p->gpu_begin[kop]));
        }
    }
    tl_out_newline(out, NODE_DEPTH - 1);
    tl_out_char(out, ']');
}

void et_plus_write(tl_out *out, const host_trace *h, const kineto_trace *k, const link_plan *p)
{
    writer w = {out, h, k, p};
    const char *b = h->text.data;
    tl_out_char(out, '{');
    for (size_t m = 0; m < h->n_members; m++) {
        const host_member *member = &h->members[m];
        if (m)
            tl_out_char(out, ',');
        tl_out_newline(out, 1);
        tl_out_py_string(out, b + member->key.off, member->key.len);
        tl_out_bytes(out, ": ", 2);
        if (js_span_equals(b, member->key, "nodes"))
            write_nodes(&w);
        else
            tl_out_py_value(out, b + member->value.off, member->value.len, 1);
    }
    if (h->n_members)
        tl_out_newline(out, 0);
    tl_out_char(out, '}');
}
