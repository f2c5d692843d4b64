/*
 * graph_render.h - DOT text drawn as SVG, PDF or PNG by Graphviz's own
 * library (libgvc: the "dot" layout, then the format's renderer), so
 * `vimana-et dot -o graph.pdf` needs no separate `dot` run.
 */
#ifndef VIMANA_ETCMD_GRAPH_RENDER_H
#define VIMANA_ETCMD_GRAPH_RENDER_H

#include <stddef.h>

/* The most nodes (missing parents included) `vimana-et dot` draws: the
 * dot layout grows faster than the square of the graph (long dependency
 * chains add a virtual node per rank crossed), so a 400-node chain already
 * takes it about 20 s; larger graphs are refused, pointing to DOT or
 * GraphML. */
#define GRAPH_RENDER_MAX_NODES 500

/* Lays out the DOT graph `dot` and writes it in Graphviz output format
 * `format` ("svg", "pdf", "png") to `output` (stdout for NULL or "-").
 * Returns 0, or -1 after printing one line "PROG: error: ..." (Graphviz's
 * own diagnostics are silenced). */
int graph_render(const char *prog, const char *dot, const char *format, const char *output);

#endif
