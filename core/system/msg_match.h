/*
 * msg_match.h - send/receive matching between NPUs (the reference's behaviour, docs/simulator.md),
 * kept in the core so every backend gets the same semantics.
 *
 * Messages are matched on (tag, src, dst, size): the k-th send with a key
 * matches the k-th receive with that key. A send's callback runs when the
 * message has arrived at its destination; a receive's callback runs when the
 * message has arrived and the receive is posted (in the same tick, through a
 * zero-delay event, when the receive comes second).
 */
#ifndef VIMANA_SYSTEM_MSG_MATCH_H
#define VIMANA_SYSTEM_MSG_MATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "system/context.h"

/* A message's completion (fn NULL = nothing to do). */
typedef sim_event_fn msg_fn;
typedef sim_done msg_cb;

int msg_table_init(sim *s);
void msg_table_fini(sim *s);

/* `hint` (may be NULL), for callers that post one key repeatedly (a
 * collective's phase to one peer): it holds the key's channel from one
 * post to the next (MSG_NO_HINT: none yet, the value zeroed memory has),
 * so that posting needs no hash; a post of another key moves it there.
 * Whoever passes a hint releases it with msg_hint_release when done. */
void msg_send(sim *s, uint32_t src, uint32_t dst, uint64_t size, uint32_t tag, msg_cb on_arrival, uint32_t *hint);
void msg_recv(sim *s, uint32_t src, uint32_t dst, uint64_t size, uint32_t tag, msg_cb on_receive, uint32_t *hint);
/* The same with the completion's fields as scalars, which travel in
 * registers or 8-byte slots: a callback passed by value is built on the
 * stack and copied in 16-byte halves, and the copy waits for the stores
 * before it to reach the cache (a store-forwarding stall on every
 * message). msg_send and msg_recv are wrappers of these. */
void msg_send_cb(sim *s, uint32_t src, uint32_t dst, uint64_t size, uint32_t tag, msg_fn fn, void *obj,
                 uint64_t data, uint32_t *hint);
void msg_recv_cb(sim *s, uint32_t src, uint32_t dst, uint64_t size, uint32_t tag, msg_fn fn, void *obj,
                 uint64_t data, uint32_t *hint);
#define MSG_NO_HINT 0u
/* Lets go of the channel a hint holds (none: nothing to do). */
void msg_hint_release(sim *s, uint32_t *hint);
/* Hints to the cache only (they change nothing), for a caller that knows
 * the keys it will post next: a lookup costs a slot and then the entry it
 * names, both cold when keys do not repeat. Stage 0 starts loading the
 * key's slot; stage 1, called later, reads the slot (loaded by then) and
 * starts loading the entry. */
void msg_prefetch(const sim *s, uint32_t src, uint32_t dst, uint64_t size, uint32_t tag, int stage);
/* The backend's host->will_deliver hint (vimana/network_api.h): stage 0
 * starts loading the message's entry, stage 1 reads it and starts loading
 * the first lines of its completions' objects. Changes nothing. */
void msg_look_ahead(const sim *s, uint64_t token, int stage);
/* The backend's host->delivered callback lands here. */
void msg_delivered(sim *s, uint64_t token);

/* Returns how many messages are outstanding: sends not yet arrived or not
 * yet received, and receives still waiting for their send. Calls visit
 * (may be NULL) for each of them still waiting for its partner (a send
 * no receive took yet, arrived or not; a receive no send matched yet),
 * key by key, in the order they were posted within a key. */
typedef void (*msg_visit_fn)(void *ctx, uint32_t src, uint32_t dst, uint64_t size, uint32_t tag,
                             bool is_receive, bool arrived);
uint64_t msg_outstanding(sim *s, msg_visit_fn visit, void *ctx);
/* Sends the backend accepted and has not delivered: after its run() has
 * returned, any left mean the network stalled. */
uint64_t msg_in_network(const sim *s);

#endif
