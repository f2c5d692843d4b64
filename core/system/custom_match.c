/*
 * Matching a custom collective's sends and receives before it runs: a SEND
 * without its RECV would let the sender finish while the message is never
 * received (the collective then "completes" in 0 cycles), and a RECV
 * without its SEND deadlocks. Messages match on (source, destination, tag,
 * size), as in msg_match.c.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "system/custom_graph.h"
#include "util/sorted.h"
#include "vimana/et.h"

/* One end of a point-to-point message, in ranks (communicator group
 * indices, or NPU ids for the whole system). */
typedef struct p2p_end {
    uint32_t src, dst;
    int32_t tag;
    uint64_t size;
    uint32_t position;      /* the file holding the node */
    uint64_t id;
} p2p_end;

static int cmp_end(const void *a, const void *b)
{
    const p2p_end *x = a, *y = b;
    uint64_t kx[] = {x->src, x->dst, sorted_i64_key(x->tag), x->size, x->position, x->id};
    uint64_t ky[] = {y->src, y->dst, sorted_i64_key(y->tag), y->size, y->position, y->id};
    return keys_order(kx, ky, 6);
}

static bool same_message(const p2p_end *x, const p2p_end *y)
{
    return x->src == y->src && x->dst == y->dst && x->tag == y->tag && x->size == y->size;
}

typedef struct rank_map {
    const char *prefix;
    uint32_t n;
    const uint32_t *rank_of;      /* NULL: rank = position */
} rank_map;

static uint32_t rank_of(const rank_map *m, uint32_t position)
{
    return m->rank_of ? m->rank_of[position] : position;
}

static uint32_t position_of(const rank_map *m, uint32_t rank)
{
    for (uint32_t p = 0; m->rank_of && p < m->n; p++)
        if (m->rank_of[p] == rank)
            return p;
    return rank;
}

/* Adds the SEND and RECV nodes of one file; refuses a peer outside the
 * ranks. Returns 0, or -1 after sim_fail(). */
static int collect_ends(sim *s, const rank_map *m, uint32_t position, p2p_end *sends, size_t *n_sends,
                        p2p_end *recvs, size_t *n_recvs)
{
    const custom_graph *g = custom_graph_find(s, m->prefix, position);
    uint32_t me = rank_of(m, position);
    for (uint32_t i = 0; i < g->graph.n_nodes; i++) {
        const custom_node *n = &g->nodes[i];
        uint64_t id = g->graph.ids[i];
        bool send = n->type == VET_COMM_SEND_NODE;
        if (!send && n->type != VET_COMM_RECV_NODE)
            continue;
        int32_t peer = send ? n->dst : n->src;
        if (peer < 0 || (uint32_t)peer >= m->n) {
            sim_fail(s, "%s.%u.et: node %llu: %s rank %d, outside the %u ranks running the custom collective",
                     m->prefix, position, (unsigned long long)id, send ? "COMM_SEND to" : "COMM_RECV from",
                     peer, m->n);
            return -1;
        }
        p2p_end e = {.src = send ? me : (uint32_t)peer, .dst = send ? (uint32_t)peer : me, .tag = n->tag,
                     .size = n->size, .position = position, .id = id};
        if (send)
            sends[(*n_sends)++] = e;
        else
            recvs[(*n_recvs)++] = e;
    }
    return 0;
}

static void unmatched(sim *s, const rank_map *m, const p2p_end *e, bool send)
{
    sim_fail(s, "%s.%u.et: node %llu: %s rank %u (tag %d, %llu bytes) has no matching %s in %s.%u.et", m->prefix,
             e->position, (unsigned long long)e->id, send ? "COMM_SEND to" : "COMM_RECV from",
             send ? e->dst : e->src, e->tag, (unsigned long long)e->size, send ? "COMM_RECV" : "COMM_SEND",
             m->prefix, position_of(m, send ? e->dst : e->src));
}

/* Every SEND needs a RECV with the same (source, destination, tag, size)
 * on its peer, and vice versa: otherwise the collective deadlocks, or its
 * sender finishes while the message is never received. */
static int check_matching(sim *s, const rank_map *m)
{
    size_t total = 0, n_sends = 0, n_recvs = 0;
    for (uint32_t p = 0; p < m->n; p++)
        total += custom_graph_find(s, m->prefix, p)->graph.n_nodes;
    p2p_end *sends = malloc((total ? total : 1) * sizeof *sends);
    p2p_end *recvs = malloc((total ? total : 1) * sizeof *recvs);
    int rc = sends && recvs ? 0 : -1;
    if (rc != 0)
        sim_fail(s, "out of memory");
    for (uint32_t p = 0; rc == 0 && p < m->n; p++)
        rc = collect_ends(s, m, p, sends, &n_sends, recvs, &n_recvs);
    if (rc == 0) {
        qsort(sends, n_sends, sizeof *sends, cmp_end);
        qsort(recvs, n_recvs, sizeof *recvs, cmp_end);
    }
    size_t i = 0, j = 0;
    while (rc == 0 && (i < n_sends || j < n_recvs)) {
        if (i < n_sends && j < n_recvs && same_message(&sends[i], &recvs[j])) {
            i++, j++;
            continue;
        }
        bool send = j == n_recvs || (i < n_sends && cmp_end(&sends[i], &recvs[j]) < 0);
        unmatched(s, m, send ? &sends[i] : &recvs[j], send);
        rc = -1;
    }
    free(sends), free(recvs);
    return rc;
}

int custom_graph_match(sim *s, const char *prefix, uint32_t n_ranks, const uint32_t *rank_of_position)
{
    rank_map m = {.prefix = prefix, .n = n_ranks, .rank_of = rank_of_position};
    return check_matching(s, &m);
}
