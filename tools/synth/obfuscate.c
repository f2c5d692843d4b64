#include "synth/obfuscate.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/str_list.h"
#include "synth/jitter.h"
#include "synth/pg_payload.h"
#include "vimana/et.h"

/* core/workload/trace_load.c reads exactly these (docs/synth.md). */
const char *const obfuscate_kept_attrs[] = {
    "is_cpu_op", "comm_type", "comm_size", "comm_priority", "involved_dim", "pg_name",
    "comm_src",  "comm_dst",  "comm_tag",  "num_ops",       "tensor_size", NULL,
};

struct obfuscate_ctx {
    obfuscate_options opt;
    char **groups; /* non-numeric pg_name values, index = new name's number */
    size_t n_groups;
    vet_builder *b;
};

obfuscate_ctx *obfuscate_new(const obfuscate_options *opt)
{
    obfuscate_ctx *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->opt = *opt;
    if (!(c->b = vet_builder_new())) {
        free(c);
        return NULL;
    }
    return c;
}

void obfuscate_free(obfuscate_ctx *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n_groups; i++)
        free(c->groups[i]);
    free(c->groups);
    vet_builder_free(c->b);
    free(c);
}

static bool is_kept(const char *name)
{
    for (size_t i = 0; obfuscate_kept_attrs[i]; i++)
        if (strcmp(name, obfuscate_kept_attrs[i]) == 0)
            return true;
    return false;
}

static const char *kind_prefix(int32_t type)
{
    switch (type) {
    case VET_COMP_NODE: return "comp";
    case VET_COMM_COLL_NODE: return "coll";
    case VET_COMM_SEND_NODE: return "send";
    case VET_COMM_RECV_NODE: return "recv";
    case VET_MEM_LOAD_NODE: return "load";
    case VET_MEM_STORE_NODE: return "store";
    case VET_METADATA_NODE: return "meta";
    default: return "invalid";
    }
}

/* The simulator's test of a group number: empty, or all of it a decimal. */
static bool numeric_group(const char *s)
{
    return *s == '\0' || pg_name_is_number(s);
}

/* The index of a non-numeric group name, added on first sight; -1 on
 * allocation failure. */
static long group_index(obfuscate_ctx *c, const char *name)
{
    for (size_t i = 0; i < c->n_groups; i++)
        if (strcmp(c->groups[i], name) == 0)
            return (long)i;
    if (str_list_append(&c->groups, &c->n_groups, name) != 0)
        return -1;
    return (long)c->n_groups - 1;
}

static bool is_text(enum vet_value_kind kind)
{
    return kind == VET_STRING || kind == VET_STRING_LIST || kind == VET_BYTES || kind == VET_BYTES_LIST;
}

/* Rounds *v up to a multiple of `unit`; -1 when that passes UINT64_MAX. */
static int round_up(uint64_t *v, uint64_t unit)
{
    uint64_t rem = *v % unit;
    if (rem == 0)
        return 0;
    if (*v > UINT64_MAX - (unit - rem))
        return -1;
    *v += unit - rem;
    return 0;
}

static int node_fail(const char *in, const vet_node *n, char *err, size_t err_len, const char *what)
{
    snprintf(err, err_len, "%s: node %" PRIu64 ": %s", in, n->id, what);
    return -1;
}

/* Adds one kept attribute, its doc string dropped, a non-numeric pg_name
 * renamed and a size rounded up. */
static int add_attr(obfuscate_ctx *c, const char *in, const vet_node *n, const vet_attr *a, char *err,
                    size_t err_len)
{
    vet_attr copy = *a;
    copy.doc_string = "";
    char group[32];
    bool is_pg = strcmp(a->name, "pg_name") == 0;
    static const char *const neutral_str = "x";
    static const vet_bytes neutral_bytes = {1, (const uint8_t *)"x"};
    if (is_text(a->kind) && !(is_pg && a->kind == VET_STRING)) {
        /* The simulator refuses text in these attributes; neutral text of
         * the same kind keeps that refusal without carrying the text. */
        switch (a->kind) {
        case VET_STRING: copy.v.s = neutral_str; break;
        case VET_BYTES: copy.v.bytes = neutral_bytes; break;
        case VET_STRING_LIST: copy.v.list = (vet_list){a->v.list.n ? 1 : 0, &neutral_str}; break;
        default: copy.v.list = (vet_list){a->v.list.n ? 1 : 0, &neutral_bytes}; break;
        }
    } else if (is_pg && a->kind == VET_STRING && !numeric_group(a->v.s)) {
        long g = group_index(c, a->v.s);
        if (g < 0)
            return node_fail(in, n, err, err_len, "out of memory");
        snprintf(group, sizeof group, "g%ld", g);
        copy.v.s = group;
    }
    uint64_t size;
    if (c->opt.round_sizes > 1 && (strcmp(a->name, "comm_size") == 0 || strcmp(a->name, "tensor_size") == 0) &&
        vet_attr_uint64(a, &size) == VET_ATTR_OK) {
        if (round_up(&size, c->opt.round_sizes) != 0) {
            char msg[128];
            snprintf(msg, sizeof msg, "%s %" PRIu64 " rounded up to a multiple of %" PRIu64 " is out of range",
                     a->name, size, c->opt.round_sizes);
            return node_fail(in, n, err, err_len, msg);
        }
        /* The rounded size keeps an integer kind wide enough for it. */
        copy.kind = VET_UINT64;
        copy.v.u64 = size;
    }
    vet_builder_add_attr(c->b, &copy);
    return 0;
}

