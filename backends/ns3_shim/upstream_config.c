/*
 * upstream_config.c - upstream astra-network-ns3's config.txt (see
 * upstream_config.h). One table names every key upstream reads and what
 * the shim does with it; the reader fills struct ns3_upstream from it, and
 * ns3_upstream_options turns that into the shim's backend options once the
 * topology (its link rates, its switches' ports) is known.
 */
#include "ns3_shim/upstream_config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vimana/backend_toolkit.h"

/* What a key is to the shim. */
enum key_kind {
    KEY_COUNT,     /* a whole number into a long field */
    KEY_NUMBER,    /* a number into a double field */
    KEY_RATE,      /* an ns-3 DataRate ("50Mb/s") into a double field, Mbit/s */
    KEY_TOPOLOGY,  /* TOPOLOGY_FILE */
    KEY_MAP,       /* "<n> <rate> <value> ..." */
    KEY_NO_EFFECT, /* read, checked for a value, nothing to do (outputs, traces) */
    KEY_ZERO,      /* must be 0: anything else asks for what the shim does not model */
    KEY_ONE,       /* must be 1 (RATE_BOUND) */
    KEY_LINK_DOWN, /* "0 0 0" only */
};

typedef struct key_def {
    const char *name;
    enum key_kind kind;
    size_t offset;      /* into ns3_upstream, for COUNT / NUMBER / RATE / MAP */
    const char *why;    /* KEY_ZERO / KEY_ONE / KEY_LINK_DOWN: what the refusal says */
} key_def;

#define AT(field) offsetof(ns3_upstream, field)

/* Every key upstream's scratch/common.h reads, in its order. The DCQCN and
 * HPCC parameters are read whatever CC_MODE is; only the selected
 * algorithm's go into the options. */
static const key_def keys[] = {
    {"ENABLE_QCN", KEY_COUNT, AT(enable_qcn), NULL},
    {"USE_DYNAMIC_PFC_THRESHOLD", KEY_NO_EFFECT, 0, NULL},
    {"CLAMP_TARGET_RATE", KEY_NO_EFFECT, 0, NULL},
    {"PAUSE_TIME", KEY_NO_EFFECT, 0, NULL},
    {"DATA_RATE", KEY_NO_EFFECT, 0, NULL},
    {"LINK_DELAY", KEY_NO_EFFECT, 0, NULL},
    {"PACKET_PAYLOAD_SIZE", KEY_COUNT, AT(packet), NULL},
    {"L2_CHUNK_SIZE", KEY_NO_EFFECT, 0, NULL},
    {"L2_ACK_INTERVAL", KEY_NO_EFFECT, 0, NULL},
    {"L2_BACK_TO_ZERO", KEY_NO_EFFECT, 0, NULL},
    {"TOPOLOGY_FILE", KEY_TOPOLOGY, 0, NULL},
    {"FLOW_FILE", KEY_NO_EFFECT, 0, NULL},
    {"TRACE_FILE", KEY_NO_EFFECT, 0, NULL},
    {"TRACE_OUTPUT_FILE", KEY_NO_EFFECT, 0, NULL},
    {"SIMULATOR_STOP_TIME", KEY_NO_EFFECT, 0, NULL},
    {"ALPHA_RESUME_INTERVAL", KEY_NO_EFFECT, 0, NULL},
    {"RP_TIMER", KEY_NUMBER, AT(rp_timer_us), NULL},
    {"EWMA_GAIN", KEY_NUMBER, AT(ewma_gain), NULL},
    {"FAST_RECOVERY_TIMES", KEY_NO_EFFECT, 0, NULL},
    {"RATE_AI", KEY_RATE, AT(rate_ai_mbps), NULL},
    {"RATE_HAI", KEY_RATE, AT(rate_hai_mbps), NULL},
    {"ERROR_RATE_PER_LINK", KEY_ZERO, 0, "a lossy link; the topology file's error-rate column is refused the same way"},
    {"CC_MODE", KEY_COUNT, AT(cc_mode), NULL},
    {"RATE_DECREASE_INTERVAL", KEY_NO_EFFECT, 0, NULL},
    {"MIN_RATE", KEY_RATE, AT(min_rate_mbps), NULL},
    {"FCT_OUTPUT_FILE", KEY_NO_EFFECT, 0, NULL},
    {"HAS_WIN", KEY_NO_EFFECT, 0, NULL},
    {"GLOBAL_T", KEY_NO_EFFECT, 0, NULL},
    {"MI_THRESH", KEY_COUNT, AT(mi_thresh), NULL},
    {"VAR_WIN", KEY_NO_EFFECT, 0, NULL},
    {"FAST_REACT", KEY_NO_EFFECT, 0, NULL},
    {"U_TARGET", KEY_NUMBER, AT(u_target), NULL},
    {"INT_MULTI", KEY_NO_EFFECT, 0, NULL},
    {"RATE_BOUND", KEY_ONE, 0, "senders not bound by their rate (upstream's test-only mode)"},
    {"ACK_HIGH_PRIO", KEY_NO_EFFECT, 0, NULL},
    {"DCTCP_RATE_AI", KEY_NO_EFFECT, 0, NULL},
    {"NIC_TOTAL_PAUSE_TIME", KEY_ZERO, 0, "PCIe pauses at the NIC"},
    {"PFC_OUTPUT_FILE", KEY_NO_EFFECT, 0, NULL},
    {"LINK_DOWN", KEY_LINK_DOWN, 0, "a link down (use vimana --network-faults)"},
    {"ENABLE_TRACE", KEY_NO_EFFECT, 0, NULL},
    {"KMAX_MAP", KEY_MAP, AT(kmax), NULL},
    {"KMIN_MAP", KEY_MAP, AT(kmin), NULL},
    {"PMAX_MAP", KEY_MAP, AT(pmax), NULL},
    {"BUFFER_SIZE", KEY_NUMBER, AT(buffer_mb), NULL},
    {"QLEN_MON_FILE", KEY_NO_EFFECT, 0, NULL},
    {"QLEN_MON_START", KEY_NO_EFFECT, 0, NULL},
    {"QLEN_MON_END", KEY_NO_EFFECT, 0, NULL},
    {"MULTI_RATE", KEY_NO_EFFECT, 0, NULL},
    {"SAMPLE_FEEDBACK", KEY_NO_EFFECT, 0, NULL},
    {"PINT_LOG_BASE", KEY_NO_EFFECT, 0, NULL},
    {"PINT_PROB", KEY_NO_EFFECT, 0, NULL},
};

