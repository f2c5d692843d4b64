/*
 * custom.h - collectives defined by Chakra ETs (MSCCL-style algorithms,
 * the reference's behaviour, docs/simulator.md). Each NPU runs the ET at its
 * position; SEND/RECV nodes become messages, COMP nodes waits.
 */
#ifndef VIMANA_SYSTEM_CUSTOM_H
#define VIMANA_SYSTEM_CUSTOM_H

#include "system/system.h"

/* Loads (once) and checks <prefix>.<p>.et for every position p < n_ranks
 * as the workload's traces are checked (no empty file, no dependency
 * cycle, durations that fit the clock), then that every COMM_SEND has a
 * matching COMM_RECV on its peer and vice versa. rank_of_position[p] is the
 * rank (index in the communicator group's list) of the NPU that runs
 * position p, or NULL when ranks are positions; `group` keys the matching,
 * done once per prefix and group. Returns 0, or -1 after sim_fail(). */
int custom_prepare_all(sim *s, const char *prefix, uint32_t n_ranks, const uint32_t *rank_of_position,
                       int64_t group);
void custom_phase_start(sim *s, stream *st);
void custom_phase_release(sim *s, stream *st);
void custom_cache_free(sim *s);

#endif
