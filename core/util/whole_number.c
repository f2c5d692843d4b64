/*
 * whole_number.c - decimal digits to a bounded 64-bit count.
 */
#include "util/whole_number.h"

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
