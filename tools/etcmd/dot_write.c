/* The DOT form of `vimana-et dot` (graph_write.h). */
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "util/utf8.h"
#include "etcmd/graph_write.h"

/* Longer names (PyTorch kernel signatures run to hundreds of characters)
 * are cut so the drawing stays readable. */
#define MAX_LABEL_NAME 80

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

static void begin(sink *s, const char *title)
{
    sink_puts(s, "digraph \"");
    dot_text(s, title, SIZE_MAX);
    sink_puts(s, "\" {\n  node [shape=box, fontname=\"Helvetica\"];\n");
}

static void node(sink *s, const vet_node *n)
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
    for (size_t i = 0; i < n->n_data_deps; i++)
        sink_printf(s, "  n%" PRIu64 " -> n%" PRIu64 ";\n", n->data_deps[i], n->id);
    for (size_t i = 0; i < n->n_ctrl_deps; i++)
        sink_printf(s, "  n%" PRIu64 " -> n%" PRIu64 " [style=dashed];\n", n->ctrl_deps[i], n->id);
}

static void missing(sink *s, uint64_t id)
{
    sink_printf(s, "  n%" PRIu64 " [label=\"%" PRIu64 " (missing)\", style=dotted];\n", id, id);
}

static void end(sink *s)
{
    sink_puts(s, "}\n");
}

const graph_writer graph_write_dot = {begin, node, missing, end};
