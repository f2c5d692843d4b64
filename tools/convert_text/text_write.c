/*
 * Serialises the plan once per NPU through the ET library's writer. Names
 * are built once for all NPUs; each node is passed to the writer as a view
 * over the plan, so writing costs no allocation per node, and the NPU files
 * are written in parallel (protobuf packing dominates the run time).
 */
#include "text_write.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <unistd.h>

#include "text_groups.h"
#include "util/grow.h"
#include "vimana/et.h"

/* Node names, indexed by name_slot(): "COMP_NODE_<layer>_<FWD|BWD_IG|BWD_WG>"
 * and "COMM_COLL_NODE_<layer>[_IG_COMM_]_<type token>". */
struct node_names {
    char *pool;
    size_t len, cap;
    size_t *at; /* offset of each name in pool */
};

static size_t name_slot(size_t layer, unsigned phase, bool comm)
{
    return layer * 6 + phase * 2 + (comm ? 1 : 0);
}

/* Appends n bytes of s to the pool. */
static bool pool_add(struct node_names *nn, const char *s, size_t n)
{
    if (grow_array((void **)&nn->pool, &nn->cap, nn->len + n, 1, 4096) != 0)
        return false;
    memcpy(nn->pool + nn->len, s, n);
    nn->len += n;
    return true;
}

/* Appends one NUL-terminated name made of up to five pieces. */
static bool pool_name(struct node_names *nn, size_t slot, const char *const pieces[5])
{
    nn->at[slot] = nn->len;
    for (int k = 0; k < 5; k++)
        if (pieces[k] && !pool_add(nn, pieces[k], strlen(pieces[k])))
            return false;
    return pool_add(nn, "", 1);
}

static void names_free(struct node_names *nn)
{
    free(nn->pool);
    free(nn->at);
}

static int names_build(const struct plan *p, struct node_names *nn)
{
    static const char *const comp_suffix[3] = {"_FWD", "_BWD_IG", "_BWD_WG"};
    memset(nn, 0, sizeof *nn);
    nn->at = calloc(p->w->n_layers * 6 + 1, sizeof *nn->at);
    if (!nn->at)
        return -1;
    for (size_t i = 0; i < p->w->n_layers; i++) {
        const struct text_layer *l = &p->w->layers[i];
        for (unsigned ph = 0; ph < 3; ph++) {
            const char *const comp[5] = {"COMP_NODE_", l->name, comp_suffix[ph], NULL, NULL};
            const char *const comm[5] = {"COMM_COLL_NODE_", l->name, ph == TEXT_IG ? p->ig_comm_infix : "", "_",
                                         l->comm[ph].token};
            if (!pool_name(nn, name_slot(i, ph, false), comp) || !pool_name(nn, name_slot(i, ph, true), comm))
                return -1;
        }
    }
    return 0;
}

/* The reference maps the four known collectives and turns anything else,
 * NONE included, into ALL_REDUCE. */
static int64_t chakra_comm_type(enum text_comm_kind kind)
{
    switch (kind) {
    case TEXT_COMM_ALLTOALL: return VET_ALL_TO_ALL;
    case TEXT_COMM_ALLGATHER: return VET_ALL_GATHER;
    case TEXT_COMM_REDUCESCATTER: return VET_REDUCE_SCATTER;
    default: return VET_ALL_REDUCE;
    }
}

/* HYBRID_TRANSFORMER: the pg_name of NPU `npu`'s collectives per phase. */
struct npu_groups {
    bool used;
    char pg_name[3][24];
};

static struct npu_groups groups_of(const struct text_workload *w, uint64_t npu)
{
    struct npu_groups g = {.used = text_groups_used(w)};
    for (unsigned ph = 0; g.used && ph < 3; ph++)
        snprintf(g.pg_name[ph], sizeof g.pg_name[ph], "%" PRIu64, text_group_id(w, (enum text_phase)ph, npu));
    return g;
}

static int write_nodes(vet_writer *out, const struct plan *p, const struct node_names *nn, uint64_t npu,
                       vet_error *verr)
{
    uint64_t deps[PLAN_DEPS_MAX];
    uint64_t base = npu * (uint64_t)p->n_nodes;
    struct npu_groups groups = groups_of(p->w, npu);
    vet_attr attrs[3] = {
        {.name = "comm_type", .doc_string = "", .kind = VET_INT64},
        {.name = "comm_size", .doc_string = "", .kind = VET_INT64},
        {.name = "pg_name", .doc_string = "", .kind = VET_STRING},
    };
    for (size_t k = 0; k < p->n_nodes; k++) {
        const struct plan_node *pn = &p->nodes[k];
        const struct text_layer *layer = &p->w->layers[pn->layer];
        vet_node node = {
            .id = base + k,
            .name = nn->pool + nn->at[name_slot(pn->layer, pn->phase, pn->comm)],
            .n_data_deps = pn->n_deps,
            .data_deps = deps,
        };
        for (uint8_t d = 0; d < pn->n_deps; d++)
            deps[d] = base + p->deps[pn->deps_at + d];
        if (pn->comm) {
            node.type = VET_COMM_COLL_NODE;
            attrs[0].v.i64 = chakra_comm_type(layer->comm[pn->phase].kind);
            attrs[1].v.i64 = layer->comm[pn->phase].size;
            attrs[2].v.s = groups.pg_name[pn->phase];
            node.n_attrs = groups.used ? 3 : 2;
            node.attrs = attrs;
        } else {
            node.type = VET_COMP_NODE;
            node.duration_micros = layer->compute[pn->phase];
        }
        if (vet_writer_put_node(out, &node, verr) != 0)
            return -1;
    }
    return 0;
}

