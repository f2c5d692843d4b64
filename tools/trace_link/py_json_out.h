/*
 * py_json_out.h - write JSON exactly as Python's json.dump(obj, f, indent=4)
 * does, so Vimana's output can be diffed byte for byte with the reference's.
 *
 * That format: a newline plus four spaces per level before every member and
 * element, "," at line ends, ": " after keys, "[]"/"{}" for empty
 * containers, strings with ensure_ascii escapes (\uXXXX in lowercase hex,
 * surrogate pairs above U+FFFF), integers verbatim, floats as repr(), no
 * final newline. Values read from the input are re-formatted from their raw
 * byte span (they were validated by json_scan), so pass-through data costs no
 * memory.
 *
 * The file is written to "PATH.part" and renamed over PATH by
 * tl_out_close, so a failed run never leaves a truncated output behind.
 * A PATH ending in ".gz" is gzip-compressed.
 */
#ifndef VIMANA_TRACE_LINK_PY_JSON_OUT_H
#define VIMANA_TRACE_LINK_PY_JSON_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "trace_link/diag.h"
#include "trace_link/pynum.h"

typedef struct tl_out {
    char *buf;
    size_t len, cap;
    void *file;        /* FILE * or gzFile */
    bool gzip;
    bool failed;       /* a write failed; reported by tl_out_close */
    int error;         /* errno of the first failure */
    char *path;        /* final name */
    char *part_path;   /* name while writing */
} tl_out;

int tl_out_open(tl_out *o, const char *path, tl_diag *d);
/* Flushes, closes and renames into place; returns -1 (with the reason) if
 * anything failed. */
int tl_out_close(tl_out *o, tl_diag *d);
/* Closes and removes the partial file (after an error elsewhere). */
void tl_out_abort(tl_out *o);

void tl_out_flush(tl_out *o);

/* Appends bytes that do not fit the buffer (flushing as needed). */
void tl_out_bytes_slow(tl_out *o, const char *p, size_t n);

static inline void tl_out_bytes(tl_out *o, const char *p, size_t n)
{
    if (o->cap - o->len >= n) {
        memcpy(o->buf + o->len, p, n);
        o->len += n;
        return;
    }
    tl_out_bytes_slow(o, p, n);
}

static inline void tl_out_char(tl_out *o, char c)
{
    if (o->len == o->cap)
        tl_out_flush(o);
    o->buf[o->len++] = c;
}

static inline void tl_out_text(tl_out *o, const char *s)
{
    while (*s)
        tl_out_char(o, *s++);
}

/* "\n" followed by 4 * depth spaces. */
void tl_out_newline(tl_out *o, unsigned depth);
void tl_out_int64(tl_out *o, int64_t v);
void tl_out_pynum(tl_out *o, pynum v);
/* A JSON string given as the raw content between its quotes (escapes as
 * in the input), re-encoded the way json.dump(ensure_ascii=True) writes the
 * decoded text; the quotes are written too. */
void tl_out_py_string(tl_out *o, const char *raw, size_t len);
/* Any validated JSON value given as its raw text, re-formatted with its
 * first line at nesting level `depth`. */
void tl_out_py_value(tl_out *o, const char *raw, size_t len, unsigned depth);

#endif
