/*
 * ref_trace.h - writes the reference timeline visualiser's JSON document,
 * byte for byte as its json.dump (no indent) spells it:
 *
 *   {"meta_user": "aras", "traceEvents": [{"pid": 0, "tid": 3, "ts": 0.0,
 *    "dur": 32.291, "ph": "X", "name": "…", "args": {"ms": 32.291}}, …],
 *    "meta_cpu_count": 8}
 *
 * Events are streamed as they complete; nothing is held in memory.
 */
#ifndef VIMANA_TIMELINE_REF_TRACE_H
#define VIMANA_TIMELINE_REF_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct {
    uint64_t pid; /* NPU */
    int tid;      /* node category */
    double ts;
    double dur;
    const char *name;
    size_t name_len;
    const char *args_key; /* "ms" in the reference's document */
} ref_event;

typedef struct {
    FILE *f;
    bool any; /* an event was written: the next one needs ", " */
} ref_trace;

void ref_trace_begin(ref_trace *t, FILE *f);
void ref_trace_event(ref_trace *t, const ref_event *ev);
void ref_trace_end(ref_trace *t, uint64_t num_npus);

#endif
