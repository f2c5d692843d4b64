/*
 * pt_strbuf.h - a growable byte buffer, always NUL-terminated, for building
 * strings (Python reprs, error messages) without per-piece allocations.
 * An allocation failure sets `failed` and turns later appends into no-ops,
 * so callers check once at the end instead of after every append.
 */
#ifndef VIMANA_PYTORCH_STRBUF_H
#define VIMANA_PYTORCH_STRBUF_H

#include <stdbool.h>
#include <stddef.h>

typedef struct pt_strbuf {
    char *data; /* NUL-terminated when len > 0 or after pt_sb_cstr() */
    size_t len;
    size_t cap;
    bool failed;
} pt_strbuf;

void pt_sb_init(pt_strbuf *sb);
void pt_sb_free(pt_strbuf *sb);
/* Empties the buffer, keeping its memory. */
void pt_sb_reset(pt_strbuf *sb);
void pt_sb_putc(pt_strbuf *sb, char c);
void pt_sb_put(pt_strbuf *sb, const char *s, size_t n);
void pt_sb_puts(pt_strbuf *sb, const char *s);
void pt_sb_printf(pt_strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The contents as a C string ("" when empty or after a failure). */
const char *pt_sb_cstr(pt_strbuf *sb);

#endif
