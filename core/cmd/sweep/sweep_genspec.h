/*
 * sweep_genspec.h - what `vimana sweep` knows of `vimana-et generate`: the
 * kinds, the parameters each kind takes (so that a misspelt parameter is
 * refused with its line before anything runs), and a point's generator
 * command line: the base `generate:` mapping with the point's
 * `generate.KEY` values put in. The values themselves are checked by
 * vimana-et, which the sweep runs (cmd/sweep/sweep_generate.h).
 */
#ifndef VIMANA_CMD_SWEEP_SWEEP_GENSPEC_H
#define VIMANA_CMD_SWEEP_SWEEP_GENSPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "cmd/sweep/sweep_spec.h"

typedef enum {
    GEN_PARAM_UNKNOWN,
    GEN_PARAM_VALUE,    /* --key VALUE */
    GEN_PARAM_FLAG,     /* true: --key; false: nothing */
    GEN_PARAM_PATH      /* --key FILE, relative to the sweep file */
} sweep_gen_param_type;

/* Whether `kind` is a kind of vimana-et generate (all-reduce, ..., transformer). */
bool sweep_gen_kind_known(const char *kind);

/* The parameter `key` of generator `kind`. */
sweep_gen_param_type sweep_gen_param(const char *kind, const char *key);

/* A point's generator: its kind and its parameters, sorted by key, with
 * the point's values in place of the base's. */
typedef struct sweep_gen_point {
    const char *kind;
    size_t n;
    const char *keys[64];
    const char *values[64];
} sweep_gen_point;

/* Fills g for the point `row` (a sweep with a `generate:` mapping). */
void sweep_gen_point_of(const sweep_spec *s, const size_t *row, sweep_gen_point *g);

/* The arguments after `vimana-et generate` (without --out), malloc'ed and
 * NULL-terminated: KIND, then --key VALUE (paths made the sweep file's,
 * flags given when true). */
char **sweep_gen_point_args(const sweep_spec *s, const sweep_gen_point *g);

/* The generator's arguments as one line, "KIND --key value ...", paths
 * resolved: the identity of a generated workload. The caller frees it. */
char *sweep_gen_point_text(const sweep_spec *s, const sweep_gen_point *g);

#endif
