/*
 * relabel.h - relabellings of the NPUs for the reduced simulation over
 * roles (docs/symmetry.md, "Roles").
 *
 * A relabelling set holds commuting permutations of the NPUs (the
 * generators, each kept in cycle form) and what they make of the NPUs:
 * classes (orbits), one representative per class (its lowest NPU) and, for
 * every NPU x, the exponents e(x) with g^e(x)(rep(x)) = x. Only a group that
 * acts freely is kept: every class has as many NPUs as the group has
 * elements (the product of the generators' orders), so that e(x) is unique
 * and the relabelling that takes x to its representative,
 * to_rep(x) = g^-e(x), is one permutation. Whoever adds a generator has
 * proved it keeps the run (traces, network, schedules): so does every
 * product of generators, and the representatives alone stand for all.
 */
#ifndef VIMANA_SYSTEM_RELABEL_H
#define VIMANA_SYSTEM_RELABEL_H

#include <stdbool.h>
#include <stdint.h>

#define RELABEL_MAX_GENS 8

/* One generator in cycle form: NPU z sits at pos[z] of cycle cycle[z],
 * whose members are members[start[c] .. start[c + 1]). */
typedef struct relabel_gen {
    uint32_t order;             /* the lcm of the cycle lengths */
    uint32_t n_cycles;
    uint32_t *cycle, *pos;      /* [n_npus] */
    uint32_t *members;          /* [n_npus] */
    uint32_t *start;            /* [n_cycles + 1] */
} relabel_gen;

typedef struct npu_relabel {
    uint32_t n_npus, n_gens;
    relabel_gen gens[RELABEL_MAX_GENS];
    uint32_t *rep;              /* [n_npus]: the class's lowest NPU */
    uint32_t *exp;              /* [n_npus * RELABEL_MAX_GENS] */
    uint32_t n_classes;
    uint32_t class_size;        /* every class's: the group's order */
    /* The NPUs of each class, in NPU order: those of the class of
     * representative r are members_of[first[r] .. first[r] + class_size),
     * first[] meaningful at representatives. */
    uint32_t *first, *members_of;
} npu_relabel;

/* Every NPU its own class, no generator. Returns 0, or -1 out of memory. */
int relabel_init(npu_relabel *r, uint32_t n_npus);
void relabel_free(npu_relabel *r);

enum relabel_add_result {
    RELABEL_ADDED,
    RELABEL_NOT_COMMUTING,      /* with a generator already kept */
    RELABEL_NOT_FREE,           /* some class would not have the group's order */
    RELABEL_IDENTITY,           /* moves nothing */
    RELABEL_FULL,               /* RELABEL_MAX_GENS already */
    RELABEL_NO_MEMORY,
};

/* Adds the permutation perm[z] (a bijection of 0 .. n_npus-1, checked by
 * the caller) when it commutes with the generators kept and the group stays
 * free; the classes are then recomputed. Otherwise nothing changes. */
enum relabel_add_result relabel_add(npu_relabel *r, const uint32_t *perm);

/* g_i^e(z), e taken modulo the generator's order. */
uint32_t relabel_apply(const npu_relabel *r, uint32_t gen, uint32_t z, int64_t e);

/* The image of z under the relabelling that takes x to its representative. */
uint32_t relabel_to_rep(const npu_relabel *r, uint32_t x, uint32_t z);

static inline bool relabel_is_rep(const npu_relabel *r, uint32_t x)
{
    return r->rep[x] == x;
}

#endif
