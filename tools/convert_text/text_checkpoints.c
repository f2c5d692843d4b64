/*
 * HYBRID_TRANSFORMER_FWD_IN_BCKWD's activation checkpoints, from line 1:
 * `[model_parallel_NPU_group: G] checkpoints: K l1 .. lK
 * checkpoint_initiates: K l1 .. lK`. ASTRA-sim 1.0, on reaching an
 * initiating layer t in the backward pass, walks down to the nearest
 * checkpoint c <= t and re-runs the forward pass from c until the next
 * initiating layer above c. Inputs on which that walk runs off the first
 * layer, or stops before t, are refused here rather than converted into
 * something ASTRA-sim 1.0 would not run.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "text_fields.h"
#include "text_workload.h"

#define MODE "HYBRID_TRANSFORMER_FWD_IN_BCKWD"

struct params {
    struct text_field *f;
    size_t n;
};

/* Index of the field `key`, or n when it is absent. */
static size_t find_key(const struct params *p, const char *key)
{
    for (size_t k = 0; k < p->n; k++)
        if (p->f[k].len == strlen(key) && memcmp(p->f[k].start, key, p->f[k].len) == 0)
            return k;
    return p->n;
}

/* At most 32 bytes of a field, for messages. */
#define SHOWN(f) (int)((f)->len > 32 ? 32 : (f)->len), (f)->start

static void set_flag(struct text_layer *l, bool initiates)
{
    if (initiates)
        l->initiates = true;
    else
        l->checkpoint = true;
}

/* Reads `key K l1 .. lK` and flags each listed layer. */
static int read_list(struct text_workload *w, const struct params *p, const char *key, bool initiates,
                     struct text_error *err)
{
    size_t at = find_key(p, key) + 1;
    uint64_t count;
    if (at > p->n)
        return text_fail(err, w->path, 1, "expected '%s' followed by a count and that many layer indices (" MODE ")",
                         key);
    if (at == p->n)
        return text_fail(err, w->path, 1, "expected the number of layer indices after '%s', got end of line", key);
    if (text_parse_u64(p->f[at].start, p->f[at].len, p->n - at - 1, &count) != TEXT_INT_OK)
        return text_fail(err, w->path, 1,
                         "expected the number of layer indices after '%s' (at most the %zu fields that follow), got "
                         "'%.*s'",
                         key, p->n - at - 1, SHOWN(&p->f[at]));
    for (size_t k = at + 1; k <= at + count; k++) {
        uint64_t layer;
        if (text_parse_u64(p->f[k].start, p->f[k].len, UINT64_MAX, &layer) != TEXT_INT_OK || layer >= w->n_layers)
            return text_fail(err, w->path, 1, "expected a layer index (0 to %zu) after '%s', got '%.*s'",
                             w->n_layers ? w->n_layers - 1 : 0, key, SHOWN(&p->f[k]));
        set_flag(&w->layers[layer], initiates);
    }
    return 0;
}

size_t text_checkpoint_below(const struct text_workload *w, size_t layer)
{
    while (!w->layers[layer].checkpoint)
        layer--; /* text_checkpoints_mark() made sure one exists */
    return layer;
}

/* Every initiating layer t needs a checkpoint c < t with no other
 * initiating layer in (c, t): ASTRA-sim 1.0's re-run stops at the first. */
static int check_reruns(const struct text_workload *w, struct text_error *err)
{
    for (size_t t = 0; t < w->n_layers; t++) {
        if (!w->layers[t].initiates)
            continue;
        size_t c = t;
        while (c > 0 && !w->layers[c].checkpoint)
            c--;
        if (!w->layers[c].checkpoint || c == t)
            return text_fail(err, w->path, 1,
                             "layer %zu initiates a forward re-run but no checkpoint layer is below it (" MODE ")", t);
        for (size_t k = c + 1; k < t; k++)
            if (w->layers[k].initiates)
                return text_fail(err, w->path, 1,
                                 "layer %zu re-runs layers %zu to %zu from its checkpoint, but layer %zu in between "
                                 "initiates its own re-run (" MODE " would stop there)",
                                 t, c, t - 1, k);
    }
    return 0;
}

int text_checkpoints_mark(struct text_workload *w, struct text_error *err)
{
    struct params p = {0};
    if (w->params)
        p.n = text_split_fields(w->params, w->params_len, NULL, 0);
    p.f = p.n ? calloc(p.n, sizeof *p.f) : NULL;
    if (p.n && !p.f)
        return text_fail(err, w->path, 1, "out of memory");
    if (p.n)
        text_split_fields(w->params, w->params_len, p.f, p.n);
    int rc = read_list(w, &p, "checkpoints:", false, err);
    if (rc == 0)
        rc = read_list(w, &p, "checkpoint_initiates:", true, err);
    if (rc == 0)
        rc = check_reruns(w, err);
    free(p.f);
    return rc;
}
