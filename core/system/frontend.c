/*
 * With --rendezvous-protocol a data message waits for a small control
 * message from its receiver: the sender first posts a receive for that
 * message, the receiver sends it and posts the data receive once it has
 * arrived at the sender.
 */
#include "system/frontend.h"

#include "system/relabel.h"
#include "system/system.h"

typedef struct rendezvous {
    uint32_t npu, peer;
    uint64_t size;
    uint32_t tag;
    msg_cb user;
} rendezvous;

static rendezvous *rdv_new(sim *s, uint32_t npu, uint32_t peer, uint64_t size, uint32_t tag, msg_cb user)
{
    rendezvous *r = slab_alloc(&s->rdv);
    if (!r) {
        sim_fail(s, "out of memory (rendezvous)");
        return NULL;
    }
    *r = (rendezvous){.npu = npu, .peer = peer, .size = size, .tag = tag, .user = user};
    return r;
}

/* Sender side: the receiver's control message arrived; send the data. */
static void rdv_send_data(sim *s, void *obj, uint64_t data)
{
    (void)data;
    rendezvous r = *(rendezvous *)obj;
    slab_free(&s->rdv, obj);
    msg_send(s, r.npu, r.peer, r.size, r.tag, r.user, NULL);
}

/* Receiver side: our control message reached the sender; wait for data. */
static void rdv_post_data_recv(sim *s, void *obj, uint64_t data)
{
    (void)data;
    rendezvous r = *(rendezvous *)obj;
    slab_free(&s->rdv, obj);
    msg_recv(s, r.peer, r.npu, r.size, r.tag, r.user, NULL);
}

/* The reduced simulation's mirror of a send npu -> dst: under the
 * relabelling of every dimension that takes dst to npu, npu -> dst becomes
 * src' -> npu. On a ring or direct dimension the relabelling is the
 * rotation c -> c + npu - dst, so src' = 2 npu - dst; on a halving-doubling
 * dimension (s->mirror_xor) it is c -> c XOR npu XOR dst, so src' = dst.
 * The schedules (ring and direct by offsets, halving-doubling by XOR
 * partners) and the analytical model's timing of the messages they send
 * (hops by the coordinates' difference on a Ring; the same for any pair on
 * FullyConnected and Switch; a halving-doubling pair c, c XOR 2^k is 2^k
 * ring steps apart for every c) are invariant under these relabellings,
 * so src' sends npu the same message at the same tick. */
static uint32_t mirror_source(const sim *s, uint32_t npu, uint32_t dst)
{
    uint32_t src = 0, stride = 1;
    for (uint32_t d = 0; d < s->n_dims; d++) {
        uint32_t n = s->dim_size[d];
        uint32_t c_npu = npu / stride % n, c_dst = dst / stride % n;
        uint32_t c_src = s->mirror_xor & (1u << d) ? c_dst : (uint32_t)((2ull * c_npu + n - c_dst) % n);
        src += c_src * stride;
        stride *= n;
    }
    return src;
}

void fe_send(sim *s, uint32_t npu, uint32_t dst, uint64_t size, uint32_t tag, msg_cb on_done, uint32_t *hint)
{
    fe_send_cb(s, npu, dst, size, tag, on_done.fn, on_done.obj, on_done.data, hint);
}

void fe_send_cb(sim *s, uint32_t npu, uint32_t dst, uint64_t size, uint32_t tag, msg_fn fn, void *obj, uint64_t data,
                uint32_t *hint)
{
    if (s->reduced && s->roles) {
        /* Over roles: under the relabelling r that takes dst to its
         * representative, npu -> dst is r(npu) -> rep(dst), at the same
         * tick with the same tag and size (docs/symmetry.md, "Roles"). */
        msg_send_cb(s, relabel_to_rep(s->roles, dst, npu), s->roles->rep[dst], size, tag, fn, obj, data, NULL);
        return;
    }
    if (s->reduced) {
        msg_send_cb(s, mirror_source(s, npu, dst), npu, size, tag, fn, obj, data, NULL);
        return;
    }
    if (!s->opt->rendezvous) {
        msg_send_cb(s, npu, dst, size, tag, fn, obj, data, hint);
        return;
    }
    rendezvous *r = rdv_new(s, npu, dst, size, tag, (msg_cb){fn, obj, data});
    if (r)
        msg_recv(s, dst, npu, FE_RENDEZVOUS_BYTES, tag + FE_RENDEZVOUS_TAG_OFFSET,
                 (msg_cb){rdv_send_data, r, 0}, NULL);
}

void fe_recv(sim *s, uint32_t npu, uint32_t src, uint64_t size, uint32_t tag, msg_cb on_done, uint32_t *hint)
{
    fe_recv_cb(s, npu, src, size, tag, on_done.fn, on_done.obj, on_done.data, hint);
}

void fe_recv_cb(sim *s, uint32_t npu, uint32_t src, uint64_t size, uint32_t tag, msg_fn fn, void *obj, uint64_t data,
                uint32_t *hint)
{
    if (!s->opt->rendezvous) {
        msg_recv_cb(s, src, npu, size, tag, fn, obj, data, hint);
        return;
    }
    rendezvous *r = rdv_new(s, npu, src, size, tag, (msg_cb){fn, obj, data});
    if (r)
        msg_send(s, npu, src, FE_RENDEZVOUS_BYTES, tag + FE_RENDEZVOUS_TAG_OFFSET,
                 (msg_cb){rdv_post_data_recv, r, 0}, NULL);
}
