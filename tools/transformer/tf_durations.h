/*
 * tf_durations.h - reads `generate transformer --durations FILE`: a JSON
 * object giving, per operator kind (attn_fwd, attn_bwd, mlp_fwd, mlp_bwd,
 * head_fwd, head_bwd, optimizer), a duration in whole microseconds that
 * replaces the roofline's; kinds left out keep the roofline.
 */
#ifndef VIMANA_TOOLS_TF_DURATIONS_H
#define VIMANA_TOOLS_TF_DURATIONS_H

#include <stddef.h>

#include "transformer/tf_model.h"

/* The largest duration accepted: 10^12 us, about 11.6 days. */
#define TF_DURATION_MAX 1000000000000ull

/* Fills `out` from the file. Returns 0, or -1 with one line in `msg`
 * naming the file (and the key when one is wrong). */
int tf_durations_load(const char *path, struct tf_durations *out, char *msg, size_t len);

#endif
