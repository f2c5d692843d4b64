/* The GraphML form of `vimana-et dot` (graph_write.h). */
#include <inttypes.h>
#include <stdint.h>
#include <string.h>

#include "util/utf8.h"
#include "etcmd/graph_write.h"

/* Text as XML character data or attribute value: markup characters as
 * entities, line breaks as character references (kept through attribute
 * normalisation), and what XML 1.0 cannot hold (other control characters,
 * U+FFFE/U+FFFF, invalid UTF-8) as '?'. */
static void xml_text(sink *s, const char *text)
{
    const unsigned char *p = (const unsigned char *)text;
    size_t len = strlen(text), i = 0;
    while (i < len) {
        unsigned char c = p[i];
        uint32_t cp;
        size_t n;
        switch (c) {
        case '&': sink_puts(s, "&amp;"); i++; continue;
        case '<': sink_puts(s, "&lt;"); i++; continue;
        case '>': sink_puts(s, "&gt;"); i++; continue;
        case '"': sink_puts(s, "&quot;"); i++; continue;
        case '\n': sink_puts(s, "&#10;"); i++; continue;
        case '\t': sink_puts(s, "&#9;"); i++; continue;
        default: break;
        }
        n = c < 0x20 ? 0 : utf8_decode(p + i, len - i, &cp);
        if (n == 0 || cp == 0xfffe || cp == 0xffff) {
            sink_putc(s, '?');
            i++;
        } else {
            sink_write(s, text + i, n);
            i += n;
        }
    }
}

static void begin(const graph_out *o, const char *title)
{
    sink *s = o->s;
    sink_puts(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                 "<graphml xmlns=\"http://graphml.graphdrawing.org/xmlns\">\n"
                 "  <key id=\"id\" for=\"node\" attr.name=\"id\" attr.type=\"string\"/>\n"
                 "  <key id=\"name\" for=\"node\" attr.name=\"name\" attr.type=\"string\"/>\n"
                 "  <key id=\"type\" for=\"node\" attr.name=\"type\" attr.type=\"string\"/>\n"
                 "  <key id=\"missing\" for=\"node\" attr.name=\"missing\" attr.type=\"boolean\">"
                 "<default>false</default></key>\n"
                 "  <key id=\"repeat\" for=\"node\" attr.name=\"repeat\" attr.type=\"int\">"
                 "<default>1</default></key>\n"
                 "  <key id=\"dependency\" for=\"edge\" attr.name=\"dependency\" attr.type=\"string\"/>\n"
                 "  <graph id=\"");
    xml_text(s, title);
    sink_puts(s, "\" edgedefault=\"directed\">\n");
}

static void edge(const graph_out *o, uint64_t parent, uint64_t child, bool ctrl)
{
    sink *s = o->s;
    sink_printf(s,
                "    <edge source=\"%sn%" PRIu64 "\" target=\"%sn%" PRIu64 "\"><data key=\"dependency\">%s</data></edge>\n",
                o->prefix, parent, o->prefix, child, ctrl ? "control" : "data");
}

static void node(const graph_out *o, const vet_node *n, uint32_t times)
{
    sink *s = o->s;
    const char *type = vet_node_type_name(n->type);
    sink_printf(s, "    <node id=\"%sn%" PRIu64 "\"><data key=\"id\">%" PRIu64 "</data><data key=\"name\">", o->prefix,
                n->id, n->id);
    xml_text(s, n->name);
    sink_puts(s, "</data><data key=\"type\">");
    if (type)
        sink_puts(s, type);
    else
        sink_printf(s, "%" PRId32, n->type);
    sink_puts(s, "</data>");
    if (times > 1)
        sink_printf(s, "<data key=\"repeat\">%" PRIu32 "</data>", times);
    sink_puts(s, "</node>\n");
}

static void missing(const graph_out *o, uint64_t id)
{
    sink *s = o->s;
    sink_printf(s,
                "    <node id=\"%sn%" PRIu64 "\"><data key=\"id\">%" PRIu64 "</data>"
                "<data key=\"missing\">true</data></node>\n",
                o->prefix, id, id);
}

/* Ranks are told apart by the node ids' prefix alone (r<RANK>_n<ID>). */
static void rank_begin(const graph_out *o, size_t rank)
{
    (void)o;
    (void)rank;
}

static void rank_end(const graph_out *o)
{
    (void)o;
}

static void end(const graph_out *o, unsigned kinds)
{
    sink *s = o->s;
    (void)kinds;
    sink_puts(s, "  </graph>\n</graphml>\n");
}

const graph_writer graph_write_graphml = {begin, rank_begin, rank_end, node, edge, missing, end};