#define N_KEYS (sizeof keys / sizeof keys[0])
#define MAX_WORDS (2 + 2 * NS3_UPSTREAM_MAX_MAP)
#define WORD_MAX 512

static const key_def *find_key(const char *name)
{
    for (size_t i = 0; i < N_KEYS; i++)
        if (strcmp(keys[i].name, name) == 0)
            return &keys[i];
    return NULL;
}

/* ---- errors ---------------------------------------------------------------- */

typedef struct reader {
    ns3_upstream *u;
    char *err;
    size_t err_len;
    size_t line;
    char shown[WORD_MAX]; /* the current key, escaped */
} reader;

static int fail(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(reader *r, const char *fmt, ...)
{
    char msg[640];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (r->line)
        snprintf(r->err, r->err_len, "%s:%zu: %s", r->u->path, r->line, msg);
    else
        snprintf(r->err, r->err_len, "%s: %s", r->u->path, msg);
    return -1;
}

/* ---- words and numbers ------------------------------------------------------- */

typedef struct words {
    char w[MAX_WORDS][WORD_MAX];
    size_t n; /* all of them, even past MAX_WORDS */
} words;

/* The words of one line before any '#'. */
static void split(const char *s, words *out)
{
    out->n = 0;
    while (*s && *s != '#') {
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
            s++;
        if (!*s || *s == '#')
            break;
        size_t len = strcspn(s, " \t\r\n#");
        if (out->n < MAX_WORDS) {
            size_t keep = len < WORD_MAX - 1 ? len : WORD_MAX - 1;
            memcpy(out->w[out->n], s, keep);
            out->w[out->n][keep] = '\0';
        }
        out->n++;
        s += len;
    }
}

static bool parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno == ERANGE || !isfinite(v) || strpbrk(s, "xXnNiI"))
        return false;
    *out = v;
    return true;
}

