/* `vimana-et dot`: one rank's dependency graph as Graphviz DOT, GraphML,
 * or drawn (SVG, PDF, PNG) through Graphviz's library. Streams the ET; only
 * the node ids are kept, to add the parents that are not in the file as
 * "missing" nodes at the end. --name and --collapse read it twice: first
 * to plan what is drawn (dot_plan.h), then to draw it. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "common/idmap.h"
#include "etcmd/cmd_io.h"
#include "etcmd/dot_plan.h"
#include "etcmd/graph_render.h"
#include "etcmd/graph_write.h"
#include "etcmd/sink.h"
#include "util/grow.h"
#include "util/msg_escape.h"
#include "vimana-et/commands.h"
#include "vimana/et.h"

#define PROG "vimana-et dot"

static const char usage[] =
    "Usage: vimana-et dot FILE.et [-o OUT] [--format FORMAT] [--name TEXT] [--collapse]\n"
    "Draw one rank's dependency graph. Each node is a box labelled with its id,\n"
    "name, type and size (comm_size, or tensor_size of memory nodes) or duration,\n"
    "filled by kind: compute blue, send/recv orange, collective green, memory\n"
    "yellow, metadata grey (a legend lists the kinds drawn); data dependencies\n"
    "are solid edges, control dependencies dashed, both drawn parent -> child.\n"
    "Parents missing from the file appear dotted.\n"
    "The format follows OUT's extension, or --format:\n"
    "  .dot, .gv       Graphviz DOT text (also the default on stdout)\n"
    "  .graphml        GraphML: nodes with data id, name and type; edges with\n"
    "                  dependency = data or control (as Chakra's visualiser)\n"
    "  .svg .pdf .png  drawn with Graphviz's dot layout (libgvc), up to 500 nodes\n"
    "                  (larger layouts take Graphviz minutes to hours)\n"
    "DOT and GraphML outputs may end in .gz (e.g. OUT.dot.gz) to be compressed.\n"
    "  -o, --output FILE   write to FILE; default stdout\n"
    "  --format FORMAT     dot, graphml, svg, pdf or png, whatever OUT's extension\n"
    "  --name TEXT         only the nodes whose name contains TEXT, and the edges\n"
    "                      between them (parents missing from the file still show)\n"
    "  --collapse          draw repeated layers once: consecutive blocks of nodes\n"
    "                      whose names differ only in the number after \"layer\"\n"
    "                      (layer3, layer_3, layers.3) become their first block,\n"
    "                      each node marked xN (a double border)\n";

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
    dot_plan_options plan;
} dot_args;

static bool planned(const dot_args *a)
{
    return a->plan.name || a->plan.collapse;
}

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
        } else if ((rc = cli_option(PROG, argc, argv, &i, "--name", &v)) != 0) {
            if (rc < 0)
                return 2;
            a->plan.name = v;
        } else if (cli_flag(argv[i], "--collapse")) {
            a->plan.collapse = true;
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

/* What the drawing walk needs besides the writer: the ids seen, the
 * parents to check for missing ones, the kinds drawn, and the plan. */
typedef struct walk {
    const graph_writer *w;
    sink *s;
    idmap defined;
    refs parents;
    unsigned kinds;
    size_t drawn;
    dot_plan *plan;     /* NULL: every node, every edge */
} walk;

static int all_edges(walk *k, const vet_node *n)
{
    for (size_t i = 0; i < n->n_data_deps; i++)
        k->w->edge(k->s, n->data_deps[i], n->id, false);
    for (size_t i = 0; i < n->n_ctrl_deps; i++)
        k->w->edge(k->s, n->ctrl_deps[i], n->id, true);
    return remember(&k->parents, n->data_deps, n->n_data_deps) || remember(&k->parents, n->ctrl_deps, n->n_ctrl_deps);
}

/* The edges into node `index` that the plan draws; only the parents
 * absent from the file are remembered (as missing nodes to add). */
static int planned_edges(walk *k, size_t index, const uint64_t *deps, size_t n_deps, bool ctrl)
{
    for (size_t i = 0; i < n_deps; i++) {
        uint64_t from, to;
        bool absent;
        if (!dot_plan_edge_of(k->plan, index, deps[i], ctrl, &from, &to, &absent))
            continue;
        k->w->edge(k->s, from, to, ctrl);
        if (absent && remember(&k->parents, &from, 1) != 0)
            return -1;
    }
    return 0;
}

