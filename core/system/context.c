#include "system/context.h"

#include <math.h>
#include <stdarg.h>

static void notify_failure(sim *s)
{
    if (s->hooks.failed)
        s->hooks.failed(s->hooks.failed_ctx);
}

void sim_fail(sim *s, const char *fmt, ...)
{
    if (s->failed)
        return;
    s->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->error, sizeof s->error, fmt, ap);
    va_end(ap);
    notify_failure(s);
}

void sim_fail_backend(sim *s, const char *fmt, ...)
{
    if (s->failed)
        return;
    s->failed = true;
    s->error[0] = '\0';
    if (!s->backend_said_error) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(s->error, sizeof s->error, fmt, ap);
        va_end(ap);
    }
    notify_failure(s);
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

int sim_scale_u64(uint64_t x, double scale, uint64_t max, uint64_t *out)
{
    if (scale == 1.0) {
        *out = x;
        return x <= max ? 0 : -1;
    }
    /* long double holds every uint64 exactly (64-bit mantissa on x86;
     * wider elsewhere), so the only rounding is the one documented. */
    long double v = roundl((long double)x * (long double)scale);
    if (v > (long double)max)
        return -1;
    *out = (uint64_t)v;
    return 0;
}

/* Ticks of one compute node are kept below 2^62 so sums of them over a
 * run cannot wrap. */
#define MAX_COMPUTE_TICKS (UINT64_MAX >> 2)

vimana_tick sim_compute_ticks(sim *s, uint32_t npu, vimana_tick ticks, const char *trace, uint64_t node_id)
{
    uint64_t scaled;
    double npu_scale = s->npu_scale ? s->npu_scale[npu] : 1.0, scale = s->opt->compute_scale * npu_scale;
    if (scale == 1.0)
        return ticks;
    if (sim_scale_u64(ticks, scale, MAX_COMPUTE_TICKS, &scaled) != 0) {
        if (s->npu_scale)
            sim_fail(s, "%s: node %llu: duration %llu ns times --compute-scale=%g and NPU %u's --npu-compute-scale %g "
                        "is out of range", trace, (unsigned long long)node_id, (unsigned long long)ticks,
                     s->opt->compute_scale, npu, npu_scale);
        else
            sim_fail(s, "%s: node %llu: duration %llu ns times --compute-scale=%g is out of range", trace,
                     (unsigned long long)node_id, (unsigned long long)ticks, s->opt->compute_scale);
        return 0;
    }
    return scaled == 0 && ticks > 0 ? 1 : scaled;
}