/* Adds the process groups of a METADATA node, reduced to what the
 * simulator registers. */
static int add_groups(obfuscate_ctx *c, const char *in, const vet_node *n, char *err, size_t err_len)
{
    if (n->type != VET_METADATA_NODE || !n->inputs || !n->inputs->values[0])
        return 0;
    int oom;
    char *payload = pg_payload_reduce(n->inputs->values, &oom);
    if (oom)
        return node_fail(in, n, err, err_len, "out of memory");
    if (payload)
        vet_builder_set_inputs(c->b, payload, "", "");
    free(payload);
    return 0;
}

static int build_node(obfuscate_ctx *c, const char *in, uint64_t rank, const vet_node *n, char *err,
                      size_t err_len)
{
    char name[48];
    snprintf(name, sizeof name, "%s_%" PRIu64, kind_prefix(n->type), n->id);
    vet_builder_reset(c->b, n->id, name, (enum vet_node_type)n->type);
    vet_builder_set_duration(c->b, jitter_apply(n->duration_micros, c->opt.jitter, c->opt.seed, rank, n->id));
    for (size_t i = 0; i < n->n_data_deps; i++)
        vet_builder_add_data_dep(c->b, n->data_deps[i]);
    for (size_t i = 0; i < n->n_ctrl_deps; i++)
        vet_builder_add_ctrl_dep(c->b, n->ctrl_deps[i]);
    for (size_t i = 0; i < n->n_attrs; i++)
        if (is_kept(n->attrs[i].name) && add_attr(c, in, n, &n->attrs[i], err, err_len) != 0)
            return -1;
    if (add_groups(c, in, n, err, err_len) != 0)
        return -1;
    if (vet_builder_failed(c->b))
        return node_fail(in, n, err, err_len, "out of memory");
    return 0;
}

/* Copies every node; returns 0 or -1 with err set. */
static int copy_nodes(obfuscate_ctx *c, vet_reader *r, vet_writer *w, const char *in, uint64_t rank, char *err,
                      size_t err_len)
{
    const vet_node *n;
    vet_error ve;
    int rc;
    while ((rc = vet_reader_next(r, &n, &ve)) == 1) {
        if (build_node(c, in, rank, n, err, err_len) != 0)
            return -1;
        if (vet_writer_put_node(w, vet_builder_node(c->b), &ve) != 0)
            break;
    }
    if (rc == 0)
        return 0;
    snprintf(err, err_len, "%s", ve.msg);
    return -1;
}

int obfuscate_file(obfuscate_ctx *c, const char *in, const char *out, uint64_t rank, char *err, size_t err_len)
{
    vet_error ve;
    vet_reader *r = vet_reader_open(in, &ve);
    if (!r) {
        snprintf(err, err_len, "%s", ve.msg);
        return -1;
    }
    vet_writer *w = vet_writer_open(out, &ve);
    if (!w) {
        snprintf(err, err_len, "%s", ve.msg);
        vet_reader_close(r);
        return -1;
    }
    /* The simulator reads no metadata; the version names the schema this
     * writer uses, not the source's (which may be a private string). */
    vet_metadata md = {.version = OBFUSCATE_VERSION, .n_attrs = 0, .attrs = NULL};
    int rc = vet_writer_put_metadata(w, &md, &ve);
    if (rc != 0)
        snprintf(err, err_len, "%s", ve.msg);
    else
        rc = copy_nodes(c, r, w, in, rank, err, err_len);
    vet_reader_close(r);
    if (vet_writer_close(w, &ve) != 0 && rc == 0) {
        snprintf(err, err_len, "%s", ve.msg);
        rc = -1;
    }
    if (rc != 0)
        remove(out);
    return rc;
}
