/*
 * number_text.h - numbers read from text strictly, the whole string and
 * nothing else: the form command-line values and input files give counts,
 * sizes and rates in.
 */
#ifndef VIMANA_UTIL_NUMBER_TEXT_H
#define VIMANA_UTIL_NUMBER_TEXT_H

#include "util/exported_names.h"

#include <stdbool.h>
#include <stdint.h>

/* Whether s is one or more decimal digits (no sign, no spaces, no suffix;
 * leading zeros allowed) whose value is at most `limit`; if so, the value
 * goes to *out, else *out is left alone. Never overflows: any limit up to
 * UINT64_MAX works. */
bool whole_number_parse(const char *s, uint64_t limit, uint64_t *out);

/* Whether all of s, and at least one character, is a number strtod reads
 * without a range error (ERANGE) and whose value is finite; if so, the
 * value goes to *out, else *out is left alone. Signs, exponents and leading
 * spaces are strtod's; trailing text of any kind fails. */
bool finite_number_parse(const char *s, double *out);

#endif
