/*
 * synth_sample.h - `vimana-et synth sample`: ETs for N ranks drawn from a
 * synth model (docs/synth.md, "synth sample"). Every rank replays the
 * model's steps: the same communication events (so the members of a
 * communicator issue the same collectives in the same order, and every
 * send meets its receive), with local nodes whose durations are drawn per
 * rank from the model's distributions and matched to each step's mean
 * summed duration. Ranks that differ in the source (a pipeline's stages)
 * replay their role's steps; such a model samples whole replicas of the
 * source's ranks, each message inside its replica. Deterministic for a
 * seed.
 */
#ifndef VIMANA_SYNTH_SYNTH_SAMPLE_H
#define VIMANA_SYNTH_SYNTH_SAMPLE_H

#include <stdint.h>

#include "synth/synth_model.h"

/* Local nodes one rank may hold. */
#define SAMPLE_MAX_RANK_NODES 100000000

/* Writes PREFIX.0.et .. PREFIX.(npus-1).et and, when a communicator is
 * not the whole system, PREFIX.groups.json. Returns 0, or -1 after
 * printing one line (a model that cannot be sampled for npus ranks, an
 * output that cannot be written). */
int synth_sample_write(const char *prog, const char *model_path, const synth_model *m, uint64_t npus,
                       uint64_t seed, const char *prefix);

#endif
