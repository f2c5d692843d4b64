/* Relabellings of the NPUs (see the header). */
#include "system/relabel.h"

#include <stdlib.h>
#include <string.h>

#define UNSET UINT32_MAX

int relabel_init(npu_relabel *r, uint32_t n_npus)
{
    memset(r, 0, sizeof *r);
    r->n_npus = n_npus;
    r->rep = malloc((size_t)n_npus * sizeof *r->rep);
    r->first = malloc((size_t)n_npus * sizeof *r->first);
    r->members_of = malloc((size_t)n_npus * sizeof *r->members_of);
    r->exp = calloc((size_t)n_npus * RELABEL_MAX_GENS, sizeof *r->exp);
    if (!r->rep || !r->first || !r->members_of || !r->exp) {
        relabel_free(r);
        return -1;
    }
    for (uint32_t x = 0; x < n_npus; x++)
        r->rep[x] = r->first[x] = r->members_of[x] = x;
    r->n_classes = n_npus;
    r->class_size = 1;
    return 0;
}

static void gen_free(relabel_gen *g)
{
    free(g->cycle);
    free(g->pos);
    free(g->members);
    free(g->start);
    memset(g, 0, sizeof *g);
}

void relabel_free(npu_relabel *r)
{
    for (uint32_t i = 0; i < r->n_gens; i++)
        gen_free(&r->gens[i]);
    free(r->rep);
    free(r->exp);
    free(r->first);
    free(r->members_of);
    memset(r, 0, sizeof *r);
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* perm's cycles; order saturates at 2^32 (no free group gets there). */
static int gen_from_perm(uint32_t n, const uint32_t *perm, relabel_gen *g)
{
    memset(g, 0, sizeof *g);
    g->cycle = malloc((size_t)n * sizeof *g->cycle);
    g->pos = malloc((size_t)n * sizeof *g->pos);
    g->members = malloc((size_t)n * sizeof *g->members);
    g->start = malloc(((size_t)n + 1) * sizeof *g->start);
    if (!g->cycle || !g->pos || !g->members || !g->start) {
        gen_free(g);
        return -1;
    }
    for (uint32_t z = 0; z < n; z++)
        g->cycle[z] = UNSET;
    uint64_t order = 1;
    uint32_t filled = 0;
    for (uint32_t z = 0; z < n; z++) {
        if (g->cycle[z] != UNSET)
            continue;
        uint32_t c = g->n_cycles++, len = 0;
        g->start[c] = filled;
        for (uint32_t y = z; g->cycle[y] == UNSET; y = perm[y]) {
            g->cycle[y] = c;
            g->pos[y] = len++;
            g->members[filled++] = y;
        }
        order = order / gcd(order, len) * len;
        if (order > UINT32_MAX)
            order = UINT32_MAX;
    }
    g->start[g->n_cycles] = filled;
    g->order = (uint32_t)order;
    return 0;
}

uint32_t relabel_apply(const npu_relabel *r, uint32_t gen, uint32_t z, int64_t e)
{
    const relabel_gen *g = &r->gens[gen];
    uint32_t c = g->cycle[z];
    uint32_t len = g->start[c + 1] - g->start[c];
    int64_t shift = e % (int64_t)len;
    if (shift < 0)
        shift += len;
    uint32_t p = (uint32_t)(((uint64_t)g->pos[z] + (uint64_t)shift) % len);
    return g->members[g->start[c] + p];
}

uint32_t relabel_to_rep(const npu_relabel *r, uint32_t x, uint32_t z)
{
    const uint32_t *e = &r->exp[(size_t)x * RELABEL_MAX_GENS];
    for (uint32_t i = 0; i < r->n_gens; i++)
        if (e[i])
            z = relabel_apply(r, i, z, -(int64_t)e[i]);
    return z;
}

/* The classes under gens[0 .. n_gens): breadth first from each lowest NPU
 * not yet reached, each step one generator forwards; an NPU first reached
 * from z by g_i gets z's exponents with one more of g_i (the generators
 * commute, so that is g^e applied to the representative). */
static bool classes_free(npu_relabel *r, uint32_t *rep, uint32_t *exp, uint32_t *queue, uint64_t order)
{
    uint32_t n = r->n_npus;
    for (uint32_t x = 0; x < n; x++)
        rep[x] = UNSET;
    for (uint32_t x = 0; x < n; x++) {
        if (rep[x] != UNSET)
            continue;
        uint32_t head = 0, tail = 0;
        rep[x] = x;
        memset(&exp[(size_t)x * RELABEL_MAX_GENS], 0, RELABEL_MAX_GENS * sizeof *exp);
        queue[tail++] = x;
        while (head < tail) {
            uint32_t z = queue[head++];
            for (uint32_t i = 0; i < r->n_gens; i++) {
                uint32_t w = relabel_apply(r, i, z, 1);
                if (rep[w] != UNSET)
                    continue;
                rep[w] = x;
                memcpy(&exp[(size_t)w * RELABEL_MAX_GENS], &exp[(size_t)z * RELABEL_MAX_GENS],
                       RELABEL_MAX_GENS * sizeof *exp);
                exp[(size_t)w * RELABEL_MAX_GENS + i] = (exp[(size_t)z * RELABEL_MAX_GENS + i] + 1) % r->gens[i].order;
                queue[tail++] = w;
            }
        }
        if (tail != order)
            return false;
    }
    return true;
}

/* Each class's NPUs in NPU order, the classes in their representatives'
 * order; `fill` is scratch space of n_npus counters. */
static void index_classes(npu_relabel *r, uint32_t *fill)
{
    uint32_t n = r->n_npus, next = 0;
    for (uint32_t x = 0; x < n; x++) {
        fill[x] = 0;
        if (r->rep[x] == x) {
            r->first[x] = next;
            next += r->class_size;
        }
    }
    r->n_classes = n / r->class_size;
    for (uint32_t x = 0; x < n; x++) {
        uint32_t R = r->rep[x];
        r->members_of[r->first[R] + fill[R]++] = x;
    }
}

static bool commutes(const npu_relabel *r, const uint32_t *perm)
{
    for (uint32_t i = 0; i < r->n_gens; i++)
        for (uint32_t z = 0; z < r->n_npus; z++)
            if (perm[relabel_apply(r, i, z, 1)] != relabel_apply(r, i, perm[z], 1))
                return false;
    return true;
}

enum relabel_add_result relabel_add(npu_relabel *r, const uint32_t *perm)
{
    uint32_t n = r->n_npus, z = 0;
    while (z < n && perm[z] == z)
        z++;
    if (z == n)
        return RELABEL_IDENTITY;
    if (r->n_gens == RELABEL_MAX_GENS)
        return RELABEL_FULL;
    if (!commutes(r, perm))
        return RELABEL_NOT_COMMUTING;
    if (gen_from_perm(n, perm, &r->gens[r->n_gens]) != 0)
        return RELABEL_NO_MEMORY;
    uint64_t order = (uint64_t)r->class_size * r->gens[r->n_gens].order;
    r->n_gens++;
    uint32_t *rep = malloc((size_t)n * sizeof *rep);
    uint32_t *exp = calloc((size_t)n * RELABEL_MAX_GENS, sizeof *exp);
    uint32_t *queue = malloc((size_t)n * sizeof *queue);
    enum relabel_add_result res = !rep || !exp || !queue ? RELABEL_NO_MEMORY
                                  : order > n || n % order != 0 || !classes_free(r, rep, exp, queue, order)
                                      ? RELABEL_NOT_FREE
                                      : RELABEL_ADDED;
    if (res != RELABEL_ADDED) {
        free(queue);
        free(rep);
        free(exp);
        gen_free(&r->gens[--r->n_gens]);
        return res;
    }
    free(r->rep);
    free(r->exp);
    r->rep = rep;
    r->exp = exp;
    r->class_size = (uint32_t)order;
    index_classes(r, queue);
    free(queue);
    return RELABEL_ADDED;
}
