/*
 * progress.h - `vimana --progress` while the event loop runs. The backend
 * owns the loop, so the driver looks at the clock from the system layer's
 * hot path: a hook on the message counter (sim_hooks.messages_reached).
 * Between checks the cost is one comparison per message.
 */
#ifndef VIMANA_SIM_PROGRESS_H
#define VIMANA_SIM_PROGRESS_H

#include <stdio.h>

#include "system/context.h"
#include "workload/workload.h"

typedef struct progress {
    sim *s;
    const wl_run *run;
    FILE *out;                   /* the lines' stream: stderr, even while a reduced run holds its log */
    double t0, last;             /* wall seconds: start, last line */
    uint64_t total_nodes;        /* the nodes of every NPU that runs: the percentage's whole */
} progress;

/* Lines say how far the run is: the nodes done of those that run, and the
 * time left at the rate so far ("1234 of 2856 nodes done (43.2 %), about
 * 12 s left").
 * Starts the clock and, when --progress is given, installs the check in s
 * (otherwise it never fires). Lines go to `out`; a reduced run's (s->reduced)
 * say that NPU 0 is simulated for all. */
void progress_start(progress *p, sim *s, const wl_run *run, FILE *out);

/* The closing line: where the simulation ended and how long it took. */
void progress_end(const progress *p);

#endif
