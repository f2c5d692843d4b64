/*
 * cc_table.h - the GEMM measurements `vimana-et calibrate-compute` fits:
 * CSV files with a header naming the columns m, n, k and either us (the
 * kernel's time in microseconds) or tflops (its rate); other columns are
 * ignored, '#' lines are comments. One-line errors name the file and line.
 */
#ifndef VIMANA_TOOLS_CC_TABLE_H
#define VIMANA_TOOLS_CC_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cc_row {
    uint64_t m, n, k;
    double seconds;       /* measured time of one GEMM */
    const char *file;     /* as given on the command line */
    uint32_t line;        /* in the CSV file, or (is_event) the index in a Kineto trace's traceEvents */
    bool is_event;
} cc_row;

typedef struct cc_table {
    cc_row *rows;
    size_t n, cap;
} cc_table;

/* Appends the rows of `path`. Returns 0, or -1 with one line in msg. */
int cc_table_read(const char *path, cc_table *t, char *msg, size_t len);
/* Appends one row. Returns 0, or -1 when out of memory. */
int cc_table_push(cc_table *t, const cc_row *r);
/* "FILE:LINE" or "FILE traceEvents[N]", FILE without its folders. */
const char *cc_row_where(const cc_row *r, char *buf, size_t len);
void cc_table_free(cc_table *t);

#endif
