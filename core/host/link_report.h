/*
 * link_report.h - the network part of --report, asked of the backend
 * (network_api.h), not read from the network file:
 *   JSON  "network": per dimension, its NPU count and the bandwidth the
 *         backend reports (dim_bandwidth; null without it), and with
 *         VIMANA_CAP_LINK_STATS the backend's number of links;
 *         "links": with VIMANA_CAP_LINK_STATS, one record per directed link
 *         that carried a message (src_device, dst_device, bytes, messages,
 *         busy_ticks, utilisation = busy_ticks / the run's end tick as an
 *         exact decimal, 6 places rounded half up; devices are NPUs first,
 *         then switches; then, appended in ABI 1.2: src, dst (the device
 *         names, host/device_name.h), max_queue_ticks and queue_ticks, null
 *         for a backend older than 1.2; then, appended in ABI 1.5:
 *         ecn_marks and pause_ticks, null for a backend older than 1.5);
 *   CSV   the links as a third table, FILE.links.csv (with the capability).
 */
#ifndef VIMANA_HOST_LINK_REPORT_H
#define VIMANA_HOST_LINK_REPORT_H

#include <stdio.h>

#include "system/context.h"

/* With `json` (the open report, after its last array), appends
 * `,\n"network": {...},\n"links": [...]`; with json NULL, writes the links
 * table beside the CSV report `report_path`. `end` is the run's end tick
 * (the latest NPU finish), the denominator of each link's utilisation. Returns 0, or -1 after
 * sim_fail (a file that cannot be written, a backend's link_stats error or a
 * device name the host refuses). */
int link_report_write(sim *s, FILE *json, const char *report_path, vimana_tick end);

#endif
