/*
 * custom.h - collectives defined by Chakra ETs (MSCCL-style algorithms,
 * shared/spec/simulator.md section 13.10). Each NPU runs the ET at its
 * position; SEND/RECV nodes become messages, COMP nodes waits.
 */
#ifndef VIMANA_SYSTEM_CUSTOM_H
#define VIMANA_SYSTEM_CUSTOM_H

#include "system/system.h"

/* Loads (once) and checks <prefix>.<position>.et. Returns 0, or -1 after
 * sim_fail(). */
int custom_prepare(sim *s, const char *prefix, uint32_t position);
void custom_phase_start(sim *s, stream *st);
void custom_phase_release(sim *s, stream *st);
void custom_cache_free(sim *s);

#endif
