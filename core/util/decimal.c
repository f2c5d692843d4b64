/*
 * decimal.c - exact decimal ratios by long division in 64 bits.
 */
#include "util/decimal.h"

#include <stdio.h>

/* digit = floor(10 * r / den), r = 10 * r mod den, for r < den, without
 * forming 10 * r (which overflows 64 bits when den is above 2^60). */
static unsigned next_digit(uint64_t *r, uint64_t den)
{
    uint64_t acc = 0;
    unsigned digit = 0;
    for (int k = 0; k < 10; k++) {
        if (acc >= den - *r) { /* acc + r >= den */
            acc -= den - *r;
            digit++;
        } else {
            acc += *r;
        }
    }
    *r = acc;
    return digit;
}

void decimal_ratio(char out[DECIMAL_RATIO_MAX], uint64_t num, uint64_t den, unsigned places)
{
    if (places < 1)
        places = 1;
    if (places > 9)
        places = 9;
    if (den == 0) {
        snprintf(out, DECIMAL_RATIO_MAX, "0");
        return;
    }
    uint64_t whole = num / den, r = num % den;
    uint32_t frac = 0, scale = 1;
    for (unsigned i = 0; i < places; i++) {
        frac = frac * 10 + next_digit(&r, den);
        scale *= 10;
    }
    if (r >= den - r) /* the rest is at least one half: round up */
        frac++;
    if (frac == scale) { /* e.g. 0.9999995 at 6 places: the next whole */
        whole++;
        frac = 0;
    }
    int n = snprintf(out, DECIMAL_RATIO_MAX, "%llu.%0*u", (unsigned long long)whole, (int)places, (unsigned)frac);
    while (n > 0 && out[n - 1] == '0')
        out[--n] = '\0';
    if (n > 0 && out[n - 1] == '.')
        out[--n] = '\0';
}
