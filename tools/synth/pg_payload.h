/*
 * pg_payload.h - the part of a METADATA node's inputs.values that the
 * simulator reads: PyTorch process groups, spelled
 * "['[{\"pg_name\": \"1\", \"ranks\": [0, 1], ...}]']". Everything but each
 * group's pg_name and ranks (backend names, descriptions) is dropped.
 */
#ifndef VIMANA_SYNTH_PG_PAYLOAD_H
#define VIMANA_SYNTH_PG_PAYLOAD_H

#include <stdbool.h>

/* The simulator's own test of a group name that is a number: the whole
 * string, not empty, is a decimal integer (strtoll reads all of it). What
 * an empty name means is the caller's to say. */
bool pg_name_is_number(const char *s);

/* Returns a malloc'd payload holding only the groups the simulator would
 * register (a numeric pg_name and a list of ranks), in the same spelling;
 * NULL when nothing of the text would be used (not a JSON list, no usable
 * group) or on allocation failure (*oom set). */
char *pg_payload_reduce(const char *values, int *oom);

#endif
