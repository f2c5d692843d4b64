/* The verdicts of `vimana backend-check`: one line per violation. */
#include "cmd/backend_check/check_report.h"

#include <stdarg.h>
#include <string.h>

static const char *const names[CHECK_COUNT] = {
    [CHECK_LOAD] = "load",           [CHECK_DESCRIPTOR] = "descriptor", [CHECK_INIT] = "init",
    [CHECK_TOPOLOGY] = "topology",   [CHECK_BANDWIDTH] = "bandwidth",   [CHECK_SCHEDULE] = "schedule",
    [CHECK_CLOCK] = "clock",         [CHECK_DELIVERY] = "delivery",     [CHECK_STALL] = "stall",
    [CHECK_INVALID_SEND] = "invalid-send", [CHECK_RUN] = "run",          [CHECK_LINK_STATS] = "link-stats",
    [CHECK_STOP] = "stop",           [CHECK_DEVICE_NAME] = "device-name",
};

const char *check_name(enum check_id id)
{
    return (unsigned)id < CHECK_COUNT ? names[id] : "?";
}

void check_report_init(check_report *r, FILE *err)
{
    memset(r, 0, sizeof *r);
    r->err = err;
}

static void print_prefix(const check_report *r, enum check_id id)
{
    fprintf(r->err, "vimana backend-check: FAIL: %s", check_name(id));
    if (r->scope)
        fprintf(r->err, " (%s)", r->scope);
    fputs(": ", r->err);
}

void check_use(check_report *r, enum check_id id)
{
    r->used[id] = true;
}

void check_fail(check_report *r, enum check_id id, const char *fmt, ...)
{
    r->used[id] = true;
    if (r->found[id]++ >= CHECK_MAX_LINES || !r->err)
        return;
    print_prefix(r, id);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(r->err, fmt, ap);
    va_end(ap);
    fputc('\n', r->err);
    fflush(r->err);
}

bool check_failed(const check_report *r, enum check_id id)
{
    return r->found[id] > 0;
}

void check_close(check_report *r)
{
    for (int id = 0; id < CHECK_COUNT; id++) {
        if (!r->used[id])
            continue;
        r->checks++;
        if (r->found[id] > 0)
            r->failed++;
        if (r->found[id] > CHECK_MAX_LINES && r->err) {
            print_prefix(r, (enum check_id)id);
            unsigned long more = r->found[id] - CHECK_MAX_LINES;
            fprintf(r->err, "%lu more violation%s like these\n", more, more == 1 ? "" : "s");
        }
    }
    memset(r->used, 0, sizeof r->used);
    memset(r->found, 0, sizeof r->found);
    r->scope = NULL;
}

void check_scope(check_report *r, const char *scope)
{
    check_close(r);
    r->scope = scope;
}