/* Writes one NPU's file; *created tells whether `path` was created. */
static int write_npu(const struct plan *p, const struct node_names *nn, const vet_metadata *md, const char *path,
                     uint64_t npu, bool *created, struct text_error *err)
{
    vet_error verr;
    vet_writer *out = vet_writer_open(path, &verr);
    *created = out != NULL;
    int rc = out ? 0 : -1;
    if (out && (vet_writer_put_metadata(out, md, &verr) != 0 || write_nodes(out, p, nn, npu, &verr) != 0))
        rc = -1;
    if (out && vet_writer_close(out, rc == 0 ? &verr : NULL) != 0)
        rc = -1;
    if (rc != 0)
        snprintf(err->msg, sizeof err->msg, "%s", verr.msg);
    return rc;
}

static char *npu_path(const char *prefix, uint64_t npu)
{
    size_t n = strlen(prefix) + 32;
    char *path = malloc(n);
    if (path)
        snprintf(path, n, "%s.%" PRIu64 ".et", prefix, npu);
    return path;
}

/* The NPU files are independent, so they are written by a few workers that
 * take the next NPU from a shared counter; everything else is read-only. */
struct write_job {
    const struct plan *p;
    const struct node_names *nn;
    const vet_metadata *md;
    const char *prefix;
    uint64_t npus;
    atomic_uint_fast64_t next;   /* next NPU to write */
    atomic_bool failed;          /* stop taking NPUs */
    unsigned char *created;      /* per NPU: its file was created */
    mtx_t lock;                  /* guards err and err_npu */
    uint64_t err_npu;            /* lowest failed NPU, whose error is kept */
    struct text_error err;
};

static void record_failure(struct write_job *job, uint64_t npu, const struct text_error *err)
{
    atomic_store(&job->failed, true);
    mtx_lock(&job->lock);
    if (npu < job->err_npu) {
        job->err_npu = npu;
        job->err = *err;
    }
    mtx_unlock(&job->lock);
}

static int write_worker(void *arg)
{
    struct write_job *job = arg;
    for (;;) {
        uint64_t k = atomic_fetch_add(&job->next, 1);
        if (k >= job->npus || atomic_load(&job->failed))
            return 0;
        struct text_error err;
        bool created = false;
        char *path = npu_path(job->prefix, k);
        if (!path)
            snprintf(err.msg, sizeof err.msg, "%s: out of memory", job->p->w->path);
        if (!path || write_npu(job->p, job->nn, job->md, path, k, &created, &err) != 0)
            record_failure(job, k, &err);
        job->created[k] = created;
        free(path);
    }
}

static unsigned worker_count(uint64_t npus)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t n = cpus > 0 ? (uint64_t)cpus : 1;
    if (n > 8)
        n = 8;
    return (unsigned)(n < npus ? n : npus);
}

/* Runs write_worker on this thread and up to n - 1 more. */
static void run_workers(struct write_job *job, unsigned n)
{
    thrd_t threads[8];
    unsigned started = 0;
    while (started + 1 < n && thrd_create(&threads[started], write_worker, job) == thrd_success)
        started++;
    write_worker(job);
    for (unsigned t = 0; t < started; t++)
        thrd_join(threads[t], NULL);
}

static void remove_created(const struct write_job *job)
{
    for (uint64_t k = 0; k < job->npus; k++) {
        if (!job->created[k])
            continue;
        char *path = npu_path(job->prefix, k);
        if (path)
            unlink(path);
        free(path);
    }
}

static void remove_groups(const char *prefix, bool grouped)
{
    char *path = grouped ? text_groups_path(prefix) : NULL;
    if (path)
        unlink(path);
    free(path);
}

/* The reference's metadata: no version, the schema, then the input. */
static const vet_metadata *build_metadata(vet_builder *b, const struct text_workload *w)
{
    vet_builder_reset(b, 0, "", VET_INVALID_NODE);
    vet_builder_attr_string(b, "schema", TEXT_SCHEMA);
    vet_builder_attr_string(b, "input_file", w->text);
    const vet_metadata *md = vet_builder_metadata(b);
    return vet_builder_failed(b) ? NULL : md;
}

int text_write_npus(const struct plan *p, const char *prefix, uint64_t npus, struct text_error *err)
{
    struct node_names nn;
    struct write_job job = {.p = p, .nn = &nn, .prefix = prefix, .npus = npus, .err_npu = UINT64_MAX};
    vet_builder *b = vet_builder_new();
    bool named = b && names_build(p, &nn) == 0;
    job.md = named ? build_metadata(b, p->w) : NULL;
    job.created = job.md ? calloc(npus, 1) : NULL;
    int rc = -1;
    bool grouped = text_groups_used(p->w);
    if (!job.created || mtx_init(&job.lock, mtx_plain) != thrd_success) {
        snprintf(err->msg, sizeof err->msg, "%s: out of memory", p->w->path);
    } else if (grouped && text_groups_write(p->w, prefix, err) != 0) {
        mtx_destroy(&job.lock);
    } else {
        atomic_init(&job.next, 0);
        atomic_init(&job.failed, false);
        run_workers(&job, worker_count(npus));
        mtx_destroy(&job.lock);
        rc = atomic_load(&job.failed) ? -1 : 0;
        if (rc != 0) {
            remove_created(&job);
            remove_groups(prefix, grouped);
            *err = job.err;
        }
    }
    free(job.created);
    if (b)
        names_free(&nn);
    vet_builder_free(b);
    return rc;
}
