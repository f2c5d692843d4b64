/*
 * fail_msg.h - the one-line error of a reader that reports into the
 * caller's buffer (msg, len) instead of printing: formats it there and
 * returns -1, so that `return fail_msg(msg, len, "%s:%u: ...", ...)` ends a
 * check.
 */
#ifndef VIMANA_TOOLS_FAIL_MSG_H
#define VIMANA_TOOLS_FAIL_MSG_H

#include <stddef.h>

int fail_msg(char *msg, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
