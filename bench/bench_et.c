/*
 * bench_et - ET write and streaming-read throughput.
 *
 *   bench_et [NODES [PATH]]     (defaults: 1000000, $TMPDIR/bench_et.<pid>.et;
 *                                a PATH ending in .gz benchmarks gzip files)
 *
 * Writes NODES nodes shaped like a real training trace (COMP and COMM_COLL
 * nodes with 2-4 attributes and 1-2 data dependencies), reads them back
 * node by node, and prints nodes/s for both phases and the peak resident
 * set size, which stays flat because the reader streams. Built by
 * `make bench`, never run by `make check`.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "vimana/et.h"

/* Wall time, and this process's CPU time: on a shared machine the second
 * is the steadier measure of the code itself. */
static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct stamp {
    double wall, cpu;
} stamp;

static stamp now(void)
{
    return (stamp){clock_s(CLOCK_MONOTONIC), clock_s(CLOCK_PROCESS_CPUTIME_ID)};
}

static void report(const char *what, uint64_t nodes, stamp from, stamp to)
{
    double wall = to.wall - from.wall, cpu = to.cpu - from.cpu;
    printf("%-12s %.3f s wall, %.2f M nodes/s; %.3f s CPU, %.2f M nodes/s\n", what, wall,
           (double)nodes / wall / 1e6, cpu, (double)nodes / cpu / 1e6);
}

static long peak_rss_kib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss; /* KiB on Linux */
}

/* Node i: every third one a collective, the rest compute; dependencies on
 * one or two earlier nodes. */
static void build_node(vet_builder *b, uint64_t i)
{
    static const bool dims[] = {true, true};
    char name[48];
    if (i % 3 == 2) {
        snprintf(name, sizeof name, "all_reduce_%" PRIu64, i);
        vet_builder_reset(b, i, name, VET_COMM_COLL_NODE);
        vet_builder_attr_bool(b, "is_cpu_op", false);
        vet_builder_attr_int64(b, "comm_type", VET_ALL_REDUCE);
        vet_builder_attr_int64(b, "comm_size", 1048576);
        if (i % 2)
            vet_builder_attr_bool_list(b, "involved_dim", dims, 2);
    } else {
        snprintf(name, sizeof name, "aten::mm_%" PRIu64, i);
        vet_builder_reset(b, i, name, VET_COMP_NODE);
        vet_builder_set_duration(b, 5 + i % 100);
        vet_builder_attr_bool(b, "is_cpu_op", false);
        vet_builder_attr_int64(b, "num_ops", (int64_t)(1000 + i));
        if (i % 2)
            vet_builder_attr_uint64(b, "tensor_size", 4096);
    }
    if (i > 0)
        vet_builder_add_data_dep(b, i - 1);
    if (i > 7 && i % 4 == 0)
        vet_builder_add_data_dep(b, i - 8);
}

static int write_trace(const char *path, uint64_t nodes)
{
    vet_error err;
    vet_writer *w = vet_writer_open(path, &err);
    vet_builder *b = vet_builder_new();
    if (!w || !b) {
        fprintf(stderr, "bench_et: %s\n", w ? "out of memory" : err.msg);
        return -1;
    }
    vet_builder_reset(b, 0, "0.0.4", VET_INVALID_NODE);
    int rc = vet_writer_put_metadata(w, vet_builder_metadata(b), &err);
    for (uint64_t i = 0; i < nodes && rc == 0; i++) {
        build_node(b, i);
        rc = vet_writer_put_node(w, vet_builder_node(b), &err);
    }
    vet_builder_free(b);
    if (vet_writer_close(w, rc == 0 ? &err : NULL) != 0 || rc != 0) {
        fprintf(stderr, "bench_et: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* Reads every node and touches its fields so nothing is optimised away. */
static int read_trace(const char *path, uint64_t *count, uint64_t *checksum)
{
    vet_error err;
    vet_reader *r = vet_reader_open(path, &err);
    if (!r) {
        fprintf(stderr, "bench_et: %s\n", err.msg);
        return -1;
    }
    const vet_node *n;
    int rc;
    *count = *checksum = 0;
    while ((rc = vet_reader_next(r, &n, &err)) == 1) {
        uint64_t size = 0;
        vet_node_uint64(n, "comm_size", 0, &size);
        *checksum += n->id + n->n_data_deps + n->n_attrs + size + n->duration_micros;
        (*count)++;
    }
    if (rc < 0)
        fprintf(stderr, "bench_et: %s\n", err.msg);
    vet_reader_close(r);
    return rc;
}

int main(int argc, char **argv)
{
    uint64_t nodes = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000000;
    char path[4096];
    if (argc > 2) {
        snprintf(path, sizeof path, "%s", argv[2]);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(path, sizeof path, "%s/bench_et.%ld.et", tmp ? tmp : "/tmp", (long)getpid());
    }
    stamp t0 = now();
    if (write_trace(path, nodes) != 0)
        return 1;
    stamp t1 = now();
    long rss_write = peak_rss_kib();
    uint64_t count, checksum;
    if (read_trace(path, &count, &checksum) != 0)
        return 1;
    stamp t2 = now();
    if (count != nodes) {
        fprintf(stderr, "bench_et: read %" PRIu64 " nodes, wrote %" PRIu64 "\n", count, nodes);
        return 1;
    }
    printf("nodes        %" PRIu64 " (checksum %" PRIu64 ")\n", nodes, checksum);
    report("write", nodes, t0, t1);
    report("read", nodes, t1, t2);
    printf("peak RSS     %ld KiB after writing, %ld KiB after reading\n", rss_write, peak_rss_kib());
    if (argc <= 2)
        unlink(path);
    return 0;
}