static bool parse_whole(const char *s, uint64_t limit, uint64_t *out)
{
    if (*s < '0' || *s > '9')
        return false;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > (limit - (uint64_t)(*s - '0')) / 10)
            return false;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    *out = v;
    return true;
}

/* An ns-3 DataRate such as "50Mb/s" or "100Mbps", in Mbit/s. */
static bool parse_rate_mbps(const char *s, double *mbps)
{
    static const struct { const char *unit; double mbit; } units[] = {
        {"b/s", 1e-6}, {"bps", 1e-6}, {"Kb/s", 1e-3}, {"Kbps", 1e-3}, {"kb/s", 1e-3}, {"kbps", 1e-3},
        {"Mb/s", 1.0}, {"Mbps", 1.0}, {"Gb/s", 1e3}, {"Gbps", 1e3}, {"Tb/s", 1e6}, {"Tbps", 1e6},
    };
    char *end;
    double v = strtod(s, &end);
    if (end == s || !isfinite(v) || !(v > 0) || strpbrk(s, "xXnNiI"))
        return false;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(end, units[i].unit) == 0) {
            *mbps = v * units[i].mbit;
            return *mbps <= 1e12;
        }
    return false;
}

/* ---- one key ------------------------------------------------------------------ */

static int want_values(reader *r, const words *w, size_t n)
{
    if (w->n - 1 != n)
        return fail(r, "%s: expected %zu value%s, found %zu", r->shown, n, n == 1 ? "" : "s", w->n - 1);
    return 0;
}

static void note_no_effect(ns3_upstream *u, const char *name)
{
    size_t used = strlen(u->no_effect);
    if (strstr(u->no_effect, name))
        return;
    snprintf(u->no_effect + used, sizeof u->no_effect - used, "%s%s", used ? ", " : "", name);
}

/* TOPOLOGY_FILE: against the config's folder first, then as given. */
static int read_topology(reader *r, const char *given)
{
    ns3_upstream *u = r->u;
    if (given[0] != '/') {
        const char *slash = strrchr(u->path, '/');
        int dir = slash ? (int)(slash - u->path) : 1;
        const char *base = slash ? u->path : ".";
        int n = snprintf(u->topology, sizeof u->topology, "%.*s/%s", dir, base, given);
        if (n > 0 && (size_t)n < sizeof u->topology && access(u->topology, R_OK) == 0)
            return 0;
    }
    if (strlen(given) >= sizeof u->topology)
        return fail(r, "%s: the path is too long", r->shown);
    snprintf(u->topology, sizeof u->topology, "%s", given);
    if (access(u->topology, R_OK) == 0)
        return 0;
    char esc[WORD_MAX];
    vimana_bt_escape(given, esc, sizeof esc);
    return fail(r, "%s: cannot read '%s' (looked next to this file and in the working directory)", r->shown, esc);
}

static int read_map(reader *r, const words *w, ns3_upstream_map *m)
{
    uint64_t n;
    if (w->n < 2 || !parse_whole(w->w[1], NS3_UPSTREAM_MAX_MAP, &n) || n == 0)
        return fail(r, "%s: the entry count must be a whole number from 1 to %d", r->shown, NS3_UPSTREAM_MAX_MAP);
    if (want_values(r, w, 1 + 2 * n) != 0)
        return -1;
    for (uint64_t i = 0; i < n; i++) {
        const char *rate = w->w[2 + 2 * i], *val = w->w[3 + 2 * i];
        uint64_t bps;
        double v;
        if (!parse_whole(rate, UINT64_MAX, &bps) || bps == 0)
            return fail(r, "%s: entry %llu: rate '%s' must be a whole number of bit/s above 0", r->shown,
                        (unsigned long long)i + 1, rate);
        if (!parse_double(val, &v) || v < 0)
            return fail(r, "%s: entry %llu: '%s' must be a number of at least 0", r->shown, (unsigned long long)i + 1,
                        val);
        m->e[i] = (ns3_upstream_entry){bps, v};
    }
    m->n = (uint32_t)n;
    m->line = (uint32_t)r->line;
    return 0;
}