static int one_node(walk *k, const vet_node *n, uint32_t index)
{
    uint32_t first;
    if (idmap_put(&k->defined, n->id, index, &first) < 0)
        return -1;
    if (!k->plan || dot_plan_draws(k->plan, index)) {
        k->w->node(k->s, n, k->plan ? k->plan->times[index] : 1);
        k->kinds |= 1u << graph_kind_of(n->type);
        k->drawn++;
    }
    if (!k->plan)
        return all_edges(k, n);
    return planned_edges(k, index, n->data_deps, n->n_data_deps, false) ||
           planned_edges(k, index, n->ctrl_deps, n->n_ctrl_deps, true);
}

/* Streams the graph through `w`; *n_nodes gets the count of nodes drawn,
 * missing parents included. */
static int draw(const graph_writer *w, const char *input, dot_plan *plan, vet_reader *r, sink *s, size_t *n_nodes)
{
    walk k = {.w = w, .s = s, .plan = plan};
    vet_error err;
    const vet_node *n;
    int rc;
    uint32_t index = 0;
    w->begin(s, input);
    while ((rc = vet_reader_next(r, &n, &err)) == 1)
        if (one_node(&k, n, index++) != 0) {
            snprintf(err.msg, sizeof err.msg, "%s: out of memory", input);
            rc = -1;
            break;
        }
    if (rc == 0) {
        *n_nodes = k.drawn + missing_nodes(w, s, &k.parents, &k.defined);
        w->end(s, k.kinds);
    } else {
        fprintf(stderr, "%s\n", err.msg);
    }
    idmap_free(&k.defined);
    free(k.parents.ids);
    return rc;
}

/* The plan when --name or --collapse asks for one (a first read of the
 * input); *use is NULL without. Returns 0 or -1. */
static int make_plan(const dot_args *a, dot_plan *plan, dot_plan **use)
{
    vet_reader *r;
    *use = NULL;
    if (!planned(a))
        return 0;
    if (cmd_io_open_reader(PROG, a->input, &r) != 0)
        return -1;
    int rc = dot_plan_build(a->input, r, &a->plan, plan);
    vet_reader_close(r);
    if (rc == 0 && plan->drawn == 0 && a->plan.name) {
        char shown[256];
        cli_error(PROG, "error: %s: no node's name contains '%s'", a->input,
                  msg_escape(a->plan.name, shown, sizeof shown));
        rc = -1;
    }
    if (rc != 0) {
        dot_plan_free(plan);
        return -1;
    }
    *use = plan;
    return 0;
}

/* Writes the text form straight to the output. */
static int write_text(const dot_args *a, const graph_writer *w)
{
    vet_reader *r;
    sink *s;
    dot_plan plan, *use;
    if (make_plan(a, &plan, &use) != 0)
        return -1;
    if (cmd_io_open(PROG, a->input, a->output, &r, &s) != 0) {
        if (use)
            dot_plan_free(use);
        return -1;
    }
    size_t n_nodes;
    int rc = draw(w, a->input, use, r, s, &n_nodes);
    vet_reader_close(r);
    if (sink_close(s) != 0)
        rc = -1;
    if (use)
        dot_plan_free(use);
    return rc;
}

/* Writes DOT into memory, then has Graphviz draw it. */
static int write_drawing(const dot_args *a, const char *gv_format)
{
    char *text = NULL;
    size_t len = 0;
    vet_reader *r;
    dot_plan plan, *use;
    if (make_plan(a, &plan, &use) != 0)
        return -1;
    if (cmd_io_open_reader(PROG, a->input, &r) != 0) {
        if (use)
            dot_plan_free(use);
        return -1;
    }
    sink *s = sink_open_memory(PROG, &text, &len);
    size_t n_nodes = 0;
    int rc = s ? draw(&graph_write_dot, a->input, use, r, s, &n_nodes) : -1;
    vet_reader_close(r);
    if (s && sink_close(s) != 0)
        rc = -1;
    if (use)
        dot_plan_free(use);
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
