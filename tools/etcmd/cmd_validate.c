/* `vimana-et validate`: structural checks of one ET or a whole prefix.
 * Each file is streamed once, keeping only ids, dependencies and the
 * point-to-point nodes; names are fetched by a second pass only for nodes
 * that a graph problem has to name. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "etcmd/cmd_io.h"
#include "etcmd/depgraph.h"
#include "etcmd/et_files.h"
#include "etcmd/p2p_match.h"
#include "etcmd/p2p_roles.h"
#include "util/grow.h"
#include "util/msg_escape.h"
#include "vimana-et/commands.h"
#include "vimana/et.h"

#define PROG "vimana-et validate"
#define MAX_CYCLES_REPORTED 20

static const char usage[] =
    "Usage: vimana-et validate PREFIX_OR_FILE\n"
    "Check one ET, or PREFIX.0.et, PREFIX.1.et, ... up to the first missing rank\n"
    "(PREFIX.k.et.gz where PREFIX.k.et is absent):\n"
    "  - every node type is known; INVALID_NODE nodes get one warning line per file\n"
    "    (the simulator runs them as zero-time nodes) and do not fail the check\n"
    "  - every data and control dependency names a node of the same file\n"
    "  - there is no dependency cycle (printed as ids in execution order)\n"
    "  - node ids are unique within a file\n"
    "  - COMM_COLL nodes carry comm_type (a known collective) and comm_size;\n"
    "    COMM_SEND nodes comm_dst, comm_tag and comm_size (comm_src defaults to\n"
    "    the rank); COMM_RECV nodes comm_src, comm_tag and comm_size (comm_dst\n"
    "    defaults to the rank); communication nodes are not CPU ops\n"
    "  - for a prefix: every COMM_SEND has a matching COMM_RECV on its destination\n"
    "    rank (same source, destination, tag and size), and vice versa\n"
    "A compact workload (PREFIX.roles.json, from generate transformer --single-file)\n"
    "checks each role's trace once, and its sends and receives as every rank of the\n"
    "role runs them (peers relabelled to the rank): every peer is a rank, and every\n"
    "COMM_SEND meets a COMM_RECV on its destination rank's trace, and vice versa.\n"
    "Prints one line per problem (FILE: node ID (NAME): problem) and exits 1, or a\n"
    "summary line and exits 0.\n";

enum gp_kind { GP_MISSING_DATA, GP_MISSING_CTRL, GP_CYCLE };

typedef struct graph_problem {
    enum gp_kind kind;
    uint32_t node;
    uint64_t missing_id;
    size_t cycle_off, cycle_len;   /* ids in vctx.cycle_ids */
} graph_problem;

typedef struct vctx {
    const et_files *files;
    const char *path;       /* the file being checked, as problems name it */
    const char *file_path;  /* ... and where it is read (a master trace's ranks: a split copy) */
    size_t file;            /* its index */
    long rank;              /* its rank (a compact workload: the rank its trace was written for), or -1 */
    bool ranked;            /* a prefix or a compact workload: peers are ranks of it */
    size_t n_ranks;
    long problems;
    unsigned long long nodes;
    int oom;
    p2p_set p2p;            /* sends and receives of the whole prefix */
    /* Per file: */
    uint64_t n_invalid;     /* INVALID_NODE nodes: a warning, not a problem */
    uint64_t first_invalid_id;
    char *first_invalid_name;
    depgraph g;
    graph_problem *gp;
    size_t n_gp, cap_gp;
    uint64_t *cycle_ids;
    size_t n_cycle_ids, cap_cycle_ids;
} vctx;

