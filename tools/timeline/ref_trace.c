/*
 * ref_trace.c - the reference visualiser's document, json.dump style:
 * ", " between items, ": " after keys, floats as repr().
 */
#include "timeline/ref_trace.h"

#include "common/pyfloat.h"
#include "common/pyjson_string.h"

void ref_trace_begin(ref_trace *t, FILE *f)
{
    t->f = f;
    t->any = false;
    fputs("{\"meta_user\": \"aras\", \"traceEvents\": [", f);
}

void ref_trace_event(ref_trace *t, const ref_event *ev)
{
    FILE *f = t->f;
    char ts[PYFLOAT_MAX], dur[PYFLOAT_MAX];
    pyfloat_json(ev->ts, ts);
    pyfloat_json(ev->dur, dur); /* written twice, formatted once */
    if (t->any)
        fputs(", ", f);
    t->any = true;
    fprintf(f, "{\"pid\": %llu, \"tid\": %d, \"ts\": %s, \"dur\": %s, \"ph\": \"X\", \"name\": ",
            (unsigned long long)ev->pid, ev->tid, ts, dur);
    pyjson_write_string(pyjson_write_to_file, f, ev->name, ev->name_len, 0);
    fprintf(f, ", \"args\": {\"%s\": %s}}", ev->args_key, dur);
}

void ref_trace_end(ref_trace *t, uint64_t num_npus)
{
    fprintf(t->f, "], \"meta_cpu_count\": %llu}", (unsigned long long)num_npus);
}
