/*
 * trace_record.h - one `issue,…` / `callback,…` line of a simulator log
 * (simulator.md §4.3):
 *
 *   issue,sys->id=0, tick=0, node->id=5, node->name=COMP_NODE_x, node->type=4
 *
 * The record may follow any prefix (the reference simulator's spdlog
 * "[date] [workload] [debug] "), so raw logs can be read as they are.
 */
#ifndef VIMANA_TIMELINE_TRACE_RECORD_H
#define VIMANA_TIMELINE_TRACE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum { RECORD_ISSUE, RECORD_CALLBACK } record_kind;

typedef struct {
    record_kind kind;
    uint64_t npu;
    uint64_t tick;
    uint64_t node;
    const char *name; /* points into the line; not NUL-terminated */
    size_t name_len;
    bool has_type; /* a trailing node->type=<int> field was present */
    uint64_t type;
} trace_record;

#define TRACE_RECORD_ERR_MAX 256

typedef enum {
    RECORD_NONE = 0,      /* the line holds no record */
    RECORD_OK = 1,        /* *out is filled */
    RECORD_MALFORMED = -1 /* err says what is wrong */
} record_status;

/* Parses the record in line[0..len) (no newline needed; trailing
 * whitespace is ignored). A record starts at the first "issue," or
 * "callback," that begins the line or follows a character that cannot be
 * part of a word; lines without one hold no record. Fields are found by
 * position, as the reference does: npu, tick and node id are the text
 * after the first '=' of fields 1-3 (unsigned decimal, blanks around
 * allowed); the name is the text after the first '=' of field 4, up to a
 * later ", node->type=<int>" field when there is one (so names may hold
 * ',' and '='), else up to the next ','. */
record_status trace_record_parse(const char *line, size_t len, trace_record *out, char err[TRACE_RECORD_ERR_MAX]);

#endif
