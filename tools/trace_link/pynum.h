/*
 * pynum.h - numbers with Python's int/float semantics.
 *
 * The reference reads Kineto's `ts`/`dur` with json.load, so an integer
 * literal stays an exact int and a literal with a fraction or exponent
 * becomes a float; durations are then added, subtracted and compared with
 * Python's mixed arithmetic (int op int stays int, anything with a float is
 * computed in double) and finally printed with repr(). Newer PyTorch writes
 * fractional microseconds, so both kinds occur. Reproducing the arithmetic
 * in that order gives the reference's exact output bytes.
 */
#ifndef VIMANA_TRACE_LINK_PYNUM_H
#define VIMANA_TRACE_LINK_PYNUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/pyfloat.h"

typedef struct pynum {
    union {
        int64_t i;
        double f;
    } v;
    bool is_float;
} pynum;

/* Longest text pynum_format writes, NUL included (an int64 needs 21). */
#define PYNUM_TEXT_MAX PYFLOAT_MAX

static inline pynum pynum_int(int64_t i)
{
    pynum n = {.v.i = i, .is_float = false};
    return n;
}

/* Parses a JSON number literal (already validated), or NaN / Infinity /
 * -Infinity. Returns -1 for an integer outside the int64 range. */
int pynum_parse(const char *text, size_t len, pynum *out);

/* a + b, a - b; *overflow is set (and never cleared) on int64 overflow. */
pynum pynum_add(pynum a, pynum b, bool *overflow);
pynum pynum_sub(pynum a, pynum b, bool *overflow);

/* Exact numeric comparison of two finite values (-1, 0, 1). */
int pynum_cmp(pynum a, pynum b);
bool pynum_is_finite(pynum a);

/* Writes repr() of the value (json.dump spelling for inf/nan) into buf
 * (PYNUM_TEXT_MAX bytes); returns the length. */
size_t pynum_format(pynum a, char *buf);

#endif
