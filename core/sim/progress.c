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

/* "1234 of 2856 nodes done (43.2 %), about 12 s left" after `elapsed`
 * seconds (no estimate before the first node is done: a lone collective
 * is one node, done at the end). */
static const char *how_far(const progress *p, double elapsed, char *buf, size_t len)
{
    uint64_t done = p->run->nodes_done;
    int n = snprintf(buf, len, "%llu of %llu nodes done", (unsigned long long)done,
                     (unsigned long long)p->total_nodes);
    if (done > 0 && p->total_nodes > 0 && n > 0 && (size_t)n < len) {
        double f = (double)done / (double)p->total_nodes;
        snprintf(buf + n, len - (size_t)n, " (%.1f %%), about %.0f s left", 100 * f, elapsed * (1 - f) / f);
    }
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
    char what[80], far[128];
    how_far(p, now - p->t0, far, sizeof far);
    if (s->reduced)
        fprintf(p->out, "vimana: simulating (reduced: %s): %s: t = %llu ns, %llu messages (%.0f s)\n",
                reduced_what(s, what, sizeof what), far, (unsigned long long)sim_now(s),
                (unsigned long long)s->messages, now - p->t0);
    else
        fprintf(p->out, "vimana: simulating: %s: t = %llu ns, %llu messages, %u of %u NPUs finished (%.0f s)\n",
                far, (unsigned long long)sim_now(s), (unsigned long long)s->messages, p->run->finished_npus,
                s->n_npus, now - p->t0);
    fflush(p->out);
}

void progress_start(progress *p, sim *s, const wl_run *run, FILE *out)
{
    *p = (progress){.s = s, .run = run, .out = out};
    p->t0 = p->last = wall_seconds();
    s->hooks.messages_at = UINT64_MAX;
    if (!s->opt->progress)
        return;
    for (uint32_t npu = 0; npu < s->n_npus; npu++)
        if (workload_npu_runs(s, npu))
            p->total_nodes += workload_npu_trace(run, npu)->n_nodes;
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
