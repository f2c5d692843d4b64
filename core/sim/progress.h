/*
 * progress.h - `vimana --progress` while the event loop runs. The backend
 * owns the loop, so the core looks at the clock from its own hot path: the
 * message counter. Between checks the cost is one comparison per message.
 */
#ifndef VIMANA_SIM_PROGRESS_H
#define VIMANA_SIM_PROGRESS_H

#include "sim/sim.h"

/* Arms the checks when --progress is given (otherwise they never fire). */
void progress_start(sim *s);

/* Called when s->messages reaches s->progress_at: prints a line when a
 * second of wall time has passed since the last one, and re-arms. */
void progress_check(sim *s);

/* The closing line: where the simulation ended and how long it took. */
void progress_end(sim *s);

#endif
