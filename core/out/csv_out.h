/*
 * csv_out.h - one CSV field as RFC 4180 writes it (vimana xval --csv,
 * vimana sweep's results.csv).
 */
#ifndef VIMANA_OUT_CSV_OUT_H
#define VIMANA_OUT_CSV_OUT_H

#include <stdio.h>

/* A field with a comma, quote or line break is quoted, its quotes doubled;
 * any other is written as it is. */
void csv_out_field(FILE *out, const char *s);

#endif
