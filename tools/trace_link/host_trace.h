/*
 * host_trace.h - the PyTorch host execution trace (chakra-tools.md §4) as
 * the linker needs it: per node its id, parent, record-function id, name and
 * the byte span of the whole node (re-emitted unchanged in the output), plus
 * the top-level members in file order.
 *
 * Loading validates the schema and the keys the linker relies on, sorts the
 * nodes by id and marks the nodes reachable from the root (id 1) through
 * parent links: only those take part in linking, as in the reference.
 */
#ifndef VIMANA_TRACE_LINK_HOST_TRACE_H
#define VIMANA_TRACE_LINK_HOST_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace_link/diag.h"
#include "trace_link/input_file.h"
#include "trace_link/json_scan.h"

enum {
    HOST_HAS_RF = 1u << 0,         /* rf_id present (attrs, or the 1.0.1 key) */
    HOST_HAS_CTRL_DEPS = 1u << 1,  /* "ctrl_deps" key present: remapped on output */
    HOST_HAS_PARENT = 1u << 2,     /* a parent id is known (ctrl_deps or 1.0.1 parent) */
    HOST_IN_TREE = 1u << 3,        /* reachable from the root node, id 1 */
};

typedef struct host_node {
    int64_t id;
    int64_t parent;     /* ctrl_deps, or "parent" in the flat 1.0.1 layout */
    int64_t ctrl_deps;  /* value of the "ctrl_deps" key when present */
    int64_t rf_id;
    size_t off, len;    /* the node object in the host buffer */
    size_t name_off;    /* raw content of "name" */
    uint32_t name_len;
    uint32_t flags;
} host_node;

typedef struct host_member {
    tl_span key;        /* content of the key string */
    tl_span value;      /* raw value text */
} host_member;

typedef struct host_trace {
    const char *path;
    tl_buffer text;
    host_member *members;   /* top-level members, file order */
    size_t n_members;
    host_node *nodes;       /* sorted by id */
    size_t n_nodes;
    size_t root;            /* index of node id 1, or SIZE_MAX */
    bool flat_layout;       /* schema 1.0.1 */
    tl_span schema;         /* content of the schema string */
} host_trace;

/* Reads and checks PATH. The flat 1.0.1 layout is refused unless
 * `allow_flat` (then it is read like the reference does: "parent" and the
 * top-level "rf_id" instead of "ctrl_deps" and attrs). */
int host_trace_load(host_trace *h, const char *path, bool allow_flat, tl_diag *d);
void host_trace_free(host_trace *h);

/* Index of the node with this id, or SIZE_MAX. */
size_t host_trace_find(const host_trace *h, int64_t id);

/* The schema versions whose node layout this linker reads. */
extern const char *const host_supported_schemas[];

#endif
