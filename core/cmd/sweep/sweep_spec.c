/*
 * sweep_spec.c - read a sweep file with libyaml's document loader: the
 * nodes keep their marks, so every complaint names its line.
 */
#define _POSIX_C_SOURCE 200809L

#include "cmd/sweep/sweep_spec.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "cmd/sweep/sweep_genspec.h"
#include "config/yaml_file.h"
#include "util/msg_escape.h"
#include "util/or_die.h"

typedef struct reader {
    yaml_reader y;      /* the document, the path, the error buffer */
    sweep_spec *s;
} reader;

static bool is_quoted(const yaml_node_t *n)
{
    return n->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
           n->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;
}

static void *grow_or_die(void *p, size_t n, size_t size)
{
    return or_die(realloc(p, (n ? n : 1) * size));
}

/* A non-empty scalar for the key `key`. */
static int take_string(reader *r, const char *key, const yaml_node_t *v, char **out)
{
    const char *text = yaml_scalar(v);
    char shown[128];
    if (!text || !text[0])
        return yaml_reader_fail(&r->y, v, "%s: expected a single value", msg_escape(key, shown, sizeof shown));
    if (*out)
        return yaml_reader_fail(&r->y, v, "%s: given twice", msg_escape(key, shown, sizeof shown));
    *out = or_die(strdup(text));
    return 0;
}

static void value_free(sweep_value *v)
{
    for (size_t i = 0; i < v->n_items; i++)
        free(v->items[i]);
    free(v->items);
    free(v->quoted);
    free(v->text);
}

static void value_add_item(sweep_value *v, const yaml_node_t *n)
{
    v->items = grow_or_die(v->items, v->n_items + 1, sizeof *v->items);
    v->quoted = grow_or_die(v->quoted, v->n_items + 1, sizeof *v->quoted);
    v->items[v->n_items] = or_die(strdup(yaml_scalar(n)));
    v->quoted[v->n_items++] = is_quoted(n);
}

/* "[a, b]" for a list; the scalar itself otherwise. */
static void value_set_text(sweep_value *v)
{
    if (!v->is_list) {
        v->text = or_die(strdup(v->items[0]));
        return;
    }
    size_t len = 3;
    for (size_t i = 0; i < v->n_items; i++)
        len += strlen(v->items[i]) + 2;
    v->text = grow_or_die(NULL, len, 1);
    strcpy(v->text, "[");
    for (size_t i = 0; i < v->n_items; i++) {
        if (i)
            strcat(v->text, ", ");
        strcat(v->text, v->items[i]);
    }
    strcat(v->text, "]");
}

/* A generator value, checked where its kind is known without the point:
 * a kind must be one, a flag (sp, recompute, ...) true or false. */
static int check_gen_value(reader *r, const char *name, const char *key, const yaml_node_t *n)
{
    char shown[128], value[128];
    const char *text = yaml_scalar(n);
    if (!strcmp(key, "kind") && !sweep_gen_kind_known(text))
        return yaml_reader_fail(&r->y, n, "%s: unknown generator '%s' (expected all-reduce, all-gather, reduce-scatter, all-to-all, "
                          "three-nodes, send-recv or transformer)", msg_escape(name, shown, sizeof shown),
                    msg_escape(text, value, sizeof value));
    if (sweep_gen_param(NULL, key) == GEN_PARAM_FLAG && strcmp(text, "true") && strcmp(text, "false"))
        return yaml_reader_fail(&r->y, n, "%s: expected true or false, got '%s'", msg_escape(name, shown, sizeof shown),
                    msg_escape(text, value, sizeof value));
    return 0;
}

