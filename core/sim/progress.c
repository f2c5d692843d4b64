#include "sim/progress.h"

#include <time.h>

/* Messages between two looks at the clock: rare enough to cost nothing,
 * frequent enough (tens of milliseconds) to keep the lines on time. */
#define CHECK_EVERY (1u << 18)
#define PRINT_EVERY_S 1.0

static double wall_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void progress_start(sim *s)
{
    s->progress_at = s->opt->progress ? CHECK_EVERY : UINT64_MAX;
    s->progress_t0 = s->progress_last = wall_seconds();
}

void progress_check(sim *s)
{
    s->progress_at = s->messages + CHECK_EVERY;
    double now = wall_seconds();
    if (now - s->progress_last < PRINT_EVERY_S)
        return;
    s->progress_last = now;
    fprintf(s->log, "vimana: simulating: t = %llu ns, %llu messages, %u of %u NPUs finished (%.0f s)\n",
            (unsigned long long)sim_now(s), (unsigned long long)s->messages, s->finished_npus, s->n_npus,
            now - s->progress_t0);
    fflush(s->log);
}

void progress_end(sim *s)
{
    if (!s->opt->progress)
        return;
    fprintf(s->log, "vimana: simulated: t = %llu ns, %llu messages, %u of %u NPUs finished (%.1f s)\n",
            (unsigned long long)sim_now(s), (unsigned long long)s->messages, s->finished_npus, s->n_npus,
            wall_seconds() - s->progress_t0);
}
