/* See graph_render.h. */
#include "etcmd/graph_render.h"

#include <gvc.h>
#include <stdio.h>

#include "etcmd/sink.h"

/* Layout and rendering into memory; the bytes in *data (gvFreeRenderData). */
static int layout_and_render(const char *prog, const char *dot, const char *format, char **data, unsigned *len)
{
    /* Graphviz prints warnings (e.g. about fonts) and errors itself; the
     * one-line rule wants ours only. */
    agseterr(AGMAX);
    GVC_t *gvc = gvContext();
    if (!gvc) {
        fprintf(stderr, "%s: error: Graphviz could not start (out of memory)\n", prog);
        return -1;
    }
    int rc = -1;
    Agraph_t *g = agmemread(dot);
    if (!g)
        fprintf(stderr, "%s: error: Graphviz could not read the graph\n", prog);
    else if (gvLayout(gvc, g, "dot") != 0)
        fprintf(stderr, "%s: error: Graphviz could not lay out the graph\n", prog);
    else {
        if (gvRenderData(gvc, g, format, data, len) != 0)
            fprintf(stderr, "%s: error: Graphviz cannot render %s here (is its %s plugin installed?)\n", prog, format,
                    format);
        else
            rc = 0;
        gvFreeLayout(gvc, g);
    }
    if (g)
        agclose(g);
    gvFreeContext(gvc);
    return rc;
}

int graph_render(const char *prog, const char *dot, const char *format, const char *output)
{
    char *data = NULL;
    unsigned len = 0;
    if (layout_and_render(prog, dot, format, &data, &len) != 0)
        return -1;
    sink *out = sink_open(prog, output);
    int rc = -1;
    if (out) {
        sink_write(out, data, len);
        rc = sink_close(out);
    }
    gvFreeRenderData(data);
    return rc;
}
