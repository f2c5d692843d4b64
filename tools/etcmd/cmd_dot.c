/* `vimana-et dot`: one rank's dependency graph as Graphviz DOT, GraphML,
 * or drawn (SVG, PDF, PNG) through Graphviz's library. Streams the ET; only
 * the node ids are kept, to add the parents that are not in the file as
 * "missing" nodes at the end. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/idmap.h"
#include "etcmd/cmd_io.h"
#include "etcmd/graph_render.h"
#include "etcmd/graph_write.h"
#include "etcmd/sink.h"
#include "util/grow.h"
#include "vimana-et/commands.h"
#include "vimana/et.h"

#define PROG "vimana-et dot"

static const char usage[] =
    "Usage: vimana-et dot FILE.et [-o OUT] [--format FORMAT]\n"
    "Draw one rank's dependency graph. Each node is a box labelled with its id,\n"
    "name, type and size (comm_size, or tensor_size of memory nodes) or duration;\n"
    "data dependencies are solid edges, control dependencies dashed, both drawn\n"
    "parent -> child. Parents missing from the file appear dotted.\n"
    "The format follows OUT's extension, or --format:\n"
    "  .dot, .gv       Graphviz DOT text (also the default on stdout)\n"
    "  .graphml        GraphML: nodes with data id, name and type; edges with\n"
    "                  dependency = data or control (as Chakra's visualiser)\n"
    "  .svg .pdf .png  drawn with Graphviz's dot layout (libgvc), up to 500 nodes\n"
    "                  (larger layouts take Graphviz minutes to hours)\n"
    "DOT and GraphML outputs may end in .gz (e.g. OUT.dot.gz) to be compressed.\n"
    "  -o, --output FILE   write to FILE; default stdout\n"
    "  --format FORMAT     dot, graphml, svg, pdf or png, whatever OUT's extension\n";

typedef enum { FORMAT_DOT, FORMAT_GRAPHML, FORMAT_SVG, FORMAT_PDF, FORMAT_PNG } dot_format;

static const struct {
    const char *name;
    dot_format format;
} formats[] = {
    {"dot", FORMAT_DOT}, {"gv", FORMAT_DOT},   {"graphml", FORMAT_GRAPHML},
    {"svg", FORMAT_SVG}, {"pdf", FORMAT_PDF}, {"png", FORMAT_PNG},
};

static int format_named(const char *name, size_t len, dot_format *out)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (strlen(formats[i].name) == len && strncmp(formats[i].name, name, len) == 0) {
            *out = formats[i].format;
            return 0;
        }
    return -1;
}

static int is_text(dot_format f)
{
    return f == FORMAT_DOT || f == FORMAT_GRAPHML;
}

/* The format an output name asks for: its extension, before a ".gz" for
 * the text formats. Returns 0, or -1 after printing why not. */
static int format_of_output(const char *output, dot_format *out)
{
    const char *base = strrchr(output, '/');
    base = base ? base + 1 : output;
    size_t len = strlen(base);
    int gz = len > 3 && strcmp(base + len - 3, ".gz") == 0;
    if (gz)
        len -= 3;
    const char *dot = NULL;
    for (size_t i = 0; i < len; i++)
        if (base[i] == '.')
            dot = base + i;
    if (dot && dot > base && format_named(dot + 1, len - (size_t)(dot + 1 - base), out) == 0 && (!gz || is_text(*out)))
        return 0;
    cli_error(PROG, "%s: cannot tell the output format from its extension (expected .dot, .gv, .graphml, "
                    ".svg, .pdf or .png, or give --format)", output);
    return -1;
}

typedef struct dot_args {
    const char *input, *output, *format_name;
} dot_args;

/* Returns CMD_IO_RUN, or the exit status (0 after --help, 2 on misuse). */
static int parse_args(int argc, char **argv, dot_args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *v;
        int rc;
        if (cli_flag(argv[i], "-h|--help")) {
            fputs(usage, stdout);
            return 0;
        }
        if ((rc = cli_option(PROG, argc, argv, &i, "-o|--output", &v)) != 0) {
            if (rc < 0)
                return 2;
            a->output = v;
        } else if ((rc = cli_option(PROG, argc, argv, &i, "--format", &v)) != 0) {
            if (rc < 0)
                return 2;
            a->format_name = v;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            cli_error(PROG, "unknown option '%s' (see --help)", argv[i]);
            return 2;
        } else if (a->input) {
            cli_error(PROG, "more than one input file ('%s' and '%s'); dot draws one rank", a->input, argv[i]);
            return 2;
        } else {
            a->input = argv[i];
        }
    }
    if (!a->input) {
        cli_error(PROG, "missing the input file (see --help)");
        return 2;
    }
    return CMD_IO_RUN;
}

