/*
 * diag.h - error and warning reporting for `vimana-et link`.
 *
 * Every stage reports failure by returning -1 after storing one line of text
 * in a tl_diag; only the command prints it, so library code never writes to
 * stderr or exits and the unit tests can assert the exact message. Warnings
 * are printed as they happen (they never stop the run), filtered by the
 * --log-level the user chose.
 */
#ifndef VIMANA_TRACE_LINK_DIAG_H
#define VIMANA_TRACE_LINK_DIAG_H

#include <stdbool.h>
#include <stddef.h>

enum tl_level { TL_DEBUG, TL_INFO, TL_WARNING, TL_ERROR };

typedef struct tl_diag {
    char msg[1024];        /* the error, when a call returned -1 */
    enum tl_level level;   /* lowest level that is printed */
    const char *prog;      /* prefix of printed lines, e.g. "vimana-et link" */
    unsigned warnings;     /* warnings emitted so far (printed or not) */
} tl_diag;

void tl_diag_init(tl_diag *d, const char *prog, enum tl_level level);

/* Stores "fmt..." as the error and returns -1, so callers can write
 * `return tl_fail(d, ...)`. */
int tl_fail(tl_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints "PROG: warning: fmt..." (when the level allows) and counts it. */
void tl_warn(tl_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints "PROG: fmt..." when the level is INFO or lower. */
void tl_info(tl_diag *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parses DEBUG/INFO/WARNING/ERROR/CRITICAL (any case). */
bool tl_level_parse(const char *text, enum tl_level *out);

#endif
