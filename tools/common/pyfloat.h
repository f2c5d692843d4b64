/*
 * pyfloat.h - Python's repr() of a double. The reference tools are Python
 * scripts whose float output (repr(), str(), json.dump) all spells a float
 * this way, so a byte-identical output needs the same digits and the same
 * layout.
 */
#ifndef VIMANA_TOOLS_PYFLOAT_H
#define VIMANA_TOOLS_PYFLOAT_H

#include <stddef.h>

/* Longest output plus the terminating NUL ("-2.2250738585072014e-308"). */
#define PYFLOAT_MAX 32

/* Writes repr(v): the shortest decimal that reads back as v (the nearest
 * such one when several have that length), in fixed notation when
 * 1e-4 <= |v| < 1e16 (integral values end in ".0"), else as "1e-05",
 * "1.5e+16". NaN and infinities give "nan", "inf", "-inf". Returns the
 * length. */
size_t pyfloat_repr(double v, char out[PYFLOAT_MAX]);

/* The same, except that NaN and infinities give "NaN", "Infinity",
 * "-Infinity": the spelling json.dump gives a float. */
size_t pyfloat_json(double v, char out[PYFLOAT_MAX]);

#endif
