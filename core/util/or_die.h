/*
 * or_die.h - the simulator commands' answer to an allocation that failed
 * (vimana sweep, vimana jobs): their inputs are small, so running out of
 * memory there ends the process with one line rather than unwinding.
 */
#ifndef VIMANA_UTIL_OR_DIE_H
#define VIMANA_UTIL_OR_DIE_H

#include "util/exported_names.h"

/* Returns p when it is not NULL; otherwise prints "vimana: error: out of
 * memory" to stderr and exits with status 2. */
void *or_die(void *p);

#endif
