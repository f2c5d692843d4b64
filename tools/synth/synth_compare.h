/*
 * synth_compare.h - `vimana-et synth compare A B`: how close two ET sets
 * are (docs/synth.md, "synth compare"): the node-kind mix of each and the
 * largest absolute share difference, and the two-sample Kolmogorov-Smirnov
 * distance of durations and of sizes, per kind with enough samples and
 * pooled over all nodes.
 */
#ifndef VIMANA_SYNTH_SYNTH_COMPARE_H
#define VIMANA_SYNTH_SYNTH_COMPARE_H

#include <stdbool.h>

/* A kind's KS distances are reported when both sets hold at least this
 * many of its values. */
#define COMPARE_MIN_SAMPLES 20

/* Reads both sets and prints the table (or JSON) on stdout. Returns 0, or
 * -1 after printing one line. */
int synth_compare(const char *prog, const char *a, const char *b, bool json);

#endif
