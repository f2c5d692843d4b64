/*
 * p2p_roles.h - the send/receive check of a compact workload: each role's
 * trace runs on every rank of its role relabelled (peer + (x - rank)),
 * so rank x's sends to y must meet y's receives from x, for every x.
 *
 * Ranks of one role send the same messages at the same offsets, so the
 * check needs no per-rank copy of the traces: for each triple (sending
 * role, offset d, receiving role) that some rank x realises (x in the
 * first role, x + d in the second), the first role's sends at offset d
 * and the second's receives at offset d are matched once, as
 * p2p_match.h matches a prefix's, and count for every such x.
 */
#ifndef VIMANA_ETCMD_P2P_ROLES_H
#define VIMANA_ETCMD_P2P_ROLES_H

#include <stddef.h>
#include <stdint.h>

#include "etcmd/p2p_match.h"
#include "vimana/et_roles.h"

/* A node some rank's copy leaves without a partner: e (rank = its role,
 * src and dst as its trace has them), its name, the rank x that runs it
 * and the peer it names there (peer < 0 or >= n_ranks: no rank at all). */
typedef void (*p2p_roles_fn)(void *ctx, const p2p_entry *e, const char *name, uint32_t x, int64_t peer);

/* items: the sends and receives of every role's trace. Returns the
 * matched pairs over all ranks, or (size_t)-1 when out of memory. */
size_t p2p_roles_match(const p2p_set *items, const vet_roles *m, p2p_roles_fn unmatched, void *ctx);

#endif
