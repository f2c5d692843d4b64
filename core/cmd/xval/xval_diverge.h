/*
 * xval_diverge.h - where the backends of `vimana xval` differ, beyond
 * their finish times (docs/xval.md, "The divergence report"): one NPU's
 * collectives with each backend's duration and its ratio to the baseline's,
 * the first collective whose duration leaves the tolerance band, and the
 * links whose records differ most among the backends that count per-link
 * traffic. Pure computation on what the runs' reports held
 * (cmd/xval/xval_report.h), so that it can be tested on hand-made inputs.
 */
#ifndef VIMANA_CMD_XVAL_XVAL_DIVERGE_H
#define VIMANA_CMD_XVAL_XVAL_DIVERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One collective of the chosen NPU, as a run's report records it. */
typedef struct xval_coll {
    uint64_t node;          /* the trace's node id */
    char name[128];
    char type[32];          /* ALL_REDUCE, ALL_TO_ALL, ... */
    uint64_t bytes;
    uint64_t start;
    uint64_t duration;      /* end - start, ticks */
} xval_coll;

/* One directed link of a run's report (only links that carried a message). */
typedef struct xval_link {
    uint64_t src_device, dst_device;
    char src[64], dst[64];  /* the devices' names */
    uint64_t bytes;
    uint64_t busy_ticks;
    bool has_queue;         /* false for a backend older than ABI 1.2 */
    uint64_t max_queue_ticks;
} xval_link;

/* What one backend's report holds beyond its finish times. */
typedef struct xval_detail {
    bool ran;               /* the report was read */
    xval_coll *colls;       /* the chosen NPU's collectives, as reported */
    size_t n_colls;
    bool has_links;         /* the backend counts per-link traffic */
    xval_link *links;
    size_t n_links;
} xval_detail;

/* A row of the collectives table: one node, each backend's duration. */
typedef struct xval_coll_row {
    const xval_coll *what;  /* name, type, bytes: from the first backend that has the node */
    uint64_t *duration;     /* [backend] */
    bool *has;              /* [backend]: the backend reported the node */
    bool *outside;          /* [backend]: its duration leaves the band around the baseline's */
} xval_coll_row;

/* A link of the ranking: the same (src, dst) in each backend with link
 * statistics; a backend that did not use it has a zero record. */
typedef struct xval_link_row {
    const xval_link *what;  /* names: from the first backend that used it */
    xval_link *per;         /* [backend]; meaningful where the backend has link statistics */
    bool used_by_all;       /* every backend with link statistics used it */
    double busy_spread;     /* the largest busy_ticks over the smallest; 0 when !used_by_all */
    uint64_t queue_diff;    /* the largest max_queue_ticks less the smallest */
} xval_link_row;

/* A backend's sums over all its links. */
typedef struct xval_link_total {
    size_t links;
    uint64_t bytes, busy_ticks;
    bool has_queue;
    uint64_t max_queue_ticks;   /* the worst over its links */
} xval_link_total;

typedef struct xval_divergence {
    size_t n_backends;
    uint32_t npu;
    double tolerance;           /* the band: |duration - baseline's| <= tolerance * baseline's */
    bool has_baseline;          /* backend 0 ran: ratios exist */
    xval_coll_row *rows;        /* in the baseline's order (start tick, then node id) */
    size_t n_rows;
    bool has_first;
    size_t first;               /* the first row with a backend outside the band */
    bool *stats;                /* [backend]: it ran and counts per-link traffic */
    size_t n_link_backends;     /* how many do */
    xval_link_row *links;       /* every link, ranked */
    size_t n_links;
    xval_link_total *totals;    /* [backend] */
} xval_divergence;

/* Compares the details of n backends (backend 0 the baseline) on NPU npu
 * with the band `tolerance` (0 when none was given: any difference is
 * outside). The result points into `d`, which must outlive it. Returns 0,
 * or -1 when out of memory. */
int xval_diverge(const xval_detail *d, size_t n, uint32_t npu, double tolerance, xval_divergence *out);

/* The ratio of a duration to the baseline's: duration / baseline, 1 when
 * both are 0; false when the baseline's is 0 and this one is not. */
bool xval_diverge_ratio(uint64_t duration, uint64_t baseline, double *ratio);

void xval_divergence_free(xval_divergence *v);
void xval_detail_free(xval_detail *d);

#endif
