/*
 * xval_report.h - what `vimana xval` reads from a run's --report beyond
 * the finish times (cmd/child_run.h reads those): the collective records
 * of one NPU and the link records, for the divergence report
 * (cmd/xval/xval_diverge.h).
 */
#ifndef VIMANA_CMD_XVAL_XVAL_REPORT_H
#define VIMANA_CMD_XVAL_XVAL_REPORT_H

#include <stdint.h>

#include "cmd/xval/xval_diverge.h"

/* Fills d from the JSON report at path: NPU npu's "collectives" records
 * (in the file's order) and the "links" records (has_links false when the
 * report has none: a backend without link statistics). Returns 0, or -1
 * when the file cannot be read as a report or memory runs out (d is then
 * empty, ran false). */
int xval_report_read(const char *path, uint32_t npu, xval_detail *d);

#endif
