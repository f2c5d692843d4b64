/*
 * pyfloat.h - Python's repr() of a double, the spelling json.dump gives a
 * float. The reference timeline is written by json.dump, so its "ts", "dur"
 * and "ms" numbers are spelled this way and a byte-identical output needs
 * the same digits and the same layout.
 */
#ifndef VIMANA_TIMELINE_PYFLOAT_H
#define VIMANA_TIMELINE_PYFLOAT_H

#include <stddef.h>

/* Longest output plus the terminating NUL ("-2.2250738585072014e-308"). */
#define PYFLOAT_MAX 32

/* Writes repr(v): the shortest decimal that reads back as v (the nearest
 * such one when several have that length), in fixed notation when
 * 1e-4 <= |v| < 1e16 (integral values end in ".0"), else as "1e-05",
 * "1.5e+16". NaN and infinities give "NaN", "Infinity", "-Infinity", as
 * json.dump writes them. Returns the length. */
size_t pyfloat_repr(double v, char out[PYFLOAT_MAX]);

#endif