/* A value: a scalar, or (where lists are allowed) a list of scalars. */
static int read_value(reader *r, const sweep_axis *a, const yaml_node_t *n, sweep_value *out)
{
    char shown[128];
    bool lists = a->kind == SWEEP_SYSTEM_KEY || a->kind == SWEEP_NETWORK_KEY;
    memset(out, 0, sizeof *out);
    if (n->type == YAML_SCALAR_NODE) {
        value_add_item(out, n);
    } else if (n->type == YAML_SEQUENCE_NODE && lists) {
        out->is_list = true;
        for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++) {
            const yaml_node_t *item = yaml_reader_node(&r->y, *i);
            if (!yaml_scalar(item)) {
                value_free(out);
                return yaml_reader_fail(&r->y, item, "%s: a value is a scalar or a list of scalars",
                            msg_escape(a->name, shown, sizeof shown));
            }
            value_add_item(out, item);
        }
    } else {
        return yaml_reader_fail(&r->y, n, "%s: expected %s", msg_escape(a->name, shown, sizeof shown),
                    lists                              ? "a scalar or a list of scalars"
                    : a->kind == SWEEP_GENERATE_KEY ? "a single value"
                                                    : "a single value (a name or a path)");
    }
    if (!out->is_list && !out->items[0][0]) {
        value_free(out);
        return yaml_reader_fail(&r->y, n, "%s: empty value", msg_escape(a->name, shown, sizeof shown));
    }
    if (a->kind == SWEEP_GENERATE_KEY && check_gen_value(r, a->name, a->key, n) != 0) {
        value_free(out);
        return -1;
    }
    value_set_text(out);
    return 0;
}

static int axis_kind(const char *name, sweep_axis_kind *kind, const char **key)
{
    static const struct { const char *prefix; sweep_axis_kind kind; } keyed[] = {
        {"system.", SWEEP_SYSTEM_KEY}, {"network.", SWEEP_NETWORK_KEY}, {"generate.", SWEEP_GENERATE_KEY}};
    static const struct { const char *name; sweep_axis_kind kind; } whole[] = {
        {"system", SWEEP_SYSTEM_FILE}, {"network", SWEEP_NETWORK_FILE},
        {"backend", SWEEP_BACKEND}, {"workload", SWEEP_WORKLOAD}, {"jobs-file", SWEEP_JOBS_FILE}};
    *key = NULL;
    for (size_t i = 0; i < sizeof keyed / sizeof keyed[0]; i++) {
        size_t n = strlen(keyed[i].prefix);
        if (!strncmp(name, keyed[i].prefix, n) && name[n]) {
            *kind = keyed[i].kind;
            *key = name + n;
            return 0;
        }
    }
    for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
        if (!strcmp(name, whole[i].name)) {
            *kind = whole[i].kind;
            return 0;
        }
    return -1;
}

/* Adds the axis `name` (named at node `at`), or finds it when `find`. */
static int axis_get(reader *r, const yaml_node_t *at, bool find, size_t *index)
{
    sweep_spec *s = r->s;
    const char *name = yaml_scalar(at);
    char shown[128];
    if (!name)
        return yaml_reader_fail(&r->y, at, "expected an axis name (system.KEY, network.KEY, generate.KEY, system, network, backend, "
                           "workload)");
    for (size_t i = 0; i < s->n_axes; i++)
        if (!strcmp(s->axes[i].name, name)) {
            if (!find)
                return yaml_reader_fail(&r->y, at, "axis '%s' given twice", msg_escape(name, shown, sizeof shown));
            *index = i;
            return 0;
        }
    sweep_axis a = {.line = at->start_mark.line + 1};
    if (axis_kind(name, &a.kind, &a.key) != 0)
        return yaml_reader_fail(&r->y, at, "unknown axis '%s' (expected system.KEY, network.KEY, generate.KEY, system, network, "
                           "backend, workload or jobs-file)", msg_escape(name, shown, sizeof shown));
    a.name = or_die(strdup(name));
    a.key = a.key ? a.name + (a.key - name) : NULL;
    s->axes = grow_or_die(s->axes, s->n_axes + 1, sizeof *s->axes);
    s->axes[s->n_axes] = a;
    *index = s->n_axes++;
    return 0;
}

/* The index of value v in axis a: an equal one already there, or v added
 * (v is then owned by the axis, else freed). `unique` refuses a repeat. */