static int read_number_key(reader *r, const key_def *k, const words *w)
{
    if (want_values(r, w, 1) != 0)
        return -1;
    char *field = (char *)r->u + k->offset;
    if (k->kind == KEY_COUNT) {
        uint64_t v;
        if (!parse_whole(w->w[1], 1000000000, &v))
            return fail(r, "%s: '%s' must be a whole number from 0 to 1000000000", r->shown, w->w[1]);
        *(long *)(void *)field = (long)v;
        return 0;
    }
    double v;
    bool ok = k->kind == KEY_RATE ? parse_rate_mbps(w->w[1], &v) : parse_double(w->w[1], &v) && v >= 0;
    if (!ok)
        return fail(r, k->kind == KEY_RATE ? "%s: '%s' must be a rate above 0 such as 50Mb/s"
                                           : "%s: '%s' must be a number of at least 0", r->shown, w->w[1]);
    *(double *)(void *)field = v;
    return 0;
}

static int read_key(reader *r, const key_def *k, const words *w)
{
    switch (k->kind) {
    case KEY_COUNT:
    case KEY_NUMBER:
    case KEY_RATE:
        return read_number_key(r, k, w);
    case KEY_TOPOLOGY:
        return want_values(r, w, 1) != 0 ? -1 : read_topology(r, w->w[1]);
    case KEY_MAP:
        return read_map(r, w, (ns3_upstream_map *)(void *)((char *)r->u + k->offset));
    case KEY_NO_EFFECT:
        if (w->n < 2)
            return fail(r, "%s: no value", r->shown);
        note_no_effect(r->u, k->name);
        return 0;
    case KEY_ZERO:
    case KEY_ONE: {
        double v, want = k->kind == KEY_ZERO ? 0 : 1;
        if (want_values(r, w, 1) != 0)
            return -1;
        if (!parse_double(w->w[1], &v) || v != want)
            return fail(r, "%s %s asks for %s, which ns3_shim does not model: write %g", r->shown, w->w[1], k->why,
                        want);
        return 0;
    }
    case KEY_LINK_DOWN:
        if (want_values(r, w, 3) != 0)
            return -1;
        if (strcmp(w->w[1], "0") || strcmp(w->w[2], "0") || strcmp(w->w[3], "0"))
            return fail(r, "%s %s %s %s asks for %s: write 0 0 0", r->shown, w->w[1], w->w[2], w->w[3], k->why);
        return 0;
    }
    return 0;
}

/* CC_MODE: upstream's numbers. 1 and 3 are modelled; 7, 8 and 10 are
 * refused; any other number has no rate control upstream either (its
 * sample config's 12 included), so it runs without. */
static int check_cc_mode(reader *r)
{
    static const char *refused[] = {[7] = "TIMELY", [8] = "DCTCP", [10] = "HPCC-PINT"};
    long m = r->u->cc_mode;
    if (m >= 0 && m < (long)(sizeof refused / sizeof refused[0]) && refused[m])
        return fail(r, "CC_MODE %ld (%s) is not modelled by ns3_shim: use 1 (DCQCN), 3 (HPCC) or a mode "
                    "without rate control", m, refused[m]);
    return 0;
}

static void set_unset(ns3_upstream *u)
{
    u->packet = u->cc_mode = u->enable_qcn = u->mi_thresh = -1;
    u->buffer_mb = u->rate_ai_mbps = u->rate_hai_mbps = u->min_rate_mbps = -1;
    u->ewma_gain = u->rp_timer_us = u->u_target = -1;
}

static int read_line(reader *r, const char *text, size_t *cc_line)
{
    words w;
    split(text, &w);
    if (w.n == 0)
        return 0;
    vimana_bt_escape(w.w[0], r->shown, sizeof r->shown);
    const key_def *k = find_key(w.w[0]);
    if (!k)
        return fail(r, "unknown key '%s' (not one of upstream astra-network-ns3's config.txt keys)", r->shown);
    if (w.n > MAX_WORDS)
        return fail(r, "%s: %zu words, more than the %d a line may have", r->shown, w.n, MAX_WORDS);
    if (strcmp(k->name, "CC_MODE") == 0)
        *cc_line = r->line;
    return read_key(r, k, &w);
}

