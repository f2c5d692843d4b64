/*
 * step_fill.h - hands a rank's drawn durations to the steps of a synth
 * model (docs/synth.md, "synth sample") so that each step's sum comes near
 * its target: steps with fewer nodes first (a one-node step takes the value
 * nearest its target exactly), each node taking the unused value nearest
 * to (what is left of the step's target) / (nodes left). Unused values are
 * found through two union-find forests over the sorted values, so the whole
 * fill costs O((n + steps) log n), never a quadratic search.
 */
#ifndef VIMANA_SYNTH_STEP_FILL_H
#define VIMANA_SYNTH_STEP_FILL_H

#include <stddef.h>
#include <stdint.h>

typedef struct step_fill_step {
    uint64_t count; /* nodes of the step */
    double target;  /* the sum the step should come near */
    uint64_t first; /* where its values go in the output */
} step_fill_step;

/* `sorted` holds n ascending values, n = the sum of the counts; writes
 * out[first .. first + count - 1] of every step. Returns 0, or -1 when out
 * of memory. */
int step_fill(const uint64_t *sorted, uint64_t n, const step_fill_step *steps, size_t n_steps, uint64_t *out);

#endif
