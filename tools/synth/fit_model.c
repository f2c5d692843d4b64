#include "synth/fit_model.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "synth/dist.h"
#include "synth/fit_skeleton.h"

struct fit_model {
    uint64_t sets, files, nodes;
    uint64_t count[FIT_KINDS];
    dist_values duration[FIT_KINDS];
    dist_values size[FIT_KINDS];
    uint64_t transition[FIT_KINDS][FIT_KINDS];
    int prev; /* kind of the previous node of this file, -1 at its start */
    uint64_t fanin[FIT_FANIN_MAX];
    dist_values distance;
    fit_skeleton *skeleton;
};

fit_model *fit_model_new(const comm_groups *groups)
{
    fit_model *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->prev = -1;
    if (!(m->skeleton = fit_skeleton_new(groups))) {
        free(m);
        return NULL;
    }
    return m;
}

void fit_model_free(fit_model *m)
{
    if (!m)
        return;
    for (size_t k = 0; k < FIT_KINDS; k++) {
        free(m->duration[k].v);
        free(m->size[k].v);
    }
    free(m->distance.v);
    fit_skeleton_free(m->skeleton);
    free(m);
}


enum fit_kind fit_kind_of(const vet_node *n)
{
    bool cpu = false;
    int64_t coll;
    switch (n->type) {
    case VET_COMP_NODE:
        vet_node_bool(n, "is_cpu_op", false, &cpu);
        return cpu ? FIT_COMP_CPU : FIT_COMP_GPU;
    case VET_COMM_SEND_NODE: return FIT_SEND;
    case VET_COMM_RECV_NODE: return FIT_RECV;
    case VET_MEM_LOAD_NODE: return FIT_LOAD;
    case VET_MEM_STORE_NODE: return FIT_STORE;
    case VET_METADATA_NODE: return FIT_METADATA;
    case VET_COMM_COLL_NODE:
        if (vet_node_int64(n, "comm_type", -1, &coll) == VET_ATTR_OK && vet_coll_type_name(coll))
            return (enum fit_kind)(FIT_COLL_FIRST + coll);
        return FIT_COLL_OTHER;
    default: return FIT_INVALID;
    }
}

const char *fit_kind_name(enum fit_kind k)
{
    static const char *const base[FIT_COLL_FIRST] = {"comp_gpu", "comp_cpu", "send", "recv",
                                                     "load", "store", "metadata", "invalid"};
    static const char *const coll[] = {"coll_all_reduce", "coll_reduce", "coll_all_gather", "coll_gather",
                                       "coll_scatter", "coll_broadcast", "coll_all_to_all",
                                       "coll_reduce_scatter", "coll_reduce_scatter_block", "coll_barrier"};
    if (k < FIT_COLL_FIRST)
        return base[k];
    if (k < FIT_COLL_OTHER)
        return coll[k - FIT_COLL_FIRST];
    return "coll_other";
}

int fit_model_begin_file(fit_model *m, size_t rank, size_t n_ranks, int64_t peer_shift)
{
    m->files++;
    m->sets += rank == 0 ? 1 : 0;
    m->prev = -1;
    return fit_skeleton_begin_file(m->skeleton, rank, n_ranks, peer_shift);
}

int fit_model_end_file(fit_model *m)
{
    return fit_skeleton_end_file(m->skeleton);
}

/* The size a node moves: comm_size for communication, tensor_size for
 * memory nodes; false when it has none. */
bool fit_node_size(const vet_node *n, enum fit_kind k, uint64_t *size)
{
    if (k == FIT_LOAD || k == FIT_STORE)
        return vet_node_uint64(n, "tensor_size", 0, size) == VET_ATTR_OK;
    if (k == FIT_SEND || k == FIT_RECV || k >= FIT_COLL_FIRST)
        return vet_node_uint64(n, "comm_size", 0, size) == VET_ATTR_OK;
    return false;
}

