/* `vimana-et stats`: what a trace contains, per file and in total: nodes by
 * type, collective bytes by collective type, point-to-point and memory
 * bytes, and compute time. One streaming pass per file. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "etcmd/cmd_io.h"
#include "etcmd/et_files.h"
#include "vimana-et/commands.h"
#include "vimana/et.h"

#define PROG "vimana-et stats"

static const char usage[] =
    "Usage: vimana-et stats PREFIX_OR_FILE\n"
    "Count the nodes of one ET, or of PREFIX.0.et, PREFIX.1.et, ... (up to the first\n"
    "missing rank; PREFIX.k.et.gz where PREFIX.k.et is absent), by node type; sum\n"
    "collective bytes (comm_size) by collective type, send/receive bytes, memory\n"
    "bytes (tensor_size of MEM_LOAD/MEM_STORE nodes) and compute time\n"
    "(duration_micros of COMP nodes). Sums are exact, however large. Prints each\n"
    "file, then the totals when there are several files. A compact workload\n"
    "(PREFIX.roles.json, from generate transformer --single-file) prints each role's\n"
    "trace and the totals over every rank (each trace counted once per rank that\n"
    "runs it).\n";

/* Sums of 64-bit sizes and durations: a few nodes of 2^63 bytes already
 * pass 2^64, so they are kept exactly in 128 bits (2^64 nodes would be
 * needed to pass 2^128). */
__extension__ typedef unsigned __int128 sum128;

/* Longest decimal of a sum128 (39 digits) and its NUL. */
#define SUM128_DIGITS 40

typedef struct tally {
    uint64_t count;
    sum128 bytes;
} tally;

typedef struct stats {
    uint64_t nodes;
    uint64_t by_type[VET_NODE_TYPE_MAX + 1];
    uint64_t other_types;                       /* values outside the enum */
    tally coll[VET_COLL_TYPE_MAX + 1];
    tally coll_unknown;                         /* comm_type absent or unknown */
    tally send, recv, load, store;
    uint64_t no_size;                           /* comm/mem nodes without a usable size */
    tally compute;                              /* bytes = microseconds */
} stats;

static void add_bytes(stats *s, tally *t, const vet_node *n, const char *attr)
{
    uint64_t bytes;
    t->count++;
    if (vet_node_uint64(n, attr, 0, &bytes) == VET_ATTR_OK)
        t->bytes += bytes;
    else
        s->no_size++;
}

static void count_node(stats *s, const vet_node *n)
{
    int64_t coll;
    s->nodes++;
    if (n->type < 0 || n->type > VET_NODE_TYPE_MAX) {
        s->other_types++;
        return;
    }
    s->by_type[n->type]++;
    switch (n->type) {
    case VET_COMM_COLL_NODE:
        if (vet_node_int64(n, "comm_type", -1, &coll) == VET_ATTR_OK && vet_coll_type_name(coll))
            add_bytes(s, &s->coll[coll], n, "comm_size");
        else
            add_bytes(s, &s->coll_unknown, n, "comm_size");
        break;
    case VET_COMM_SEND_NODE: add_bytes(s, &s->send, n, "comm_size"); break;
    case VET_COMM_RECV_NODE: add_bytes(s, &s->recv, n, "comm_size"); break;
    case VET_MEM_LOAD_NODE: add_bytes(s, &s->load, n, "tensor_size"); break;
    case VET_MEM_STORE_NODE: add_bytes(s, &s->store, n, "tensor_size"); break;
    case VET_COMP_NODE:
        s->compute.count++;
        s->compute.bytes += n->duration_micros;
        break;
    default: break;
    }
}

/* Adds `times` copies of s (the ranks that run one trace) to into. */
static void merge(stats *into, const stats *s, uint64_t times)
{
    into->nodes += s->nodes * times;
    for (int i = 0; i <= VET_NODE_TYPE_MAX; i++)
        into->by_type[i] += s->by_type[i] * times;
    into->other_types += s->other_types * times;
    for (int i = 0; i <= VET_COLL_TYPE_MAX; i++) {
        into->coll[i].count += s->coll[i].count * times;
        into->coll[i].bytes += s->coll[i].bytes * times;
    }
    tally *dst[] = {&into->coll_unknown, &into->send, &into->recv, &into->load, &into->store, &into->compute};
    const tally *src[] = {&s->coll_unknown, &s->send, &s->recv, &s->load, &s->store, &s->compute};
    for (size_t i = 0; i < sizeof dst / sizeof dst[0]; i++) {
        dst[i]->count += src[i]->count * times;
        dst[i]->bytes += src[i]->bytes * times;
    }
    into->no_size += s->no_size * times;
}

