/*
 * ticks.h - checked conversions to simulator ticks (1 tick = 1 ns).
 *
 * Durations come from traces (microseconds, uint64) and times from
 * configuration values (floating point). A plain `us * 1000` wraps and a
 * plain `(uint64_t)x` cast of a float outside [0, 2^64) is undefined
 * behaviour (gcc builds then answer 0 cycles), so every such conversion
 * goes through these functions and the caller reports the failure.
 * Header-only: they run for every node and every reduction.
 */
#ifndef VIMANA_UTIL_TICKS_H
#define VIMANA_UTIL_TICKS_H

#include <stdbool.h>
#include <stdint.h>

#define TICKS_PER_US 1000u

/* The largest duration in microseconds whose tick count fits in 64 bits. */
#define TICKS_MAX_US (UINT64_MAX / TICKS_PER_US)

/* *out = us * 1000. Returns false (and leaves *out alone) when that does not
 * fit in 64 bits. */
static inline bool ticks_from_us(uint64_t us, uint64_t *out)
{
    if (us > TICKS_MAX_US)
        return false;
    *out = us * TICKS_PER_US;
    return true;
}

/* *out = ns truncated toward zero, as a cast would. Returns false when ns
 * is NaN, negative or at least 2^64. */
static inline bool ticks_from_ns(double ns, uint64_t *out)
{
    /* 18446744073709551616.0 is 2^64, exact in a double; the negated test
     * also refuses NaN. */
    if (!(ns >= 0.0 && ns < 18446744073709551616.0))
        return false;
    *out = (uint64_t)ns;
    return true;
}

#endif