static int axis_take_value(reader *r, const yaml_node_t *at, sweep_axis *a, sweep_value *v, bool unique, size_t *index)
{
    char shown[128], shown_axis[128];
    for (size_t i = 0; i < a->n_values; i++)
        if (!strcmp(a->values[i].text, v->text)) {
            if (unique) {
                int rc = yaml_reader_fail(&r->y, at, "%s: value '%s' given twice", msg_escape(a->name, shown_axis, sizeof shown_axis),
                              msg_escape(v->text, shown, sizeof shown));
                value_free(v);
                return rc;
            }
            value_free(v);
            *index = i;
            return 0;
        }
    a->values = grow_or_die(a->values, a->n_values + 1, sizeof *a->values);
    a->values[a->n_values] = *v;
    *index = a->n_values++;
    return 0;
}

static int read_axes(reader *r, const yaml_node_t *n)
{
    if (n->type != YAML_MAPPING_NODE || n->data.mapping.pairs.start == n->data.mapping.pairs.top)
        return yaml_reader_fail(&r->y, n, "axes: expected a mapping of axis names to lists of values");
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_reader_node(&r->y, p->key);
        const yaml_node_t *v = yaml_reader_node(&r->y, p->value);
        size_t ai;
        if (axis_get(r, k, false, &ai) != 0)
            return -1;
        sweep_axis *a = &r->s->axes[ai];
        char shown[128];
        if (v->type != YAML_SEQUENCE_NODE || v->data.sequence.items.start == v->data.sequence.items.top)
            return yaml_reader_fail(&r->y, v, "%s: expected a non-empty list of values", msg_escape(a->name, shown, sizeof shown));
        for (yaml_node_item_t *i = v->data.sequence.items.start; i < v->data.sequence.items.top; i++) {
            const yaml_node_t *item = yaml_reader_node(&r->y, *i);
            sweep_value val;
            size_t vi;
            if (read_value(r, a, item, &val) != 0 || axis_take_value(r, item, a, &val, true, &vi) != 0)
                return -1;
        }
    }
    return 0;
}

/* One explicit point: a mapping of axis names to values; the axes it does
 * not name stay at the base. Rows are completed once all points are read. */
static int read_point(reader *r, const yaml_node_t *n, size_t **cells, size_t *n_cells)
{
    if (n->type != YAML_MAPPING_NODE)
        return yaml_reader_fail(&r->y, n, "points: each point is a mapping of axis names to values");
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_reader_node(&r->y, p->key);
        const yaml_node_t *v = yaml_reader_node(&r->y, p->value);
        size_t ai, vi;
        char shown[128];
        if (axis_get(r, k, true, &ai) != 0)
            return -1;
        for (yaml_node_pair_t *q = n->data.mapping.pairs.start; q < p; q++)
            if (!strcmp(yaml_scalar(yaml_reader_node(&r->y, q->key)), r->s->axes[ai].name))
                return yaml_reader_fail(&r->y, k, "axis '%s' given twice in one point",
                            msg_escape(r->s->axes[ai].name, shown, sizeof shown));
        sweep_value val;
        if (read_value(r, &r->s->axes[ai], v, &val) != 0 ||
            axis_take_value(r, v, &r->s->axes[ai], &val, false, &vi) != 0)
            return -1;
        /* (point, axis, value) triples, laid out as rows below. */
        *cells = grow_or_die(*cells, *n_cells + 3, sizeof **cells);
        (*cells)[(*n_cells)++] = r->s->n_points;
        (*cells)[(*n_cells)++] = ai;
        (*cells)[(*n_cells)++] = vi;
    }
    r->s->n_points++;
    return 0;
}

static int read_points(reader *r, const yaml_node_t *n)
{
    if (n->type != YAML_SEQUENCE_NODE || n->data.sequence.items.start == n->data.sequence.items.top)
        return yaml_reader_fail(&r->y, n, "points: expected a non-empty list of points");
    size_t *cells = NULL, n_cells = 0;
    r->s->explicit_points = true;
    for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++)
        if (read_point(r, yaml_reader_node(&r->y, *i), &cells, &n_cells) != 0) {
            free(cells);
            return -1;
        }
    sweep_spec *s = r->s;
    s->points = grow_or_die(NULL, s->n_points * (s->n_axes ? s->n_axes : 1), sizeof *s->points);
    for (size_t i = 0; i < s->n_points * s->n_axes; i++)
        s->points[i] = SWEEP_BASE;
    for (size_t c = 0; c < n_cells; c += 3)
        s->points[cells[c] * s->n_axes + cells[c + 1]] = cells[c + 2];
    free(cells);
    return 0;
}

