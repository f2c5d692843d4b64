/* Topology graph: the ns-3 topology .txt read into a compact graph (CSR
 * adjacency), validated, and routed by BFS tables cached per destination. */
#include "vimana/topology_graph.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/input_file.h"
#include "topology_yaml.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/msg_escape.h"
#include "util/number_text.h"
#include "util/path_msg.h"
#include "vimana/network_yaml.h"

struct vimana_topo {
    uint32_t n_nodes, n_npus, n_links;
    uint32_t *node_dev;         /* per node: device id (NPU index, or n_npus + switch rank) */
    uint32_t *device_node;      /* per device: node id (NPU k is device k, then the switches) */
    vimana_topo_link *links;    /* 2 per link line */
    uint32_t *adj_start;        /* n_nodes + 1: outgoing links of node u are */
    uint32_t *adj;              /* adj[adj_start[u] .. adj_start[u+1]), by link id */
    uint32_t n_dims, dims[VIMANA_TOPO_MAX_DIMS];
    /* Route cache: hop distances to a destination NPU, one table per
     * cached destination, reused oldest-first once `cache_cap` are held. */
    uint32_t **dist_to;         /* per NPU, NULL if not cached */
    uint32_t *cached;           /* ring of cached destination NPUs */
    uint32_t n_cached, cache_next, cache_cap;
    size_t cache_limit;
    uint32_t *bfs_queue;        /* n_nodes, allocated with the first table */
    uint8_t *down;              /* per directed link: 1 when out of the routes; NULL: none is */
};

/* ---- errors ---------------------------------------------------------- */

typedef struct {
    const char *path;
    char *err;
    size_t err_len;
} load_ctx;

