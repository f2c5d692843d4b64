/*
 * path_msg.c - see path_msg.h.
 */
#include "util/path_msg.h"

#include <stdio.h>

int path_vmsg(char *err, size_t err_len, const char *path, size_t line, size_t msg_max, const char *fmt,
              va_list ap)
{
    char msg[PATH_MSG_MAX];
    vsnprintf(msg, msg_max < sizeof msg ? msg_max : sizeof msg, fmt, ap);
    if (line > 0)
        snprintf(err, err_len, "%s:%zu: %s", path, line, msg);
    else
        snprintf(err, err_len, "%s: %s", path, msg);
    return -1;
}
