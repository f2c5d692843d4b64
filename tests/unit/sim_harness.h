/*
 * sim_harness.h - drives the real system layer on a fake network that
 * records every message, for unit tests of collective algorithms and
 * queue rules. Each message arrives a fixed delay after it is sent.
 * There is no workload: collectives are requested through the system
 * layer's own API with a recording completion (harness_done), which
 * checks that each request completes exactly once.
 */
#ifndef VIMANA_TESTS_SIM_HARNESS_H
#define VIMANA_TESTS_SIM_HARNESS_H

#include <stdint.h>

#include "system/context.h"
#include "system/system.h"

typedef struct sent_msg {
    uint32_t src, dst, tag;
    uint64_t bytes;
    vimana_tick at;
} sent_msg;

typedef struct harness {
    sim s;
    sim_options opt;
    struct fake_network *net;
    sent_msg *sent;
    uint32_t n_sent, cap_sent;
    int64_t priority;   /* comm_priority of the next collective started (EXPLICIT policy) */
    /* completions, per NPU and request number ("node") */
    uint32_t nodes;             /* request numbers per NPU */
    uint32_t *pending;          /* [n_npus] requests started and not completed */
    vimana_tick *finish_tick;   /* [n_npus] tick of the NPU's last completion */
    uint32_t *done_count;       /* [n_npus * nodes] completions seen (0 or 1) */
    vimana_tick *done_at;       /* [n_npus * nodes] tick of the completion */
} harness;

/* A system of dims[0] x dims[1] x ... NPUs, `impl` algorithm names for
 * every collective (e.g. {"ring"}), splits chunks per collective, and room
 * for `nodes` requests per NPU. Change h->s.cfg / h->opt before running. */
void harness_init(harness *h, const uint32_t *dims, uint32_t n_dims, const char *const *impl,
                  uint32_t n_impl, uint64_t splits, uint32_t nodes);
/* Same, with `extra` (when not NULL) registered before the names are
 * resolved: a test-only algorithm. An unknown name fails the test. */
struct algorithm;
void harness_init_with(harness *h, const struct algorithm *extra, const uint32_t *dims, uint32_t n_dims,
                       const char *const *impl, uint32_t n_impl, uint64_t splits, uint32_t nodes);
/* The recording completion of request `node` of NPU npu: pass it with any
 * system-layer request (harness_start does). Marks the request pending. */
sim_done harness_done(harness *h, uint32_t npu, uint32_t node);
/* Starts collective `kind` of `bytes` as request `node` of one NPU; its
 * error messages name it as node `node` ("coll") of "test.et". */
void harness_start(harness *h, uint32_t npu, uint32_t node, enum coll_kind kind, uint64_t bytes);
/* Same as harness_start, in communicator group `group` (registered with
 * system_add_group on that NPU beforehand). */
void harness_start_in_group(harness *h, uint32_t npu, uint32_t node, enum coll_kind kind, uint64_t bytes,
                            int64_t group);
/* Runs to the end and checks that every request completed. */
void harness_run(harness *h);
/* Runs every pending event, without looking at the completions (for tests
 * that drive a system module directly). Fails the test if the run failed. */
void harness_run_events(harness *h);
/* Starts collective `kind` of `bytes` on every NPU (NPU order), runs to the
 * end, and checks that every request completed. */
void harness_run_collective(harness *h, enum coll_kind kind, uint64_t bytes);
/* Messages sent by one NPU, in send order, copied to out (max n). */
uint32_t harness_sent_by(const harness *h, uint32_t npu, sent_msg *out, uint32_t n);
void harness_fini(harness *h);

#endif
