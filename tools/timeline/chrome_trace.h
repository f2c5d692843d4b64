/*
 * chrome_trace.h - the default `vimana-et timeline` document: the Chrome
 * trace-event format as trace viewers read it.
 *
 *   {"displayTimeUnit": "ns", "traceEvents": [
 *   {"name": "process_name", "ph": "M", "pid": 0, "args": {"name": "NPU 0"}},
 *   {"name": "thread_name", "ph": "M", "pid": 0, "tid": 4, "args": {"name": "communication"}},
 *   {"name": "All-Reduce", "cat": "communication", "ph": "X", "ts": 0, "dur": 117.78,
 *    "pid": 0, "tid": 4, "args": {"cycles": 117780}},
 *   ...]}
 *
 * ts and dur are microseconds, written as exact decimals of nanoseconds
 * (117780 ns -> 117.78, 5 ns -> 0.005): no float rounding. Each process
 * (NPU) and each thread (node category of an NPU) is named by a metadata
 * event written just before its first slice, so every track has a name and
 * no empty track is made. Events are streamed; only the set of named
 * tracks is kept.
 */
#ifndef VIMANA_TIMELINE_CHROME_TRACE_H
#define VIMANA_TIMELINE_CHROME_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/idmap.h"
#include "timeline/node_category.h"

/* Nanoseconds up to 2^64 * 1000 (a 64-bit tick at 1 MHz). */
__extension__ typedef unsigned __int128 chrome_ns;

/* The longest microsecond text: 39 digits, '.', and the NUL. */
#define CHROME_MICROS_MAX 42

typedef struct {
    FILE *f;
    idmap named; /* keys of the processes and threads already named */
    int any;     /* an event was written: the next one needs ",\n" */
} chrome_trace;

typedef struct {
    uint32_t pid; /* NPU */
    node_category tid;
    chrome_ns start_ns, dur_ns;
    uint64_t cycles; /* the slice's length in simulator cycles (ticks) */
    const char *name;
    size_t name_len;
} chrome_slice;

/* Writes ns / 1000 as an exact decimal: integer part, then '.' and up to
 * three digits without trailing zeros. Returns buf. */
const char *chrome_micros(chrome_ns ns, char buf[CHROME_MICROS_MAX]);

/* The name of a category's thread ("compute", "communication", ...). */
const char *chrome_thread_name(node_category c);

void chrome_trace_begin(chrome_trace *t, FILE *f);
/* Returns 0, or -1 when out of memory (nothing written). */
int chrome_trace_slice(chrome_trace *t, const chrome_slice *s);
/* Closes the document. */
void chrome_trace_end(chrome_trace *t);
/* Frees the writer's memory, whether or not the document was ended. */
void chrome_trace_free(chrome_trace *t);

#endif
