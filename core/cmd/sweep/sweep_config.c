/*
 * sweep_config.c - the system JSON is changed with json-c, the network
 * YAML with libyaml's document model (the keys a backend does not know,
 * nested or not, are written back as they were).
 */
#define _POSIX_C_SOURCE 200809L

#include "cmd/sweep/sweep_config.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "util/json_doc.h"
#include "config/yaml_file.h"
#include "util/msg_escape.h"

/* The file a point uses for `file_axis` (system or network): its value, or
 * the base. Freed by the caller. */
static char *point_file(const sweep_spec *s, const size_t *row, sweep_axis_kind file_axis, const char *base)
{
    for (size_t a = 0; a < s->n_axes; a++)
        if (s->axes[a].kind == file_axis && row[a] != SWEEP_BASE)
            return sweep_spec_path(s, s->axes[a].values[row[a]].items[0]);
    return base ? sweep_spec_path(s, base) : NULL;
}

/* ---- system JSON ------------------------------------------------------- */

/* A scalar of the sweep file as JSON: quoted -> string; true/false;
 * an integer; a finite number; anything else a string. */
static json_object *item_json(const char *text, bool quoted)
{
    if (!quoted && (!strcmp(text, "true") || !strcmp(text, "false")))
        return json_object_new_boolean(text[0] == 't');
    if (!quoted && text[0]) {
        char *end;
        errno = 0;
        long long i = strtoll(text, &end, 10);
        if (!*end && !errno)
            return json_object_new_int64(i);
        double d = strtod(text, &end);
        if (!*end && isfinite(d))
            return json_object_new_double(d);
    }
    return json_object_new_string(text);
}

static json_object *value_json(const sweep_value *v)
{
    if (!v->is_list)
        return item_json(v->items[0], v->quoted[0]);
    json_object *arr = json_object_new_array();
    for (size_t i = 0; i < v->n_items; i++)
        json_object_array_add(arr, item_json(v->items[i], v->quoted[i]));
    return arr;
}

/* A system JSON is a few keys; anything this big is another file. */
#define SYSTEM_JSON_MAX_BYTES ((size_t)16 << 20)

static json_object *load_json(const char *path, char *err, size_t len)
{
    char shown[256];
    msg_escape(path, shown, sizeof shown);
    /* json_doc: one-line positioned errors, and a key given twice is
     * refused as the simulator's own reader refuses it (json-c would keep
     * the last, and the points' copies would lose the other silently). */
    json_object *root;
    if (json_doc_load(path, shown, SYSTEM_JSON_MAX_BYTES, "16 MiB, not a system JSON", 0, &root, err, len) != 0)
        return NULL;
    if (!json_object_is_type(root, json_type_object)) {
        snprintf(err, len, "%s: not a system JSON (expected a JSON object)", shown);
        json_object_put(root);
        return NULL;
    }
    return root;
}

/* ---- network YAML ------------------------------------------------------ */

static int load_yaml(const char *path, yaml_document_t *doc, char *err, size_t len)
{
    char shown[256];
    msg_escape(path, shown, sizeof shown);
    if (yaml_file_first_document(path, shown, doc, err, len) != 0)
        return -1;
    yaml_node_t *root = yaml_document_get_root_node(doc);
    if (!root || root->type != YAML_MAPPING_NODE) {
        snprintf(err, len, "%s: expected a network YAML (a mapping: topology, npus_count, ...)", shown);
        yaml_document_delete(doc);
        return -1;
    }
    return 0;
}

/* The pair of the top-level key `key`, or NULL. */
static yaml_node_pair_t *yaml_key(yaml_document_t *doc, const char *key)
{
    yaml_node_t *root = yaml_document_get_root_node(doc);
    for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
        yaml_node_t *k = yaml_document_get_node(doc, p->key);
        if (k->type == YAML_SCALAR_NODE && !strcmp((const char *)k->data.scalar.value, key))
            return p;
    }
    return NULL;
}

