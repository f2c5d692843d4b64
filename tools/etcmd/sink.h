/*
 * sink.h - a buffered text output: stdout, a plain file, or a gzip file
 * when the name ends in ".gz". The JSON and DOT writers emit many tiny
 * pieces; collecting them in one buffer keeps that cheap, and remembering
 * the first failure lets callers check once, at close.
 */
#ifndef VIMANA_ETCMD_SINK_H
#define VIMANA_ETCMD_SINK_H

#include <stddef.h>

typedef struct sink sink;

/* Opens `path`, or stdout when path is NULL or "-". On failure prints
 * "PROG: PATH: cannot create: REASON" and returns NULL. */
sink *sink_open(const char *prog, const char *path);
/* A sink into memory (for a renderer): after sink_close() returns 0,
 * *data holds *len bytes plus a NUL, to be freed by the caller (also after
 * a failed close). */
sink *sink_open_memory(const char *prog, char **data, size_t *len);
void sink_write(sink *s, const char *p, size_t n);
void sink_puts(sink *s, const char *str);
void sink_putc(sink *s, char c);
void sink_printf(sink *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Flushes and closes (stdout is flushed, not closed). Returns 0, or -1
 * after printing "PROG: PATH: write failed: REASON" if any write failed.
 * Frees `s` always. */
int sink_close(sink *s);

#endif
