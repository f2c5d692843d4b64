/*
 * span_intern.h - numbering of distinct byte strings (Kineto thread ids).
 *
 * Kineto's "tid" is usually an integer but may be a string; the linker only
 * needs to know which events share a thread, so each distinct raw value text
 * gets a small dense index, in order of first appearance.
 */
#ifndef VIMANA_TRACE_LINK_SPAN_INTERN_H
#define VIMANA_TRACE_LINK_SPAN_INTERN_H

#include <stddef.h>
#include <stdint.h>

typedef struct span_intern_slot {
    uint64_t hash;
    size_t off;      /* the first occurrence, in `buf` */
    uint32_t len;
    uint32_t index;  /* UINT32_MAX: empty */
} span_intern_slot;

typedef struct span_intern {
    const char *buf;
    span_intern_slot *slots;
    size_t cap, count;
} span_intern;

int span_intern_init(span_intern *t, const char *buf);
void span_intern_free(span_intern *t);
/* The index of buf[off, off+len), assigning the next one when new; -1 when
 * out of memory. */
int64_t span_intern_get(span_intern *t, size_t off, size_t len);

#endif
