/*
 * vimana/et_roles.h - the role map of a compact workload, PREFIX.roles.json.
 *
 * A compact workload (`vimana-et generate transformer --single-file`) is a
 * few traces, one per role, and this map of which ranks run each:
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
#ifndef VIMANA_ET_ROLES_H
#define VIMANA_ET_ROLES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vet_role {
    char *trace;          /* the trace's path: as written when absolute, else beside the map */
    uint32_t rank;        /* the rank the trace was written for */
} vet_role;

typedef struct vet_roles {
    vet_role *roles;
    uint32_t n_roles;
    uint32_t n_ranks;
    uint32_t *role_of;    /* [n_ranks]: the role each rank runs */
} vet_roles;

/* Reads the map at `path`. `ranks` is the number of ranks the caller runs
 * (a simulator: its network's NPUs; the map must say the same), or 0 to
 * take the map's own "npus". Returns 0, or -1 with one line in err
 * ("PATH: roles[1].ranks: rank 32 is also in roles[0]", a JSON syntax
 * error with its line and column, ...) and *out empty. */
int vet_roles_load(const char *path, uint32_t ranks, vet_roles *out, char *err, size_t err_len);
void vet_roles_free(vet_roles *m);

/* The peer rank x's trace names as `peer`: peer + (x - rank) of x's role,
 * or -1 when that is no rank (below 0 or at least n_ranks). */
int64_t vet_roles_peer(const vet_roles *m, uint32_t x, int64_t peer);

#ifdef __cplusplus
}
#endif

#endif
