#include "trace_link/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <strings.h>

void tl_diag_init(tl_diag *d, const char *prog, enum tl_level level)
{
    d->msg[0] = '\0';
    d->level = level;
    d->prog = prog;
    d->warnings = 0;
}

int tl_fail(tl_diag *d, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static void print_line(const tl_diag *d, const char *tag, const char *fmt, va_list ap)
{
    fprintf(stderr, "%s: %s", d->prog, tag);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

void tl_warn(tl_diag *d, const char *fmt, ...)
{
    d->warnings++;
    if (d->level > TL_WARNING)
        return;
    va_list ap;
    va_start(ap, fmt);
    print_line(d, "warning: ", fmt, ap);
    va_end(ap);
}

void tl_info(tl_diag *d, const char *fmt, ...)
{
    if (d->level > TL_INFO)
        return;
    va_list ap;
    va_start(ap, fmt);
    print_line(d, "", fmt, ap);
    va_end(ap);
}

bool tl_level_parse(const char *text, enum tl_level *out)
{
    static const struct {
        const char *name;
        enum tl_level level;
    } names[] = {
        {"DEBUG", TL_DEBUG}, {"INFO", TL_INFO},   {"WARNING", TL_WARNING},
        {"WARN", TL_WARNING}, {"ERROR", TL_ERROR}, {"CRITICAL", TL_ERROR},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(text, names[i].name) == 0) {
            *out = names[i].level;
            return true;
        }
    return false;
}
