#include "util/ticks.h"

bool ticks_from_us(uint64_t us, uint64_t *out)
{
    if (us > TICKS_MAX_US)
        return false;
    *out = us * TICKS_PER_US;
    return true;
}

bool ticks_from_ns(double ns, uint64_t *out)
{
    /* 18446744073709551616.0 is 2^64, exact in a double; the negated test
     * also refuses NaN. */
    if (!(ns >= 0.0 && ns < 18446744073709551616.0))
        return false;
    *out = (uint64_t)ns;
    return true;
}