int ns3_upstream_read(const char *path, ns3_upstream *u, char *err, size_t err_len)
{
    memset(u, 0, sizeof *u);
    set_unset(u);
    reader r = {.u = u, .err = err, .err_len = err_len};
    if (strlen(path) >= sizeof u->path)
        return snprintf(err, err_len, "config path too long"), -1;
    snprintf(u->path, sizeof u->path, "%s", path);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return fail(&r, "cannot open: %s", strerror(errno));
    char *buf = NULL;
    size_t cap = 0, cc_line = 0;
    int rc = 0;
    while (rc == 0 && getline(&buf, &cap, fp) >= 0) {
        r.line++;
        rc = read_line(&r, buf, &cc_line);
    }
    free(buf);
    fclose(fp);
    if (rc != 0)
        return -1;
    r.line = cc_line;
    if (check_cc_mode(&r) != 0)
        return -1;
    r.line = 0;
    if (!u->topology[0])
        return fail(&r, "no TOPOLOGY_FILE (the topology .txt this configuration runs on)");
    return 0;
}

bool ns3_upstream_is_config(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return false;
    char *buf = NULL;
    size_t cap = 0;
    bool is = false;
    while (getline(&buf, &cap, fp) >= 0) {
        words w;
        split(buf, &w);
        if (w.n == 0)
            continue;
        is = find_key(w.w[0]) != NULL;
        break;
    }
    free(buf);
    fclose(fp);
    return is;
}

/* ---- the options -------------------------------------------------------------- */

typedef struct out_buf {
    char *s;
    size_t len, used;
    bool full;
} out_buf;

static void put(out_buf *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(out_buf *o, const char *fmt, ...)
{
    if (o->full)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->s + o->used, o->len - o->used, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= o->len - o->used)
        o->full = true;
    else
        o->used += (size_t)n;
}

/* The map's value for a rate; false when the map has none. */
static bool map_value(const ns3_upstream_map *m, double bps, double *v)
{
    if (!(bps < 0x1p64))
        return false;
    for (uint32_t i = 0; i < m->n; i++)
        if (m->e[i].rate_bps == (uint64_t)bps) {
            *v = m->e[i].value;
            return true;
        }
    return false;
}

/* The link's rate in bit/s, to the nearest. A topology may give up to
 * 10^9 Tbps, past what llround and a uint64_t hold: such a rate stays a
 * double (no map entry, a uint64_t, can match it) instead of wrapping
 * into a made-up number of bit/s. */
static double link_bps(vimana_topo *t, uint32_t link)
{
    return nearbyint(vimana_topo_link_info(t, link)->bytes_per_ns * 8e9);
}

typedef struct ecn_rule {
    double kmin, kmax, pmax;
    uint64_t bps; /* the rate it was first found on */
    bool set;
} ecn_rule;

/* One threshold set for every switch port: upstream gives each port its
 * rate's entry; the shim has one rule, so the rates of t's switch ports
 * must share theirs. */
static int switch_ecn(const ns3_upstream *u, vimana_topo *t, ecn_rule *rule, char *err, size_t err_len)
{
    const ns3_upstream_map *maps[3] = {&u->kmin, &u->kmax, &u->pmax};
    static const char *names[3] = {"KMIN_MAP", "KMAX_MAP", "PMAX_MAP"};
    for (uint32_t l = 0; l < vimana_topo_num_links(t); l++) {
        if (vimana_topo_node_npu(t, vimana_topo_link_info(t, l)->src) != VIMANA_TOPO_NONE)
            continue; /* upstream marks at switch ports only */
        double exact = link_bps(t, l);
        double v[3];
        for (int i = 0; i < 3; i++)
            if (!map_value(maps[i], exact, &v[i])) {
                snprintf(err, err_len, "%s:%u: %s has no entry for %.0f bit/s, the rate of the topology's link %u "
                         "(upstream needs one for every link speed)", u->path, maps[i]->line, names[i], exact, l);
                return -1;
            }
        uint64_t bps = (uint64_t)exact; /* below 2^64: an entry matched it */
        if (!rule->set) {
            *rule = (ecn_rule){v[0], v[1], v[2], bps, true};
        } else if (v[0] != rule->kmin || v[1] != rule->kmax || v[2] != rule->pmax) {
            snprintf(err, err_len, "%s: the ECN thresholds for %llu and %llu bit/s differ, and ns3_shim has one "
                     "rule for every switch port: give both rates the same KMIN/KMAX/PMAX", u->path,
                     (unsigned long long)rule->bps, (unsigned long long)bps);
            return -1;
        }
    }
    if (rule->set && !(rule->kmin <= rule->kmax && rule->pmax <= 1)) {
        snprintf(err, err_len, "%s: for %llu bit/s KMIN (%g) must not exceed KMAX (%g) and PMAX (%g) must be at "
                 "most 1", u->path, (unsigned long long)rule->bps, rule->kmin, rule->kmax, rule->pmax);
        return -1;
    }
    return 0;
}

