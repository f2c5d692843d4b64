/*
 * sweep_genspec.c - the parameters of vimana-et generate's kinds (its
 * --help: tools/etcmd/cmd_generate.c, tools/transformer/cmd_transformer.c)
 * and a point's generator command line.
 */
#define _POSIX_C_SOURCE 200809L

#include "cmd/sweep/sweep_genspec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/or_die.h"

typedef struct gen_param {
    const char *key;
    sweep_gen_param_type type;
} gen_param;

static const gen_param collective_params[] = {{"npus", GEN_PARAM_VALUE}, {"size", GEN_PARAM_VALUE}, {NULL, 0}};
static const gen_param three_nodes_params[] = {{"npus", GEN_PARAM_VALUE}, {NULL, 0}};
static const gen_param send_recv_params[] = {{"npus", GEN_PARAM_VALUE}, {"size", GEN_PARAM_VALUE},
                                             {"src", GEN_PARAM_VALUE},  {"dst", GEN_PARAM_VALUE},
                                             {"tag", GEN_PARAM_VALUE},  {NULL, 0}};
static const gen_param transformer_params[] = {
    {"layers", GEN_PARAM_VALUE},       {"hidden", GEN_PARAM_VALUE},
    {"heads", GEN_PARAM_VALUE},        {"ffn", GEN_PARAM_VALUE},
    {"seq", GEN_PARAM_VALUE},          {"vocab", GEN_PARAM_VALUE},
    {"micro-batch", GEN_PARAM_VALUE},  {"global-batch", GEN_PARAM_VALUE},
    {"tp", GEN_PARAM_VALUE},           {"pp", GEN_PARAM_VALUE},
    {"dp", GEN_PARAM_VALUE},           {"sp", GEN_PARAM_FLAG},
    {"schedule", GEN_PARAM_VALUE},     {"virtual-stages", GEN_PARAM_VALUE},
    {"dp-buckets", GEN_PARAM_VALUE},   {"dp-bucket-bytes", GEN_PARAM_VALUE},
    {"dist-optimizer", GEN_PARAM_FLAG}, {"recompute", GEN_PARAM_FLAG},
    {"tp-cross-entropy", GEN_PARAM_FLAG}, {"device", GEN_PARAM_VALUE},
    {"efficiency", GEN_PARAM_VALUE},   {"precision", GEN_PARAM_VALUE},
    {"durations", GEN_PARAM_PATH},     {NULL, 0}};

static const struct {
    const char *kind;
    const gen_param *params;
} kinds[] = {
    {"all-reduce", collective_params}, {"all-gather", collective_params}, {"reduce-scatter", collective_params},
    {"all-to-all", collective_params}, {"three-nodes", three_nodes_params}, {"send-recv", send_recv_params},
    {"transformer", transformer_params}};

#define N_KINDS (sizeof kinds / sizeof kinds[0])

bool sweep_gen_kind_known(const char *kind)
{
    for (size_t k = 0; k < N_KINDS; k++)
        if (!strcmp(kind, kinds[k].kind))
            return true;
    return false;
}

static sweep_gen_param_type param_of(const gen_param *params, const char *key)
{
    for (const gen_param *p = params; p->key; p++)
        if (!strcmp(p->key, key))
            return p->type;
    return GEN_PARAM_UNKNOWN;
}

sweep_gen_param_type sweep_gen_param(const char *kind, const char *key)
{
    for (size_t k = 0; k < N_KINDS; k++) {
        if (kind && strcmp(kind, kinds[k].kind))
            continue;
        sweep_gen_param_type t = param_of(kinds[k].params, key);
        if (t != GEN_PARAM_UNKNOWN)
            return t;
    }
    return GEN_PARAM_UNKNOWN;
}

/* Adds or replaces key = value, keeping the keys sorted. */
static void put(sweep_gen_point *g, const char *key, const char *value)
{
    size_t i = 0;
    while (i < g->n && strcmp(g->keys[i], key) < 0)
        i++;
    if (i < g->n && !strcmp(g->keys[i], key)) {
        g->values[i] = value;
        return;
    }
    if (g->n == sizeof g->keys / sizeof g->keys[0])
        return;
    memmove(&g->keys[i + 1], &g->keys[i], (g->n - i) * sizeof g->keys[0]);
    memmove(&g->values[i + 1], &g->values[i], (g->n - i) * sizeof g->values[0]);
    g->keys[i] = key;
    g->values[i] = value;
    g->n++;
}

void sweep_gen_point_of(const sweep_spec *s, const size_t *row, sweep_gen_point *g)
{
    memset(g, 0, sizeof *g);
    for (size_t i = 0; i < s->n_generate; i++)
        put(g, s->generate[i].key, s->generate[i].value);
    for (size_t a = 0; a < s->n_axes; a++)
        if (s->axes[a].kind == SWEEP_GENERATE_KEY && row[a] != SWEEP_BASE)
            put(g, s->axes[a].key, s->axes[a].values[row[a]].text);
    /* "kind" is one of the keys; it leads the command line, not a --kind. */
    for (size_t i = 0; i < g->n; i++)
        if (!strcmp(g->keys[i], "kind")) {
            g->kind = g->values[i];
            memmove(&g->keys[i], &g->keys[i + 1], (g->n - i - 1) * sizeof g->keys[0]);
            memmove(&g->values[i], &g->values[i + 1], (g->n - i - 1) * sizeof g->values[0]);
            g->n--;
            break;
        }
}

static char *option_name(const char *key)
{
    char *o = or_die(malloc(strlen(key) + 3));
    sprintf(o, "--%s", key);
    return o;
}

char **sweep_gen_point_args(const sweep_spec *s, const sweep_gen_point *g)
{
    char **argv = or_die(calloc(2 * g->n + 2, sizeof *argv));
    size_t n = 0;
    argv[n++] = or_die(strdup(g->kind));
    for (size_t i = 0; i < g->n; i++) {
        sweep_gen_param_type t = sweep_gen_param(g->kind, g->keys[i]);
        if (t == GEN_PARAM_FLAG) {
            if (!strcmp(g->values[i], "true"))
                argv[n++] = option_name(g->keys[i]);
            continue;
        }
        argv[n++] = option_name(g->keys[i]);
        argv[n++] = t == GEN_PARAM_PATH ? sweep_spec_path(s, g->values[i]) : or_die(strdup(g->values[i]));
    }
    return argv;
}

char *sweep_gen_point_text(const sweep_spec *s, const sweep_gen_point *g)
{
    char **argv = sweep_gen_point_args(s, g);
    size_t len = 1;
    for (size_t i = 0; argv[i]; i++)
        len += strlen(argv[i]) + 1;
    char *text = or_die(malloc(len));
    size_t used = 0;
    text[0] = '\0';
    for (size_t i = 0; argv[i]; i++) {
        used += (size_t)snprintf(text + used, len - used, "%s%s", i ? " " : "", argv[i]);
        free(argv[i]);
    }
    free(argv);
    return text;
}
