/* A reader's one-line error into the caller's buffer (fail_msg.h). */
#include "common/fail_msg.h"

#include <stdarg.h>
#include <stdio.h>

int fail_msg(char *msg, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, len, fmt, ap);
    va_end(ap);
    return -1;
}
