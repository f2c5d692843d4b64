/*
 * link_model.h - the network and per-link records of a `vimana --report
 * FILE.json` (core/host/link_report.c writes them), checked:
 *
 *   "network": {"dimensions": [{"dim", "npus", "bandwidth_gbps"}, ...],
 *               "num_links": N},                 (num_links: optional)
 *   "links": [{"src_device", "dst_device", "bytes", "messages",
 *              "busy_ticks", "utilisation",
 *              "src", "dst", "max_queue_ticks", "queue_ticks"}, ...]
 *
 * Counts must be non-negative integers, "utilisation" a finite
 * non-negative number, "bandwidth_gbps" a positive number or null. A report
 * without "links" comes from a backend that keeps no link statistics. The
 * last four link fields (network ABI 1.2) are optional, so that older
 * reports still load: "src"/"dst" are strings (the device names), the
 * queue counters integers or null (a backend that does not count them);
 * both counters are known or neither, and the worst wait is not more than
 * the total.
 */
#ifndef VIMANA_LINKMAP_LINK_MODEL_H
#define VIMANA_LINKMAP_LINK_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "timeline/report_model.h"

typedef struct {
    uint64_t npus;
    double bandwidth_gbps;
    bool has_bandwidth; /* false for null */
} lm_dimension;

typedef struct {
    uint64_t src, dst;
    uint64_t bytes, messages, busy_ticks;
    double utilisation;
    const char *src_name, *dst_name; /* NULL when the report has none; owned by rep */
    uint64_t max_queue_ticks, queue_ticks;
    bool has_queue;                  /* false when absent or null */
    size_t index; /* position in "links": the tie-break of the ordering */
} lm_link;

typedef struct {
    report rep;
    const char *backend; /* "network_backend", or "?" */
    lm_dimension *dims;
    size_t n_dims;
    uint64_t n_npus; /* product of the dimensions' npus: device ids below it are NPUs */
    uint64_t num_links;
    bool has_num_links;
    lm_link *links;
    size_t n_links;
} link_model;

#define LM_MSG_MAX REPORT_MSG_MAX

/* Reads and checks the report. Returns 0, or -1 with one line ("PATH: ...")
 * in err; *m needs link_model_free either way. */
int link_model_load(const char *path, link_model *m, char err[LM_MSG_MAX]);

/* Sorts the links busiest first: utilisation, then bytes (both
 * descending), then report order. */
void link_model_sort(link_model *m);

void link_model_free(link_model *m);

#endif