static int fail_at(load_ctx *c, size_t line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail_at(load_ctx *c, size_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = path_vmsg(c->err, c->err_len, c->path, line, 400, fmt, ap);
    va_end(ap);
    return rc;
}

/* ---- tokens ---------------------------------------------------------- */

#define MAX_TOKENS 8
#define TOKEN_MAX 64

/* The whitespace-separated words of one line before any '#', at most
 * MAX_TOKENS (n counts all of them), each escaped for messages. */
typedef struct {
    char tok[MAX_TOKENS][TOKEN_MAX];
    size_t n;
} line_tokens;

/* The next word of s[0..len) from *pos, stopping at '#'; escaped into
 * tok. Returns false at the end of the line. */
static bool next_token(const char *s, size_t len, size_t *pos, char *tok)
{
    size_t i = *pos;
    while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n'))
        i++;
    if (i >= len || s[i] == '#') {
        *pos = i;
        return false;
    }
    size_t start = i;
    while (i < len && s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n' && s[i] != '#')
        i++;
    msg_escape_n(s + start, i - start, tok, TOKEN_MAX);
    *pos = i;
    return true;
}

static void split_line(const char *s, size_t len, line_tokens *out)
{
    char tok[TOKEN_MAX];
    size_t pos = 0;
    out->n = 0;
    while (next_token(s, len, &pos, tok)) {
        if (out->n < MAX_TOKENS)
            memcpy(out->tok[out->n], tok, TOKEN_MAX);
        out->n++;
    }
}

/* A whole number in [0, limit]; no sign, no spaces. */
static bool parse_count(const char *s, uint32_t limit, uint32_t *out)
{
    uint64_t v;
    if (!whole_number_parse(s, limit, &v))
        return false;
    *out = (uint32_t)v;
    return true;
}

/* Length of the decimal number at the start of s: [+-]digits[.digits][e[+-]digits].
 * Hex, inf and nan are not numbers here. */
static size_t number_prefix(const char *s)
{
    size_t i = 0, digits = 0;
    if (s[i] == '+' || s[i] == '-')
        i++;
    while (s[i] >= '0' && s[i] <= '9')
        i++, digits++;
    if (s[i] == '.')
        for (i++; s[i] >= '0' && s[i] <= '9'; i++)
            digits++;
    if (digits == 0)
        return 0;
    if (s[i] == 'e' || s[i] == 'E') {
        size_t j = i + 1;
        if (s[j] == '+' || s[j] == '-')
            j++;
        if (s[j] >= '0' && s[j] <= '9') {
            while (s[j] >= '0' && s[j] <= '9')
                j++;
            i = j;
        }
    }
    return i;
}

/* Splits "400Gbps" into 400 and "Gbps". */
static bool split_quantity(const char *s, double *value, const char **unit)
{
    size_t n = number_prefix(s);
    if (n == 0 || n >= TOKEN_MAX)
        return false;
    char num[TOKEN_MAX];
    memcpy(num, s, n);
    num[n] = '\0';
    errno = 0;
    *value = strtod(num, NULL);
    *unit = s + n;
    return errno == 0 || *value == 0.0;
}

typedef struct {
    const char *name;
    double factor;
} unit_def;

/* ns-3 DataRate units: bits (bps) or bytes (Bps) per second, SI prefixes. */
static const unit_def rate_units[] = {
    {"bps", 1.0},         {"Kbps", 1e3},  {"kbps", 1e3},  {"Mbps", 1e6},  {"Gbps", 1e9},
    {"Tbps", 1e12},       {"Bps", 8.0},   {"KBps", 8e3},  {"kBps", 8e3},  {"MBps", 8e6},
    {"GBps", 8e9},        {"TBps", 8e12},
};
/* ns-3 Time units, as nanoseconds. */
static const unit_def delay_units[] = {
    {"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1.0}, {"ps", 1e-3},
};

static const unit_def *find_unit(const unit_def *units, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(units[i].name, name) == 0)
            return &units[i];
    return NULL;
}

/* A quantity of a link line, as its messages name it. */
typedef struct {
    const char *kind;      /* "rate" */
    const char *example;   /* a good value */
    const char *unit_list; /* the units a message offers */
    const unit_def *units;
    size_t n_units;
} quantity_kind;

static const quantity_kind rate_kind = {
    "rate", "400Gbps", "bps, Kbps, Mbps, Gbps, Tbps, Bps, KBps, MBps, GBps, TBps", rate_units,
    sizeof rate_units / sizeof *rate_units,
};
static const quantity_kind delay_kind = {
    "delay", "0.0005ms", "s, ms, us, ns, ps", delay_units, sizeof delay_units / sizeof *delay_units,
};

/* ---- the parser -------------------------------------------------------- */

enum stage { STAGE_HEADER, STAGE_SWITCHES, STAGE_LINKS, STAGE_DONE };

typedef struct {
    load_ctx *c;
    enum stage stage;
    uint32_t n_nodes, n_switches, n_link_lines, links_read;
    uint32_t switches_read;     /* ids of the switch list read so far */
    bool simai;                 /* SimAI's header: the switch ids may span lines */
    size_t header_line, dims_line;
    uint8_t *is_switch;
    vimana_topo_link *links;    /* grown as lines are read, not by the header's count */
    size_t links_cap;
    uint32_t n_dims, dims[VIMANA_TOPO_MAX_DIMS];
} parse_state;

/* SimAI's header, "<nodes> <gpus_per_server> <nvswitches> <switches>
 * <links> <gpu_type> [<gpus_per_node>]": NVSwitches and switches are both
 * switches here (routes are shortest paths either way); the GPU type and
 * the per-server counts are checked for sense, and say nothing more. */
static int parse_simai_header(parse_state *p, const line_tokens *t, size_t line)
{
    uint32_t per_server, nvswitches, switches, per_node;
    if (!parse_count(t->tok[0], VIMANA_TOPO_MAX_NODES, &p->n_nodes) || p->n_nodes == 0)
        return fail_at(p->c, line, "node count '%s' must be a whole number from 1 to %u", t->tok[0],
                       VIMANA_TOPO_MAX_NODES);
    if (!parse_count(t->tok[1], p->n_nodes, &per_server) || per_server == 0)
        return fail_at(p->c, line, "GPUs per server '%s' must be a whole number from 1 to the node count %u",
                       t->tok[1], p->n_nodes);
    if (!parse_count(t->tok[2], p->n_nodes, &nvswitches))
        return fail_at(p->c, line, "NVSwitch count '%s' must be a whole number from 0 to the node count %u",
                       t->tok[2], p->n_nodes);
    if (!parse_count(t->tok[3], p->n_nodes - nvswitches, &switches))
        return fail_at(p->c, line, "switch count '%s' must be a whole number from 0 to %u (the nodes that are "
                       "not NVSwitches)", t->tok[3], p->n_nodes - nvswitches);
    if (!parse_count(t->tok[4], VIMANA_TOPO_MAX_LINK_LINES, &p->n_link_lines))
        return fail_at(p->c, line, "link count '%s' must be a whole number from 0 to %u", t->tok[4],
                       VIMANA_TOPO_MAX_LINK_LINES);
    if (t->tok[5][0] >= '0' && t->tok[5][0] <= '9')
        return fail_at(p->c, line, "GPU type '%s' must be a name (A100, H100, ...), not a number", t->tok[5]);
    if (t->n == 7 && (!parse_count(t->tok[6], p->n_nodes, &per_node) || per_node == 0))
        return fail_at(p->c, line, "GPUs per node '%s' must be a whole number from 1 to the node count %u",
                       t->tok[6], p->n_nodes);
    p->n_switches = nvswitches + switches;
    p->simai = true;
    return 0;
}

/* The header: ns-3's three words or SimAI's six (or seven). */
static int parse_header(parse_state *p, const line_tokens *t, size_t line)
{
    if (t->n == 6 || t->n == 7) {
        if (parse_simai_header(p, t, line) != 0)
            return -1;
    } else if (t->n != 3) {
        return fail_at(p->c, line, "expected the header '<nodes> <switches> <links>' (ns-3) or '<nodes> "
                       "<gpus_per_server> <nvswitches> <switches> <links> <gpu_type>' (SimAI), found %zu words",
                       t->n);
    } else {
        if (!parse_count(t->tok[0], VIMANA_TOPO_MAX_NODES, &p->n_nodes) || p->n_nodes == 0)
            return fail_at(p->c, line, "node count '%s' must be a whole number from 1 to %u", t->tok[0],
                           VIMANA_TOPO_MAX_NODES);
        if (!parse_count(t->tok[1], p->n_nodes, &p->n_switches))
            return fail_at(p->c, line, "switch count '%s' must be a whole number from 0 to the node count %u",
                           t->tok[1], p->n_nodes);
        if (!parse_count(t->tok[2], VIMANA_TOPO_MAX_LINK_LINES, &p->n_link_lines))
            return fail_at(p->c, line, "link count '%s' must be a whole number from 0 to %u", t->tok[2],
                           VIMANA_TOPO_MAX_LINK_LINES);
    }
    uint32_t npus = p->n_nodes - p->n_switches;
    if (npus == 0)
        return fail_at(p->c, line, "every node is a switch: the topology has no NPU");
    if (npus > VIMANA_NET_MAX_NPUS)
        return fail_at(p->c, line, "%u NPUs (nodes that are not switches) is above the limit of %u", npus,
                       VIMANA_NET_MAX_NPUS);
    p->header_line = line;
    p->is_switch = calloc(p->n_nodes, 1);
    if (!p->is_switch)
        return fail_at(p->c, line, "out of memory for %u nodes", p->n_nodes);
    p->stage = p->n_switches ? STAGE_SWITCHES : (p->n_link_lines ? STAGE_LINKS : STAGE_DONE);
    return 0;
}

/* The switch line: any number of ids, read word by word. ns-3's file has
 * them on one line; SimAI's reader takes them as a stream of words (its
 * NVSwitches, then its switches), so there they may span lines. */
static int parse_switches(parse_state *p, const char *s, size_t len, size_t line)
{
    char tok[TOKEN_MAX];
    size_t pos = 0, n = 0;
    while (next_token(s, len, &pos, tok)) {
        uint32_t id;
        if (!parse_count(tok, UINT32_MAX, &id))
            return fail_at(p->c, line, "switch id '%s' is not a node id", tok);
        if (id >= p->n_nodes)
            return fail_at(p->c, line, "switch %u: unknown node %u (the topology has %u nodes)", id, id,
                           p->n_nodes);
        if (p->is_switch[id])
            return fail_at(p->c, line, "switch %u is listed twice", id);
        if (p->simai && p->switches_read == p->n_switches)
            return fail_at(p->c, line, "the header announces %u NVSwitches and switches, the list has more",
                           p->n_switches);
        p->is_switch[id] = 1;
        p->switches_read++;
        n++;
    }
    if (!p->simai && n != p->n_switches)
        return fail_at(p->c, line, "the header announces %u switches, this line has %zu", p->n_switches, n);
    if (p->switches_read == p->n_switches)
        p->stage = p->n_link_lines ? STAGE_LINKS : STAGE_DONE;
    return 0;
}

/* The number and unit of `tok` as the unit's multiple (*out). */
static int parse_quantity(parse_state *p, const char *tok, size_t line, const char *what, const quantity_kind *k,
                          double *out)
{
    double v;
    const char *unit;
    if (!split_quantity(tok, &v, &unit))
        return fail_at(p->c, line, "%s: %s '%s' is not a number with a unit (e.g. %s)", what, k->kind, tok,
                       k->example);
    const unit_def *u = find_unit(k->units, k->n_units, unit);
    if (!u)
        return fail_at(p->c, line, "%s: %s '%s': unknown unit '%s' (%s)", what, k->kind, tok, unit, k->unit_list);
    *out = v * u->factor;
    return 0;
}

static int parse_rate(parse_state *p, const char *tok, size_t line, const char *what, vimana_topo_link *l)
{
    double bits_per_s;
    if (parse_quantity(p, tok, line, what, &rate_kind, &bits_per_s) != 0)
        return -1;
    if (!(bits_per_s > 0))
        return fail_at(p->c, line, "%s: rate '%s' must be above zero", what, tok);
    /* 10^21 bit/s: far past any link, and what a byte's time in ticks
     * still resolves (1e300Tbps was reported as "must be above zero") */
    if (!(bits_per_s <= 1e21))
        return fail_at(p->c, line, "%s: rate '%s' is too large (at most 1000000000Tbps)", what, tok);
    l->bytes_per_ns = bits_per_s / 8.0 / 1e9;
    l->bandwidth_gbps = bits_per_s / 8.0 / 1073741824.0;
    /* One byte must take a representable number of ticks. */
    if (!(1.0 / l->bytes_per_ns < VIMANA_TICK_LIMIT))
        return fail_at(p->c, line, "%s: rate '%s' is too small (one byte would take 2^64 ns or more)", what, tok);
    return 0;
}

static int parse_delay(parse_state *p, const char *tok, size_t line, const char *what, vimana_topo_link *l)
{
    double ns;
    if (parse_quantity(p, tok, line, what, &delay_kind, &ns) != 0)
        return -1;
    if (!(ns >= 0) || !(ns < VIMANA_TICK_LIMIT))
        return fail_at(p->c, line, "%s: delay '%s' must be at least 0 and below 2^64 ns", what, tok);
    l->latency_ns = ns;
    return 0;
}

static int parse_link(parse_state *p, const line_tokens *t, size_t line)
{
    char what[64];
    if (t->n != 5)
        return fail_at(p->c, line, "link %u: expected '<src> <dst> <rate> <delay> <error_rate>', found %zu words",
                       p->links_read, t->n);
    uint32_t src, dst;
    if (!parse_count(t->tok[0], UINT32_MAX, &src) || !parse_count(t->tok[1], UINT32_MAX, &dst))
        return fail_at(p->c, line, "link %u: '%s %s' are not two node ids", p->links_read, t->tok[0], t->tok[1]);
    snprintf(what, sizeof what, "link %u -> %u", src, dst);
    if (src >= p->n_nodes || dst >= p->n_nodes)
        return fail_at(p->c, line, "%s: unknown node %u (the topology has %u nodes)", what,
                       src >= p->n_nodes ? src : dst, p->n_nodes);
    if (src == dst)
        return fail_at(p->c, line, "%s connects a node to itself", what);
    if (grow_array((void **)&p->links, &p->links_cap, 2 * (size_t)p->links_read + 2, sizeof *p->links, 64) != 0)
        return fail_at(p->c, line, "out of memory for %u links", p->links_read + 1);
    vimana_topo_link *l = &p->links[2 * (size_t)p->links_read];
    memset(l, 0, sizeof *l);
    l->src = src;
    l->dst = dst;
    l->line = (uint32_t)(line > UINT32_MAX ? UINT32_MAX : line);
    if (parse_rate(p, t->tok[2], line, what, l) != 0 || parse_delay(p, t->tok[3], line, what, l) != 0)
        return -1;
    double e;
    const char *rest;
    if (!split_quantity(t->tok[4], &e, &rest) || *rest || !(e >= 0 && e <= 1))
        return fail_at(p->c, line, "%s: error rate '%s' must be a number from 0 to 1", what, t->tok[4]);
    /* Refused, not ignored: no model built on the toolkit drops or
     * retransmits packets, and a run on a lossy link would quietly time a
     * lossless one. */
    if (e > 0)
        return fail_at(p->c, line, "%s: error rate '%s': no Vimana backend drops packets; write 0 (lossless)", what,
                       t->tok[4]);
    l->error_rate = e;
    l[1] = l[0];
    l[1].src = dst;
    l[1].dst = src;
    if (++p->links_read == p->n_link_lines)
        p->stage = STAGE_DONE;
    return 0;
}

/* "# vimana-dims: 8 4": the logical dimensions of the NPUs. */
static int parse_dims(parse_state *p, const char *text, size_t len, size_t line)
{
    if (p->dims_line)
        return fail_at(p->c, line, "vimana-dims given twice (first on line %zu)", p->dims_line);
    line_tokens t;
    split_line(text, len, &t);
    if (t.n == 0 || t.n > VIMANA_TOPO_MAX_DIMS)
        return fail_at(p->c, line, "vimana-dims needs 1 to %d sizes, found %zu", VIMANA_TOPO_MAX_DIMS, t.n);
    for (size_t i = 0; i < t.n; i++)
        if (!parse_count(t.tok[i], VIMANA_NET_MAX_NPUS, &p->dims[i]) || p->dims[i] == 0)
            return fail_at(p->c, line, "vimana-dims: size '%s' must be a whole number from 1 to %u", t.tok[i],
                           VIMANA_NET_MAX_NPUS);
    p->n_dims = (uint32_t)t.n;
    p->dims_line = line;
    return 0;
}

/* A comment line that is a directive, or 0 for an ordinary comment. */
static int parse_comment(parse_state *p, const char *s, size_t len, size_t line)
{
    static const char key[] = "vimana-dims:";
    size_t i = 0;
    while (i < len && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i >= len || s[i] != '#')
        return 0;
    for (i++; i < len && (s[i] == ' ' || s[i] == '\t'); i++)
        ;
    if (len - i >= sizeof key - 1 && memcmp(s + i, key, sizeof key - 1) == 0)
        return parse_dims(p, s + i + sizeof key - 1, len - i - (sizeof key - 1), line);
    return 0;
}

static int parse_line(parse_state *p, const char *s, size_t len, size_t line)
{
    if (parse_comment(p, s, len, line) != 0)
        return -1;
    line_tokens t;
    split_line(s, len, &t);
    if (t.n == 0)
        return 0;
    switch (p->stage) {
    case STAGE_HEADER: return parse_header(p, &t, line);
    case STAGE_SWITCHES: return parse_switches(p, s, len, line);
    case STAGE_LINKS: return parse_link(p, &t, line);
    case STAGE_DONE: break;
    }
    return fail_at(p->c, line, "unexpected '%s' after the %u links the header announces", t.tok[0],
                   p->n_link_lines);
}

static int parse_file(parse_state *p, FILE *fp)
{
    char *buf = NULL;
    size_t cap = 0, line = 0;
    ssize_t n;
    int rc = 0;
    while (rc == 0 && (n = getline(&buf, &cap, fp)) >= 0)
        rc = parse_line(p, buf, (size_t)n, ++line);
    free(buf);
    if (rc != 0)
        return -1;
    if (ferror(fp))
        return fail_at(p->c, 0, "read error: %s", strerror(errno));
    if (p->stage == STAGE_SWITCHES && p->simai)
        return fail_at(p->c, p->header_line, "the header announces %u NVSwitches and switches, the file lists %u",
                       p->n_switches, p->switches_read);
    if (p->stage == STAGE_SWITCHES)
        return fail_at(p->c, p->header_line, "the header announces %u switches, the file has no switch line",
                       p->n_switches);
    if (p->stage == STAGE_LINKS)
        return fail_at(p->c, p->header_line, "the header announces %u links, the file has %u", p->n_link_lines,
                       p->links_read);
    return 0;
}

/* ---- building and checking the graph ---------------------------------- */

static int build_graph(parse_state *p, vimana_topo *t)
{
    t->n_nodes = p->n_nodes;
    t->n_npus = p->n_nodes - p->n_switches;
    t->n_links = 2 * p->n_link_lines;
    t->links = p->links;
    p->links = NULL;
    t->node_dev = malloc((size_t)t->n_nodes * sizeof *t->node_dev);
    t->device_node = malloc((size_t)t->n_nodes * sizeof *t->device_node);
    t->adj_start = calloc((size_t)t->n_nodes + 1, sizeof *t->adj_start);
    t->adj = malloc(((size_t)t->n_links + 1) * sizeof *t->adj);
    if (!t->node_dev || !t->device_node || !t->adj_start || !t->adj)
        return fail_at(p->c, p->header_line, "out of memory for %u nodes and %u links", t->n_nodes, t->n_links);
    uint32_t npu = 0, sw = 0;
    for (uint32_t u = 0; u < t->n_nodes; u++) {
        if (p->is_switch[u]) {
            t->device_node[t->n_npus + sw] = u;
            t->node_dev[u] = t->n_npus + sw++;
        } else {
            t->device_node[npu] = u;
            t->node_dev[u] = npu++;
        }
    }
    /* Counting sort by source node keeps each node's links in id order. */
    for (uint32_t l = 0; l < t->n_links; l++)
        t->adj_start[t->links[l].src + 1]++;
    for (uint32_t u = 0; u < t->n_nodes; u++)
        t->adj_start[u + 1] += t->adj_start[u];
    uint32_t *fill = p->n_nodes ? malloc((size_t)t->n_nodes * sizeof *fill) : NULL;
    if (!fill)
        return fail_at(p->c, p->header_line, "out of memory for %u nodes", t->n_nodes);
    memcpy(fill, t->adj_start, (size_t)t->n_nodes * sizeof *fill);
    for (uint32_t l = 0; l < t->n_links; l++)
        t->adj[fill[t->links[l].src]++] = l;
    free(fill);
    return 0;
}

/* The earliest link line that repeats a pair of nodes (either direction). */
static int check_duplicates(load_ctx *c, const vimana_topo *t)
{
    uint32_t *seen = malloc((size_t)t->n_nodes * sizeof *seen);
    if (!seen)
        return fail_at(c, 0, "out of memory for %u nodes", t->n_nodes);
    uint32_t worst = VIMANA_TOPO_NONE, first = 0;
    /* For node u, seen[v] is the first link from u to v, valid while
     * owner[v] == u: no clearing between nodes, O(nodes + links). */
    uint32_t *owner = malloc((size_t)t->n_nodes * sizeof *owner);
    if (!owner) {
        free(seen);
        return fail_at(c, 0, "out of memory for %u nodes", t->n_nodes);
    }
    for (uint32_t u = 0; u < t->n_nodes; u++)
        owner[u] = VIMANA_TOPO_NONE;
    for (uint32_t u = 0; u < t->n_nodes; u++) {
        for (uint32_t i = t->adj_start[u]; i < t->adj_start[u + 1]; i++) {
            uint32_t l = t->adj[i], v = t->links[l].dst;
            if (owner[v] == u) {
                /* adj is in id order, so seen[v] is the earlier line */
                if (worst == VIMANA_TOPO_NONE || t->links[l].line < t->links[worst].line) {
                    worst = l;
                    first = t->links[seen[v]].line;
                }
            } else {
                owner[v] = u;
                seen[v] = l;
            }
        }
    }
    free(owner);
    free(seen);
    if (worst == VIMANA_TOPO_NONE)
        return 0;
    const vimana_topo_link *w = &t->links[worst & ~1u];
    return fail_at(c, w->line, "link %u -> %u is listed twice (first on line %u); a link line is both directions",
                   w->src, w->dst, first);
}

/* Every NPU must reach NPU 0 (links go both ways, so then all others). */
/* Marks in `reached` (zeroed, one byte per node) the nodes NPU 0 reaches
 * over links up in both directions (`down`: one byte per directed link, 1 =
 * down; NULL: all up). `queue` holds n_nodes ids. */
static void reach_from_npu0(const vimana_topo *t, const uint8_t *down, uint8_t *reached, uint32_t *queue)
{
    uint32_t head = 0, tail = 0, root = t->device_node[0];
    reached[root] = 1;
    queue[tail++] = root;
    while (head < tail) {
        uint32_t u = queue[head++];
        for (uint32_t i = t->adj_start[u]; i < t->adj_start[u + 1]; i++) {
            uint32_t l = t->adj[i], v = t->links[l].dst;
            if (!reached[v] && (!down || (!down[l] && !down[l ^ 1u]))) {
                reached[v] = 1;
                queue[tail++] = v;
            }
        }
    }
}

static int check_connected(load_ctx *c, const vimana_topo *t, size_t header_line)
{
    uint8_t *reached = calloc(t->n_nodes, 1);
    uint32_t *queue = malloc((size_t)t->n_nodes * sizeof *queue);
    if (!reached || !queue) {
        free(reached);
        free(queue);
        return fail_at(c, 0, "out of memory for %u nodes", t->n_nodes);
    }
    uint32_t root = t->device_node[0];
    reach_from_npu0(t, NULL, reached, queue);
    int rc = 0;
    for (uint32_t k = 0; k < t->n_npus && rc == 0; k++) {
        uint32_t u = t->device_node[k];
        /* NPU 0 alone reaches only itself: name it, not its peers. */
        if (k == 0 ? t->n_npus == 1 || t->adj_start[u] != t->adj_start[u + 1] : reached[u])
            continue;
        if (t->adj_start[u] == t->adj_start[u + 1])
            rc = fail_at(c, header_line, "NPU %u (node %u) has no link", k, u);
        else
            rc = fail_at(c, t->links[t->adj[t->adj_start[u]]].line,
                         "NPU %u (node %u) cannot reach NPU 0 (node %u): the network is disconnected", k, u, root);
    }
    free(reached);
    free(queue);
    return rc;
}

/* Room for the "A x B x C" text of VIMANA_TOPO_MAX_DIMS dims. */
#define DIMS_SHOWN 200

/* The product of the n dims (no longer multiplied once past
 * VIMANA_NET_MAX_NPUS, so that it cannot wrap) and their "A x B x C" text,
 * for the vimana-dims line and a Custom YAML's 'dims' alike. */
static uint64_t dims_product(const uint32_t *dims, uint32_t n, char shown[DIMS_SHOWN])
{
    uint64_t product = 1;
    size_t used = 0;
    shown[0] = '\0';
    for (uint32_t d = 0; d < n; d++) {
        if (product <= VIMANA_NET_MAX_NPUS)
            product *= dims[d];
        used += (size_t)snprintf(shown + used, DIMS_SHOWN - used, "%s%u", d ? " x " : "", dims[d]);
    }
    return product;
}

static int check_dims(load_ctx *c, parse_state *p, vimana_topo *t)
{
    if (p->n_dims == 0) {
        t->n_dims = 1;
        t->dims[0] = t->n_npus;
        return 0;
    }
    char shown[DIMS_SHOWN];
    uint64_t product = dims_product(p->dims, p->n_dims, shown);
    if (product != t->n_npus) {
        if (product > VIMANA_NET_MAX_NPUS)
            return fail_at(c, p->dims_line, "vimana-dims %s is more than %u NPUs, but the topology has %u NPUs",
                           shown, VIMANA_NET_MAX_NPUS, t->n_npus);
        return fail_at(c, p->dims_line, "vimana-dims %s = %llu NPUs, but the topology has %u NPUs", shown,
                       (unsigned long long)product, t->n_npus);
    }
    t->n_dims = p->n_dims;
    memcpy(t->dims, p->dims, p->n_dims * sizeof *t->dims);
    return 0;
}

/* Reads an ns-3 topology .txt; fp is open on it. */
static int load_txt(load_ctx *c_, FILE *fp, vimana_topo **out)
{
    load_ctx c = *c_;
    parse_state p = {.c = &c, .stage = STAGE_HEADER};
    vimana_topo *t = calloc(1, sizeof *t);
    int rc = t ? parse_file(&p, fp) : fail_at(&c, 0, "out of memory");
    if (rc == 0)
        rc = build_graph(&p, t);
    if (rc == 0)
        rc = check_dims(&c, &p, t);
    if (rc == 0)
        rc = check_duplicates(&c, t);
    if (rc == 0)
        rc = check_connected(&c, t, p.header_line);
    free(p.is_switch);
    free(p.links);
    if (rc != 0) {
        vimana_topo_free(t);
        return -1;
    }
    t->cache_limit = VIMANA_TOPO_DEFAULT_ROUTE_CACHE;
    *out = t;
    return 0;
}

/* An ns-3 .txt starts (after blank and '#' lines) with a digit, the node
 * count; anything else is taken for a network YAML. */
static bool starts_with_digit(FILE *fp)
{
    int ch;
    bool in_comment = false;
    while ((ch = getc(fp)) != EOF) {
        if (in_comment) {
            in_comment = ch != '\n';
        } else if (ch == '#') {
            in_comment = true;
        } else if (ch != ' ' && ch != '\t' && ch != '\r' && ch != '\n') {
            break;
        }
    }
    rewind(fp);
    return ch >= '0' && ch <= '9';
}

/* dims of a Custom YAML replace the file's own; same product rule. */
static int apply_yaml_dims(load_ctx *c, const topo_yaml *y, vimana_topo *t)
{
    char shown[DIMS_SHOWN];
    uint64_t product = dims_product(y->dims, y->n_dims, shown);
    if (product > VIMANA_NET_MAX_NPUS)
        return fail_at(c, y->dims_line, "'dims' %s is more than %u NPUs, but %s has %u NPUs", shown,
                       VIMANA_NET_MAX_NPUS, y->file, t->n_npus);
    if (product != t->n_npus)
        return fail_at(c, y->dims_line, "'dims' %s = %llu NPUs, but %s has %u NPUs", shown,
                       (unsigned long long)product, y->file, t->n_npus);
    t->n_dims = y->n_dims;
    memcpy(t->dims, y->dims, sizeof t->dims);
    return 0;
}

static int open_input(load_ctx *c, const char *path, FILE **fp)
{
    char why[200];
    if (input_file_check(path, why, sizeof why) != 0)
        return fail_at(c, 0, "%s", why);
    *fp = fopen(path, "rb");
    if (!*fp)
        return fail_at(c, 0, "cannot open: %s", strerror(errno));
    return 0;
}

int vimana_topo_load(const char *path, vimana_topo **out, char *err, size_t err_len)
{
    load_ctx c = {path, err, err_len};
    FILE *fp;
    *out = NULL;
    /* A file that cannot be read is no topology either: vimana_net_load
     * says why, in the words it always has for a network file. */
    if (open_input(&c, path, &fp) != 0) {
        err[0] = '\0';
        return 1;
    }
    if (starts_with_digit(fp)) {
        int rc = load_txt(&c, fp, out);
        fclose(fp);
        return rc;
    }
    fclose(fp);
    topo_yaml *y = malloc(sizeof *y);
    if (!y)
        return fail_at(&c, 0, "out of memory");
    int rc = topo_yaml_read(path, y, err, err_len);
    if (rc == 2)
        rc = 1; /* empty, or no mapping: vimana_net_load names the problem */
    load_ctx tc = {y->file, err, err_len};
    if (rc == 0)
        rc = open_input(&tc, y->file, &fp);
    if (rc == 0) {
        rc = load_txt(&tc, fp, out);
        fclose(fp);
    }
    if (rc == 0 && y->n_dims && apply_yaml_dims(&c, y, *out) != 0) {
        vimana_topo_free(*out);
        *out = NULL;
        rc = -1;
    }
    free(y);
    if (rc == 1)
        err[0] = '\0';
    return rc;
}

/* ---- the route cache --------------------------------------------------- */

static void drop_cache(vimana_topo *t)
{
    for (uint32_t i = 0; i < t->n_cached; i++) {
        free(t->dist_to[t->cached[i]]);
        t->dist_to[t->cached[i]] = NULL;
    }
    free(t->cached);
    free(t->dist_to);
    t->cached = NULL;
    t->dist_to = NULL;
    t->n_cached = t->cache_next = t->cache_cap = 0;
}

void vimana_topo_free(vimana_topo *t)
{
    if (!t)
        return;
    if (t->dist_to)
        drop_cache(t);
    free(t->bfs_queue);
    free(t->down);
    free(t->node_dev);
    free(t->device_node);
    free(t->links);
    free(t->adj_start);
    free(t->adj);
    free(t);
}

void vimana_topo_set_route_cache_limit(vimana_topo *t, size_t bytes)
{
    if (t->dist_to)
        drop_cache(t);
    t->cache_limit = bytes;
}

size_t vimana_topo_route_cache_bytes(const vimana_topo *t)
{
    return (size_t)t->n_cached * t->n_nodes * sizeof(uint32_t);
}

/* Whether directed link l is in the routes, with the links of `down`
 * (per link, 1 = out; NULL: all in). */
static bool link_up(const uint8_t *down, uint32_t l)
{
    return !down || !down[l];
}

/* Hop distances of every node to `dst` (BFS from dst over the reverses of
 * the links: link 2i+1 is link 2i backwards, so v reaches u over l^1 when
 * u reaches v over l). */
static void bfs_from(const vimana_topo *t, uint32_t dst, uint32_t *dist, uint32_t *queue)
{
    for (uint32_t u = 0; u < t->n_nodes; u++)
        dist[u] = VIMANA_TOPO_NONE;
    uint32_t head = 0, tail = 0;
    dist[dst] = 0;
    queue[tail++] = dst;
    while (head < tail) {
        uint32_t u = queue[head++];
        for (uint32_t i = t->adj_start[u]; i < t->adj_start[u + 1]; i++) {
            uint32_t v = t->links[t->adj[i]].dst;
            if (dist[v] == VIMANA_TOPO_NONE && link_up(t->down, t->adj[i] ^ 1u)) {
                dist[v] = dist[u] + 1;
                queue[tail++] = v;
            }
        }
    }
}

/* The table for destination NPU `dst`, computed now if not cached. */
static const uint32_t *dist_table(vimana_topo *t, uint32_t dst)
{
    if (!t->dist_to) {
        size_t table = (size_t)t->n_nodes * sizeof(uint32_t);
        size_t cap = t->cache_limit / table;
        t->cache_cap = (uint32_t)(cap < 1 ? 1 : cap > t->n_npus ? t->n_npus : cap);
        t->dist_to = calloc(t->n_npus, sizeof *t->dist_to);
        t->cached = malloc((size_t)t->cache_cap * sizeof *t->cached);
        if (!t->bfs_queue)
            t->bfs_queue = malloc(table);
        if (!t->dist_to || !t->cached || !t->bfs_queue) {
            free(t->dist_to);
            t->dist_to = NULL;
            free(t->cached);
            t->cached = NULL;
            return NULL;
        }
    }
    if (t->dist_to[dst])
        return t->dist_to[dst];
    uint32_t *dist;
    if (t->n_cached < t->cache_cap) {
        dist = malloc((size_t)t->n_nodes * sizeof *dist);
        if (!dist)
            return NULL;
        t->cached[t->n_cached++] = dst;
    } else {
        /* Reuse the oldest table (FIFO): a bounded cache, never NPUs^2. */
        uint32_t old = t->cached[t->cache_next];
        dist = t->dist_to[old];
        t->dist_to[old] = NULL;
        t->cached[t->cache_next] = dst;
        t->cache_next = (t->cache_next + 1) % t->cache_cap;
    }
    bfs_from(t, t->device_node[dst], dist, t->bfs_queue);
    t->dist_to[dst] = dist;
    return dist;
}

/* ---- routing ----------------------------------------------------------- */

uint64_t vimana_topo_ecmp_hash(uint32_t src_npu, uint32_t dst_npu)
{
    /* splitmix64's finaliser: a fixed 64-bit mix, the same on every platform. */
    return hash_mix64(((uint64_t)src_npu << 32) | dst_npu);
}

uint32_t vimana_topo_next_link(vimana_topo *t, uint32_t node, uint32_t dst_npu, uint64_t *ecmp)
{
    if (node >= t->n_nodes || dst_npu >= t->n_npus || node == t->device_node[dst_npu])
        return VIMANA_TOPO_NONE;
    const uint32_t *dist = dist_table(t, dst_npu);
    if (!dist)
        return VIMANA_TOPO_NONE;
    /* The next hops one step closer, in link id order; take the
     * (h mod k)-th, then re-mix h for the next choice. */
    uint32_t k = 0;
    if (dist[node] == VIMANA_TOPO_NONE)
        return VIMANA_TOPO_NONE; /* links down cut the node off */
    for (uint32_t i = t->adj_start[node]; i < t->adj_start[node + 1]; i++)
        k += dist[t->links[t->adj[i]].dst] + 1 == dist[node] && link_up(t->down, t->adj[i]);
    uint32_t pick = k > 1 ? (uint32_t)(*ecmp % k) : 0;
    if (k > 1)
        *ecmp = hash_mix64(*ecmp);
    for (uint32_t i = t->adj_start[node]; i < t->adj_start[node + 1]; i++) {
        uint32_t l = t->adj[i];
        if (dist[t->links[l].dst] + 1 == dist[node] && link_up(t->down, l) && pick-- == 0)
            return l;
    }
    return VIMANA_TOPO_NONE; /* not reached: a node one hop closer exists */
}

int vimana_topo_set_link_down(vimana_topo *t, uint32_t link, int down)
{
    if (link >= t->n_links)
        return -1;
    if (!t->down) {
        if (!down)
            return 0;
        t->down = calloc(t->n_links, 1);
        if (!t->down)
            return -1;
    }
    if (t->down[link] == (down != 0))
        return 0;
    t->down[link] = down != 0;
    /* every cached distance may have changed */
    if (t->dist_to)
        drop_cache(t);
    return 0;
}

long vimana_topo_cut_off(vimana_topo *t, const uint8_t *down, uint32_t *npus, size_t max)
{
    uint8_t *seen = calloc(t->n_nodes, 1);
    uint32_t *queue = malloc((size_t)t->n_nodes * sizeof *queue);
    if (!seen || !queue) {
        free(seen);
        free(queue);
        return -1;
    }
    reach_from_npu0(t, down, seen, queue);
    long cut = 0;
    for (uint32_t k = 0; k < t->n_npus; k++) {
        if (seen[t->device_node[k]])
            continue;
        if ((size_t)cut < max)
            npus[cut] = k;
        cut++;
    }
    free(seen);
    free(queue);
    return cut;
}

int vimana_topo_check_partition(vimana_topo *t, const uint8_t *down, uint64_t at, char *err, size_t err_len)
{
    uint32_t cut[8];
    long n = vimana_topo_cut_off(t, down, cut, 8);
    if (n == 0)
        return 0;
    if (n < 0) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    size_t used = (size_t)snprintf(err, err_len, "the links down from tick %llu cut %s", (unsigned long long)at,
                                   n == 1 ? "NPU" : "NPUs");
    for (long i = 0; i < n && i < 8 && used < err_len; i++)
        used += (size_t)snprintf(err + used, err_len - used, "%s%u", i ? ", " : " ", cut[i]);
    if (used < err_len)
        snprintf(err + used, err_len - used, "%s off from NPU 0 (a partition: no route is left between them)",
                 n > 8 ? " and more" : "");
    return 1;
}

int vimana_topo_check_registered(vimana_topo *t, const double *registered, uint64_t at, char *err, size_t err_len)
{
    uint8_t *down = malloc(t->n_links ? t->n_links : 1);
    if (!down) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    for (uint32_t l = 0; l < t->n_links; l++)
        down[l] = registered[l] == 0;
    int rc = vimana_topo_check_partition(t, down, at, err, err_len);
    free(down);
    return rc;
}

long vimana_topo_route(vimana_topo *t, uint32_t src_npu, uint32_t dst_npu, uint32_t *links, size_t max)
{
    if (src_npu >= t->n_npus || dst_npu >= t->n_npus)
        return -1;
    uint32_t u = t->device_node[src_npu], dst = t->device_node[dst_npu];
    uint64_t h = vimana_topo_ecmp_hash(src_npu, dst_npu);
    long hops = 0;
    while (u != dst) {
        uint32_t l = vimana_topo_next_link(t, u, dst_npu, &h);
        if (l == VIMANA_TOPO_NONE)
            return -1;
        if ((size_t)hops < max)
            links[hops] = l;
        hops++;
        u = t->links[l].dst;
    }
    return hops;
}

/* ---- accessors --------------------------------------------------------- */

uint32_t vimana_topo_num_nodes(const vimana_topo *t) { return t->n_nodes; }
uint32_t vimana_topo_num_npus(const vimana_topo *t) { return t->n_npus; }
uint32_t vimana_topo_num_switches(const vimana_topo *t) { return t->n_nodes - t->n_npus; }
uint32_t vimana_topo_num_links(const vimana_topo *t) { return t->n_links; }
uint32_t vimana_topo_num_dims(const vimana_topo *t) { return t->n_dims; }

uint32_t vimana_topo_dim_size(const vimana_topo *t, uint32_t dim)
{
    return dim < t->n_dims ? t->dims[dim] : 0;
}

uint32_t vimana_topo_npu_node(const vimana_topo *t, uint32_t npu)
{
    return npu < t->n_npus ? t->device_node[npu] : VIMANA_TOPO_NONE;
}

uint32_t vimana_topo_node_npu(const vimana_topo *t, uint32_t node)
{
    return node < t->n_nodes && t->node_dev[node] < t->n_npus ? t->node_dev[node] : VIMANA_TOPO_NONE;
}

uint32_t vimana_topo_node_device(const vimana_topo *t, uint32_t node)
{
    return node < t->n_nodes ? t->node_dev[node] : VIMANA_TOPO_NONE;
}

uint32_t vimana_topo_device_node(const vimana_topo *t, uint32_t device)
{
    return device < t->n_nodes ? t->device_node[device] : VIMANA_TOPO_NONE;
}

const char *vimana_topo_device_name(const vimana_topo *t, uint32_t npus, uint32_t device, char *buf, size_t len)
{
    if (!t) {
        if (device < npus)
            snprintf(buf, len, "npu%u", device);
        else
            snprintf(buf, len, "switch%u", device - npus);
        return buf;
    }
    uint32_t node = vimana_topo_device_node(t, device);
    return node == VIMANA_TOPO_NONE ? NULL : vimana_topo_node_name(t, node, buf, len);
}

const char *vimana_topo_node_name(const vimana_topo *t, uint32_t node, char *buf, size_t len)
{
    uint32_t npu = vimana_topo_node_npu(t, node);
    if (npu != VIMANA_TOPO_NONE)
        snprintf(buf, len, "npu%u", npu);
    else
        snprintf(buf, len, "switch%u", node);
    return buf;
}

const vimana_topo_link *vimana_topo_link_info(const vimana_topo *t, uint32_t link)
{
    return link < t->n_links ? &t->links[link] : NULL;
}

/* ---- the shape for the system layer --------------------------------------- */

static void dim_speed(vimana_topo *t, uint32_t stride, vimana_net_dim *out)
{
    uint32_t node = vimana_topo_npu_node(t, 0);
    uint32_t dst = out->npus > 1 ? stride : 0;
    uint64_t h = vimana_topo_ecmp_hash(0, dst);
    const vimana_topo_link *slowest = NULL;
    for (uint32_t l = 0; dst == 0 && l < t->n_links; l++) {
        const vimana_topo_link *tl = &t->links[l];
        if (tl->src == node && (!slowest || tl->bytes_per_ns < slowest->bytes_per_ns))
            slowest = tl;
    }
    for (uint32_t l; dst != 0 && (l = vimana_topo_next_link(t, node, dst, &h)) != VIMANA_TOPO_NONE;) {
        const vimana_topo_link *tl = &t->links[l];
        if (!slowest || tl->bytes_per_ns < slowest->bytes_per_ns)
            slowest = tl;
        node = tl->dst;
    }
    /* A lone NPU has no link at all: nothing is sent, any positive value. */
    out->bandwidth_gbps = slowest ? slowest->bandwidth_gbps : 1.0;
    out->bytes_per_ns = slowest ? slowest->bytes_per_ns : 1.0;
    out->latency_ns = slowest ? slowest->latency_ns : 0.0;
}

void vimana_topo_net_shape(vimana_topo *t, vimana_net_config *net)
{
    net->n_dims = t->n_dims;
    net->total_npus = t->n_npus;
    uint32_t stride = 1;
    for (uint32_t d = 0; d < t->n_dims; d++) {
        net->dims[d] = (vimana_net_dim){.topology = VIMANA_NET_SWITCH, .npus = t->dims[d]};
        dim_speed(t, stride, &net->dims[d]);
        stride *= t->dims[d];
    }
}
