/* ctrl_chain.c - see ctrl_chain.h. */
#include "common/ctrl_chain.h"

#include <stdlib.h>

enum { UNKNOWN = 0xFF, ON_PATH = 0xFE };

/* Follows the parents of `start` until a root, a bad parent, a node already
 * classified or a node of this very path, then classifies the whole path.
 * Each node is walked once, so the whole check is linear. */
static void walk(const uint32_t *parent, uint32_t start, uint8_t *fault, uint32_t *culprit, uint32_t *path)
{
    uint32_t top = 0, v = start, who;
    uint8_t f;
    for (;;) {
        if (fault[v] == ON_PATH) {
            f = parent[v] == v ? CHAIN_SELF_LOOP : CHAIN_CYCLE;
            who = v;
            break;
        }
        if (fault[v] != UNKNOWN) {
            f = fault[v];
            who = culprit[v];
            break;
        }
        fault[v] = ON_PATH;
        path[top++] = v;
        if (parent[v] == CHAIN_ROOT || parent[v] == CHAIN_MISSING) {
            f = parent[v] == CHAIN_ROOT ? CHAIN_OK : CHAIN_NO_PARENT;
            who = v;
            break;
        }
        v = parent[v];
    }
    while (top > 0) {
        uint32_t u = path[--top];
        fault[u] = f;
        culprit[u] = who;
    }
}

int ctrl_chain_check(const uint32_t *parent, uint32_t n, uint8_t *fault, uint32_t *culprit)
{
    uint32_t *path = malloc(((size_t)n + 1) * sizeof *path);
    if (!path)
        return -1;
    for (uint32_t i = 0; i < n; i++)
        fault[i] = UNKNOWN;
    for (uint32_t i = 0; i < n; i++)
        if (fault[i] == UNKNOWN)
            walk(parent, i, fault, culprit, path);
    free(path);
    return 0;
}

const char *ctrl_chain_fault_text(enum chain_fault f)
{
    switch (f) {
    case CHAIN_NO_PARENT:
        return "names no node";
    case CHAIN_SELF_LOOP:
        return "names the node itself";
    case CHAIN_CYCLE:
        return "forms a cycle";
    default:
        return "is fine";
    }
}