static int add_deps(fit_model *m, const vet_node *n)
{
    size_t fanin = n->n_data_deps + n->n_ctrl_deps;
    m->fanin[fanin < FIT_FANIN_MAX ? fanin : FIT_FANIN_MAX - 1]++;
    for (size_t i = 0; i < n->n_data_deps + n->n_ctrl_deps; i++) {
        uint64_t dep = i < n->n_data_deps ? n->data_deps[i] : n->ctrl_deps[i - n->n_data_deps];
        if (dist_values_push(&m->distance, n->id > dep ? n->id - dep : dep - n->id) != 0)
            return -1;
    }
    return 0;
}

int fit_model_add(fit_model *m, const vet_node *n)
{
    enum fit_kind k = fit_kind_of(n);
    uint64_t size;
    m->nodes++;
    m->count[k]++;
    if (m->prev >= 0)
        m->transition[m->prev][k]++;
    m->prev = (int)k;
    if (dist_values_push(&m->duration[k], n->duration_micros) != 0)
        return -1;
    if (fit_node_size(n, k, &size) && dist_values_push(&m->size[k], size) != 0)
        return -1;
    if (fit_skeleton_add(m->skeleton, n, (int)k) != 0)
        return -1;
    return add_deps(m, n);
}

/* A distribution (synth/dist.h): {"values": [[v, count], ...]} or
 * {"quantiles": [101 points]}. */
static void write_dist(sink *s, dist_values *v)
{
    fit_write_dist(s, v->v, v->n);
}

void fit_write_dist(sink *s, uint64_t *v, size_t n)
{
    dist d;
    dist_sort(v, n);
    dist_from_sorted(&d, v, n);
    if (d.n_pairs) {
        sink_puts(s, "{\"values\": [");
        for (size_t i = 0; i < d.n_pairs; i++)
            sink_printf(s, "%s[%" PRIu64 ", %" PRIu64 "]", i ? ", " : "", d.value[i], d.count[i]);
    } else {
        sink_puts(s, "{\"quantiles\": [");
        for (size_t q = 0; q < DIST_QUANTILES; q++)
            sink_printf(s, "%s%" PRIu64, q ? ", " : "", d.quantile[q]);
    }
    sink_puts(s, "]}");
}

static void write_kind(fit_model *m, sink *s, enum fit_kind k)
{
    sink_printf(s, "    \"%s\": {\"count\": %" PRIu64 ", \"share\": %.6f", fit_kind_name(k), m->count[k],
                (double)m->count[k] / (double)m->nodes);
    sink_puts(s, ",\n      \"duration_micros\": ");
    write_dist(s, &m->duration[k]);
    if (m->size[k].n) {
        sink_puts(s, ",\n      \"size_bytes\": ");
        write_dist(s, &m->size[k]);
    }
    sink_puts(s, ",\n      \"next\": {");
    bool first = true;
    for (size_t j = 0; j < FIT_KINDS; j++)
        if (m->transition[k][j]) {
            sink_printf(s, "%s\"%s\": %" PRIu64, first ? "" : ", ", fit_kind_name((enum fit_kind)j),
                        m->transition[k][j]);
            first = false;
        }
    sink_puts(s, "}}");
}

int fit_model_write(fit_model *m, sink *s)
{
    /* No source paths: a file name can itself reveal the model. */
    sink_printf(s, "{\n  \"format\": \"vimana-synth-model\",\n  \"version\": %d,\n  \"sets\": %" PRIu64 ",\n  \"files\": %" PRIu64 ",\n  \"nodes\": %" PRIu64
                   ",\n  \"kinds\": {\n", FIT_MODEL_VERSION, m->sets, m->files, m->nodes);
    bool first = true;
    for (size_t k = 0; k < FIT_KINDS; k++)
        if (m->count[k]) {
            sink_puts(s, first ? "" : ",\n");
            write_kind(m, s, (enum fit_kind)k);
            first = false;
        }
    sink_puts(s, "\n  },\n  \"fan_in\": [");
    for (size_t i = 0; i < FIT_FANIN_MAX; i++)
        sink_printf(s, "%s%" PRIu64, i ? ", " : "", m->fanin[i]);
    sink_puts(s, "],\n  \"dependency_id_distance\": ");
    if (m->distance.n)
        write_dist(s, &m->distance);
    else
        sink_puts(s, "null");
    if (fit_skeleton_write(m->skeleton, s) != 0)
        return -1;
    sink_puts(s, "\n}\n");
    return 0;
}
