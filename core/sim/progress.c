#include "sim/progress.h"

#include <time.h>

#include "system/relabel.h"

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

/* "NPU 0 for all 4096" or "8 representatives for all 4096". */
static const char *reduced_what(const sim *s, char *buf, size_t len)
{
    if (s->roles)
        snprintf(buf, len, "%u representatives for all %u", s->roles->n_classes, s->n_npus);
    else
        snprintf(buf, len, "NPU 0 for all %u", s->n_npus);
    return buf;
}

/* The message counter reached the check: prints a line when a second of
 * wall time has passed since the last one, and re-arms. */
static void check(void *ctx)
{
    progress *p = ctx;
    sim *s = p->s;
    s->hooks.messages_at = s->messages + CHECK_EVERY;
    double now = wall_seconds();
    if (now - p->last < PRINT_EVERY_S)
        return;
    p->last = now;
    char what[80];
    if (s->reduced)
        fprintf(p->out, "vimana: simulating (reduced: %s): t = %llu ns, %llu messages (%.0f s)\n",
                reduced_what(s, what, sizeof what), (unsigned long long)sim_now(s), (unsigned long long)s->messages,
                now - p->t0);
    else
        fprintf(p->out, "vimana: simulating: t = %llu ns, %llu messages, %u of %u NPUs finished (%.0f s)\n",
                (unsigned long long)sim_now(s), (unsigned long long)s->messages, p->run->finished_npus, s->n_npus,
                now - p->t0);
    fflush(p->out);
}

void progress_start(progress *p, sim *s, const wl_run *run, FILE *out)
{
    *p = (progress){.s = s, .run = run, .out = out};
    p->t0 = p->last = wall_seconds();
    s->hooks.messages_at = UINT64_MAX;
    if (!s->opt->progress)
        return;
    s->hooks.messages_reached = check;
    s->hooks.messages_ctx = p;
    s->hooks.messages_at = CHECK_EVERY;
}

void progress_end(const progress *p)
{
    const sim *s = p->s;
    if (!s->opt->progress)
        return;
    char what[80];
    if (s->reduced)
        fprintf(p->out, "vimana: simulated (reduced: %s): t = %llu ns, %llu messages, %u of %u NPUs "
                        "finished (%.1f s)\n", reduced_what(s, what, sizeof what), (unsigned long long)sim_now(s),
                (unsigned long long)s->messages, p->run->finished_npus, s->n_npus, wall_seconds() - p->t0);
    else
        fprintf(p->out, "vimana: simulated: t = %llu ns, %llu messages, %u of %u NPUs finished (%.1f s)\n",
                (unsigned long long)sim_now(s), (unsigned long long)s->messages, p->run->finished_npus, s->n_npus,
                wall_seconds() - p->t0);
}