static int read_options(reader *r, const yaml_node_t *n)
{
    r->s->options_line = n->start_mark.line + 1;
    if (n->type != YAML_SEQUENCE_NODE)
        return yaml_reader_fail(&r->y, n, "options: expected a list of vimana options (--name=value)");
    for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++) {
        const yaml_node_t *item = yaml_reader_node(&r->y, *i);
        const char *text = yaml_scalar(item);
        if (!text || strncmp(text, "--", 2) != 0)
            return yaml_reader_fail(&r->y, item, "options: expected a vimana option (--name=value)");
        r->s->options = grow_or_die(r->s->options, r->s->n_options + 1, sizeof *r->s->options);
        r->s->options[r->s->n_options++] = or_die(strdup(text));
    }
    return 0;
}

/* A whole number from 1 to max, or 0. */
static unsigned count(const yaml_node_t *n, unsigned long max)
{
    const char *text = yaml_scalar(n);
    char *end;
    errno = 0;
    unsigned long v = text && text[0] >= '0' && text[0] <= '9' ? strtoul(text, &end, 10) : 0;
    return !v || errno || *end || v > max ? 0 : (unsigned)v;
}

static int read_jobs(reader *r, const yaml_node_t *n)
{
    if (!(r->s->jobs = count(n, 4096)))
        return yaml_reader_fail(&r->y, n, "jobs: expected a number of parallel runs from 1 to 4096");
    return 0;
}

/* A value that goes into the sbatch script: letters, digits and : . _ -
 * only, so that it can be neither a second option nor shell syntax. */
static int read_word(reader *r, const char *key, const yaml_node_t *v, char **out)
{
    const char *text = yaml_scalar(v);
    if (!text || !text[0] || strspn(text, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:._-") !=
                                 strlen(text))
        return yaml_reader_fail(&r->y, v, "slurm: %s: expected a word of letters, digits and : . _ -", key);
    if (*out)
        return yaml_reader_fail(&r->y, v, "slurm: %s: given twice", key);
    *out = or_die(strdup(text));
    return 0;
}

static int read_slurm_entry(reader *r, const char *key, const yaml_node_t *v)
{
    sweep_slurm *sl = &r->s->slurm;
    struct { const char *key; unsigned *field; unsigned long max; } counts[] = {
        {"tasks", &sl->tasks, 100000}, {"concurrent", &sl->concurrent, 100000}, {"cpus", &sl->cpus, 4096}};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (!strcmp(key, counts[i].key)) {
            if (!(*counts[i].field = count(v, counts[i].max)))
                return yaml_reader_fail(&r->y, v, "slurm: %s: expected a number from 1 to %lu", key, counts[i].max);
            return 0;
        }
    struct { const char *key; char **field; } words[] = {
        {"time", &sl->time}, {"memory", &sl->memory}, {"partition", &sl->partition}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcmp(key, words[i].key))
            return read_word(r, key, v, words[i].field);
    char shown[128];
    return yaml_reader_fail(&r->y, v, "slurm: unknown key '%s' (expected tasks, concurrent, cpus, time, memory or partition)",
                msg_escape(key, shown, sizeof shown));
}

static int read_slurm(reader *r, const yaml_node_t *n)
{
    r->s->slurm.line = n->start_mark.line + 1;
    if (n->type != YAML_MAPPING_NODE)
        return yaml_reader_fail(&r->y, n, "slurm: expected a mapping (tasks, concurrent, cpus, time, memory, partition)");
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_reader_node(&r->y, p->key);
        if (!yaml_scalar(k))
            return yaml_reader_fail(&r->y, k, "slurm: expected a key");
        if (read_slurm_entry(r, yaml_scalar(k), yaml_reader_node(&r->y, p->value)) != 0)
            return -1;
    }
    return 0;
}

/* generate: {kind: KIND, PARAM: VALUE, ...}: scalars only; the names are
 * checked against the kinds once the axes are known (check_generate). */
