#include "sim/sim.h"

#include <stdarg.h>

void sim_fail(sim *s, const char *fmt, ...)
{
    if (s->failed)
        return;
    s->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->error, sizeof s->error, fmt, ap);
    va_end(ap);
}

void sim_warn(sim *s, const char *fmt, ...)
{
    va_list ap;
    fputs("vimana: warning: ", s->log);
    va_start(ap, fmt);
    vfprintf(s->log, fmt, ap);
    va_end(ap);
    fputc('\n', s->log);
}

void sim_schedule(sim *s, vimana_tick delta, vimana_event_fn fn, void *arg, uint64_t data)
{
    int rc = s->be->schedule(s->be_ctx, delta, fn, arg, data);
    if (rc != VIMANA_OK)
        sim_fail(s, "network backend %s refused to schedule an event (status %d)", s->be->name, rc);
}

void sim_time_went_back(sim *s, vimana_tick t)
{
    sim_fail(s, "network backend %s broke the network API contract: time went backwards (now() returned %llu "
                "after %llu)", s->be->name, (unsigned long long)t, (unsigned long long)s->now);
}
