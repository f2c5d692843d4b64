/* See graph_render.h. */
#include "etcmd/graph_render.h"

#include <gvc.h>
#include <stdio.h>

#include "etcmd/sink.h"

#if defined(__SANITIZE_ADDRESS__)
/* LeakSanitizer reads extra suppressions from this hook. Graphviz 2.42
 * keeps its plugin configuration text past gvFreeContext (allocated in
 * gvContext -> gvconfig; libgvc has no frame pointers, so the recorded
 * stack stops in libgvc), and fontconfig, loaded by the SVG/PDF/PNG
 * renderers, keeps its cache until exit. Neither can be freed from here,
 * so a sanitizer build would fail every drawing on leaks that are not
 * Vimana's. Only these two libraries are suppressed. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libgvc.so\nleak:libfontconfig.so\n";
}

/* And without the table of used suppressions it would print on stderr. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
    return "print_suppressions=0";
}
#endif

/* Bounds the network-simplex passes that place nodes (at most this times
 * the node count each): unbounded, a 262-node PyTorch trace takes Graphviz
 * minutes; bounded, a second or two, in a slightly less tidy drawing. */
#define GRAPH_RENDER_NSLIMIT "2"

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
    else if (agsafeset(g, "nslimit", GRAPH_RENDER_NSLIMIT, "") != 0 || gvLayout(gvc, g, "dot") != 0)
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
