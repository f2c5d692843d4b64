/*
 * jobs_spec.h - the jobs file of `vimana --jobs` (YAML, docs/jobs.md): one
 * physical network and backend, and the jobs sharing it, each with its
 * workload, system configuration, logical dimensions, start tick and
 * placement onto the network's NPUs. Reading checks the file's form;
 * jobs_spec_place then turns each placement into physical NPU ids once
 * the network's size is known, and refuses overlaps and ids out of range.
 */
#ifndef VIMANA_CMD_JOBS_JOBS_SPEC_H
#define VIMANA_CMD_JOBS_JOBS_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "cmd/jobs/jobs_generate.h"

#define JOBS_MAX_DIMS 16
#define JOBS_NAME_MAX 64

typedef enum {
    PLACE_EXPLICIT,     /* placement: [ids...] */
    PLACE_CONTIGUOUS,   /* offset, offset + 1, ... */
    PLACE_STRIDED,      /* offset, offset + stride, ... */
    PLACE_RANDOM        /* a seeded shuffle of the NPUs no earlier job took */
} place_rule;

typedef struct job_spec {
    char name[JOBS_NAME_MAX + 1];
    size_t line;                /* where the job starts in the file, 1-based */
    char *workload;             /* ET prefix, relative paths resolved; NULL for a generator spec
                                 * until the driver has written its trace */
    gen_kind gen;               /* generate: {kind, size}, or GEN_NONE */
    uint64_t gen_size;
    char *system;
    char *memory;               /* or NULL */
    uint32_t dims[JOBS_MAX_DIMS];
    uint32_t n_dims;
    uint32_t n_npus;            /* product of dims */
    uint64_t start;             /* tick at which the job's workload starts */
    place_rule rule;
    uint64_t offset, stride, seed;
    uint64_t *ids;              /* explicit: as written (n_ids of them) */
    size_t n_ids;
    uint32_t *npus;             /* after jobs_spec_place: logical rank -> physical NPU */
} job_spec;

typedef struct jobs_spec {
    char *path;                 /* as given */
    char *network;              /* resolved against the file's folder */
    char *backend;              /* name or path (a path is resolved); default analytical */
    char *backend_options;      /* or NULL */
    job_spec *jobs;
    size_t n_jobs;
} jobs_spec;

/* Reads the jobs file. Returns 0, or -1 with "FILE:LINE: what is wrong"
 * (or "FILE: ...") in err; jobs_spec_free is due in both cases. */
int jobs_spec_load(const char *path, jobs_spec *s, char *err, size_t len);
/* Places every job on a network of n_npus NPUs, in file order (a random
 * placement draws among the NPUs earlier jobs left). Returns 0, or -1
 * with "FILE:LINE: job 'NAME': ..." in err. */
int jobs_spec_place(jobs_spec *s, uint32_t n_npus, char *err, size_t len);
void jobs_spec_free(jobs_spec *s);

/* dims as "[4, 2]" in buf (JOBS_DIMS_TEXT bytes hold any). */
#define JOBS_DIMS_TEXT (JOBS_MAX_DIMS * 12 + 4)
const char *jobs_dims_text(const job_spec *j, char *buf, size_t len);

#endif