static int read_generate(reader *r, const yaml_node_t *n)
{
    sweep_spec *s = r->s;
    s->generate_line = n->start_mark.line + 1;
    if (n->type != YAML_MAPPING_NODE || n->data.mapping.pairs.start == n->data.mapping.pairs.top)
        return yaml_reader_fail(&r->y, n, "generate: expected a mapping: kind and the generator's parameters");
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_reader_node(&r->y, p->key);
        const yaml_node_t *v = yaml_reader_node(&r->y, p->value);
        const char *key = yaml_scalar(k), *value = yaml_scalar(v);
        char name[160], shown[128];
        if (!key || !key[0])
            return yaml_reader_fail(&r->y, k, "generate: expected a parameter name");
        snprintf(name, sizeof name, "generate.%s", key);
        msg_escape(name, shown, sizeof shown);
        if (sweep_spec_generate(s, key))
            return yaml_reader_fail(&r->y, k, "%s: given twice", shown);
        if (!value || !value[0])
            return yaml_reader_fail(&r->y, v, "%s: expected a single value", shown);
        if (check_gen_value(r, name, key, v) != 0)
            return -1;
        s->generate = grow_or_die(s->generate, s->n_generate + 1, sizeof *s->generate);
        s->generate[s->n_generate++] = (sweep_gen_entry){
            .key = or_die(strdup(key)), .value = or_die(strdup(value)), .line = k->start_mark.line + 1};
    }
    if (!sweep_spec_generate(s, "kind"))
        return yaml_reader_fail(&r->y, n, "generate: missing key 'kind' (all-reduce, all-gather, reduce-scatter, all-to-all, "
                          "three-nodes, send-recv or transformer)");
    return 0;
}

static int read_entry(reader *r, const char *key, const yaml_node_t *v)
{
    sweep_spec *s = r->s;
    struct { const char *key; char **field; } strings[] = {
        {"workload", &s->workload}, {"system", &s->system}, {"network", &s->network},
        {"memory", &s->memory}, {"backend", &s->backend}};
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++)
        if (!strcmp(key, strings[i].key))
            return take_string(r, key, v, strings[i].field);
    if (!strcmp(key, "plot")) {
        s->plot_line = v->start_mark.line + 1;
        return take_string(r, key, v, &s->plot);
    }
    /* The sections with a reader of their own. */
    static const struct { const char *key; int (*read)(reader *, const yaml_node_t *); } sections[] = {
        {"generate", read_generate}, {"options", read_options}, {"jobs", read_jobs},
        {"slurm", read_slurm}, {"axes", read_axes}, {"points", read_points}};
    for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
        if (!strcmp(key, sections[i].key))
            return sections[i].read(r, v);
    char shown[128];
    return yaml_reader_fail(&r->y, v, "unknown key '%s' (expected workload, generate, system, network, memory, backend, options, "
                      "axes, points, plot, jobs or slurm)", msg_escape(key, shown, sizeof shown));
}

/* Whether point p of an explicit list, or every point of a grid (p =
 * SWEEP_BASE), runs a jobs file: its axis is set there. */
static bool runs_jobs_file(const sweep_spec *s, size_t p)
{
    size_t j;
    if (!sweep_spec_axis(s, "jobs-file", &j))
        return false;
    return p == SWEEP_BASE || s->points[p * s->n_axes + j] != SWEEP_BASE;
}

/* Whether a point uses the base `name` (workload, system, network): a
 * point that runs no jobs file, where no axis of that name is set. */
static bool base_needed(const sweep_spec *s, const char *name)
{
    size_t a;
    bool has_axis = sweep_spec_axis(s, name, &a) != NULL;
    if (!s->explicit_points)
        return !runs_jobs_file(s, SWEEP_BASE) && !has_axis;
    for (size_t p = 0; p < s->n_points; p++)
        if (!runs_jobs_file(s, p) && (!has_axis || s->points[p * s->n_axes + a] == SWEEP_BASE))
            return true;
    return false;
}

/* A jobs file names the network, the backend and each job's files: a
 * point that runs one may not set any other axis (only `options` apply). */
