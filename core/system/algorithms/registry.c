/* The built-in collective algorithms and the per-run registry (see the
 * header). Adding a built-in: its file, its declaration and its line in
 * `builtins` below. */
#include "system/algorithms/registry.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "system/algorithms/algorithm.h"

extern const algorithm algorithm_ring;
extern const algorithm algorithm_direct;
extern const algorithm algorithm_halving_doubling;
extern const algorithm algorithm_double_binary_tree;
extern const algorithm algorithm_nccl;

/* In the order of the "expected ..." list of an unknown name; ring first
 * (ALGO_RING). */
static const algorithm *const builtins[] = {
    &algorithm_ring,
    &algorithm_direct,
    &algorithm_halving_doubling,
    &algorithm_double_binary_tree,
    &algorithm_nccl,
};
#define N_BUILTINS ((uint32_t)(sizeof builtins / sizeof builtins[0]))

const algorithm *algo_registry_get(const algo_registry *r, uint32_t id)
{
    if (id < N_BUILTINS)
        return builtins[id];
    id -= N_BUILTINS;
    return r && id < r->n_extra ? r->extra[id] : NULL;
}

static uint32_t count(const algo_registry *r)
{
    return N_BUILTINS + (r ? r->n_extra : 0);
}

/* `name` spelled as `spelling` followed by the algorithm's suffix, if any. */
static bool matches(const algorithm *a, const char *spelling, const char *name, uint32_t *param)
{
    size_t n = strlen(spelling);
    if (strncmp(name, spelling, n) != 0)
        return false;
    *param = 0;
    return a->param ? a->parse_param(name + n, param) == 0 : name[n] == '\0';
}

int algo_registry_resolve(const algo_registry *r, const char *name, algo_spec *out)
{
    for (uint32_t id = 0; id < count(r); id++) {
        const algorithm *a = algo_registry_get(r, id);
        uint32_t param;
        for (int one = 0; one < 2; one++) {
            const char *spelling = one ? a->one_name : a->name;
            if (spelling && matches(a, spelling, name, &param)) {
                *out = (algo_spec){.id = (uint16_t)id, .one = one, .param = param};
                return 0;
            }
        }
    }
    return -1;
}

/* Appends `text` (+ `suffix`) to the list, as its `index`-th of `total`. */
static void append(char *buf, size_t len, size_t *used, const char *text, const char *suffix, uint32_t index,
                   uint32_t total)
{
    const char *sep = index == 0 ? "" : index + 1 == total ? " or " : ", ";
    if (*used < len)
        *used += (size_t)snprintf(buf + *used, len - *used, "%s%s%s", sep, text, suffix ? suffix : "");
}

void algo_registry_expected(const algo_registry *r, char *buf, size_t len)
{
    uint32_t total = 0, index = 0;
    size_t used = 0;
    for (uint32_t id = 0; id < count(r); id++) {
        const algorithm *a = algo_registry_get(r, id);
        total += (a->one_name ? 2 : 1) * (a->param ? 2 : 1);
    }
    if (len)
        buf[0] = '\0';
    for (uint32_t id = 0; id < count(r); id++) {
        const algorithm *a = algo_registry_get(r, id);
        for (int one = 0; one < 2; one++) {
            const char *spelling = one ? a->one_name : a->name;
            if (!spelling)
                continue;
            append(buf, len, &used, spelling, NULL, index++, total);
            if (a->param)
                append(buf, len, &used, spelling, a->param, index++, total);
        }
    }
}

const char *algo_registry_spec_name(const algo_registry *r, const algo_spec *a, char *buf, size_t len)
{
    const algorithm *alg = algo_registry_get(r, a->id);
    if (!alg) {
        snprintf(buf, len, "?");
        return buf;
    }
    snprintf(buf, len, "%s", a->one && alg->one_name ? alg->one_name : alg->name);
    if (a->param && strlen(buf) + 12 < len)
        snprintf(buf + strlen(buf), len - strlen(buf), "%u", a->param);
    return buf;
}

/* Every name the algorithm answers to, for the clash check. */
static bool name_taken(const algo_registry *r, const char *name)
{
    for (uint32_t id = 0; id < count(r); id++) {
        const algorithm *a = algo_registry_get(r, id);
        if (strcmp(a->name, name) == 0 || (a->one_name && strcmp(a->one_name, name) == 0))
            return true;
    }
    return false;
}

int algo_registry_add(algo_registry *r, const algorithm *a)
{
    if (r->n_extra == ALGO_MAX_EXTRA || !a || !a->name || !a->start || !a->step || (a->param && !a->parse_param))
        return -1;
    if (name_taken(r, a->name) || (a->one_name && name_taken(r, a->one_name)))
        return -1;
    r->extra[r->n_extra++] = a;
    return 0;
}

static int resolve_cb(const void *ctx, const char *name, algo_spec *out)
{
    return algo_registry_resolve(ctx, name, out);
}

static void expected_cb(const void *ctx, char *buf, size_t len)
{
    algo_registry_expected(ctx, buf, len);
}

sys_algo_names algo_registry_names(const algo_registry *r)
{
    return (sys_algo_names){.ctx = r, .resolve = resolve_cb, .expected = expected_cb};
}

/* ctx NULL: every function above reads a NULL registry as the built-ins */
static const sys_algo_names builtin_names = {.ctx = NULL, .resolve = resolve_cb, .expected = expected_cb};

const sys_algo_names *algo_registry_builtin_names(void)
{
    return &builtin_names;
}
