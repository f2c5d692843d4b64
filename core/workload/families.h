/*
 * families.h - communicator-group families for compact workloads
 * (vimana/et_roles.h): the groups whose members have the same offsets from
 * their first member (the TP groups 0-7, 8-15, ...; the DP groups 0 8 16
 * 24, 1 9 17 25, ...) are one family, and a role's trace, written for one
 * rank, names the group of each family that holds that rank. Another rank
 * of the role runs the group of the same family that holds it.
 */
#ifndef VIMANA_WORKLOAD_FAMILIES_H
#define VIMANA_WORKLOAD_FAMILIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/comm_group_config.h"

typedef struct wl_families wl_families;

/* Whether groups a and b are of one family: the same size and the same
 * offsets of their members from their first. */
bool families_same_shape(const comm_group_def *a, const comm_group_def *b);

/* Builds the families of `groups` (groups of 2 to n_npus - 1 members) for
 * n_npus NPUs. Returns NULL with one line in err when two groups of one
 * family overlap (then "the group of the family that holds x" is not one
 * group) or out of memory. */
wl_families *families_build(const comm_group_config *groups, uint32_t n_npus, char *err, size_t err_len);
void families_free(wl_families *f);

/* The group of pg's family that holds NPU x; pg itself when pg is in no
 * family or its family has no group holding x. */
int64_t families_translate(const wl_families *f, int64_t pg, uint32_t x);

#endif
