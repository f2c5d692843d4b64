/*
 * sweep_config.h - the configuration of one point of a sweep: the base
 * run with the point's values put in. A point that changes keys of the
 * system JSON or of the network YAML gets its own copy of that file, in
 * its folder (DIR/points/NNNN/system.json, network.yml); the other files
 * are used where they are.
 */
#ifndef VIMANA_CMD_SWEEP_SWEEP_CONFIG_H
#define VIMANA_CMD_SWEEP_SWEEP_CONFIG_H

#include <stddef.h>

#include "cmd/sweep/sweep_spec.h"

typedef struct sweep_point_files {
    char *workload, *system, *network, *memory, *backend; /* memory may be NULL */
    char *jobs;             /* a jobs-file point: the jobs file, and every other member NULL */
    char *groups;           /* a generated transformer's groups (--comm-group-configuration), or NULL */
} sweep_point_files;

/* Before anything runs: every system.KEY / network.KEY axis must name a
 * key present in each system / network file a point may use, so that a
 * typo cannot run the base N times. Returns 0, or -1 with
 * "SWEEP:LINE: what is wrong" in err. */
int sweep_config_check(const sweep_spec *s, char *err, size_t len);

/* The files of the point `row` (n_axes value indices), writing the changed
 * copies into dir. Returns 0, or -1 with err. */
int sweep_config_point(const sweep_spec *s, const size_t *row, const char *dir, sweep_point_files *out, char *err,
                       size_t len);

void sweep_point_files_free(sweep_point_files *f);

#endif
