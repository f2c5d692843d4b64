/*
 * frontend.h - how the system and workload layers send: tag classes and the
 * optional rendezvous handshake (the reference's behaviour, docs/simulator.md) on top of the matching tables.
 */
#ifndef VIMANA_SYSTEM_FRONTEND_H
#define VIMANA_SYSTEM_FRONTEND_H

#include <stdint.h>

#include "system/msg_match.h"

#define FE_TAG_SPAN 500000000u
#define FE_RENDEZVOUS_TAG_OFFSET 1000000000u
#define FE_RENDEZVOUS_BYTES 8192u

/* Workload point-to-point and custom-collective tags. */
static inline uint32_t fe_native_tag(uint32_t tag)
{
    return tag % FE_TAG_SPAN;
}

/* Native collective messages carry their stream's id. */
static inline uint32_t fe_collective_tag(uint64_t stream_id)
{
    return (uint32_t)(stream_id % FE_TAG_SPAN) + FE_TAG_SPAN;
}

/* npu sends `size` bytes to dst; on_done runs when they have arrived.
 * `hint` as for msg_send (NULL when the key changes every time). */
void fe_send(sim *s, uint32_t npu, uint32_t dst, uint64_t size, uint32_t tag, msg_cb on_done, uint32_t *hint);
/* npu receives `size` bytes from src; on_done runs when they are in. */
void fe_recv(sim *s, uint32_t npu, uint32_t src, uint64_t size, uint32_t tag, msg_cb on_done, uint32_t *hint);
/* The same with the completion's fields as scalars (see msg_send_cb). */
void fe_send_cb(sim *s, uint32_t npu, uint32_t dst, uint64_t size, uint32_t tag, msg_fn fn, void *obj, uint64_t data,
                uint32_t *hint);
void fe_recv_cb(sim *s, uint32_t npu, uint32_t src, uint64_t size, uint32_t tag, msg_fn fn, void *obj, uint64_t data,
                uint32_t *hint);

#endif
