/*
 * log_timeline.c - matching issue and callback records into events.
 */
#include "timeline/log_timeline.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "util/utf8.h"
#include "timeline/chrome_trace.h"
#include "timeline/node_category.h"
#include "timeline/open_events.h"
#include "timeline/ref_trace.h"
#include "timeline/trace_record.h"
#include "util/grow.h"
#include "util/msg_escape.h"

/* Longest node name quoted in a message. */
#define NAME_QUOTE_MAX 60

typedef struct {
    const log_timeline_options *opt;
    open_events *open;
    ref_trace trace;     /* the --compat documents */
    chrome_trace chrome; /* the default one */
    uint64_t line;
    log_timeline_summary *summary;
    char *err;
} converter;

static int fail_at_line(converter *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Writes "NAME:LINE: message" to c->err; returns -1. */
static int fail_at_line(converter *c, const char *fmt, ...)
{
    int n = snprintf(c->err, LOG_TIMELINE_MSG_MAX, "%s:%llu: ", c->opt->input_name, (unsigned long long)c->line);
    if (n < 0 || n >= LOG_TIMELINE_MSG_MAX)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err + n, LOG_TIMELINE_MSG_MAX - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* A node name fit for a one-line message: control bytes escaped, cut
 * after about NAME_QUOTE_MAX bytes. */
typedef struct {
    char text[NAME_QUOTE_MAX + 4];
} quoted_name;

static const char *quote(quoted_name *q, const char *name, size_t len)
{
    return msg_escape_n(name, len, q->text, sizeof q->text);
}

/* The reference's arithmetic: (tick / MHz) / 1000. Exact as in Python for
 * ticks below 2^53, where int / int and double / double agree. */
static double issue_time(const log_timeline_options *opt, uint64_t tick)
{
    double t = (double)tick / (double)opt->npu_mhz;
    return opt->form == TIMELINE_REFERENCE_MS ? t / 1000 : t;
}

/* The reference's arithmetic: cycles / (MHz * 1000), one division. */
static double duration(const log_timeline_options *opt, uint64_t cycles)
{
    uint64_t per = opt->form == TIMELINE_REFERENCE_MS ? opt->npu_mhz * 1000 : opt->npu_mhz;
    return (double)cycles / (double)per;
}

/* A tick as nanoseconds: ticks are cycles at MHz, so tick * 1000 / MHz,
 * rounded to the nearest ns (exact when MHz divides 1000 * tick, as at
 * Vimana's 1000 MHz, where a cycle is a nanosecond). */
static chrome_ns tick_ns(const log_timeline_options *opt, uint64_t tick)
{
    chrome_ns scaled = (chrome_ns)tick * 1000;
    return (scaled + opt->npu_mhz / 2) / opt->npu_mhz;
}

static int write_event(converter *c, const trace_record *r, const open_event *ev)
{
    if (c->opt->form != TIMELINE_CHROME) {
        ref_event out = {
            .pid = r->npu,
            .tid = (int)ev->category,
            .ts = issue_time(c->opt, ev->tick),
            .dur = duration(c->opt, r->tick - ev->tick),
            .name = ev->name,
            .name_len = ev->name_len,
            .args_key = c->opt->form == TIMELINE_REFERENCE_MS ? "ms" : "us",
        };
        ref_trace_event(&c->trace, &out);
        return 0;
    }
    chrome_ns start = tick_ns(c->opt, ev->tick);
    chrome_slice slice = {
        .pid = (uint32_t)r->npu, /* below --num-npus, at most 2^32 - 1 */
        .tid = ev->category,
        .start_ns = start,
        .dur_ns = tick_ns(c->opt, r->tick) - start,
        .cycles = r->tick - ev->tick,
        .name = ev->name,
        .name_len = ev->name_len,
    };
    if (chrome_trace_slice(&c->chrome, &slice) != 0)
        return fail_at_line(c, "out of memory");
    return 0;
}

static int unknown_category(converter *c, const trace_record *r)
{
    char why[64];
    if (r->has_type)
        snprintf(why, sizeof why, "node->type %llu is not a Chakra node type", (unsigned long long)r->type);
    else
        snprintf(why, sizeof why, "the record has no node->type");
    quoted_name q;
    return fail_at_line(c,
                        "cannot tell the category of node %llu '%s' on NPU %llu: its name has no COMP_NODE, "
                        "COMM_{SEND,RECV,COLL}_NODE or MEM_{LOAD,STORE}_NODE + {LOCAL,REMOTE}_MEMORY and %s",
                        (unsigned long long)r->node, quote(&q, r->name, r->name_len), (unsigned long long)r->npu, why);
}

static int on_issue(converter *c, const trace_record *r)
{
    const open_event *earlier = open_events_find(c->open, r->npu, r->node);
    if (earlier)
        return fail_at_line(c, "node %llu on NPU %llu issued again before its callback (first issue at line %llu)",
                            (unsigned long long)r->node, (unsigned long long)r->npu, (unsigned long long)earlier->line);
    if (!utf8_valid(r->name, r->name_len))
        return fail_at_line(c, "the name of node %llu on NPU %llu is not valid UTF-8", (unsigned long long)r->node,
                            (unsigned long long)r->npu);
    node_category category = node_category_of(r->name, r->name_len, r->has_type, r->type);
    if (category == CATEGORY_UNKNOWN)
        return unknown_category(c, r);
    open_event ev = {
        .npu = r->npu,
        .node = r->node,
        .tick = r->tick,
        .line = c->line,
        .category = category,
        .name = (char *)r->name, /* copied by open_events_add */
        .name_len = r->name_len,
    };
    if (open_events_add(c->open, &ev) != 0)
        return fail_at_line(c, "out of memory");
    return 0;
}

static int on_callback(converter *c, const trace_record *r)
{
    open_event *ev = open_events_find(c->open, r->npu, r->node);
    quoted_name q;
    if (!ev)
        return fail_at_line(c, "callback of node %llu '%s' on NPU %llu has no open issue before it",
                            (unsigned long long)r->node, quote(&q, r->name, r->name_len), (unsigned long long)r->npu);
    if (r->tick < ev->tick)
        return fail_at_line(
            c, "callback of node %llu on NPU %llu at tick %llu precedes its issue at tick %llu (line %llu)",
            (unsigned long long)r->node, (unsigned long long)r->npu, (unsigned long long)r->tick,
            (unsigned long long)ev->tick, (unsigned long long)ev->line);
    if (write_event(c, r, ev) != 0)
        return -1;
    c->summary->events++;
    open_events_remove(c->open, ev);
    return 0;
}

static int on_line(converter *c, const char *line, size_t len)
{
    trace_record r;
    char why[TRACE_RECORD_ERR_MAX];
    record_status st = trace_record_parse(line, len, &r, why);
    if (st == RECORD_NONE)
        return 0;
    if (st == RECORD_MALFORMED)
        return fail_at_line(c, "%s", why);
    c->summary->records++;
    if (r.npu >= c->opt->num_npus)
        return fail_at_line(c, "NPU %llu is out of range: --num-npus is %llu", (unsigned long long)r.npu,
                            (unsigned long long)c->opt->num_npus);
    return r.kind == RECORD_ISSUE ? on_issue(c, &r) : on_callback(c, &r);
}

static void note_unclosed(converter *c)
{
    log_timeline_summary *s = c->summary;
    s->unclosed = open_events_count(c->open);
    const open_event *first = open_events_oldest(c->open);
    quoted_name q;
    if (!first)
        return;
    snprintf(s->unclosed_note, sizeof s->unclosed_note,
             "%llu issued node%s never completed and %s left out (the first: node %llu '%s' on NPU %llu, issued "
             "at %s:%llu)",
             (unsigned long long)s->unclosed, s->unclosed == 1 ? "" : "s", s->unclosed == 1 ? "is" : "are",
             (unsigned long long)first->node, quote(&q, first->name, first->name_len), (unsigned long long)first->npu,
             c->opt->input_name, (unsigned long long)first->line);
}

/* Records are short (a node name runs to a few KiB at most); a longer
 * line means the input is not a log, e.g. stdin from /dev/zero, which
 * getline would buffer until memory runs out. */
#define MAX_LINE (1u << 20)

enum { LINE_READ = 1, LINE_EOF = 0, LINE_TOO_LONG = -1, LINE_FAILED = -2 };

/* The next line, '\n' included, NUL bytes kept; LINE_FAILED on a read
 * error or out of memory (errno set). */
static int next_line(FILE *in, char **buf, size_t *cap, size_t *len)
{
    int ch;
    *len = 0;
    while ((ch = getc_unlocked(in)) != EOF) {
        if (*len == MAX_LINE)
            return LINE_TOO_LONG;
        if (grow_array((void **)buf, cap, *len + 2, 1, 256) != 0)
            return LINE_FAILED;
        (*buf)[(*len)++] = (char)ch;
        if (ch == '\n')
            break;
    }
    if (ferror(in))
        return LINE_FAILED;
    return *len ? LINE_READ : LINE_EOF;
}

static int read_lines(converter *c, FILE *in)
{
    char *line = NULL;
    size_t cap = 0, len;
    int rc = 0, got;
    errno = 0;
    flockfile(in);
    while (rc == 0 && (got = next_line(in, &line, &cap, &len)) == LINE_READ) {
        c->line++;
        rc = on_line(c, line, len);
    }
    funlockfile(in);
    if (rc == 0 && got == LINE_TOO_LONG) {
        c->line++;
        rc = fail_at_line(c, "line longer than %u bytes: not a simulator log", MAX_LINE);
    } else if (rc == 0 && got == LINE_FAILED) {
        snprintf(c->err, LOG_TIMELINE_MSG_MAX, "%s: read error: %s", c->opt->input_name, strerror(errno ? errno : EIO));
        rc = -1;
    }
    free(line);
    return rc;
}

int log_timeline_convert(FILE *in, FILE *out, const log_timeline_options *opt, log_timeline_summary *summary,
                         char err[LOG_TIMELINE_MSG_MAX])
{
    converter c = {.opt = opt, .open = open_events_new(), .summary = summary, .err = err};
    memset(summary, 0, sizeof *summary);
    if (!c.open) {
        snprintf(err, LOG_TIMELINE_MSG_MAX, "out of memory");
        return -1;
    }
    bool chrome = opt->form == TIMELINE_CHROME;
    if (chrome)
        chrome_trace_begin(&c.chrome, out);
    else
        ref_trace_begin(&c.trace, out);
    int rc = read_lines(&c, in);
    if (rc == 0) {
        if (chrome)
            chrome_trace_end(&c.chrome);
        else
            ref_trace_end(&c.trace, opt->num_npus);
        note_unclosed(&c);
    }
    if (chrome)
        chrome_trace_free(&c.chrome);
    open_events_free(c.open);
    return rc;
}
