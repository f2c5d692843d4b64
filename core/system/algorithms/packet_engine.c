/* The packet engine of Ring, Direct and HalvingDoubling (see the header). */
#include "system/algorithms/packet_engine.h"

#include <stdlib.h>

uint64_t engine_ring_sends(const phase_desc *p)
{
    uint64_t n = p->n;
    if (p->coll == COLL_ALL_REDUCE)
        return 2 * (n - 1);
    if (p->coll == COLL_ALL_TO_ALL)
        return n * (n - 1) / 2;
    return n - 1;
}

static void push_packet(sim *s, phase_run *r, uint32_t src, uint32_t dst, uint64_t size)
{
    if (r->pk_len == r->pk_cap) {
        uint32_t cap = r->pk_cap * 2;
        packet *p = malloc(cap * sizeof *p);
        if (!p) {
            sim_fail(s, "out of memory (packets)");
            return;
        }
        for (uint32_t i = 0; i < r->pk_len; i++)
            p[i] = r->packets[(r->pk_head + i) & (r->pk_cap - 1)];
        if (r->packets != r->pk_inline)
            free(r->packets);
        r->packets = p;
        r->pk_cap = cap;
        r->pk_head = 0;
    }
    r->packets[(r->pk_head + r->pk_len) & (r->pk_cap - 1)] = (packet){src, dst, size};
    r->pk_len++;
}

static void engine_insert(sim *s, stream *st, engine_rotate_fn rotate)
{
    const phase_desc *p = &st->cur;
    phase_run *r = &st->run;
    if (r->zero == 0 && r->nonzero == 0) {
        r->zero = r->P;
        r->nonzero = r->NZ;
        r->toggle = !r->toggle;
    }
    /* zero-latency packets start at the NPU side, the others at the memory
     * side; all but the last P non-zero ones are sent back */
    bundle_flags f = {.processed = false, .send_back = false, .npu_to_ma = true};
    if (r->zero > 0) {
        r->zero--;
    } else if (r->nonzero > 0) {
        f.processed = p->coll == COLL_REDUCE_SCATTER || (p->coll == COLL_ALL_REDUCE && r->toggle);
        f.send_back = r->nonzero > r->P;
        f.npu_to_ma = false;
        r->nonzero--;
    } else {
        return;
    }
    push_packet(s, r, r->sender, r->receiver, r->msg_size);
    phase_bundle(s, st, r->msg_size, f);
    if (rotate)
        rotate(p, r);
}

void engine_send_next(sim *s, stream *st)
{
    const phase_desc *p = &st->cur;
    phase_run *r = &st->run;
    if (r->pk_len == 0 || r->stream_count == 0 || r->free_packets == 0)
        return;
    packet pk = r->packets[r->pk_head];
    r->pk_head = (r->pk_head + 1) & (r->pk_cap - 1);
    r->pk_len--;
    r->stream_count--;
    r->free_packets--;
    phase_send(s, st, phase_ring_member(p, pk.dst), pk.size);
    phase_receive(s, st, phase_ring_member(p, pk.src), pk.size);
}

bool engine_check_exit(sim *s, stream *st)
{
    if (st->run.stream_count == 0 && st->run.free_packets == st->run.P) {
        phase_exit(s, st);
        return true;
    }
    return false;
}

void engine_general(sim *s, stream *st)
{
    st->run.free_packets++;
    engine_send_next(s, st);
    engine_check_exit(s, st);
}

void engine_received(sim *s, stream *st, engine_rotate_fn rotate)
{
    st->run.total_received++;
    engine_insert(s, st, rotate);
}

void engine_begin(const phase_desc *p, phase_run *r)
{
    int32_t step = p->anticlockwise ? -1 : 1;
    r->msg_size = p->coll == COLL_ALL_GATHER ? p->in_size : p->in_size / p->n;
    r->receiver = engine_ring_step(p->index, step, p->n);
    r->sender = engine_ring_step(p->index, -step, p->n);
}

void engine_fill(sim *s, stream *st, engine_rotate_fn rotate)
{
    for (uint32_t i = 0; i < st->run.P && !s->failed; i++)
        engine_insert(s, st, rotate);
}
