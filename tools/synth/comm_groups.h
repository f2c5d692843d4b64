/*
 * comm_groups.h - communicator groups for `synth fit` and `synth sample`:
 * reading a --comm-group-configuration style JSON ({"1": [0, 1], ...}) and
 * the regular layout the model describes a group by (docs/synth.md,
 * "Communicators"): size g and stride s, the group of rank r being
 * base + k*s for k < g, base = (r / (g*s)) * g*s + r % s.
 */
#ifndef VIMANA_SYNTH_COMM_GROUPS_H
#define VIMANA_SYNTH_COMM_GROUPS_H

#include <stddef.h>
#include <stdint.h>

typedef struct comm_group {
    int64_t pg;       /* the group number (pg_name) */
    uint64_t size;    /* members */
    uint64_t stride;  /* 0 when the members are not a regular layout */
} comm_group;

typedef struct comm_groups {
    comm_group *g;
    size_t n;
} comm_groups;

/* Reads FILE; returns 0, or -1 after printing one line
 * "PROG: error: FILE: ..." (not JSON, a key that is not a group number, a
 * value that is not a list of ranks). */
int comm_groups_read(const char *prog, const char *path, comm_groups *out);
void comm_groups_free(comm_groups *g);
/* Adds the PyTorch process groups of a METADATA node's inputs.values
 * ("['[{\"pg_name\": \"1\", \"ranks\": [0, 1]}, ...]']") that are not
 * known yet; text the simulator would not use is skipped. Returns 0, or
 * -1 when out of memory. */
int comm_groups_add_pytorch(comm_groups *g, const char *values);
/* The group numbered pg, or NULL. */
const comm_group *comm_groups_find(const comm_groups *g, int64_t pg);

/* The stride of a sorted member list when it is the regular layout of
 * its size and stride (constant stride s, first member m with
 * m % (g*s) < s); 0 otherwise. One member: stride 1. */
uint64_t comm_groups_stride(const int64_t *members, size_t n);

/* Rank r's group in the layout (g, s): its index among the layout's
 * groups (N / (g*s) * s of them) and its k-th member. */
uint64_t comm_layout_index(uint64_t r, uint64_t g, uint64_t s);
uint64_t comm_layout_member(uint64_t index, uint64_t k, uint64_t g, uint64_t s);

#endif
