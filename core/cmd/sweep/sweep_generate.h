/*
 * sweep_generate.h - the workloads a sweep generates (`generate:` in the
 * sweep file, docs/sweep.md): one per distinct generator command line,
 * written by `vimana-et generate` (found beside vimana) into a cache
 * shared by the points, DIR/workloads/HASH/w.*.et. A workload is
 * generated in a temporary folder and renamed into place, so a folder
 * that is there is whole: later runs, other workers and other Slurm
 * tasks reuse it, and two that race for it both end with the same one.
 */
#ifndef VIMANA_CMD_SWEEP_SWEEP_GENERATE_H
#define VIMANA_CMD_SWEEP_SWEEP_GENERATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd/sweep/sweep_spec.h"

typedef struct sweep_workload {
    char **args;        /* after `vimana-et generate`, NULL-terminated, without --out */
    char *text;         /* args as one line: the workload's identity (its args.txt) */
    uint64_t hash;
    char *dir;          /* DIR/workloads/HASH */
    char *prefix;       /* DIR/workloads/HASH/w: the points' --workload-configuration */
    bool groups;        /* a transformer: PREFIX.groups.json, the points' --comm-group-configuration */
    size_t point;       /* the first point that uses it (named when it fails) */
    char *error;        /* why vimana-et failed, one line; NULL when it did not */
} sweep_workload;

typedef struct sweep_workloads {
    sweep_workload *items;
    size_t n;
} sweep_workloads;

/* The workload of point `point` (its `row`) of a sweep with a generator:
 * the entry of an earlier point with the same generator, or a new one.
 * Returns its index. */
size_t sweep_workloads_add(sweep_workloads *ws, const sweep_spec *s, const size_t *row, size_t point,
                           const char *out_dir);

/* Generates every workload that is not yet in its folder, at most `jobs`
 * vimana-et at once. Returns 0, or -1 with one line on err: for the first
 * point (by index) whose generator failed, "SWEEP:LINE: generate.KEY:
 * point P: <vimana-et's error line>", where KEY is the parameter vimana-et
 * complains about. `rows` are the points' value indices (n_axes each). */
int sweep_workloads_generate(sweep_workloads *ws, const sweep_spec *s, const size_t *rows, unsigned jobs, FILE *err);

void sweep_workloads_free(sweep_workloads *ws);

/* Where vimana-et is: beside the running vimana (in a build tree, where
 * vimana runs from .libs/, the libtool wrapper one folder up), else in the
 * installation's bindir. Returns 0, or -1 when there is none. */
int sweep_find_vimana_et(char *out, size_t len);

/* Which line and key of the sweep file a generator error is about: the
 * generate.KEY axis the point sets, else the base entry, for the first
 * --KEY the error names; else the generate: mapping itself. */
void sweep_generate_blame(const sweep_spec *s, const size_t *row, const char *error, size_t *line, char *key,
                          size_t key_len);

#endif
