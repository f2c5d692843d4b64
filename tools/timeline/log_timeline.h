/*
 * log_timeline.h - simulator log (issue/callback records) -> the reference
 * timeline visualiser's trace-event JSON (chakra-tools.md §10).
 *
 * Each callback closes the issue of the same (NPU, node id) and becomes one
 * complete ("X") event, written at once in callback order, as the
 * reference does. Times follow the reference's arithmetic exactly:
 *   ts  = (issue_tick / MHz) / 1000
 *   dur = (callback_tick - issue_tick) / (MHz * 1000)
 * which, despite the trace-event format's microseconds, are milliseconds
 * when a tick is a cycle at MHz (TIME_UNIT_US drops the / 1000).
 */
#ifndef VIMANA_TIMELINE_LOG_TIMELINE_H
#define VIMANA_TIMELINE_LOG_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { TIME_UNIT_MS, TIME_UNIT_US } time_unit;

/* The largest --npu-frequency: MHz * 1000 must stay an exact double. */
#define LOG_TIMELINE_MAX_MHZ 9007199254740ull

typedef struct {
    const char *input_name; /* in messages: "NAME:LINE: ..." */
    uint64_t num_npus;      /* records must have npu < num_npus */
    uint64_t npu_mhz;       /* 1 .. LOG_TIMELINE_MAX_MHZ */
    time_unit unit;
} log_timeline_options;

#define LOG_TIMELINE_MSG_MAX 512

typedef struct {
    uint64_t records;                         /* issue and callback records read */
    uint64_t events;                          /* events written */
    uint64_t unclosed;                        /* issues without a callback at the end */
    char unclosed_note[LOG_TIMELINE_MSG_MAX]; /* a warning when unclosed > 0 */
} log_timeline_summary;

/* Reads `in` line by line and writes the whole document to `out`.
 * Returns 0, or -1 with a one-line message ("NAME:LINE: ...") in err. */
int log_timeline_convert(FILE *in, FILE *out, const log_timeline_options *opt, log_timeline_summary *summary,
                         char err[LOG_TIMELINE_MSG_MAX]);

#endif
