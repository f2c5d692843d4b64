#include "trace_link/py_json_out.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "common/pyjson_string.h"

#define OUT_BUFFER_SIZE (1u << 20)

static bool has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static char *concat(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    char *r = malloc(n + m + 1);
    if (r) {
        memcpy(r, a, n);
        memcpy(r + n, b, m + 1);
    }
    return r;
}

int tl_out_open(tl_out *o, const char *path, tl_diag *d)
{
    memset(o, 0, sizeof *o);
    o->gzip = has_suffix(path, ".gz");
    o->path = concat(path, "");
    o->part_path = concat(path, ".part");
    o->buf = malloc(OUT_BUFFER_SIZE);
    o->cap = OUT_BUFFER_SIZE;
    if (!o->path || !o->part_path || !o->buf) {
        tl_out_abort(o);
        return tl_fail(d, "%s: out of memory", path);
    }
    if (o->gzip)
        o->file = gzopen(o->part_path, "wb6");
    else
        o->file = fopen(o->part_path, "wb");
    if (!o->file) {
        int e = errno;
        tl_out_abort(o);
        return tl_fail(d, "%s: cannot create: %s", path, strerror(e));
    }
    return 0;
}

void tl_out_flush(tl_out *o)
{
    if (o->len == 0)
        return;
    if (!o->failed) {
        bool ok;
        errno = 0;
        if (o->gzip)
            ok = gzwrite((gzFile)o->file, o->buf, (unsigned)o->len) == (int)o->len;
        else
            ok = fwrite(o->buf, 1, o->len, (FILE *)o->file) == o->len;
        if (!ok) {
            o->failed = true;
            o->error = errno ? errno : EIO;
        }
    }
    o->len = 0;
}

void tl_out_bytes_slow(tl_out *o, const char *p, size_t n)
{
    while (n > 0) {
        if (o->len == o->cap)
            tl_out_flush(o);
        size_t room = o->cap - o->len, take = n < room ? n : room;
        memcpy(o->buf + o->len, p, take);
        o->len += take;
        p += take;
        n -= take;
    }
}

static void release(tl_out *o)
{
    free(o->buf);
    free(o->path);
    free(o->part_path);
    o->buf = o->path = o->part_path = NULL;
    o->file = NULL;
}

int tl_out_close(tl_out *o, tl_diag *d)
{
    tl_out_flush(o);
    int closed;
    errno = 0;
    if (o->gzip)
        closed = gzclose((gzFile)o->file) == Z_OK ? 0 : -1;
    else
        closed = fclose((FILE *)o->file);
    o->file = NULL;
    if (closed != 0 && !o->failed) {
        o->failed = true;
        o->error = errno ? errno : EIO;
    }
    if (!o->failed && rename(o->part_path, o->path) != 0) {
        o->failed = true;
        o->error = errno;
    }
    if (o->failed) {
        int e = o->error;
        char *path = o->path;
        o->path = NULL;
        remove(o->part_path);
        release(o);
        tl_fail(d, "%s: cannot write: %s", path, strerror(e));
        free(path);
        return -1;
    }
    release(o);
    return 0;
}

void tl_out_abort(tl_out *o)
{
    if (o->file) {
        if (o->gzip)
            gzclose((gzFile)o->file);
        else
            fclose((FILE *)o->file);
        o->file = NULL;
        remove(o->part_path);
    }
    release(o);
}

void tl_out_newline(tl_out *o, unsigned depth)
{
    static const char spaces[] = "                                                                "; /* 64 */
    tl_out_char(o, '\n');
    size_t n = (size_t)depth * 4;
    while (n > 0) {
        size_t take = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
        tl_out_bytes(o, spaces, take);
        n -= take;
    }
}

void tl_out_int64(tl_out *o, int64_t v)
{
    char text[24];
    int n = snprintf(text, sizeof text, "%lld", (long long)v);
    tl_out_bytes(o, text, (size_t)n);
}

void tl_out_pynum(tl_out *o, pynum v)
{
    char text[PYNUM_TEXT_MAX];
    size_t n = pynum_format(v, text);
    tl_out_bytes(o, text, n);
}

static void write_to_out(void *o, const char *p, size_t n)
{
    tl_out_bytes(o, p, n);
}

void tl_out_py_string(tl_out *o, const char *raw, size_t len)
{
    pyjson_write_string(write_to_out, o, raw, len, PYJSON_ESCAPED_INPUT);
}

/* End of the string whose opening quote is at raw[p]: index of the closing
 * quote. */
static size_t string_end(const char *raw, size_t p, size_t len)
{
    p++;
    while (p < len) {
        char c = raw[p];
        if (c == '"')
            return p;
        p += c == '\\' ? 2 : 1;
    }
    return len;
}

static size_t number_end(const char *raw, size_t p, size_t len)
{
    if (raw[p] == 'N')
        return p + 3;
    if (raw[p] == 'I')
        return p + 8;
    if (raw[p] == '-' && p + 1 < len && raw[p + 1] == 'I')
        return p + 9;
    while (p < len && (raw[p] == '-' || raw[p] == '+' || raw[p] == '.' || raw[p] == 'e' || raw[p] == 'E' ||
                       (raw[p] >= '0' && raw[p] <= '9')))
        p++;
    return p;
}

/* An int keeps its digits (Python ints are exact, "-0" reads as 0); a float
 * is parsed and printed with repr(). */
static void put_number(tl_out *o, const char *text, size_t len)
{
    pynum n;
    bool is_float = false;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '.' || text[i] == 'e' || text[i] == 'E' || text[i] == 'N' || text[i] == 'I')
            is_float = true;
    if (!is_float) {
        if (len == 2 && text[0] == '-' && text[1] == '0')
            tl_out_char(o, '0');
        else
            tl_out_bytes(o, text, len);
        return;
    }
    pynum_parse(text, len, &n);
    tl_out_pynum(o, n);
}

static size_t skip_ws(const char *raw, size_t p, size_t len)
{
    while (p < len && (raw[p] == ' ' || raw[p] == '\n' || raw[p] == '\r' || raw[p] == '\t'))
        p++;
    return p;
}

void tl_out_py_value(tl_out *o, const char *raw, size_t len, unsigned depth)
{
    size_t p = 0;
    while ((p = skip_ws(raw, p, len)) < len) {
        char c = raw[p];
        switch (c) {
        case '{':
        case '[': {
            char close = c == '{' ? '}' : ']';
            size_t q = skip_ws(raw, p + 1, len);
            tl_out_char(o, c);
            if (q < len && raw[q] == close) {
                tl_out_char(o, close);
                p = q + 1;
            } else {
                tl_out_newline(o, ++depth);
                p = q;
            }
            break;
        }
        case '}':
        case ']':
            tl_out_newline(o, --depth);
            tl_out_char(o, c);
            p++;
            break;
        case ',':
            tl_out_char(o, ',');
            tl_out_newline(o, depth);
            p++;
            break;
        case ':':
            tl_out_bytes(o, ": ", 2);
            p++;
            break;
        case '"': {
            size_t end = string_end(raw, p, len);
            tl_out_py_string(o, raw + p + 1, end - p - 1);
            p = end + 1;
            break;
        }
        case 't':
            tl_out_bytes(o, "true", 4);
            p += 4;
            break;
        case 'f':
            tl_out_bytes(o, "false", 5);
            p += 5;
            break;
        case 'n':
            tl_out_bytes(o, "null", 4);
            p += 4;
            break;
        default: {
            size_t end = number_end(raw, p, len);
            put_number(o, raw + p, end - p);
            p = end;
            break;
        }
        }
    }
}
