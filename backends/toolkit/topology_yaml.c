/* The Custom network YAML: which topology file, and optional dimensions.
 *
 *   topology: [ Custom ]
 *   topology-file: fat_tree_64.txt     # relative to this YAML's folder
 *   dims: [ 8, 8 ]                     # optional, overrides vimana-dims
 */
#include "topology_yaml.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "util/input_file.h"
#include "util/msg_escape.h"
#include "vimana/network_yaml.h"

static int fail(const char *path, size_t line, char *err, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int fail(const char *path, size_t line, char *err, size_t len, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(err, len, "%s:%zu: %s", path, line, msg);
    return -1;
}

static const char *scalar(yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

/* topology: Custom, or a one-item list [ Custom ]. */
static bool is_custom(yaml_document_t *doc, yaml_node_t *v)
{
    if (v->type == YAML_SEQUENCE_NODE) {
        yaml_node_item_t *it = v->data.sequence.items.start;
        if (v->data.sequence.items.top - it != 1)
            return false;
        v = yaml_document_get_node(doc, *it);
    }
    const char *s = scalar(v);
    return s && strcmp(s, "Custom") == 0;
}

static int read_file_key(const char *path, yaml_node_t *v, topo_yaml *out, char *err, size_t len)
{
    size_t line = v->start_mark.line + 1;
    if (out->file[0])
        return fail(path, line, err, len, "key 'topology-file' given twice");
    const char *s = scalar(v);
    if (!s || !*s)
        return fail(path, line, err, len, "'topology-file' must be a file name");
    const char *slash = strrchr(path, '/');
    int dir = s[0] == '/' || !slash ? 0 : (int)(slash - path + 1);
    if ((size_t)snprintf(out->file, sizeof out->file, "%.*s%s", dir, path, s) >= sizeof out->file)
        return fail(path, line, err, len, "'topology-file' is too long");
    return 0;
}

static int read_dims_key(const char *path, yaml_document_t *doc, yaml_node_t *v, topo_yaml *out, char *err,
                         size_t len)
{
    size_t line = v->start_mark.line + 1;
    if (out->dims_line)
        return fail(path, line, err, len, "key 'dims' given twice");
    if (v->type != YAML_SEQUENCE_NODE)
        return fail(path, line, err, len, "'dims' must be a list of sizes, e.g. [ 8, 4 ]");
    yaml_node_item_t *it = v->data.sequence.items.start, *end = v->data.sequence.items.top;
    if (end - it < 1 || end - it > VIMANA_TOPO_MAX_DIMS)
        return fail(path, line, err, len, "'dims' needs 1 to %d sizes", VIMANA_TOPO_MAX_DIMS);
    for (uint32_t d = 0; it < end; it++, d++) {
        const char *s = scalar(yaml_document_get_node(doc, *it));
        char shown[64];
        char *stop;
        errno = 0;
        unsigned long n = s && *s >= '0' && *s <= '9' ? strtoul(s, &stop, 10) : 0;
        if (!s || *s < '0' || *s > '9' || *stop || errno || n == 0 || n > VIMANA_NET_MAX_NPUS)
            return fail(path, line, err, len, "'dims': size '%s' must be a whole number from 1 to %u",
                        msg_escape(s ? s : "(a list)", shown, sizeof shown), VIMANA_NET_MAX_NPUS);
        out->dims[d] = (uint32_t)n;
        out->n_dims = d + 1;
    }
    out->dims_line = line;
    return 0;
}

/* Reads the keys of a Custom YAML; 1 if the mapping is not Custom. */
static int read_mapping(const char *path, yaml_document_t *doc, yaml_node_t *root, topo_yaml *out, char *err,
                        size_t len)
{
    yaml_node_pair_t *pair;
    bool custom = false;
    for (pair = root->data.mapping.pairs.start; pair < root->data.mapping.pairs.top; pair++) {
        const char *k = scalar(yaml_document_get_node(doc, pair->key));
        if (k && strcmp(k, "topology") == 0)
            custom = is_custom(doc, yaml_document_get_node(doc, pair->value));
    }
    if (!custom)
        return 1;
    for (pair = root->data.mapping.pairs.start; pair < root->data.mapping.pairs.top; pair++) {
        yaml_node_t *key = yaml_document_get_node(doc, pair->key), *v = yaml_document_get_node(doc, pair->value);
        const char *k = scalar(key);
        char shown[100];
        int rc = 0;
        if (k && strcmp(k, "topology-file") == 0)
            rc = read_file_key(path, v, out, err, len);
        else if (k && strcmp(k, "dims") == 0)
            rc = read_dims_key(path, doc, v, out, err, len);
        else if (!k || strcmp(k, "topology") != 0)
            rc = fail(path, key->start_mark.line + 1, err, len,
                      "key '%s' does not apply to a Custom topology (its file gives the links; keys: topology, "
                      "topology-file, dims)", msg_escape(k ? k : "(not a name)", shown, sizeof shown));
        if (rc != 0)
            return rc;
    }
    if (!out->file[0])
        return fail(path, root->start_mark.line + 1, err, len, "a Custom topology needs 'topology-file'");
    return 0;
}

int topo_yaml_read(const char *path, topo_yaml *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    char why[200];
    struct stat st;
    if (input_file_check(path, why, sizeof why) != 0 || stat(path, &st) != 0 || st.st_size > TOPO_YAML_MAX_BYTES)
        return 1;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return 1;
    yaml_parser_t parser;
    yaml_document_t doc;
    int rc = 1;
    if (yaml_parser_initialize(&parser)) {
        yaml_parser_set_input_file(&parser, fp);
        if (yaml_parser_load(&parser, &doc)) {
            yaml_node_t *root = yaml_document_get_root_node(&doc);
            if (root && root->type == YAML_MAPPING_NODE)
                rc = read_mapping(path, &doc, root, out, err, err_len);
            else
                rc = 2;
            yaml_document_delete(&doc);
        }
        yaml_parser_delete(&parser);
    }
    fclose(fp);
    return rc;
}
