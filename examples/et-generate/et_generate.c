/*
 * et_generate.c - the HOTI'24 tutorial's ET generation (demo 1) written
 * against Vimana's ET library, <vimana/et.h>, instead of Chakra's Python
 * protobuf classes.
 *
 *   et-generate OUTDIR [NPUS]
 *
 * writes, for every NPU r < NPUS (default 8):
 *   OUTDIR/allreduce/allreduce.r.et  one 1 MiB all-reduce (the tutorial's
 *                                    generate_all_reduce.py)
 *   OUTDIR/3nodes/3nodes.r.et        a 1 MiB all-reduce followed by a 2 MiB
 *                                    all-gather and a 50 us compute node,
 *                                    both depending on it (generate_3nodes.py)
 *
 * Simulated on the tutorial's 8-NPU ring (Ring_sys.json, Ring_8.yml) every
 * NPU finishes at 117780 and 405520 cycles. Build it against an installed
 * Vimana with the Makefile beside it (pkg-config only).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <vimana/et.h>

#define MIB 1048576u

/* A collective as the tutorial writes it: comm_size as uint64_val and an
 * involved_dim list of one true (one network dimension). */
static void collective(vet_builder *b, uint64_t id, const char *name, enum vet_coll_type type, uint64_t bytes)
{
    static const bool involved_dim[] = {true};
    vet_builder_reset(b, id, name, VET_COMM_COLL_NODE);
    vet_builder_attr_bool(b, "is_cpu_op", false);
    vet_builder_attr_int64(b, "comm_type", type);
    vet_builder_attr_uint64(b, "comm_size", bytes);
    vet_builder_attr_bool_list(b, "involved_dim", involved_dim, 1);
}

static void compute(vet_builder *b, uint64_t id, const char *name, uint64_t micros)
{
    vet_builder_reset(b, id, name, VET_COMP_NODE);
    vet_builder_set_duration(b, micros);
    vet_builder_attr_bool(b, "is_cpu_op", false);
}

/* Writes the node the builder holds; -1 with `err` set on failure. */
static int put(vet_writer *w, vet_builder *b, vet_error *err)
{
    if (vet_builder_failed(b)) {
        snprintf(err->msg, sizeof err->msg, "out of memory");
        return -1;
    }
    return vet_writer_put_node(w, vet_builder_node(b), err);
}

static int allreduce_nodes(vet_writer *w, vet_builder *b, vet_error *err)
{
    collective(b, 1, "All-Reduce", VET_ALL_REDUCE, MIB);
    return put(w, b, err);
}

static int three_nodes(vet_writer *w, vet_builder *b, vet_error *err)
{
    collective(b, 1, "All-Reduce-1MB", VET_ALL_REDUCE, MIB);
    if (put(w, b, err) != 0)
        return -1;
    collective(b, 2, "All-Gather-2MB", VET_ALL_GATHER, 2 * MIB);
    vet_builder_add_data_dep(b, 1);
    if (put(w, b, err) != 0)
        return -1;
    compute(b, 3, "Compute-50us", 50);
    vet_builder_add_data_dep(b, 1);
    return put(w, b, err);
}

typedef int (*write_nodes_fn)(vet_writer *, vet_builder *, vet_error *);

/* One ET file: the GlobalMetadata record (version 0.0.4), then the nodes. */
static int write_trace(const char *path, write_nodes_fn nodes, vet_builder *b)
{
    vet_error err;
    vet_writer *w = vet_writer_open(path, &err);
    if (!w) {
        fprintf(stderr, "et-generate: error: %s\n", err.msg);
        return -1;
    }
    const vet_metadata md = {.version = "0.0.4"};
    int rc = vet_writer_put_metadata(w, &md, &err);
    if (rc == 0)
        rc = nodes(w, b, &err);
    if (rc != 0) {
        fprintf(stderr, "et-generate: error: %s: %s\n", path, err.msg);
        vet_writer_close(w, &err);
        return -1;
    }
    if (vet_writer_close(w, &err) != 0) {
        fprintf(stderr, "et-generate: error: %s\n", err.msg);
        return -1;
    }
    return 0;
}

static int make_dir(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST)
        return 0;
    fprintf(stderr, "et-generate: error: %s: cannot create the folder: %s\n", path, strerror(errno));
    return -1;
}

/* OUTDIR/NAME/NAME.r.et for r < npus. */
static int write_set(const char *outdir, const char *name, unsigned npus, write_nodes_fn nodes, vet_builder *b)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", outdir, name);
    if (make_dir(path) != 0)
        return -1;
    for (unsigned r = 0; r < npus; r++) {
        if ((size_t)snprintf(path, sizeof path, "%s/%s/%s.%u.et", outdir, name, name, r) >= sizeof path) {
            fprintf(stderr, "et-generate: error: %s: the folder name is too long\n", outdir);
            return -1;
        }
        if (write_trace(path, nodes, b) != 0)
            return -1;
    }
    printf("wrote %s/%s/%s.{0..%u}.et\n", outdir, name, name, npus - 1);
    return 0;
}

static int parse_npus(const char *text, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || text[0] == '-' || v < 1 || v > 65536)
        return -1;
    *out = (unsigned)v;
    return 0;
}

int main(int argc, char **argv)
{
    unsigned npus = 8;
    if (argc < 2 || argc > 3 || (argc == 3 && parse_npus(argv[2], &npus) != 0)) {
        fprintf(stderr, "usage: et-generate OUTDIR [NPUS]   (NPUS 1 to 65536, default 8)\n");
        return 2;
    }
    if (make_dir(argv[1]) != 0)
        return 1;
    vet_builder *b = vet_builder_new();
    if (!b) {
        fprintf(stderr, "et-generate: error: out of memory\n");
        return 1;
    }
    int rc = write_set(argv[1], "allreduce", npus, allreduce_nodes, b);
    if (rc == 0)
        rc = write_set(argv[1], "3nodes", npus, three_nodes, b);
    vet_builder_free(b);
    return rc == 0 ? 0 : 1;
}
