/* GEMM measurement tables (see the header). */
#include "calibrate_compute/cc_table.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fail_msg.h"
#include "util/input_file.h"

#define MAX_LINE 1024
#define MAX_COLUMNS 32
#define MAX_DIM (1u << 24)

/* Splits a line at commas (blanks around fields dropped); returns the count. */
static size_t split(char *line, char *fields[MAX_COLUMNS])
{
    size_t n = 0;
    char *p = line;
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        char *end = strchr(p, ',');
        if (n < MAX_COLUMNS)
            fields[n++] = p;
        char *stop = end ? end : p + strlen(p);
        while (stop > p && (stop[-1] == ' ' || stop[-1] == '\t' || stop[-1] == '\r' || stop[-1] == '\n'))
            stop--;
        char *next = end ? end + 1 : NULL;
        *stop = '\0';
        if (!next)
            return n;
        p = next;
    }
}

/* Which column holds each of m, n, k, and the time (us) or rate (tflops). */
typedef struct columns {
    int m, n, k, us, tflops;
} columns;

static int header(const char *path, uint32_t line, char *text, columns *c, char *msg, size_t len)
{
    char *f[MAX_COLUMNS];
    size_t n = split(text, f);
    *c = (columns){-1, -1, -1, -1, -1};
    for (size_t i = 0; i < n; i++) {
        int *slot = strcmp(f[i], "m") == 0 ? &c->m : strcmp(f[i], "n") == 0 ? &c->n : strcmp(f[i], "k") == 0 ? &c->k
                    : strcmp(f[i], "us") == 0 ? &c->us : strcmp(f[i], "tflops") == 0 ? &c->tflops : NULL;
        if (slot)
            *slot = (int)i;
    }
    if (c->m < 0 || c->n < 0 || c->k < 0 || (c->us < 0) == (c->tflops < 0))
        return fail_msg(msg, len, "%s:%u: expected a header naming the columns m, n, k and one of us or tflops", path,
                    line);
    return 0;
}

static int dimension(const char *path, uint32_t line, const char *name, const char *text, uint64_t *out, char *msg,
                     size_t len)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text || *end || text[0] == '-' || v < 1 || v > MAX_DIM)
        return fail_msg(msg, len, "%s:%u: %s '%.40s' is not a whole number from 1 to %u", path, line, name, text, MAX_DIM);
    *out = v;
    return 0;
}

static int row(const char *path, uint32_t line, char *text, const columns *c, cc_row *r, char *msg, size_t len)
{
    char *f[MAX_COLUMNS];
    size_t n = split(text, f);
    int need = c->m > c->n ? c->m : c->n;
    need = need > c->k ? need : c->k;
    int t = c->us >= 0 ? c->us : c->tflops;
    need = need > t ? need : t;
    if ((int)n <= need)
        return fail_msg(msg, len, "%s:%u: expected at least %d fields, got %zu", path, line, need + 1, n);
    if (dimension(path, line, "m", f[c->m], &r->m, msg, len) || dimension(path, line, "n", f[c->n], &r->n, msg, len) ||
        dimension(path, line, "k", f[c->k], &r->k, msg, len))
        return -1;
    char *end;
    errno = 0;
    double v = strtod(f[t], &end);
    if (errno || end == f[t] || *end || !isfinite(v) || v <= 0 || v > 1e9)
        return fail_msg(msg, len, "%s:%u: %s '%.40s' is not a positive number", path, line, c->us >= 0 ? "us" : "tflops",
                    f[t]);
    double flops = 2.0 * (double)r->m * (double)r->n * (double)r->k;
    r->seconds = c->us >= 0 ? v * 1e-6 : flops / (v * 1e12);
    r->file = path;
    r->line = line;
    r->is_event = false;
    return 0;
}

const char *cc_row_where(const cc_row *r, char *buf, size_t len)
{
    const char *base = strrchr(r->file, '/');
    base = base ? base + 1 : r->file;
    snprintf(buf, len, r->is_event ? "%s traceEvents[%u]" : "%s:%u", base, r->line);
    return buf;
}

int cc_table_push(cc_table *t, const cc_row *r)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        cc_row *rows = realloc(t->rows, cap * sizeof *rows);
        if (!rows)
            return -1;
        t->rows = rows;
        t->cap = cap;
    }
    t->rows[t->n++] = *r;
    return 0;
}

int cc_table_read(const char *path, cc_table *t, char *msg, size_t len)
{
    char text[MAX_LINE + 2];
    FILE *f = input_file_open(path, path, "r", msg, len);
    if (!f)
        return -1;
    columns c;
    int have_header = 0, rc = 0;
    size_t before = t->n;
    uint32_t line = 0;
    while (rc == 0 && fgets(text, sizeof text, f)) {
        line++;
        if (strlen(text) > MAX_LINE) {
            rc = fail_msg(msg, len, "%s:%u: line longer than %d characters", path, line, MAX_LINE);
            break;
        }
        char *p = text + strspn(text, " \t\r\n");
        if (*p == '\0' || *p == '#')
            continue;
        if (!have_header) {
            rc = header(path, line, p, &c, msg, len);
            have_header = 1;
            continue;
        }
        cc_row r;
        rc = row(path, line, p, &c, &r, msg, len);
        if (rc == 0 && cc_table_push(t, &r) != 0)
            rc = fail_msg(msg, len, "%s: out of memory", path);
    }
    if (rc == 0 && ferror(f))
        rc = fail_msg(msg, len, "%s: read failed", path);
    fclose(f);
    if (rc == 0 && t->n == before)
        rc = fail_msg(msg, len, "%s: no measurements (a header, then rows of m, n, k and us or tflops)", path);
    return rc;
}

void cc_table_free(cc_table *t)
{
    free(t->rows);
    *t = (cc_table){0};
}
