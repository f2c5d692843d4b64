/*
 * jobs_generate.c - a collective microbenchmark trace for a job's
 * generator spec, through the public ET writer (vimana/et.h).
 */
#include "cmd/jobs/jobs_generate.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "vimana/et.h"

#define MIB ((uint64_t)1024 * 1024)

static const struct {
    const char *kind, *alias, *name;
    int64_t type;
} kinds[] = {
    [GEN_ALL_REDUCE] = {"all-reduce", "all_reduce", "all_reduce", VET_ALL_REDUCE},
    [GEN_ALL_GATHER] = {"all-gather", "all_gather", "all_gather", VET_ALL_GATHER},
    [GEN_REDUCE_SCATTER] = {"reduce-scatter", "reduce_scatter", "reduce_scatter", VET_REDUCE_SCATTER},
    [GEN_ALL_TO_ALL] = {"all-to-all", "all_to_all", "all_to_all", VET_ALL_TO_ALL},
};

gen_kind jobs_gen_kind(const char *name)
{
    for (int k = GEN_ALL_REDUCE; k <= GEN_ALL_TO_ALL; k++)
        if (!strcmp(name, kinds[k].kind) || !strcmp(name, kinds[k].alias))
            return (gen_kind)k;
    return GEN_NONE;
}

int jobs_gen_size(const char *text, uint64_t *bytes)
{
    static const struct {
        const char *suffix;
        uint64_t unit;
    } units[] = {{"", 1}, {"B", 1}, {"KiB", 1024}, {"MiB", MIB}, {"GiB", 1024 * MIB}};
    uint64_t x = 0;
    const char *c = text;
    if (*c < '0' || *c > '9')
        return -1;
    for (; *c >= '0' && *c <= '9'; c++) {
        if (x > (UINT64_MAX >> 2) / 10)
            return -1;
        x = x * 10 + (uint64_t)(*c - '0');
    }
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (!strcmp(c, units[i].suffix)) {
            if (x == 0 || x > (UINT64_MAX >> 2) / units[i].unit)
                return -1;
            *bytes = x * units[i].unit;
            return 0;
        }
    return -1;
}

/* The node's name as vimana-et names it: sizes in MiB ("1MB" = 1048576
 * bytes, as the reference scripts write it), else KiB, else bytes. */
static void node_name(gen_kind kind, uint64_t size, uint32_t npus, char *buf, size_t len)
{
    char label[40];
    if (size % MIB == 0)
        snprintf(label, sizeof label, "%" PRIu64 "MB", size / MIB);
    else if (size % 1024 == 0)
        snprintf(label, sizeof label, "%" PRIu64 "KB", size / 1024);
    else
        snprintf(label, sizeof label, "%" PRIu64 "B", size);
    snprintf(buf, len, "%s_%" PRIu32 "npus_%s", kinds[kind].name, npus, label);
}

int jobs_generate(gen_kind kind, uint64_t size, uint32_t npus, const char *prefix, char *err, size_t len)
{
    char path[4200], name[160];
    snprintf(path, sizeof path, "%s.et", prefix);
    node_name(kind, size, npus, name, sizeof name);
    vet_error e;
    vet_writer *w = vet_writer_open(path, &e);
    vet_builder *b = vet_builder_new();
    int rc = w && b ? 0 : -1;
    if (!w)
        snprintf(err, len, "%s", e.msg);
    else if (!b)
        snprintf(err, len, "out of memory");
    vet_metadata md = {.version = "0.0.4"};
    if (rc == 0 && vet_writer_put_metadata(w, &md, &e) == 0) {
        /* Rank 0's node, id 0: the single file every rank runs. */
        vet_builder_reset(b, 0, name, VET_COMM_COLL_NODE);
        vet_builder_attr_bool(b, "is_cpu_op", false);
        vet_builder_attr_int64(b, "comm_type", kinds[kind].type);
        vet_builder_attr_int64(b, "comm_size", (int64_t)size);
        rc = vet_builder_failed(b) ? -1 : vet_writer_put_node(w, vet_builder_node(b), &e);
        if (rc != 0)
            snprintf(err, len, "%s", vet_builder_failed(b) ? "out of memory" : e.msg);
    } else if (rc == 0) {
        snprintf(err, len, "%s", e.msg);
        rc = -1;
    }
    if (w && vet_writer_close(w, &e) != 0 && rc == 0) {
        snprintf(err, len, "%s", e.msg);
        rc = -1;
    }
    vet_builder_free(b);
    return rc;
}
