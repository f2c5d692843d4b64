/*
 * role_map.h - the role map of a compact workload, PREFIX.roles.json
 * (docs/symmetry.md, "Compact workloads"):
 *
 *   {"format": "vimana-roles", "version": 1, "npus": 128,
 *    "roles": [{"trace": "gpt.stage0.et", "rank": 0, "ranks": [[0, 31]]},
 *              {"trace": "gpt.stage1.et", "rank": 32, "ranks": [[32, 63]]}, ...]}
 *
 * Each role is one trace, written for rank `rank` (its SEND/RECV peers and
 * communicator groups are that rank's), and run by every rank of `ranks`
 * (ranges [first, last] or single ranks) relabelled: rank x sends to and
 * receives from peer + (x - rank), and runs a collective of group G on the
 * group of G's family (the groups whose members have G's offsets from
 * their first) that holds x. Every rank belongs to exactly one role.
 */
#ifndef VIMANA_CONFIG_ROLE_MAP_H
#define VIMANA_CONFIG_ROLE_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct role_def {
    char *trace;          /* resolved against the map's folder */
    uint32_t rank;        /* the rank the trace was written for */
} role_def;

typedef struct role_map {
    role_def *roles;
    uint32_t n_roles;
    uint32_t n_npus;
    uint32_t *role_of;    /* [n_npus] */
} role_map;

/* Reads `path` for a system of total_npus NPUs. Returns 0, or -1 with one
 * line naming the file and the key in err. */
int role_map_load(const char *path, uint32_t total_npus, role_map *out, char *err, size_t err_len);
void role_map_free(role_map *m);

#endif
