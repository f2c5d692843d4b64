/*
 * report_model.h - the parts of a `vimana --report FILE.json` document a
 * timeline needs (core/sim/outputs.c writes it):
 *
 *   {"generator": …, "network_backend": …,
 *    "collectives": [{"npu", "node", "name", "type", "bytes", "group",
 *                     "algorithm", "start", "end", "duration"}, …],
 *    "npus": [{"npu", "finish", "exposed_communication", "wall", …}, …]}
 *
 * Only npu, name, start and end of a collective and npu and finish of an
 * NPU row are required; every other member is carried along as-is, so
 * fields added to the report later reach the timeline's args unchanged.
 */
#ifndef VIMANA_TIMELINE_REPORT_MODEL_H
#define VIMANA_TIMELINE_REPORT_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

typedef struct {
    uint64_t npu;
    uint64_t start, end; /* ticks (ns) */
    const char *name;    /* borrowed from the document */
    size_t name_len;
    json_object *record; /* the whole record, for the args */
    size_t index;        /* position in "collectives" */
} report_collective;

typedef struct {
    uint64_t npu;
    uint64_t finish;
    json_object *record;
} report_npu;

typedef struct {
    json_object *root;
    const char *generator;       /* NULL when absent */
    const char *network_backend; /* NULL when absent */
    report_collective *collectives;
    size_t n_collectives;
    report_npu *npus;
    size_t n_npus;
} report;

#define REPORT_MSG_MAX 512

/* Reads and checks the report. Returns 0, or -1 with a one-line message
 * ("PATH: …") in err; *r needs report_free either way. */
int report_load(const char *path, report *r, char err[REPORT_MSG_MAX]);
void report_free(report *r);

/* For readers of other report members (linkmap's links), so that their
 * messages read like the ones above. Formats into err; returns -1. */
int report_fail(char err[REPORT_MSG_MAX], const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The required non-negative integer member `key` of record `where`;
 * returns 0, or -1 with "PATH: WHERE: missing \"KEY\"" (or "... is not a
 * non-negative integer") in err. */
int report_get_u64(const char *path, const char *where, json_object *rec, const char *key, uint64_t *out,
                   char err[REPORT_MSG_MAX]);
/* Writes "ARRAY[I]" into where[n] (the record's name in later messages);
 * returns 0, or -1 with "PATH: ARRAY[I] is not an object" in err. */
int report_record_where(const char *path, const char *array, size_t i, json_object *rec, char *where, size_t n,
                        char err[REPORT_MSG_MAX]);

#endif
