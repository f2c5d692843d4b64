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

/* After the type, on its line: what the node moves or how long it runs
 * (two lines a node keep a long chain short). */
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
            sink_printf(s, ", %" PRIu64 " bytes", bytes);
        break;
    case VET_MEM_LOAD_NODE:
    case VET_MEM_STORE_NODE:
        if (vet_node_uint64(n, "tensor_size", 0, &bytes) == VET_ATTR_OK)
            sink_printf(s, ", %" PRIu64 " bytes", bytes);
        break;
    default:
        break;
    }
    if (n->duration_micros || n->type == VET_COMP_NODE)
        sink_printf(s, ", %" PRIu64 " us", n->duration_micros);
}

/* Each kind's fill (light, so the black labels stay readable) and its
 * legend entry. */
static const struct {
    const char *colour, *legend;
} kinds[GRAPH_KINDS] = {
    [GRAPH_KIND_COMPUTE] = {"#cfe2f3", "compute (COMP_NODE)"},
    [GRAPH_KIND_P2P] = {"#fce5cd", "send / recv (COMM_SEND_NODE, COMM_RECV_NODE)"},
    [GRAPH_KIND_COLLECTIVE] = {"#d9ead3", "collective (COMM_COLL_NODE)"},
    [GRAPH_KIND_MEMORY] = {"#fff2cc", "memory (MEM_LOAD_NODE, MEM_STORE_NODE)"},
    [GRAPH_KIND_METADATA] = {"#eeeeee", "metadata (METADATA_NODE)"},
    [GRAPH_KIND_OTHER] = {"#ffffff", "other (INVALID_NODE, unknown types)"},
};

graph_kind graph_kind_of(int32_t type)
{
    switch (type) {
    case VET_COMP_NODE: return GRAPH_KIND_COMPUTE;
    case VET_COMM_SEND_NODE:
    case VET_COMM_RECV_NODE: return GRAPH_KIND_P2P;
    case VET_COMM_COLL_NODE: return GRAPH_KIND_COLLECTIVE;
    case VET_MEM_LOAD_NODE:
    case VET_MEM_STORE_NODE: return GRAPH_KIND_MEMORY;
    case VET_METADATA_NODE: return GRAPH_KIND_METADATA;
    default: return GRAPH_KIND_OTHER;
    }
}

/* Small type and tight spacing: a training step is hundreds of nodes,
 * mostly one long chain, so every point of a node's height is paid once
 * per node of the chain. */
static void begin(const graph_out *o, const char *title)
{
    sink *s = o->s;
    sink_puts(s, "digraph \"");
    dot_text(s, title, SIZE_MAX);
    sink_puts(s, "\" {\n  graph [ranksep=0.2, nodesep=0.15];\n"
                 "  node [shape=box, style=filled, fontname=\"Helvetica\", fontsize=10, margin=\"0.06,0.02\", "
                 "height=0.3];\n");
}

static void node(const graph_out *o, const vet_node *n, uint32_t times)
{
    sink *s = o->s;
    const char *type = vet_node_type_name(n->type);
    sink_printf(s, "  %sn%" PRIu64 " [label=\"%" PRIu64 ": ", o->prefix, n->id, n->id);
    dot_text(s, n->name, MAX_LABEL_NAME);
    if (times > 1)
        sink_printf(s, " \xc3\x97%" PRIu32, times);
    if (type)
        sink_printf(s, "\\n%s", type);
    else
        sink_printf(s, "\\ntype %" PRId32, n->type);
    size_or_duration(s, n);
    sink_printf(s, "\", fillcolor=\"%s\"%s];\n", kinds[graph_kind_of(n->type)].colour,
                times > 1 ? ", peripheries=2" : "");
}

static void edge(const graph_out *o, uint64_t parent, uint64_t child, bool ctrl)
{
    sink *s = o->s;
    sink_printf(s, "  %sn%" PRIu64 " -> %sn%" PRIu64 "%s;\n", o->prefix, parent, o->prefix, child,
                ctrl ? " [style=dashed]" : "");
}

static void missing(const graph_out *o, uint64_t id)
{
    sink *s = o->s;
    sink_printf(s, "  %sn%" PRIu64 " [label=\"%" PRIu64 " (missing)\", style=dotted];\n", o->prefix, id, id);
}

/* A rank in a cluster of its own, named. */
static void rank_begin(const graph_out *o, size_t rank)
{
    sink_printf(o->s, "  subgraph cluster_rank%zu {\n    label=\"rank %zu\"; fontname=\"Helvetica\";\n", rank, rank);
}

static void rank_end(const graph_out *o)
{
    sink_puts(o->s, "  }\n");
}

/* The legend: a box per kind drawn, in its colour, in a cluster of its
 * own so that it stays apart from the graph. */
static void end(const graph_out *o, unsigned drawn)
{
    sink *s = o->s;
    if (drawn) {
        sink_puts(s, "  subgraph cluster_legend {\n    label=\"node kinds\"; fontname=\"Helvetica\"; "
                     "fontsize=10;\n");
        for (int k = 0; k < GRAPH_KINDS; k++)
            if (drawn & 1u << k)
                sink_printf(s, "    legend_%d [label=\"%s\", fillcolor=\"%s\"];\n", k, kinds[k].legend,
                            kinds[k].colour);
        sink_puts(s, "  }\n");
    }
    sink_puts(s, "}\n");
}

const graph_writer graph_write_dot = {begin, rank_begin, rank_end, node, edge, missing, end};
