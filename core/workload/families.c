/* Communicator-group families (see the header). */
#include "workload/families.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#define NO_FAMILY UINT32_MAX

typedef struct group_family {
    int64_t id;           /* group id */
    uint32_t family;
} group_family;

struct wl_families {
    uint32_t n_npus, n_families;
    group_family *by_id;  /* [n_by_id], sorted by id */
    size_t n_by_id;
    int64_t *holder;      /* [n_families * n_npus]: the family's group holding x, 0 = none */
};

bool families_same_shape(const comm_group_def *a, const comm_group_def *b)
{
    if (a->n_npus != b->n_npus)
        return false;
    for (uint32_t i = 1; i < a->n_npus; i++)
        if ((int64_t)a->npus[i] - a->npus[0] != (int64_t)b->npus[i] - b->npus[0])
            return false;
    return true;
}

static int by_id_cmp(const void *a, const void *b)
{
    int64_t x = ((const group_family *)a)->id, y = ((const group_family *)b)->id;
    return (x > y) - (x < y);
}

void families_free(wl_families *f)
{
    if (!f)
        return;
    free(f->by_id);
    free(f->holder);
    free(f);
}

/* Each group's family: the first group with its offsets names it. */
static uint32_t *assign_families(const comm_group_config *groups, uint32_t n_npus, uint32_t *n_families)
{
    uint32_t *fam = malloc((groups->n_groups + 1) * sizeof *fam), *first = malloc((groups->n_groups + 1) * sizeof *first);
    if (!fam || !first) {
        free(fam);
        free(first);
        return NULL;
    }
    *n_families = 0;
    for (size_t g = 0; g < groups->n_groups; g++) {
        const comm_group_def *G = &groups->groups[g];
        fam[g] = NO_FAMILY;
        if (G->n_npus < 2 || G->n_npus >= n_npus)
            continue;
        for (uint32_t k = 0; k < *n_families && fam[g] == NO_FAMILY; k++)
            if (families_same_shape(G, &groups->groups[first[k]]))
                fam[g] = k;
        if (fam[g] == NO_FAMILY) {
            first[*n_families] = (uint32_t)g;
            fam[g] = (*n_families)++;
        }
    }
    free(first);
    return fam;
}

wl_families *families_build(const comm_group_config *groups, uint32_t n_npus, char *err, size_t err_len)
{
    wl_families *f = calloc(1, sizeof *f);
    uint32_t *fam = f ? assign_families(groups, n_npus, &f->n_families) : NULL;
    if (f) {
        f->n_npus = n_npus;
        f->by_id = malloc((groups->n_groups + 1) * sizeof *f->by_id);
        f->holder = calloc((size_t)f->n_families * n_npus + 1, sizeof *f->holder);
    }
    if (!f || !fam || !f->by_id || !f->holder) {
        free(fam);
        families_free(f);
        snprintf(err, err_len, "out of memory");
        return NULL;
    }
    for (size_t g = 0; g < groups->n_groups; g++) {
        const comm_group_def *G = &groups->groups[g];
        if (fam[g] == NO_FAMILY)
            continue;
        f->by_id[f->n_by_id++] = (group_family){G->id, fam[g]};
        for (uint32_t i = 0; i < G->n_npus; i++) {
            int64_t *h = &f->holder[(size_t)fam[g] * n_npus + G->npus[i]];
            if (*h) {
                snprintf(err, err_len, "communicator groups %lld and %lld have the same shape and both hold NPU %u: "
                         "a compact workload cannot tell which one another rank runs", (long long)*h,
                         (long long)G->id, G->npus[i]);
                free(fam);
                families_free(f);
                return NULL;
            }
            *h = G->id;
        }
    }
    free(fam);
    qsort(f->by_id, f->n_by_id, sizeof *f->by_id, by_id_cmp);
    return f;
}

int64_t families_translate(const wl_families *f, int64_t pg, uint32_t x)
{
    size_t lo = 0, hi = f->n_by_id;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->by_id[mid].id == pg) {
            int64_t h = f->holder[(size_t)f->by_id[mid].family * f->n_npus + x];
            return h ? h : pg;
        }
        if (f->by_id[mid].id < pg)
            lo = mid + 1;
        else
            hi = mid;
    }
    return pg;
}
