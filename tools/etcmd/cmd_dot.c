/* `vimana-et dot`: one rank's dependency graph (or a range of ranks',
 * each in a cluster) as Graphviz DOT, GraphML, or drawn (SVG, PDF, PNG)
 * through Graphviz's library. The options and the output format are read
 * here; each rank is streamed by dot_walk.h, after a first pass that plans
 * what is drawn (dot_plan.h) when --name or --collapse asks for one. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cli.h"
#include "etcmd/cmd_io.h"
#include "etcmd/dot_plan.h"
#include "etcmd/dot_walk.h"
#include "etcmd/et_files.h"
#include "etcmd/graph_render.h"
#include "etcmd/graph_write.h"
#include "etcmd/sink.h"
#include "util/msg_escape.h"
#include "vimana-et/commands.h"
#include "vimana/et.h"

#define PROG "vimana-et dot"

static const char usage[] =
    "Usage: vimana-et dot FILE.et [-o OUT] [--format F] [--name TEXT] [--collapse]\n"
    "       vimana-et dot PREFIX --rank-range FIRST-LAST [options]\n"
    "Draw one rank's dependency graph (or several ranks', side by side). Each\n"
    "node is a box labelled with its id, name, type and size (comm_size, or\n"
    "tensor_size of memory nodes) or duration, filled by kind: compute blue,\n"
    "send/recv orange, collective green, memory yellow, metadata grey (a legend\n"
    "lists the kinds drawn); data dependencies are solid edges, control\n"
    "dependencies dashed, both drawn parent -> child.\n"
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
    "                      each node marked xN (a double border)\n"
    "  --rank-range FIRST-LAST  ranks FIRST..LAST of PREFIX (PREFIX.N.et), each in\n"
    "                      a cluster \"rank N\", node names r<N>_n<ID>; one rank: N\n";

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
    bool ranks;             /* --rank-range FIRST-LAST: input is a prefix */
    size_t first, last;
} dot_args;

static bool planned(const dot_args *a)
{
    return a->plan.name || a->plan.collapse;
}

/* "FIRST-LAST" (or one rank "N"), FIRST <= LAST, each at most 2^31. */
static int parse_ranks(const char *text, dot_args *a)
{
    char *end;
    char shown[128];
    unsigned long first = 0, last = 0;
    if (isdigit((unsigned char)*text)) {
        first = last = strtoul(text, &end, 10);
        if (*end == '-' && isdigit((unsigned char)end[1]))
            last = strtoul(end + 1, &end, 10);
    } else {
        end = (char *)text;
    }
    if (*end || first > last || last > 2147483647ul) {
        cli_error(PROG, "--rank-range: expected FIRST-LAST (ranks, FIRST <= LAST), got '%s'",
                  msg_escape(text, shown, sizeof shown));
        return -1;
    }
    a->ranks = true;
    a->first = first;
    a->last = last;
    return 0;
}