/* The most ports any switch has: BUFFER_SIZE is a switch's shared buffer,
 * the shim's buffer is per port. */
static uint32_t widest_switch(vimana_topo *t)
{
    uint32_t nodes = vimana_topo_num_nodes(t), widest = 0;
    uint32_t *ports = calloc(nodes ? nodes : 1, sizeof *ports);
    if (!ports)
        return 0;
    for (uint32_t l = 0; l < vimana_topo_num_links(t); l++) {
        uint32_t src = vimana_topo_link_info(t, l)->src;
        if (vimana_topo_node_npu(t, src) == VIMANA_TOPO_NONE && ++ports[src] > widest)
            widest = ports[src];
    }
    free(ports);
    return widest;
}

/* ",NAME=VALUE" for a value the file gives (a negative one is unset:
 * the shim's default holds). */
static void put_given(out_buf *o, const char *name, double v)
{
    if (v >= 0)
        put(o, ",%s=%.10g", name, v);
}

static void put_cc(out_buf *o, const ns3_upstream *u)
{
    if (u->cc_mode == 1) {
        put(o, ",cc=dcqcn");
        put_given(o, "dcqcn_rate_ai", u->rate_ai_mbps);
        put_given(o, "dcqcn_rate_hai", u->rate_hai_mbps);
        put_given(o, "dcqcn_min_rate", u->min_rate_mbps);
        put_given(o, "dcqcn_g", u->ewma_gain);
        put_given(o, "dcqcn_timer", u->rp_timer_us);
    } else if (u->cc_mode == 3) {
        put(o, ",cc=hpcc");
        put_given(o, "hpcc_eta", u->u_target);
        if (u->mi_thresh >= 0)
            put(o, ",hpcc_max_stage=%ld", u->mi_thresh);
        put_given(o, "hpcc_rate_ai", u->rate_ai_mbps);
    } else {
        put(o, ",cc=none");
    }
}

int ns3_upstream_options(const ns3_upstream *u, vimana_topo *t, char *opts, size_t opts_len, char *err,
                         size_t err_len)
{
    out_buf o = {opts, opts_len, 0, opts_len == 0};
    if (opts_len)
        opts[0] = '\0';
    /* upstream's defaults where the file is silent (scratch/common.h):
     * 1000-byte packets, DCQCN, QCN on, 16 MiB a switch */
    put(&o, "packet=%ld", u->packet >= 0 ? u->packet : 1000);
    ns3_upstream dflt = *u;
    if (dflt.cc_mode < 0)
        dflt.cc_mode = 1;
    put_cc(&o, &dflt);
    /* upstream completes a message at its sender's last ACK */
    put(&o, ",completion=ack");
    uint32_t ports = widest_switch(t);
    if (ports) {
        /* upstream switches are lossless: PFC is always on */
        double mb = u->buffer_mb >= 0 ? u->buffer_mb : 16;
        put(&o, ",pfc=on,buffer=%llu", (unsigned long long)(mb * 1048576.0 / ports));
    }
    ecn_rule rule = {0};
    if (ports && u->enable_qcn == 0) {
        /* QCN off: no switch marks; thresholds no queue reaches */
        put(&o, ",ecn_kmin=%llu,ecn_kmax=%llu", 1ull << 50, 1ull << 50);
    } else if (ports && (u->kmin.n || u->kmax.n || u->pmax.n)) {
        if (switch_ecn(u, t, &rule, err, err_len) != 0)
            return -1;
        put(&o, ",ecn_kmin=%.0f,ecn_kmax=%.0f,ecn_pmax=%.10g", rule.kmin * 1000, rule.kmax * 1000, rule.pmax);
    }
    if (o.full) {
        snprintf(err, err_len, "%s: the options it means do not fit in %zu bytes", u->path, opts_len);
        return -1;
    }
    return 0;
}
