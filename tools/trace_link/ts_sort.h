/*
 * ts_sort.h - stable ordering of trace events by time.
 *
 * The reference sorts with Python's stable sort on `ts` (and, for exclusive
 * durations, on (ts, dur)); equal keys keep their earlier order. Sorting
 * small key records that carry that earlier position reproduces exactly that
 * order without moving the large event records around.
 */
#ifndef VIMANA_TRACE_LINK_TS_SORT_H
#define VIMANA_TRACE_LINK_TS_SORT_H

#include <stddef.h>
#include <stdint.h>

#include "trace_link/pynum.h"

typedef struct ts_key {
    pynum primary;     /* ts */
    pynum secondary;   /* dur, or 0 when sorting by ts only */
    uint32_t order;    /* earlier position: the final tie-breaker */
    uint32_t index;    /* the record this key stands for */
} ts_key;

void ts_keys_sort(ts_key *keys, size_t n);

#endif