static int check_jobs_points(reader *r)
{
    const sweep_spec *s = r->s;
    size_t j;
    const sweep_axis *jobs = sweep_spec_axis(s, "jobs-file", &j);
    if (!jobs)
        return 0;
    for (size_t a = 0; a < s->n_axes; a++) {
        if (a == j)
            continue;
        bool clash = !s->explicit_points;
        for (size_t p = 0; !clash && p < s->n_points; p++)
            clash = s->points[p * s->n_axes + j] != SWEEP_BASE && s->points[p * s->n_axes + a] != SWEEP_BASE;
        if (clash)
            return yaml_reader_fail_line(&r->y, s->axes[a].line, "%s: a point that runs a jobs-file takes the "
                                         "network, backend, workloads and configurations from it; it cannot "
                                         "also set an axis", s->axes[a].name);
    }
    return 0;
}

/* A generator parameter (a base entry or a generate.KEY axis) must be one
 * of every kind a point may generate: a typo cannot reach vimana-et as an
 * option of some points only. */
static int check_gen_name(reader *r, const char *key, size_t line, const sweep_axis *kinds)
{
    const char *base = sweep_spec_generate(r->s, "kind")->value;
    size_t n = kinds ? kinds->n_values : 0;
    char shown[128], kind[64];
    for (size_t i = 0; i <= n; i++) {
        const char *k = i < n ? kinds->values[i].text : base;
        if (!strcmp(key, "kind") || sweep_gen_param(k, key) != GEN_PARAM_UNKNOWN)
            continue;
        return yaml_reader_fail_line(&r->y, line, "generate.%s: vimana-et generate %s has no parameter '%s' (see vimana-et "
                                     "generate %s--help)", msg_escape(key, shown, sizeof shown),
                            msg_escape(k, kind, sizeof kind), shown, !strcmp(k, "transformer") ? "transformer " : "");
    }
    return 0;
}

/* The generator replaces the base workload; its parameters need it. */
static int check_generate(reader *r)
{
    const sweep_spec *s = r->s;
    const sweep_axis *workload = sweep_spec_axis(s, "workload", NULL);
    char shown[128];
    for (size_t a = 0; a < s->n_axes; a++)
        if (s->axes[a].kind == SWEEP_GENERATE_KEY && !s->n_generate)
            return yaml_reader_fail_line(&r->y, s->axes[a].line, "%s: a generator parameter needs the base generate: mapping "
                                                    "(kind and parameters)",
                                msg_escape(s->axes[a].name, shown, sizeof shown));
    if (!s->n_generate)
        return 0;
    if (s->workload)
        return yaml_reader_fail_line(&r->y, s->generate_line, "give either workload (a prefix) or generate (a generator), "
                                                 "not both");
    if (workload)
        return yaml_reader_fail_line(&r->y, workload->line, "workload: the base run generates its workload (generate:); "
                                               "vary the generator's parameters (generate.KEY) instead");
    const sweep_axis *kinds = sweep_spec_axis(s, "generate.kind", NULL);
    for (size_t i = 0; i < s->n_generate; i++)
        if (check_gen_name(r, s->generate[i].key, s->generate[i].line, kinds) != 0)
            return -1;
    for (size_t a = 0; a < s->n_axes; a++)
        if (s->axes[a].kind == SWEEP_GENERATE_KEY && check_gen_name(r, s->axes[a].key, s->axes[a].line, kinds) != 0)
            return -1;
    return 0;
}

/* Keys are read in a fixed order (not the file's): points may name axes
 * only when there are no axes, whatever comes first. */
