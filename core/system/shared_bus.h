/*
 * shared_bus.h - the LogGP model of an NPU's memory bus used for packet
 * bundles when the system JSON sets "model-shared-bus": 1
 * (the reference's behaviour, docs/simulator.md; reference: astra-sim/astra-sim
 * astra-sim/system/{MemBus,LogGP,MemMovRequest}.cc).
 *
 * Every NPU owns one bus with two half-duplex LogGP endpoints, the NPU side
 * and the memory-access (MA) side, and the NPU side owns a second, nested
 * bus (G = 0.0038) that it crosses before it can send and after it has
 * received. A request enters at one side; when the reference would hand the
 * packet bundle back, the request's `done` callback runs.
 */
#ifndef VIMANA_SYSTEM_SHARED_BUS_H
#define VIMANA_SYSTEM_SHARED_BUS_H

#include <stdbool.h>
#include <stdint.h>

#include "system/system.h"

/* Allocates the per-NPU bus state when s->cfg.model_shared_bus is set (a
 * no-op otherwise, or when it already exists) and fixes the LogGP
 * parameters from s->cfg. Returns 0, or -1 after sim_fail(). */
int shared_bus_init(sim *s);
void shared_bus_fini(sim *s);

/* One packet bundle of `bytes` on NPU npu's bus. npu_to_ma: the bundle
 * enters at the NPU side (the reference's send_to_MA), else at the MA side
 * (send_to_NPU). processed: the bus adds its reduction time; send_back: the
 * data crosses the bus once more afterwards. done(s, obj, data) runs, inside
 * the bus event, when the reference would call the bundle back. Sets up the
 * bus on first use if shared_bus_init() has not. On failure it calls
 * sim_fail() and `done` never runs. */
void shared_bus_request(sim *s, uint32_t npu, bool npu_to_ma, uint64_t bytes, bool processed, bool send_back,
                        npu_event_fn done, void *obj, uint64_t data);

#endif
