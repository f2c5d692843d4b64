#include "etcmd/sink.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define SINK_BUF (64u * 1024u)

struct sink {
    const char *prog;
    char *path;        /* NULL for stdout */
    FILE *fp;
    gzFile gz;
    int failed;
    int saved_errno;
    size_t used;
    char buf[SINK_BUF];
};

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

sink *sink_open(const char *prog, const char *path)
{
    sink *s = calloc(1, sizeof *s);
    if (!s) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return NULL;
    }
    s->prog = prog;
    if (!path || strcmp(path, "-") == 0) {
        s->fp = stdout;
        return s;
    }
    s->path = strdup(path);
    errno = 0;
    if (s->path && ends_with(path, ".gz"))
        s->gz = gzopen(path, "wb");
    else if (s->path)
        s->fp = fopen(path, "w");
    if (!s->fp && !s->gz) {
        fprintf(stderr, "%s: %s: cannot create: %s\n", prog, path, errno ? strerror(errno) : "out of memory");
        free(s->path);
        free(s);
        return NULL;
    }
    return s;
}

sink *sink_open_memory(const char *prog, char **data, size_t *len)
{
    *data = NULL;
    *len = 0;
    sink *s = calloc(1, sizeof *s);
    if (s) {
        s->prog = prog;
        s->path = strdup("(memory)");
        s->fp = s->path ? open_memstream(data, len) : NULL;
    }
    if (!s || !s->fp) {
        fprintf(stderr, "%s: out of memory\n", prog);
        if (s)
            free(s->path);
        free(s);
        return NULL;
    }
    return s;
}

static void flush(sink *s)
{
    if (s->used == 0 || s->failed) {
        s->used = 0;
        return;
    }
    errno = 0;
    if (s->gz)
        s->failed = gzwrite(s->gz, s->buf, (unsigned)s->used) != (int)s->used;
    else
        s->failed = fwrite(s->buf, 1, s->used, s->fp) != s->used;
    if (s->failed)
        s->saved_errno = errno;
    s->used = 0;
}

void sink_write(sink *s, const char *p, size_t n)
{
    while (n > 0) {
        if (s->used == SINK_BUF)
            flush(s);
        size_t room = SINK_BUF - s->used;
        size_t k = n < room ? n : room;
        memcpy(s->buf + s->used, p, k);
        s->used += k;
        p += k;
        n -= k;
    }
}

void sink_puts(sink *s, const char *str)
{
    sink_write(s, str, strlen(str));
}

void sink_putc(sink *s, char c)
{
    if (s->used == SINK_BUF)
        flush(s);
    s->buf[s->used++] = c;
}

void sink_printf(sink *s, const char *fmt, ...)
{
    char small[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        s->failed = 1;
        return;
    }
    if ((size_t)n < sizeof small) {
        sink_write(s, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        s->failed = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sink_write(s, big, (size_t)n);
    free(big);
}

int sink_close(sink *s)
{
    flush(s);
    int failed = s->failed;
    int err = s->saved_errno;
    if (s->gz) {
        if (gzclose(s->gz) != Z_OK)
            failed = 1;
    } else if (s->fp == stdout) {
        if (fflush(stdout) != 0) {
            failed = 1;
            err = errno;
        }
    } else if (fclose(s->fp) != 0) {
        failed = 1;
        err = errno;
    }
    if (failed)
        fprintf(stderr, "%s: %s: write failed: %s\n", s->prog, s->path ? s->path : "standard output",
                err ? strerror(err) : "I/O error");
    free(s->path);
    free(s);
    return failed ? -1 : 0;
}
