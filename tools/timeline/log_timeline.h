/*
 * log_timeline.h - simulator log (issue/callback records) -> a trace-event
 * JSON timeline.
 *
 * Each callback closes the issue of the same (NPU, node id) and becomes one
 * complete ("X") event, written at once in callback order, as the
 * reference visualiser does. Two documents:
 *  - TIMELINE_CHROME (the default): the Chrome trace-event format with true
 *    times, ts and dur in microseconds as exact decimals of nanoseconds
 *    (ns = ticks * 1000 / MHz, rounded to the nearest ns when MHz does not
 *    divide it), and every process and thread named (chrome_trace.h);
 *  - TIMELINE_REFERENCE_MS (--compat): the reference visualiser's document
 *    byte for byte (chakra-tools.md §10), its arithmetic included:
 *      ts  = (issue_tick / MHz) / 1000
 *      dur = (callback_tick - issue_tick) / (MHz * 1000)
 *    which are milliseconds although trace viewers read microseconds, so
 *    they show times 1000x too short; TIMELINE_REFERENCE_US drops the
 *    / 1000 in that same document.
 */
#ifndef VIMANA_TIMELINE_LOG_TIMELINE_H
#define VIMANA_TIMELINE_LOG_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum { TIMELINE_CHROME, TIMELINE_REFERENCE_MS, TIMELINE_REFERENCE_US } timeline_form;

/* The largest --npu-frequency: MHz * 1000 must stay an exact double. */
#define LOG_TIMELINE_MAX_MHZ 9007199254740ull

typedef struct {
    const char *input_name; /* in messages: "NAME:LINE: ..." */
    uint64_t num_npus;      /* records must have npu < num_npus */
    uint64_t npu_mhz;       /* 1 .. LOG_TIMELINE_MAX_MHZ */
    timeline_form form;
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
