/*
 * report_timeline.h - a `vimana --report` document as a Chrome/Perfetto
 * trace, so the collectives of an earlier run can be looked at without
 * running it again.
 *
 * One process per NPU ("NPU k"). Thread 0 ("run") holds one slice from 0
 * to the NPU's finish with its report row as args. The collectives follow
 * on threads 1, 2, … ("collectives", "collectives 2", …): each slice is
 * named after its node and carries the record's other members (node, type,
 * bytes, group, algorithm, …) as args; collectives that overlap in time on
 * one NPU go to separate threads, so every thread nests properly.
 */
#ifndef VIMANA_TIMELINE_REPORT_TIMELINE_H
#define VIMANA_TIMELINE_REPORT_TIMELINE_H

#include <stdio.h>

#include "timeline/report_model.h"

/* Writes the trace of *r (its collectives get sorted by NPU and start).
 * `source` names the report in the trace's otherData. Returns 0, or -1
 * with a message in err (out of memory). */
int report_timeline_write(report *r, const char *source, FILE *out, char err[REPORT_MSG_MAX]);

#endif
