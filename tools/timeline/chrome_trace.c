/*
 * chrome_trace.c - see chrome_trace.h.
 */
#include "timeline/chrome_trace.h"

#include <stdbool.h>

#include "common/pyjson_string.h"

const char *chrome_micros(chrome_ns ns, char buf[CHROME_MICROS_MAX])
{
    char *p = buf + CHROME_MICROS_MAX - 1;
    *p = '\0';
    unsigned frac = (unsigned)(ns % 1000);
    chrome_ns whole = ns / 1000;
    if (frac) {
        int digits = 3;
        while (frac % 10 == 0) { /* trailing zeros dropped */
            frac /= 10;
            digits--;
        }
        for (int i = 0; i < digits; i++) {
            *--p = (char)('0' + frac % 10);
            frac /= 10;
        }
        *--p = '.';
    }
    do {
        *--p = (char)('0' + (int)(whole % 10));
        whole /= 10;
    } while (whole);
    return p;
}

const char *chrome_thread_name(node_category c)
{
    switch (c) {
    case CATEGORY_LOCAL_MEMORY: return "local memory";
    case CATEGORY_REMOTE_MEMORY: return "remote memory";
    case CATEGORY_COMP: return "compute";
    case CATEGORY_COMM: return "communication";
    case CATEGORY_OTHER: return "other";
    default: return "unknown";
    }
}

void chrome_trace_begin(chrome_trace *t, FILE *f)
{
    t->f = f;
    t->any = 0;
    t->named = (idmap){0};
    fputs("{\"displayTimeUnit\": \"ns\", \"traceEvents\": [", f);
}

static void next_event(chrome_trace *t)
{
    fputs(t->any ? ",\n" : "\n", t->f);
    t->any = 1;
}

/* Track keys: a thread is pid * 8 + category (1-5), its process pid * 8. */
static uint64_t track_key(uint32_t pid, int tid)
{
    return (uint64_t)pid * 8 + (uint64_t)tid;
}

/* Names the slice's process and thread unless done before. */
static int name_tracks(chrome_trace *t, const chrome_slice *s)
{
    uint32_t existing;
    int fresh = idmap_put(&t->named, track_key(s->pid, 0), 0, &existing);
    if (fresh < 0)
        return -1;
    if (fresh) {
        next_event(t);
        fprintf(t->f, "{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": %lu, \"args\": {\"name\": \"NPU %lu\"}}",
                (unsigned long)s->pid, (unsigned long)s->pid);
    }
    fresh = idmap_put(&t->named, track_key(s->pid, (int)s->tid), 0, &existing);
    if (fresh < 0)
        return -1;
    if (fresh) {
        next_event(t);
        fprintf(t->f,
                "{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": %lu, \"tid\": %d, \"args\": {\"name\": \"%s\"}}",
                (unsigned long)s->pid, (int)s->tid, chrome_thread_name(s->tid));
    }
    return 0;
}

int chrome_trace_slice(chrome_trace *t, const chrome_slice *s)
{
    char ts[CHROME_MICROS_MAX], dur[CHROME_MICROS_MAX];
    if (name_tracks(t, s) != 0)
        return -1;
    next_event(t);
    fputs("{\"name\": ", t->f);
    pyjson_write_string(pyjson_write_to_file, t->f, s->name, s->name_len, 0);
    fprintf(t->f, ", \"cat\": \"%s\", \"ph\": \"X\", \"ts\": %s, \"dur\": %s, \"pid\": %lu, \"tid\": %d, "
                  "\"args\": {\"cycles\": %llu}}",
            chrome_thread_name(s->tid), chrome_micros(s->start_ns, ts), chrome_micros(s->dur_ns, dur),
            (unsigned long)s->pid, (int)s->tid, (unsigned long long)s->cycles);
    return 0;
}

void chrome_trace_end(chrome_trace *t)
{
    fputs(t->any ? "\n]}\n" : "]}\n", t->f);
}

void chrome_trace_free(chrome_trace *t)
{
    idmap_free(&t->named);
}
