/* `vimana-et dot`: one rank's dependency graph in Graphviz DOT. Streams the
 * ET; only the node ids are kept, to draw parents that are not in the file
 * as dotted "missing" nodes at the end. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/idmap.h"
#include "common/utf8.h"
#include "etcmd/cmd_io.h"
#include "etcmd/sink.h"
#include "util/grow.h"
#include "vimana-et/commands.h"
#include "vimana/et.h"

#define PROG "vimana-et dot"
/* Longer names (PyTorch kernel signatures run to hundreds of characters)
 * are cut so the drawing stays readable. */
#define MAX_LABEL_NAME 80

static const char usage[] =
    "Usage: vimana-et dot FILE.et [-o OUT.dot]\n"
    "Print one rank's dependency graph in Graphviz DOT. Each node is a box labelled\n"
    "with its id, name, type and size (comm_size, or tensor_size of memory nodes) or\n"
    "duration; data dependencies are solid edges, control dependencies dashed, both\n"
    "drawn parent -> child. Parents missing from the file appear dotted.\n"
    "Render with e.g. `dot -Tsvg OUT.dot -o graph.svg`.\n"
    "  -o, --output FILE   write to FILE; default stdout\n";

/* Text inside a DOT double-quoted string: quotes and backslashes escaped,
 * line breaks as \n, control characters and invalid UTF-8 as '?'. */
static void dot_text(sink *s, const char *text, size_t max)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t len = strlen(text), i = 0;
    while (i < len) {
        if (i >= max) {
            sink_puts(s, "...");
            return;
        }
        unsigned char c = p[i];
        if (c == '"' || c == '\\') {
            sink_putc(s, '\\');
            sink_putc(s, (char)c);
            i++;
        } else if (c == '\n') {
            sink_puts(s, "\\n");
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            sink_putc(s, '?');
            i++;
        } else {
            uint32_t cp;
            size_t n = utf8_decode(p + i, len - i, &cp);
            if (n == 0) {
                sink_putc(s, '?');
                i++;
            } else {
                sink_write(s, text + i, n);
                i += n;
            }
        }
    }
}

/* Third label line: what the node moves or how long it runs. */
static void size_or_duration(sink *s, const vet_node *n)
{
    uint64_t bytes;
    int64_t coll;
    switch (n->type) {
    case VET_COMM_COLL_NODE:
        if (vet_node_int64(n, "comm_type", -1, &coll) == VET_ATTR_OK && vet_coll_type_name(coll))
            sink_printf(s, " %s", vet_coll_type_name(coll));
        /* fall through */
    case VET_COMM_SEND_NODE:
    case VET_COMM_RECV_NODE:
        if (vet_node_uint64(n, "comm_size", 0, &bytes) == VET_ATTR_OK)
            sink_printf(s, "\\n%" PRIu64 " bytes", bytes);
        break;
    case VET_MEM_LOAD_NODE:
    case VET_MEM_STORE_NODE:
        if (vet_node_uint64(n, "tensor_size", 0, &bytes) == VET_ATTR_OK)
            sink_printf(s, "\\n%" PRIu64 " bytes", bytes);
        break;
    default:
        break;
    }
    if (n->duration_micros || n->type == VET_COMP_NODE)
        sink_printf(s, "\\n%" PRIu64 " us", n->duration_micros);
}

static void node_line(sink *s, const vet_node *n)
{
    const char *type = vet_node_type_name(n->type);
    sink_printf(s, "  n%" PRIu64 " [label=\"%" PRIu64 ": ", n->id, n->id);
    dot_text(s, n->name, MAX_LABEL_NAME);
    if (type)
        sink_printf(s, "\\n%s", type);
    else
        sink_printf(s, "\\ntype %" PRId32, n->type);
    size_or_duration(s, n);
    sink_puts(s, "\"];\n");
}

typedef struct refs {
    uint64_t *ids;
    size_t n, cap;
} refs;

static int remember(refs *r, const uint64_t *ids, size_t n)
{
    if (grow_array((void **)&r->ids, &r->cap, r->n + n, sizeof *r->ids, 1024) != 0)
        return -1;
    if (n)
        memcpy(r->ids + r->n, ids, n * sizeof *ids);
    r->n += n;
    return 0;
}

static void edges(sink *s, const vet_node *n)
{
    for (size_t i = 0; i < n->n_data_deps; i++)
        sink_printf(s, "  n%" PRIu64 " -> n%" PRIu64 ";\n", n->data_deps[i], n->id);
    for (size_t i = 0; i < n->n_ctrl_deps; i++)
        sink_printf(s, "  n%" PRIu64 " -> n%" PRIu64 " [style=dashed];\n", n->ctrl_deps[i], n->id);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

static void missing_nodes(sink *s, refs *r, const idmap *defined)
{
    if (r->n == 0)
        return;
    qsort(r->ids, r->n, sizeof *r->ids, cmp_u64);
    for (size_t i = 0; i < r->n; i++) {
        uint32_t index;
        if ((i > 0 && r->ids[i] == r->ids[i - 1]) || idmap_get(defined, r->ids[i], &index))
            continue;
        sink_printf(s, "  n%" PRIu64 " [label=\"%" PRIu64 " (missing)\", style=dotted];\n", r->ids[i], r->ids[i]);
    }
}

static int draw(const char *input, vet_reader *r, sink *s)
{
    idmap defined = {0};
    refs parents = {0};
    vet_error err;
    const vet_node *n;
    int rc;
    uint32_t index = 0, first;
    sink_puts(s, "digraph \"");
    dot_text(s, input, SIZE_MAX);
    sink_puts(s, "\" {\n  node [shape=box, fontname=\"Helvetica\"];\n");
    while ((rc = vet_reader_next(r, &n, &err)) == 1) {
        node_line(s, n);
        edges(s, n);
        if (idmap_put(&defined, n->id, index++, &first) < 0 || remember(&parents, n->data_deps, n->n_data_deps) ||
            remember(&parents, n->ctrl_deps, n->n_ctrl_deps)) {
            snprintf(err.msg, sizeof err.msg, "%s: out of memory", input);
            rc = -1;
            break;
        }
    }
    if (rc == 0) {
        missing_nodes(s, &parents, &defined);
        sink_puts(s, "}\n");
    } else {
        fprintf(stderr, "%s\n", err.msg);
    }
    idmap_free(&defined);
    free(parents.ids);
    return rc;
}

int cmd_dot(int argc, char **argv)
{
    const char *input, *output;
    int status = cmd_io_file_args(PROG, usage, "; dot draws one rank", argc, argv, &input, &output);
    if (status != CMD_IO_RUN)
        return status;
    vet_reader *r;
    sink *s;
    if (cmd_io_open(PROG, input, output, &r, &s) != 0)
        return 1;
    int rc = draw(input, r, s);
    vet_reader_close(r);
    if (sink_close(s) != 0)
        rc = -1;
    return rc == 0 ? 0 : 1;
}