/* The decimal spelling of v in buf (printf has no 128-bit conversion). */
static const char *sum128_decimal(sum128 v, char buf[SUM128_DIGITS])
{
    char *p = buf + SUM128_DIGITS - 1;
    *p = '\0';
    do {
        *--p = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    return p;
}

static const char *plural(uint64_t n)
{
    return n == 1 ? "" : "s";
}

/* Labels at two depths, values in one column. */
#define TOP "  %-24s "
#define SUB "    %-22s "
enum depth { AT_TOP, AT_SUB };

static void print_bytes(enum depth depth, const char *what, const tally *t)
{
    if (!t->count)
        return;
    if (depth == AT_TOP)
        printf(TOP, what);
    else
        printf(SUB, what);
    char digits[SUM128_DIGITS];
    printf("%s (%" PRIu64 " node%s)\n", sum128_decimal(t->bytes, digits), t->count, plural(t->count));
}

static bool any_collective(const stats *s)
{
    for (int i = 0; i <= VET_COLL_TYPE_MAX; i++)
        if (s->coll[i].count)
            return true;
    return s->coll_unknown.count > 0;
}

static void print_stats(const char *title, const stats *s)
{
    printf("%s\n", title);
    printf(TOP "%" PRIu64 "\n", "nodes", s->nodes);
    for (int i = 0; i <= VET_NODE_TYPE_MAX; i++)
        if (s->by_type[i])
            printf(SUB "%" PRIu64 "\n", vet_node_type_name(i), s->by_type[i]);
    if (s->other_types)
        printf(SUB "%" PRIu64 "\n", "(unknown type)", s->other_types);
    if (any_collective(s)) {
        printf("  collective bytes\n");
        for (int i = 0; i <= VET_COLL_TYPE_MAX; i++)
            print_bytes(AT_SUB, vet_coll_type_name(i), &s->coll[i]);
        print_bytes(AT_SUB, "(unknown comm_type)", &s->coll_unknown);
    }
    print_bytes(AT_TOP, "send bytes", &s->send);
    print_bytes(AT_TOP, "recv bytes", &s->recv);
    print_bytes(AT_TOP, "memory load bytes", &s->load);
    print_bytes(AT_TOP, "memory store bytes", &s->store);
    char digits[SUM128_DIGITS];
    if (s->compute.count)
        printf(TOP "%s us (%" PRIu64 " COMP node%s)\n", "compute time", sum128_decimal(s->compute.bytes, digits),
               s->compute.count, plural(s->compute.count));
    if (s->no_size)
        printf(TOP "%" PRIu64 "\n", "nodes without a size", s->no_size);
}

static int stats_file(const char *path, stats *s)
{
    vet_error err;
    memset(s, 0, sizeof *s);
    vet_reader *r = vet_reader_open(path, &err);
    if (!r) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    vet_reader_accept_unknown_types(r, true);
    const vet_node *n;
    int rc;
    while ((rc = vet_reader_next(r, &n, &err)) == 1)
        count_node(s, n);
    if (rc < 0)
        fprintf(stderr, "%s\n", err.msg);
    vet_reader_close(r);
    return rc;
}

int cmd_stats(int argc, char **argv)
{
    const char *arg;
    et_files files;
    int status = cmd_io_prefix_files(PROG, usage, argc, argv, &arg, &files);
    if (status != CMD_IO_RUN)
        return status;
    stats total, one;
    memset(&total, 0, sizeof total);
    int rc = 0;
    bool compact = files.roles.n_roles > 0;
    for (size_t i = 0; i < files.n; i++) {
        if (stats_file(files.paths[i], &one) != 0) {
            rc = 1;
            break;
        }
        uint64_t ranks = et_files_ranks_of(&files, i);
        char title[600];
        if (compact)
            snprintf(title, sizeof title, "%s (the trace of %" PRIu64 " rank%s)", files.paths[i], ranks, plural(ranks));
        print_stats(compact ? title : et_files_shown(&files, i), &one);
        merge(&total, &one, ranks);
    }
    if (rc == 0 && compact) {
        char title[64];
        snprintf(title, sizeof title, "total (%u ranks, %zu trace%s)", files.roles.n_ranks, files.n, plural(files.n));
        print_stats(title, &total);
    } else if (rc == 0 && files.n > 1) {
        char title[64];
        snprintf(title, sizeof title, "total (%zu files)", files.n);
        print_stats(title, &total);
    }
    et_files_free(&files);
    return rc;
}
