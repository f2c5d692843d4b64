/*
 * number_text.c - strict whole and finite numbers from text.
 */
#include "util/number_text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

bool whole_number_parse(const char *s, uint64_t limit, uint64_t *out)
{
    if (*s < '0' || *s > '9')
        return false;
    uint64_t v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return false;
        uint64_t digit = (uint64_t)(*s - '0');
        /* v * 10 + digit > limit, asked without forming a product that
         * could wrap */
        if (v > limit / 10 || digit > limit - v * 10)
            return false;
        v = v * 10 + digit;
    }
    *out = v;
    return true;
}

bool finite_number_parse(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (!s[0] || *end || errno || !isfinite(v))
        return false;
    *out = v;
    return true;
}
