/*
 * open_events.h - the issued nodes still waiting for their callback, keyed
 * by (NPU, node id). A log can be large, but only the nodes in flight at
 * one time are held here, so memory follows the workload's concurrency,
 * not the log's length.
 */
#ifndef VIMANA_TIMELINE_OPEN_EVENTS_H
#define VIMANA_TIMELINE_OPEN_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "timeline/node_category.h"

typedef struct {
    uint64_t npu;
    uint64_t node;
    uint64_t tick; /* issue tick */
    uint64_t line; /* line of the issue record, for messages */
    node_category category;
    char *name;      /* owned copy, NUL-terminated */
    size_t name_len; /* may hold NULs: use this, not strlen */
} open_event;

typedef struct open_events open_events;

open_events *open_events_new(void);
void open_events_free(open_events *set);

/* The open event of (npu, node), or NULL. */
open_event *open_events_find(open_events *set, uint64_t npu, uint64_t node);

/* Adds a copy of *ev (its name copied too); (npu, node) must not be open.
 * Returns 0, or -1 when out of memory. */
int open_events_add(open_events *set, const open_event *ev);

/* Removes an event returned by open_events_find (the pointer dies). */
void open_events_remove(open_events *set, open_event *ev);

size_t open_events_count(const open_events *set);

/* The open event issued first (lowest line), or NULL when none is open. */
const open_event *open_events_oldest(const open_events *set);

#endif