static void node_problem(vctx *v, const char *path, uint64_t id, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static void node_problem(vctx *v, const char *path, uint64_t id, const char *name, const char *fmt, ...)
{
    va_list ap;
    char quoted[256];
    /* A name may hold newlines or other control bytes: escaped, so each
     * problem stays one line. */
    fprintf(stderr, "%s: node %" PRIu64 " (%s): ", path, id, msg_escape(name, quoted, sizeof quoted));
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    v->problems++;
}

/* ---- per-node checks ---------------------------------------------------- */

static const char *kind_name(const vet_attr *a)
{
    const char *k = vet_value_kind_name(a->kind);
    return k ? k : "(no value)";
}

/* Reads an integer attribute. Returns 1 with *out, 0 when absent (a
 * problem if required), -1 when present but not a usable integer. */
static int int_attr(vctx *v, const vet_node *n, const char *name, int required, int64_t *out)
{
    const vet_attr *a = vet_node_attr(n, name);
    const char *type = vet_node_type_name(n->type);
    if (!a) {
        if (required)
            node_problem(v, v->path, n->id, n->name, "%s without %s", type, name);
        return 0;
    }
    if (vet_attr_int64(a, out) != VET_ATTR_OK) {
        uint64_t big;
        if (vet_attr_uint64(a, &big) == VET_ATTR_OK)
            node_problem(v, v->path, n->id, n->name, "%s %" PRIu64 " is out of range", name, big);
        else
            node_problem(v, v->path, n->id, n->name, "%s has kind %s, expected an integer", name, kind_name(a));
        return -1;
    }
    return 1;
}

static int size_attr(vctx *v, const vet_node *n, uint64_t *out)
{
    int64_t size;
    int rc = int_attr(v, n, "comm_size", 1, &size);
    if (rc == 1 && size < 0) {
        node_problem(v, v->path, n->id, n->name, "comm_size is negative (%" PRId64 ")", size);
        return -1;
    }
    *out = (uint64_t)size;
    return rc;
}

static void check_collective(vctx *v, const vet_node *n)
{
    int64_t type;
    uint64_t size;
    if (int_attr(v, n, "comm_type", 1, &type) == 1 && !vet_coll_type_name(type))
        node_problem(v, v->path, n->id, n->name, "unknown comm_type %" PRId64 " (expected 0-%d)", type,
                     VET_COLL_TYPE_MAX);
    size_attr(v, n, &size);
}

/* A peer rank attribute: must be a rank of the prefix when there is one. */
static int peer_ok(vctx *v, const vet_node *n, const char *name, int64_t rank)
{
    if (rank < 0 || rank > INT32_MAX) {
        node_problem(v, v->path, n->id, n->name, "%s %" PRId64 " is not a rank", name, rank);
        return 0;
    }
    if (v->ranked && (size_t)rank >= v->n_ranks) {
        node_problem(v, v->path, n->id, n->name, "%s %" PRId64 " is not a rank of this %s (it has %zu)", name, rank,
                     v->files->is_prefix ? "prefix" : "compact workload", v->n_ranks);
        return 0;
    }
    return 1;
}

static void check_p2p(vctx *v, const vet_node *n, int send)
{
    /* The simulator defaults the own side (comm_src of a SEND, comm_dst of
     * a RECV) to the rank and requires it to equal the rank. */
    const char *own_name = send ? "comm_src" : "comm_dst";
    const char *peer_name = send ? "comm_dst" : "comm_src";
    int64_t own = v->rank, peer = 0, tag = 0;
    uint64_t size = 0;
    int own_rc = int_attr(v, n, own_name, 0, &own);
    int peer_rc = int_attr(v, n, peer_name, 1, &peer);
    int tag_rc = int_attr(v, n, "comm_tag", 1, &tag);
    int size_rc = size_attr(v, n, &size);
    if (own_rc == 1 && v->rank >= 0 && own != v->rank) {
        node_problem(v, v->path, n->id, n->name, "%s %" PRId64 " is not this file's rank %ld", own_name,
                     own, v->rank);
        own_rc = -1;
    }
    if (own_rc < 0 || peer_rc != 1 || tag_rc != 1 || size_rc != 1 || !peer_ok(v, n, peer_name, peer))
        return;
    if (!v->ranked)
        return;
    p2p_entry e = {
        .src = send ? v->rank : peer, .dst = send ? peer : v->rank, .tag = tag, .size = size,
        .rank = (uint32_t)v->file, .send = send, .id = n->id,
    };
    if (p2p_add(&v->p2p, &e, n->name) != 0)
        v->oom = 1;
}

static void check_node(vctx *v, const vet_node *n)
{
    const char *type = vet_node_type_name(n->type);
    if (!type) {
        node_problem(v, v->path, n->id, n->name, "unknown node type %" PRId32, n->type);
        return;
    }
    if (n->type == VET_INVALID_NODE) {
        /* One rule with the simulator, which runs them as zero-time nodes:
         * counted here, one warning per file after the pass. */
        if (v->n_invalid++ == 0) {
            v->first_invalid_id = n->id;
            if (!(v->first_invalid_name = strdup(n->name)))
                v->oom = 1;
        }
        return;
    }
    bool cpu = false;
    int is_comm = n->type == VET_COMM_COLL_NODE || n->type == VET_COMM_SEND_NODE || n->type == VET_COMM_RECV_NODE;
    const vet_attr *cpu_attr = vet_node_attr(n, "is_cpu_op");
    if (cpu_attr && vet_attr_bool(cpu_attr, &cpu) != VET_ATTR_OK)
        node_problem(v, v->path, n->id, n->name, "is_cpu_op has kind %s, expected bool_val", kind_name(cpu_attr));
    else if (is_comm && cpu)
        node_problem(v, v->path, n->id, n->name, "%s with is_cpu_op true (the simulator refuses it)", type);
    const vet_attr *dims = vet_node_attr(n, "involved_dim");
    if (dims && dims->kind != VET_BOOL_LIST)
        node_problem(v, v->path, n->id, n->name, "involved_dim has kind %s, expected bool_list", kind_name(dims));
    if (n->type == VET_COMM_COLL_NODE)
        check_collective(v, n);
    else if (n->type == VET_COMM_SEND_NODE)
        check_p2p(v, n, 1);
    else if (n->type == VET_COMM_RECV_NODE)
        check_p2p(v, n, 0);
}

/* ---- dependency checks -------------------------------------------------- */

static int add_graph_problem(vctx *v, graph_problem p)
{
    if (grow_array((void **)&v->gp, &v->cap_gp, v->n_gp + 1, sizeof *v->gp, 64) != 0) {
        v->oom = 1;
        return -1;
    }
    v->gp[v->n_gp++] = p;
    return 0;
}

static void on_missing(void *ctx, uint32_t node, int is_ctrl, uint64_t parent)
{
    vctx *v = ctx;
    add_graph_problem(v, (graph_problem){.kind = is_ctrl ? GP_MISSING_CTRL : GP_MISSING_DATA,
                                         .node = node, .missing_id = parent});
}

static void on_cycle(void *ctx, const uint32_t *nodes, size_t len)
{
    vctx *v = ctx;
    if (grow_array((void **)&v->cycle_ids, &v->cap_cycle_ids, v->n_cycle_ids + len, sizeof *v->cycle_ids, 64) != 0) {
        v->oom = 1;
        return;
    }
    for (size_t i = 0; i < len; i++)
        v->cycle_ids[v->n_cycle_ids + i] = v->g.ids[nodes[i]];
    add_graph_problem(v, (graph_problem){.kind = GP_CYCLE, .node = nodes[0],
                                         .cycle_off = v->n_cycle_ids, .cycle_len = len});
    v->n_cycle_ids += len;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Second pass: the names of the nodes at the given (sorted, unique) file
 * positions (one allocation per named node; only problem nodes are named).
 * A name that cannot be fetched reads as "?". */
static char **fetch_names(const char *path, const uint32_t *want, size_t n_want)
{
    char **names = calloc(n_want ? n_want : 1, sizeof *names);
    if (!names)
        return NULL;
    vet_error err;
    vet_reader *r = vet_reader_open(path, &err);
    if (r) {
        vet_reader_accept_unknown_types(r, true);
        const vet_node *node;
        size_t j = 0;
        for (uint32_t k = 0; j < n_want && vet_reader_next(r, &node, &err) == 1; k++)
            if (k == want[j])
                names[j++] = strdup(node->name);
        vet_reader_close(r);
    }
    return names;
}

static const char *name_of(uint32_t node, const uint32_t *want, char **names, size_t n_want)
{
    const uint32_t *hit = bsearch(&node, want, n_want, sizeof *want, cmp_u32);
    const char *name = hit ? names[hit - want] : NULL;
    return name ? name : "?";
}

static void print_graph_problem(vctx *v, const graph_problem *p, const char *name)
{
    uint64_t id = v->g.ids[p->node];
    if (p->kind != GP_CYCLE) {
        node_problem(v, v->path, id, name, "%s dependency on missing node %" PRIu64,
                     p->kind == GP_MISSING_DATA ? "data" : "control", p->missing_id);
        return;
    }
    char line[1024];
    size_t len = 0;
    for (size_t i = 0; i < p->cycle_len && len < sizeof line - 64; i++)
        len += (size_t)snprintf(line + len, sizeof line - len, "%s%" PRIu64, i ? " -> " : "",
                                v->cycle_ids[p->cycle_off + i]);
    if (len >= sizeof line - 64)
        snprintf(line + len, sizeof line - len, " -> ... (%zu nodes)", p->cycle_len - 1);
    node_problem(v, v->path, id, name, "cycle: %s", line);
}

static void report_graph_problems(vctx *v)
{
    if (v->n_gp == 0)
        return;
    uint32_t *want = malloc(v->n_gp * sizeof *want);
    if (!want) {
        v->oom = 1;
        return;
    }
    for (size_t i = 0; i < v->n_gp; i++)
        want[i] = v->gp[i].node;
    qsort(want, v->n_gp, sizeof *want, cmp_u32);
    size_t n_want = 0;
    for (size_t i = 0; i < v->n_gp; i++)
        if (n_want == 0 || want[n_want - 1] != want[i])
            want[n_want++] = want[i];
    char **names = fetch_names(v->file_path, want, n_want);
    for (size_t i = 0; i < v->n_gp; i++)
        print_graph_problem(v, &v->gp[i], names ? name_of(v->gp[i].node, want, names, n_want) : "?");
    for (size_t i = 0; names && i < n_want; i++)
        free(names[i]);
    free(names);
    free(want);
}

static void check_graph(vctx *v)
{
    depgraph_resolve(&v->g, on_missing, v);
    long cycles = depgraph_find_cycles(&v->g, MAX_CYCLES_REPORTED, on_cycle, v);
    if (cycles < 0)
        v->oom = 1;
    report_graph_problems(v);
    if (cycles > MAX_CYCLES_REPORTED) {
        fprintf(stderr, "%s: %ld more dependency cycles not shown\n", v->path, cycles - MAX_CYCLES_REPORTED);
        v->problems++;
    }
}

/* ---- one file ----------------------------------------------------------- */

static void warn_invalid_nodes(vctx *v)
{
    char name[128];
    if (v->n_invalid)
        fprintf(stderr, "%s: warning: %" PRIu64 " INVALID_NODE node%s (the first: node %" PRIu64 " (%s)); the "
                        "simulator runs %s\n", v->path, v->n_invalid, v->n_invalid == 1 ? "" : "s",
                v->first_invalid_id, msg_escape(v->first_invalid_name, name, sizeof name),
                v->n_invalid == 1 ? "it as a zero-time node" : "them as zero-time nodes");
    free(v->first_invalid_name);
    v->first_invalid_name = NULL;
    v->n_invalid = 0;
}

static void add_to_graph(vctx *v, const vet_node *n)
{
    uint32_t first;
    int rc = depgraph_add(&v->g, n->id, n->data_deps, n->n_data_deps, n->ctrl_deps, n->n_ctrl_deps, &first);
    if (rc < 0)
        v->oom = 1;
    else if (rc == 0)
        node_problem(v, v->path, n->id, n->name, "duplicate node id (first used by record %" PRIu64 ")",
                     (uint64_t)first + 1);
}

static void validate_file(vctx *v, size_t index)
{
    vet_error err;
    v->path = et_files_shown(v->files, index);
    v->file_path = v->files->paths[index];
    v->file = index;
    v->rank = v->files->is_prefix ? (long)index
              : v->files->roles.n_roles ? (long)v->files->roles.roles[index].rank : -1;
    vet_reader *r = vet_reader_open(v->file_path, &err);
    if (!r) {
        fprintf(stderr, "%s\n", err.msg);
        v->problems++;
        return;
    }
    vet_reader_accept_unknown_types(r, true);
    depgraph_init(&v->g);
    v->n_gp = v->n_cycle_ids = 0;
    const vet_node *n;
    int rc;
    while (!v->oom && (rc = vet_reader_next(r, &n, &err)) == 1) {
        v->nodes++;
        check_node(v, n);
        add_to_graph(v, n);
    }
    if (!v->oom && rc < 0) {
        /* A damaged file: its graph is incomplete, so dependency checks
         * would only add noise. */
        fprintf(stderr, "%s\n", err.msg);
        v->problems++;
    } else if (!v->oom) {
        if (vet_reader_empty_records(r))
            fprintf(stderr, "%s: warning: %" PRIu64 " zero-length record(s) (read as all-default nodes; "
                            "Python readers stop at the first)\n", v->path, vet_reader_empty_records(r));
        warn_invalid_nodes(v);
        check_graph(v);
    }
    free(v->first_invalid_name);
    v->first_invalid_name = NULL;
    v->n_invalid = 0;
    vet_reader_close(r);
    depgraph_free(&v->g);
}

/* ---- send/recv matching across a prefix --------------------------------- */

static void unmatched(void *ctx, const p2p_entry *e, const char *name)
{
    vctx *v = ctx;
    const char *path = et_files_shown(v->files, e->rank);
    if (e->send)
        node_problem(v, path, e->id, name,
                     "COMM_SEND to rank %" PRId64 " (tag %" PRId64 ", %" PRIu64 " bytes) has no matching "
                     "COMM_RECV in %s", e->dst, e->tag, e->size, et_files_shown(v->files, e->dst));
    else
        node_problem(v, path, e->id, name,
                     "COMM_RECV from rank %" PRId64 " (tag %" PRId64 ", %" PRIu64 " bytes) has no matching "
                     "COMM_SEND in %s", e->src, e->tag, e->size, et_files_shown(v->files, e->src));
}

/* A compact workload's message some rank's copy leaves without a partner
 * (or whose peer is no rank at all). */
static void unmatched_role(void *ctx, const p2p_entry *e, const char *name, uint32_t x, int64_t peer)
{
    vctx *v = ctx;
    const vet_roles *m = &v->files->roles;
    const char *path = v->files->paths[e->rank];
    const char *kind = e->send ? "COMM_SEND to" : "COMM_RECV from";
    int64_t written = e->send ? e->dst : e->src;
    if (peer < 0 || peer >= (int64_t)m->n_ranks) {
        node_problem(v, path, e->id, name, "%s rank %" PRId64 ", written for rank %u, is %" PRId64 " for rank %u, not "
                     "a rank of this %u-rank workload", kind, written, m->roles[e->rank].rank, peer, x,
                     m->n_ranks);
        return;
    }
    node_problem(v, path, e->id, name, "%s rank %" PRId64 " (tag %" PRId64 ", %" PRIu64 " bytes): as rank %u runs it, "
                 "%s rank %" PRId64 ", no %s in %s (rank %" PRId64 "'s trace) matches it", kind, written, e->tag,
                 e->size, x, e->send ? "to" : "from", peer, e->send ? "COMM_RECV" : "COMM_SEND",
                 v->files->paths[m->role_of[peer]], peer);
}

int cmd_validate(int argc, char **argv)
{
    const char *arg;
    et_files files;
    int status = cmd_io_prefix_files(PROG, usage, argc, argv, &arg, &files);
    if (status != CMD_IO_RUN)
        return status;
    bool compact = files.roles.n_roles > 0;
    vctx v = {.files = &files, .ranked = files.is_prefix || compact,
              .n_ranks = compact ? files.roles.n_ranks : files.n};
    for (size_t i = 0; i < files.n && !v.oom; i++)
        validate_file(&v, i);
    size_t pairs = 0;
    if (!v.oom && compact) {
        pairs = p2p_roles_match(&v.p2p, &files.roles, unmatched_role, &v);
        v.oom = pairs == (size_t)-1;
    } else if (!v.oom) {
        pairs = p2p_match(&v.p2p, unmatched, &v);
    }
    p2p_free(&v.p2p);
    free(v.gp);
    free(v.cycle_ids);
    int rc = 0;
    if (v.oom) {
        cli_error(PROG, "%s: out of memory", arg);
        rc = 1;
    } else if (v.problems) {
        cli_error(PROG, "%s: %ld problem%s", arg, v.problems, v.problems == 1 ? "" : "s");
        rc = 1;
    } else {
        printf("%s: valid (", arg);
        if (compact)
            printf("%u ranks in %zu trace%s", files.roles.n_ranks, files.n, files.n == 1 ? "" : "s");
        else
            printf("%zu file%s", files.n, files.n == 1 ? "" : "s");
        printf(", %llu nodes", v.nodes);
        if (pairs > 0)
            printf(", %zu send/recv pair%s matched", pairs, pairs == 1 ? "" : "s");
        printf(")\n");
    }
    et_files_free(&files);
    return rc;
}
