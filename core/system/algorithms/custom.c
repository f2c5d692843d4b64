/* The Chakra-ET custom collective as a phase algorithm: its one phase
 * runs the ET graph of system/custom.h, which sends and receives on its
 * own; it never gets bundle or message events from the phase core. */
#include "system/algorithms/algorithm.h"
#include "system/custom.h"

static void custom_step(sim *s, stream *st, enum phase_event ev)
{
    (void)st;
    (void)ev;
    sim_fail(s, "internal error: custom collective received a native event");
}

const algorithm algorithm_custom = {
    .name = "custom",
    .start = custom_phase_start,
    .step = custom_step,
    .release = custom_phase_release,
};
