/*
 * symmetry_roles.h - the reduced simulation over roles (docs/symmetry.md,
 * "Roles"): finds relabellings of the NPUs that keep the whole run, so that
 * one representative per class of NPUs stands for its class.
 *
 * Candidates are the rotations of each family of communicator groups (the
 * groups of one size, disjoint: a TP, a DP, a PP family: member i -> member
 * i + 1 of its group, in the group's ring order) and of each network
 * dimension (coordinate c -> c + 1). A candidate g is kept when
 *   - the network: g moves each dimension's coordinates by a map of that
 *     coordinate alone (so the analytical model's lowest differing
 *     dimension is kept), a rotation or reflection on a Ring dimension
 *     (which keeps its hop counts);
 *   - every trace: NPU g(x) runs NPU x's trace relabelled: node for node the
 *     same fields, ids, names and dependencies; SEND/RECV peers mapped by g;
 *     a communicator group mapped onto the group the other NPU names, its
 *     ring order kept up to a rotation (which the group's algorithm must
 *     declare it is invariant under); a collective on the dimensions only
 *     where g maps each dimension as the algorithm's declared symmetry
 *     allows (a rotation for ring and direct, an XOR for halving-doubling);
 *   - it commutes with the generators kept and the group stays free
 *     (system/relabel.h).
 */
#ifndef VIMANA_SIM_SYMMETRY_ROLES_H
#define VIMANA_SIM_SYMMETRY_ROLES_H

#include <stdbool.h>
#include <stddef.h>

#include "system/relabel.h"
#include "workload/workload.h"

/* Fills *rl (initialised here; the caller frees it) with the generators
 * kept. Returns true when the NPUs fall into fewer classes than there are
 * NPUs, with `what` saying which relabellings were kept; false with `why`
 * saying why none was (the first candidate's failure). */
bool symmetry_roles_find(const sim *s, const wl_run *r, npu_relabel *rl, char *what, size_t what_len, char *why,
                         size_t why_len);

#endif