static int yaml_item(yaml_document_t *doc, const char *text, bool quoted)
{
    return yaml_document_add_scalar(doc, NULL, (yaml_char_t *)text, -1,
                                    quoted ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE);
}

static int yaml_value(yaml_document_t *doc, const sweep_value *v)
{
    if (!v->is_list)
        return yaml_item(doc, v->items[0], v->quoted[0]);
    int seq = yaml_document_add_sequence(doc, NULL, YAML_FLOW_SEQUENCE_STYLE);
    for (size_t i = 0; i < v->n_items; i++)
        yaml_document_append_sequence_item(doc, seq, yaml_item(doc, v->items[i], v->quoted[i]));
    return seq;
}

static int dump_yaml(yaml_document_t *doc, const char *path, char *err, size_t len)
{
    FILE *fp = fopen(path, "wb");
    if (!fp) {
        snprintf(err, len, "%s: cannot write: %s", path, strerror(errno));
        yaml_document_delete(doc);
        return -1;
    }
    yaml_emitter_t e;
    yaml_emitter_initialize(&e);
    yaml_emitter_set_output_file(&e, fp);
    yaml_emitter_set_unicode(&e, 1);
    int ok = yaml_emitter_open(&e) && yaml_emitter_dump(&e, doc) && yaml_emitter_close(&e);
    yaml_emitter_delete(&e);
    if (!ok)
        yaml_document_delete(doc);
    if (fclose(fp) != 0 || !ok) {
        snprintf(err, len, "%s: cannot write the network YAML", path);
        return -1;
    }
    return 0;
}

/* ---- checks before running --------------------------------------------- */

static int missing_key(const sweep_spec *s, const sweep_axis *a, const char *file, char *err, size_t len)
{
    char p[256], n[160], k[128], f[256];
    snprintf(err, len, "%s:%zu: %s: no key '%s' in %s (an axis may only change a key the file has)",
             msg_escape(s->path, p, sizeof p), a->line, msg_escape(a->name, n, sizeof n), msg_escape(a->key, k, sizeof k),
             msg_escape(file, f, sizeof f));
    return -1;
}

static int check_file(const sweep_spec *s, const char *file, sweep_axis_kind keyed, char *err, size_t len)
{
    json_object *json = NULL;
    yaml_document_t doc;
    if (keyed == SWEEP_SYSTEM_KEY && !(json = load_json(file, err, len)))
        return -1;
    if (keyed == SWEEP_NETWORK_KEY && load_yaml(file, &doc, err, len) != 0)
        return -1;
    int rc = 0;
    for (size_t a = 0; a < s->n_axes && rc == 0; a++) {
        const sweep_axis *ax = &s->axes[a];
        if (ax->kind != keyed)
            continue;
        bool has = keyed == SWEEP_SYSTEM_KEY ? json_object_object_get_ex(json, ax->key, NULL)
                                             : yaml_key(&doc, ax->key) != NULL;
        if (!has)
            rc = missing_key(s, ax, file, err, len);
    }
    if (keyed == SWEEP_SYSTEM_KEY)
        json_object_put(json);
    else
        yaml_document_delete(&doc);
    return rc;
}

/* Every file a point may use for `file_axis`: each value of that axis, and
 * the base when given. */
static int check_kind(const sweep_spec *s, sweep_axis_kind keyed, sweep_axis_kind file_axis, const char *base,
                      char *err, size_t len)
{
    bool used = false;
    for (size_t a = 0; a < s->n_axes; a++)
        used |= s->axes[a].kind == keyed;
    if (!used)
        return 0;
    for (size_t a = 0; a < s->n_axes; a++)
        if (s->axes[a].kind == file_axis)
            for (size_t v = 0; v < s->axes[a].n_values; v++) {
                char *f = sweep_spec_path(s, s->axes[a].values[v].items[0]);
                int rc = check_file(s, f, keyed, err, len);
                free(f);
                if (rc != 0)
                    return -1;
            }
    if (!base)
        return 0;
    char *f = sweep_spec_path(s, base);
    int rc = check_file(s, f, keyed, err, len);
    free(f);
    return rc;
}

