/*
 * xval_output.h - the three textual forms of a `vimana xval` result
 * (docs/xval.md): the aligned table on standard output, the CSV file and
 * the JSON file. The deterministic columns (NPUs, finish, sum, ratio,
 * status) come first; wall time and memory, which vary from run to run,
 * are separate columns so that tests and scripts can ignore them. Write
 * errors are left to the caller's check of the stream.
 */
#ifndef VIMANA_CMD_XVAL_XVAL_OUTPUT_H
#define VIMANA_CMD_XVAL_XVAL_OUTPUT_H

#include <stdio.h>

#include "cmd/xval/xval_diverge.h"
#include "cmd/xval/xval_row.h"

/* "ok", "outside", "error". */
const char *xval_status_name(xval_status s);

void xval_write_table(FILE *out, const xval_table *t);
void xval_write_csv(FILE *out, const xval_table *t);
/* With v (NULL for none), the divergence report as member "divergence"
 * (cmd/xval/xval_diverge_output.h). */
void xval_write_json(FILE *out, const xval_table *t, const xval_divergence *v);

#endif
