/*
 * decimal.h - a ratio of two 64-bit counts as an exact decimal, for
 * outputs that must read the same on every machine (no floating point):
 * e.g. a link's utilisation, busy ticks / the run's end tick.
 */
#ifndef VIMANA_UTIL_DECIMAL_H
#define VIMANA_UTIL_DECIMAL_H

#include "util/exported_names.h"

#include <stddef.h>
#include <stdint.h>

/* Longest result: 20 digits, '.', 9 places, NUL. */
#define DECIMAL_RATIO_MAX 32

/* Writes num / den rounded half up to `places` decimal places (1 to 9),
 * trailing zeros and a bare '.' dropped: 1/2 -> "0.5", 2/3 at 6 places ->
 * "0.666667", 3/3 -> "1", 1999999/2000000 at 6 places -> "1". den 0
 * writes "0" (nothing can be busy in a run that took no time). */
void decimal_ratio(char out[DECIMAL_RATIO_MAX], uint64_t num, uint64_t den, unsigned places);

#endif
