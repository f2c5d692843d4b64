/*
 * whole_number.h - a whole number written as decimal digits only, read
 * with an upper limit: the form the input files give counts and sizes in
 * (no sign, no spaces, no suffix).
 */
#ifndef VIMANA_UTIL_WHOLE_NUMBER_H
#define VIMANA_UTIL_WHOLE_NUMBER_H

#include "util/exported_names.h"

#include <stdbool.h>
#include <stdint.h>

/* Whether s is one or more decimal digits whose value is at most `limit`
 * (leading zeros allowed); if so, the value goes to *out, else *out is left
 * alone. Never overflows: any limit up to UINT64_MAX works. */
bool whole_number_parse(const char *s, uint64_t limit, uint64_t *out);

#endif
