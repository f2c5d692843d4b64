/*
 * p2p_match.h - matching point-to-point sends and receives across the
 * ranks of a prefix the way the simulator does: the key is (source,
 * destination, tag, size), and within a key the k-th send meets the k-th
 * receive. Whatever is left over on either side can never complete.
 */
#ifndef VIMANA_ETCMD_P2P_MATCH_H
#define VIMANA_ETCMD_P2P_MATCH_H

#include <stddef.h>
#include <stdint.h>

typedef struct p2p_entry {
    int64_t src, dst, tag;
    uint64_t size;
    uint32_t rank;     /* the rank whose file holds the node */
    int send;          /* 1 COMM_SEND, 0 COMM_RECV */
    uint64_t id;
    size_t name_off;   /* private: the node's name in the set's buffer */
    uint64_t seq;      /* private: order of addition */
} p2p_entry;

typedef struct p2p_set {
    p2p_entry *items;
    size_t n, cap;
    char *names;
    size_t names_len, names_cap;
} p2p_set;

/* Adds a node (its name is copied). Returns 0, or -1 out of memory. */
int p2p_add(p2p_set *s, const p2p_entry *e, const char *name);

/* Calls `unmatched` for every send without a receive and every receive
 * without a send, in key order; returns the number of matched pairs. */
typedef void (*p2p_unmatched_fn)(void *ctx, const p2p_entry *e, const char *name);
size_t p2p_match(p2p_set *s, p2p_unmatched_fn unmatched, void *ctx);

void p2p_free(p2p_set *s);

#endif