static int read_root(reader *r, const yaml_node_t *root)
{
    if (!root)
        return yaml_reader_fail(&r->y, NULL, "empty sweep file (expected a mapping: workload, system, network, axes ...)");
    if (root->type != YAML_MAPPING_NODE)
        return yaml_reader_fail(&r->y, root, "expected a mapping: workload, system, network, axes ...");
    const yaml_node_t *axes = NULL, *points = NULL;
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        const yaml_node_t *k = yaml_reader_node(&r->y, p->key);
        const yaml_node_t *v = yaml_reader_node(&r->y, p->value);
        const char *key = yaml_scalar(k);
        if (!key)
            return yaml_reader_fail(&r->y, k, "expected a key");
        char shown[128];
        for (yaml_node_pair_t *q = root->data.mapping.pairs.start; q < p; q++)
            if (!strcmp(yaml_scalar(yaml_reader_node(&r->y, q->key)), key))
                return yaml_reader_fail(&r->y, k, "key '%s' given twice", msg_escape(key, shown, sizeof shown));
        if (!strcmp(key, "axes") || !strcmp(key, "points")) {
            if (axes || points)
                return yaml_reader_fail(&r->y, k, "give either axes (a grid) or points (a list), not both");
            *(!strcmp(key, "axes") ? &axes : &points) = v;
            continue;
        }
        if (read_entry(r, key, v) != 0)
            return -1;
    }
    if (!axes && !points)
        return yaml_reader_fail(&r->y, root, "no axes and no points: nothing to sweep");
    if (read_entry(r, axes ? "axes" : "points", axes ? axes : points) != 0)
        return -1;
    if (check_jobs_points(r) != 0 || check_generate(r) != 0)
        return -1;
    const char *bases[] = {"workload", "system", "network"};
    const char *given[] = {r->s->n_generate ? "generate" : r->s->workload, r->s->system, r->s->network};
    for (int i = 0; i < 3; i++)
        if (!given[i] && base_needed(r->s, bases[i]))
            return yaml_reader_fail(&r->y, root, "missing key '%s' (the base run; or an axis '%s' that every point sets)", bases[i],
                        bases[i]);
    if (!r->s->backend)
        r->s->backend = or_die(strdup("analytical"));
    return 0;
}

static void set_dir(sweep_spec *s, const char *path)
{
    const char *slash = strrchr(path, '/');
    s->dir = slash ? strndup(path, (size_t)(slash - path) + 1) : or_die(strdup(""));
    if (!s->dir)
        s->dir = or_die(strdup(""));
}

static int read_document(void *ctx, yaml_document_t *doc, const yaml_node_t *root)
{
    reader *r = ctx;
    r->y.doc = doc;
    return read_root(r, root);
}

int sweep_spec_load(const char *path, sweep_spec *s, char *err, size_t len)
{
    memset(s, 0, sizeof *s);
    s->path = or_die(strdup(path));
    set_dir(s, path);
    reader r = {.y = {.err = err, .err_len = len}, .s = s};
    msg_escape(path, r.y.path, sizeof r.y.path);
    return yaml_file_load(path, r.y.path, "a sweep file", read_document, &r, err, len);
}

void sweep_spec_free(sweep_spec *s)
{
    for (size_t i = 0; i < s->n_axes; i++) {
        for (size_t v = 0; v < s->axes[i].n_values; v++)
            value_free(&s->axes[i].values[v]);
        free(s->axes[i].values);
        free(s->axes[i].name);
    }
    for (size_t i = 0; i < s->n_options; i++)
        free(s->options[i]);
    free(s->options);
    for (size_t i = 0; i < s->n_generate; i++) {
        free(s->generate[i].key);
        free(s->generate[i].value);
    }
    free(s->generate);
    free(s->axes);
    free(s->points);
    free(s->path);
    free(s->dir);
    free(s->workload);
    free(s->system);
    free(s->network);
    free(s->memory);
    free(s->backend);
    free(s->plot);
    free(s->slurm.time);
    free(s->slurm.memory);
    free(s->slurm.partition);
    memset(s, 0, sizeof *s);
}

char *sweep_spec_path(const sweep_spec *s, const char *path)
{
    if (path[0] == '/')
        return or_die(strdup(path));
    char *out = grow_or_die(NULL, strlen(s->dir) + strlen(path) + 1, 1);
    strcpy(out, s->dir);
    strcat(out, path);
    return out;
}

const sweep_gen_entry *sweep_spec_generate(const sweep_spec *s, const char *key)
{
    for (size_t i = 0; i < s->n_generate; i++)
        if (!strcmp(s->generate[i].key, key))
            return &s->generate[i];
    return NULL;
}

const sweep_axis *sweep_spec_axis(const sweep_spec *s, const char *name, size_t *index)
{
    for (size_t i = 0; i < s->n_axes; i++)
        if (!strcmp(s->axes[i].name, name)) {
            if (index)
                *index = i;
            return &s->axes[i];
        }
    return NULL;
}