int sweep_config_check(const sweep_spec *s, char *err, size_t len)
{
    if (check_kind(s, SWEEP_SYSTEM_KEY, SWEEP_SYSTEM_FILE, s->system, err, len) != 0)
        return -1;
    return check_kind(s, SWEEP_NETWORK_KEY, SWEEP_NETWORK_FILE, s->network, err, len);
}

/* ---- one point ---------------------------------------------------------- */

static bool changes(const sweep_spec *s, const size_t *row, sweep_axis_kind keyed)
{
    for (size_t a = 0; a < s->n_axes; a++)
        if (s->axes[a].kind == keyed && row[a] != SWEEP_BASE)
            return true;
    return false;
}

static char *join(const char *dir, const char *name)
{
    char *out = malloc(strlen(dir) + strlen(name) + 2);
    if (out)
        sprintf(out, "%s/%s", dir, name);
    return out;
}

static int write_system(const sweep_spec *s, const size_t *row, const char *dir, char **path, char *err, size_t len)
{
    json_object *root = load_json(*path, err, len);
    if (!root)
        return -1;
    for (size_t a = 0; a < s->n_axes; a++)
        if (s->axes[a].kind == SWEEP_SYSTEM_KEY && row[a] != SWEEP_BASE)
            json_object_object_add(root, s->axes[a].key, value_json(&s->axes[a].values[row[a]]));
    free(*path);
    *path = join(dir, "system.json");
    int rc = json_object_to_file_ext(*path, root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED);
    json_object_put(root);
    if (rc != 0)
        snprintf(err, len, "%s: cannot write: %s", *path, strerror(errno));
    return rc != 0 ? -1 : 0;
}

static int write_network(const sweep_spec *s, const size_t *row, const char *dir, char **path, char *err,
                         size_t len)
{
    yaml_document_t doc;
    if (load_yaml(*path, &doc, err, len) != 0)
        return -1;
    for (size_t a = 0; a < s->n_axes; a++)
        if (s->axes[a].kind == SWEEP_NETWORK_KEY && row[a] != SWEEP_BASE) {
            int node = yaml_value(&doc, &s->axes[a].values[row[a]]);
            yaml_node_pair_t *pair = yaml_key(&doc, s->axes[a].key);
            if (pair)
                pair->value = node;
        }
    free(*path);
    *path = join(dir, "network.yml");
    return dump_yaml(&doc, *path, err, len);
}

int sweep_config_point(const sweep_spec *s, const size_t *row, const char *dir, sweep_point_files *out, char *err,
                       size_t len)
{
    memset(out, 0, sizeof *out);
    if ((out->jobs = point_file(s, row, SWEEP_JOBS_FILE, NULL)))
        return 0;
    out->workload = point_file(s, row, SWEEP_WORKLOAD, s->workload);
    out->system = point_file(s, row, SWEEP_SYSTEM_FILE, s->system);
    out->network = point_file(s, row, SWEEP_NETWORK_FILE, s->network);
    out->memory = s->memory ? sweep_spec_path(s, s->memory) : NULL;
    const char *backend = s->backend;
    for (size_t a = 0; a < s->n_axes; a++)
        if (s->axes[a].kind == SWEEP_BACKEND && row[a] != SWEEP_BASE)
            backend = s->axes[a].values[row[a]].items[0];
    /* A name is looked up by vimana; a path is the sweep file's. */
    out->backend = strchr(backend, '/') ? sweep_spec_path(s, backend) : strdup(backend);
    if (changes(s, row, SWEEP_SYSTEM_KEY) && write_system(s, row, dir, &out->system, err, len) != 0)
        return -1;
    if (changes(s, row, SWEEP_NETWORK_KEY) && write_network(s, row, dir, &out->network, err, len) != 0)
        return -1;
    return 0;
}

void sweep_point_files_free(sweep_point_files *f)
{
    free(f->workload);
    free(f->system);
    free(f->network);
    free(f->memory);
    free(f->backend);
    free(f->jobs);
    free(f->groups);
    memset(f, 0, sizeof *f);
}
