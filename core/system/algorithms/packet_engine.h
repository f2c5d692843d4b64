/*
 * packet_engine.h - the packet engine Ring, Direct and HalvingDoubling
 * share (the reference's behaviour, docs/simulator.md). The start inserts
 * P packets; every insert hands a packet to a bundle; every bundle back
 * (PHASE_GENERAL) frees a slot and sends the oldest packet; every receipt
 * (PHASE_RECEIVED) inserts the next packet. The algorithms differ only in
 * their constants and in how the peers rotate after each packet.
 */
#ifndef VIMANA_SYSTEM_ALGORITHMS_PACKET_ENGINE_H
#define VIMANA_SYSTEM_ALGORITHMS_PACKET_ENGINE_H

#include <stdbool.h>
#include <stdint.h>

#include "system/algorithms/algorithm.h"

/* Moves the peers after each packet inserted; NULL keeps them (Ring). */
typedef void (*engine_rotate_fn)(const phase_desc *p, phase_run *r);
/* Direct's rotation: receiver one step on, sender one step back, each
 * skipping the NPU itself. The engine knows it (and NULL): with these the
 * queued packets follow from the oldest one, so none is stored. */
void engine_rotate_skip_self(const phase_desc *p, phase_run *r);

/* The common start: the message size and the ring neighbours as peers.
 * The algorithm then sets stream_count, P, NZ (and its own fields) and
 * calls engine_fill. */
void engine_begin(const phase_desc *p, phase_run *r);
/* Inserts the first P packets. */
void engine_fill(sim *s, stream *st, engine_rotate_fn rotate);
/* PHASE_RECEIVED: counts the receipt and inserts the next packet. */
void engine_received(sim *s, stream *st, engine_rotate_fn rotate);
/* PHASE_GENERAL: frees a slot, sends the oldest packet, leaves when done. */
void engine_general(sim *s, stream *st);
/* The step of an algorithm that is all packet engine (ring, halving-
 * doubling): engine_general or engine_received, as the event says. */
void engine_step(sim *s, stream *st, enum phase_event ev, engine_rotate_fn rotate);
/* Sends the oldest packet when one, a send and a slot are left. */
void engine_send_next(sim *s, stream *st);
/* Leaves the phase once every send is done and every slot is free. */
bool engine_check_exit(sim *s, stream *st);

/* Sends of a phase going round the ring: 2(n-1) for an all-reduce,
 * n(n-1)/2 for an all-to-all, n-1 otherwise. */
uint64_t engine_ring_sends(const phase_desc *p);
/* Ring index `step` places from index, wrapping. */
static inline uint32_t engine_ring_step(uint32_t index, int32_t step, uint32_t n)
{
    return (uint32_t)(((int64_t)index + step + n) % n);
}

#endif
