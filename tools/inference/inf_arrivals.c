/* The arrivals file (see the header; docs/inference.md, "Serving"). Lines
 * are cut out of the text by hand, not with sscanf or strtoull, so that
 * every field is range-checked exactly and the message names what was
 * wrong rather than what the C library made of it. */
#include "inference/inf_arrivals.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/input_file.h"

/* The longest field quoted back in a message. */
#define QUOTE_MAX 40

struct field {
    const char *p;
    size_t n;
};

/* The state of one parse: where messages point. */
struct parse {
    const char *name;
    uint32_t line;
    char *msg;
    size_t msglen;
};

static int fail(struct parse *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct parse *ps, const char *fmt, ...)
{
    int used = snprintf(ps->msg, ps->msglen, "%s:%" PRIu32 ": ", ps->name, ps->line);
    if (used >= 0 && (size_t)used < ps->msglen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ps->msg + used, ps->msglen - (size_t)used, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* The field as printable text, cut to QUOTE_MAX bytes (a binary or huge
 * field must not make the message unreadable). */
static void quote(struct field f, char *buf, size_t len)
{
    size_t n = f.n < QUOTE_MAX ? f.n : QUOTE_MAX, k = 0;
    for (size_t i = 0; i < n && k + 1 < len; i++) {
        unsigned char ch = (unsigned char)f.p[i];
        buf[k++] = ch >= 0x20 && ch < 0x7f ? (char)ch : '?';
    }
    if (f.n > n && k + 3 < len) {
        memcpy(buf + k, "...", 3);
        k += 3;
    }
    buf[k] = '\0';
}

static int is_blank(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f' || ch == ',';
}

static int is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

/* Splits [p, end) at blanks and commas; a '#' ends the line's content.
 * Returns the number of fields seen (at most `max` kept). */
static size_t split(const char *p, const char *end, struct field *f, size_t max)
{
    size_t n = 0;
    while (p < end && *p != '#') {
        if (is_blank(*p)) {
            p++;
            continue;
        }
        const char *start = p;
        while (p < end && !is_blank(*p) && *p != '#')
            p++;
        if (n < max)
            f[n] = (struct field){start, (size_t)(p - start)};
        n++;
    }
    return n;
}

/* Accumulates whole digits into *v (capped at `cap` + 1, so an overflow
 * reads as out of range); returns the digits consumed. */
static size_t digits(const char *p, size_t n, uint64_t cap, uint64_t *v)
{
    size_t i = 0;
    for (; i < n && is_digit(p[i]); i++) {
        uint64_t d = (uint64_t)(p[i] - '0');
        *v = *v > (cap - d) / 10 ? cap + 1 : *v * 10 + d;
    }
    return i;
}

/* A token count: a whole number from 1 to max. */
static int count_field(struct parse *ps, struct field f, const char *what, uint64_t max, uint64_t *out)
{
    char q[QUOTE_MAX + 4];
    uint64_t v = 0;
    if (digits(f.p, f.n, max, &v) != f.n) {
        quote(f, q, sizeof q);
        return fail(ps, "%s: '%s' is not a whole number", what, q);
    }
    if (v < 1 || v > max) {
        quote(f, q, sizeof q);
        return fail(ps, "%s: expected 1 to %" PRIu64 ", got %s", what, max, q);
    }
    *out = v;
    return 0;
}

/* Nanoseconds per unit of the suffix `u` (empty: microseconds); 0 when
 * the suffix is not a unit. */
static uint64_t unit_ns(const char *u, size_t n)
{
    static const struct {
        const char *name;
        uint64_t ns;
    } units[] = {{"", 1000}, {"ns", 1}, {"us", 1000}, {"ms", 1000000}, {"s", 1000000000}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strlen(units[i].name) == n && memcmp(units[i].name, u, n) == 0)
            return units[i].ns;
    return 0;
}

/* DIGITS[.DIGITS][UNIT] to whole nanoseconds, exactly: the fraction's
 * digits beyond the unit's resolution must be zeros. */
static int arrival_field(struct parse *ps, struct field f, uint64_t *out)
{
    char q[QUOTE_MAX + 4];
    quote(f, q, sizeof q);
    uint64_t whole = 0, cap = INF_ARRIVAL_MAX_NS;
    size_t i = digits(f.p, f.n, cap, &whole);
    const char *frac = NULL;
    size_t nfrac = 0;
    if (i < f.n && f.p[i] == '.') {
        frac = f.p + i + 1;
        while (i + 1 + nfrac < f.n && is_digit(frac[nfrac]))
            nfrac++;
        i += 1 + nfrac;
    }
    if (i == 0 || (frac && nfrac == 0) || (frac && i == nfrac + 1))
        return fail(ps, "arrival: '%s' is not a time (expected e.g. 1500, 1500us, 2.5ms)", q);
    uint64_t unit = unit_ns(f.p + i, f.n - i);
    if (unit == 0)
        return fail(ps, "arrival: '%s' has an unknown unit (expected ns, us, ms or s; none: us)", q);
    /* the fraction: digit k (0-based) is worth unit / 10^(k+1) ns */
    uint64_t ns = 0, scale = unit;
    for (size_t k = 0; k < nfrac; k++) {
        uint64_t d = (uint64_t)(frac[k] - '0');
        if (scale % 10 != 0) {
            if (d != 0)
                return fail(ps, "arrival: '%s' is finer than 1 ns", q);
            continue;
        }
        scale /= 10;
        ns += d * scale;
    }
    if (whole > cap / unit || whole * unit > cap - ns)
        return fail(ps, "arrival: '%s' is more than %llu s", q, (unsigned long long)(cap / 1000000000u));
    *out = whole * unit + ns;
    return 0;
}

/* One line of content (comment already possible in it); 0 when it was
 * blank or a comment, 1 with *r filled, -1 after an error. */
static int parse_line(struct parse *ps, const char *p, const char *end, struct inf_request *r)
{
    struct field f[3];
    size_t n = split(p, end, f, 3);
    if (n == 0)
        return 0;
    if (n != 3)
        return fail(ps, "expected 3 fields (arrival, prompt tokens, output tokens), got %zu", n);
    r->line = ps->line;
    if (arrival_field(ps, f[0], &r->arrival_ns) != 0 ||
        count_field(ps, f[1], "prompt tokens", INF_PROMPT_MAX, &r->prompt) != 0 ||
        count_field(ps, f[2], "output tokens", INF_OUTPUT_MAX, &r->output) != 0)
        return -1;
    return 1;
}

/* Appends r, doubling the array (amortised: one realloc per doubling). */
static int push(struct parse *ps, struct inf_arrivals *a, size_t *cap, const struct inf_request *r)
{
    if (a->n == INF_REQUESTS_MAX)
        return fail(ps, "more than %llu requests", (unsigned long long)INF_REQUESTS_MAX);
    if (a->n > 0 && r->arrival_ns < a->req[a->n - 1].arrival_ns)
        return fail(ps, "arrival %" PRIu64 " ns is before line %" PRIu32 "'s %" PRIu64
                        " ns (the file must be sorted by arrival)",
                    r->arrival_ns, a->req[a->n - 1].line, a->req[a->n - 1].arrival_ns);
    if (a->n == *cap) {
        size_t grown = *cap ? 2 * *cap : 16;
        struct inf_request *q = realloc(a->req, grown * sizeof *q);
        if (!q)
            return fail(ps, "out of memory");
        a->req = q;
        *cap = grown;
    }
    a->req[a->n++] = *r;
    return 0;
}

int inf_arrivals_parse(const char *name, const char *text, size_t len, struct inf_arrivals *a, char *msg,
                       size_t msglen)
{
    struct parse ps = {.name = name, .line = 0, .msg = msg, .msglen = msglen};
    const char *p = text, *end = text + len;
    size_t cap = 0;
    *a = (struct inf_arrivals){0};
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        const char *stop = eol ? eol : end;
        struct inf_request r;
        ps.line++;
        int rc = parse_line(&ps, p, stop, &r);
        if (rc < 0 || (rc > 0 && push(&ps, a, &cap, &r) != 0)) {
            inf_arrivals_free(a);
            return -1;
        }
        p = eol ? eol + 1 : end;
    }
    if (a->n == 0) {
        snprintf(msg, msglen, "%s: no requests (expected lines of: arrival, prompt tokens, output tokens)", name);
        return -1;
    }
    return 0;
}

/* The most bytes read: 2^20 requests of long lines and comments fit; a
 * wrong path to a huge file must not fill the memory. */
#define FILE_MAX (256u << 20)

/* The whole file in memory: arrivals files are small (a line a request). */
static char *slurp(const char *path, size_t *len, char *msg, size_t msglen)
{
    errno = 0;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(msg, msglen, "%s: cannot open: %s", path, errno ? strerror(errno) : "unknown error");
        return NULL;
    }
    size_t n = 0;
    /* one byte beyond the limit tells a file that is too large */
    char *buf = input_file_read(f, FILE_MAX + 1, &n);
    int bad = ferror(f);
    fclose(f);
    if (bad || !buf || n > FILE_MAX) {
        snprintf(msg, msglen, "%s: %s", path,
                 bad ? "read failed" : !buf ? "out of memory" : "larger than 256 MiB (not an arrivals file?)");
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int inf_arrivals_load(const char *path, struct inf_arrivals *a, char *msg, size_t msglen)
{
    size_t len = 0;
    char *text = slurp(path, &len, msg, msglen);
    *a = (struct inf_arrivals){0};
    if (!text)
        return -1;
    int rc = inf_arrivals_parse(path, text, len, a, msg, msglen);
    free(text);
    return rc;
}

void inf_arrivals_free(struct inf_arrivals *a)
{
    free(a->req);
    *a = (struct inf_arrivals){0};
}