static int choose_format(const dot_args *a, dot_format *f)
{
    *f = FORMAT_DOT;
    if (a->format_name) {
        if (format_named(a->format_name, strlen(a->format_name), f) == 0)
            return 0;
        cli_error(PROG, "--format: expected dot, graphml, svg, pdf or png, got '%s'", a->format_name);
        return -1;
    }
    if (a->output && strcmp(a->output, "-") != 0)
        return format_of_output(a->output, f);
    return 0;
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

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Returns how many missing parents it wrote. */
static size_t missing_nodes(const graph_writer *w, sink *s, refs *r, const idmap *defined)
{
    size_t written = 0;
    if (r->n == 0)
        return 0;
    qsort(r->ids, r->n, sizeof *r->ids, cmp_u64);
    for (size_t i = 0; i < r->n; i++) {
        uint32_t index;
        if ((i > 0 && r->ids[i] == r->ids[i - 1]) || idmap_get(defined, r->ids[i], &index))
            continue;
        w->missing(s, r->ids[i]);
        written++;
    }
    return written;
}

/* Streams the graph through `w`; *n_nodes gets its node count, missing
 * parents included. */
static int draw(const graph_writer *w, const char *input, vet_reader *r, sink *s, size_t *n_nodes)
{
    idmap defined = {0};
    refs parents = {0};
    vet_error err;
    const vet_node *n;
    int rc;
    uint32_t index = 0, first;
    w->begin(s, input);
    while ((rc = vet_reader_next(r, &n, &err)) == 1) {
        w->node(s, n);
        if (idmap_put(&defined, n->id, index++, &first) < 0 || remember(&parents, n->data_deps, n->n_data_deps) ||
            remember(&parents, n->ctrl_deps, n->n_ctrl_deps)) {
            snprintf(err.msg, sizeof err.msg, "%s: out of memory", input);
            rc = -1;
            break;
        }
    }
    if (rc == 0) {
        *n_nodes = index + missing_nodes(w, s, &parents, &defined);
        w->end(s);
    } else {
        fprintf(stderr, "%s\n", err.msg);
    }
    idmap_free(&defined);
    free(parents.ids);
    return rc;
}

/* Writes the text form straight to the output. */
static int write_text(const dot_args *a, const graph_writer *w)
{
    vet_reader *r;
    sink *s;
    if (cmd_io_open(PROG, a->input, a->output, &r, &s) != 0)
        return -1;
    size_t n_nodes;
    int rc = draw(w, a->input, r, s, &n_nodes);
    vet_reader_close(r);
    if (sink_close(s) != 0)
        rc = -1;
    return rc;
}

/* Writes DOT into memory, then has Graphviz draw it. */
static int write_drawing(const dot_args *a, const char *gv_format)
{
    char *text = NULL;
    size_t len = 0;
    vet_reader *r;
    if (cmd_io_open_reader(PROG, a->input, &r) != 0)
        return -1;
    sink *s = sink_open_memory(PROG, &text, &len);
    size_t n_nodes = 0;
    int rc = s ? draw(&graph_write_dot, a->input, r, s, &n_nodes) : -1;
    vet_reader_close(r);
    if (s && sink_close(s) != 0)
        rc = -1;
    if (rc == 0 && n_nodes > GRAPH_RENDER_MAX_NODES) {
        cli_error(PROG, "error: %s: %zu nodes are too many to draw (at most %d; Graphviz's layout would take "
                        "minutes or hours): write .dot and run Graphviz's dot, or .graphml", a->input, n_nodes,
                  GRAPH_RENDER_MAX_NODES);
        rc = -1;
    }
    if (rc == 0)
        rc = graph_render(PROG, text, gv_format, a->output);
    free(text);
    return rc;
}

int cmd_dot(int argc, char **argv)
{
    dot_args a;
    dot_format f;
    int status = parse_args(argc, argv, &a);
    if (status != CMD_IO_RUN)
        return status;
    if (choose_format(&a, &f) != 0)
        return 2;
    if (a.output && cli_make_parent_dirs(PROG, a.output) != 0)
        return 1;
    int rc;
    switch (f) {
    case FORMAT_GRAPHML: rc = write_text(&a, &graph_write_graphml); break;
    case FORMAT_SVG: rc = write_drawing(&a, "svg"); break;
    case FORMAT_PDF: rc = write_drawing(&a, "pdf"); break;
    case FORMAT_PNG: rc = write_drawing(&a, "png"); break;
    default: rc = write_text(&a, &graph_write_dot); break;
    }
    return rc == 0 ? 0 : 1;
}