/* Returns CMD_IO_RUN, or the exit status (0 after --help, 2 on misuse). */
static int parse_args(int argc, char **argv, dot_args *a)
{
    memset(a, 0, sizeof *a);
    const cli_text_option texts[] = {
        {"-o|--output", &a->output}, {"--format", &a->format_name}, {"--name", &a->plan.name}, {NULL, NULL}};
    for (int i = 1; i < argc; i++) {
        const char *v;
        int rc;
        if (cli_help(argv[i], usage))
            return 0;
        if ((rc = cli_text_options(PROG, argc, argv, &i, texts)) != 0) {
            if (rc < 0)
                return 2;
        } else if ((rc = cli_option(PROG, argc, argv, &i, "--rank-range", &v)) != 0) {
            if (rc < 0 || parse_ranks(v, a) != 0)
                return 2;
        } else if (cli_flag(argv[i], "--collapse")) {
            a->plan.collapse = true;
        } else if (cli_positional(PROG, argv[i], "input file", "; dot draws one rank", &a->input) != 0) {
            return 2;
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

/* The files drawn: the input, or the ranks --rank-range picks from a
 * prefix; each with its plan when --name or --collapse asks for one. */
typedef struct sources {
    et_files files;     /* the prefix's files (--rank-range) */
    size_t first, n;    /* ranks first .. first + n - 1 */
    dot_plan *plans;    /* n plans, or NULL */
} sources;

static const char *source_path(const dot_args *a, const sources *src, size_t k)
{
    int64_t shift;
    return a->ranks ? et_files_rank(&src->files, src->first + k, &shift) : a->input;
}

static void sources_free(sources *src)
{
    for (size_t k = 0; src->plans && k < src->n; k++)
        dot_plan_free(&src->plans[k]);
    free(src->plans);
    et_files_free(&src->files);
}

/* The ranks of --rank-range, checked against the prefix's. */
static int pick_ranks(const dot_args *a, sources *src)
{
    if (et_files_resolve(PROG, a->input, &src->files) != 0)
        return -1;
    size_t have = et_files_n_ranks(&src->files);
    if (!src->files.is_prefix && src->files.roles.n_roles == 0) {
        cli_error(PROG, "error: --rank-range: %s is one file, not a prefix of rank files", a->input);
        return -1;
    }
    if (a->last >= have) {
        cli_error(PROG, "error: --rank-range %zu-%zu: %s has ranks 0-%zu", a->first, a->last, a->input, have - 1);
        return -1;
    }
    src->first = a->first;
    src->n = a->last - a->first + 1;
    return 0;
}

/* Reads each file once to plan it; refuses a --name that no node holds. */
static int plan_sources(const dot_args *a, sources *src)
{
    src->plans = calloc(src->n, sizeof *src->plans);
    if (!src->plans) {
        cli_error(PROG, "error: out of memory");
        return -1;
    }
    size_t drawn = 0;
    for (size_t k = 0; k < src->n; k++) {
        vet_reader *r;
        const char *path = source_path(a, src, k);
        if (cmd_io_open_reader(PROG, path, &r) != 0)
            return -1;
        int rc = dot_plan_build(path, r, &a->plan, &src->plans[k]);
        vet_reader_close(r);
        if (rc != 0)
            return -1;
        drawn += src->plans[k].drawn;
    }
    if (drawn == 0 && a->plan.name) {
        char shown[256];
        cli_error(PROG, "error: %s: no node's name contains '%s'", a->input,
                  msg_escape(a->plan.name, shown, sizeof shown));
        return -1;
    }
    return 0;
}

/* Whether every file opens as an ET, before any output is written. */
static int check_sources(const dot_args *a, const sources *src)
{
    for (size_t k = 0; k < src->n; k++) {
        vet_reader *r;
        if (cmd_io_open_reader(PROG, source_path(a, src, k), &r) != 0)
            return -1;
        vet_reader_close(r);
    }
    return 0;
}

static int open_sources(const dot_args *a, sources *src)
{
    memset(src, 0, sizeof *src);
    src->n = 1;
    if ((a->ranks && pick_ranks(a, src) != 0) || (planned(a) ? plan_sources(a, src) : check_sources(a, src)) != 0) {
        sources_free(src);
        return -1;
    }
    return 0;
}

/* The whole picture through `w`: one rank, or each rank in a cluster of
 * its own with its node names prefixed. *n_nodes gets the nodes drawn. */
static int draw(const graph_writer *w, const dot_args *a, sources *src, sink *s, size_t *n_nodes)
{
    graph_out o = {.s = s};
    unsigned kinds = 0;
    *n_nodes = 0;
    w->begin(&o, a->input);
    for (size_t k = 0; k < src->n; k++) {
        if (a->ranks) {
            snprintf(o.prefix, sizeof o.prefix, "r%zu_", src->first + k);
            w->rank_begin(&o, src->first + k);
        }
        if (dot_walk(w, &o, PROG, source_path(a, src, k), src->plans ? &src->plans[k] : NULL, n_nodes, &kinds) != 0)
            return -1;
        if (a->ranks)
            w->rank_end(&o);
    }
    o.prefix[0] = '\0';
    w->end(&o, kinds);
    return 0;
}

/* Writes the text form straight to the output. */
static int write_text(const dot_args *a, const graph_writer *w)
{
    sources src;
    if (open_sources(a, &src) != 0)
        return -1;
    sink *s = sink_open(PROG, a->output);
    size_t n_nodes;
    int rc = s ? draw(w, a, &src, s, &n_nodes) : -1;
    if (s && sink_close(s) != 0)
        rc = -1;
    sources_free(&src);
    return rc;
}

/* Writes DOT into memory, then has Graphviz draw it. */
static int write_drawing(const dot_args *a, const char *gv_format)
{
    char *text = NULL;
    size_t len = 0;
    sources src;
    if (open_sources(a, &src) != 0)
        return -1;
    sink *s = sink_open_memory(PROG, &text, &len);
    size_t n_nodes = 0;
    int rc = s ? draw(&graph_write_dot, a, &src, s, &n_nodes) : -1;
    if (s && sink_close(s) != 0)
        rc = -1;
    sources_free(&src);
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
