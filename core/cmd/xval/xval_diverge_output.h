/*
 * xval_diverge_output.h - the divergence report of `vimana xval` in its
 * textual forms (docs/xval.md, "The divergence report"): the text after
 * the finish-time table (one NPU's collectives side by side, the first
 * collective outside the band, the links that differ most), the two CSV
 * files beside --csv and the "divergence" member of --json. Write errors
 * are left to the caller's check of the stream.
 */
#ifndef VIMANA_CMD_XVAL_XVAL_DIVERGE_OUTPUT_H
#define VIMANA_CMD_XVAL_XVAL_DIVERGE_OUTPUT_H

#include <stdio.h>

#include "cmd/xval/xval_diverge.h"
#include "cmd/xval/xval_row.h"

/* The three parts, each after an empty line; `top_links` links at most. */
void xval_diverge_write_text(FILE *out, const xval_table *t, const xval_divergence *v, size_t top_links);

/* The one line naming the first collective outside the band (without its
 * newline), or saying that there is none. */
void xval_diverge_first_line(FILE *out, const xval_table *t, const xval_divergence *v);

/* FILE.collectives.csv: one line per collective and backend. */
void xval_diverge_write_collectives_csv(FILE *out, const xval_table *t, const xval_divergence *v);

/* FILE.links.csv: one line per link (ranked) and backend with link statistics. */
void xval_diverge_write_links_csv(FILE *out, const xval_table *t, const xval_divergence *v);

/* `"divergence": {...}` (no comma before, no newline after). */
void xval_diverge_write_json(FILE *out, const xval_table *t, const xval_divergence *v);

#endif
