/* sweep_result.c - a point's result.json, written atomically. */
#define _POSIX_C_SOURCE 200809L

#include "cmd/sweep/sweep_result.h"

#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "out/json_out.h"

const char *sweep_status_name(sweep_status s)
{
    return s == SWEEP_OK ? "ok" : s == SWEEP_FAILED ? "failed" : "pending";
}

double sweep_result_exposed_mean(const sweep_result *r)
{
    return r->npus ? (double)r->exposed_sum / r->npus : 0.0;
}

static void write_body(FILE *f, size_t point, const char *signature, const sweep_result *r)
{
    fprintf(f, "{\n\"point\": %zu,\n\"signature\": ", point);
    json_out_string(f, signature);
    fprintf(f, ",\n\"status\": \"%s\",\n\"error\": ", sweep_status_name(r->status));
    if (r->status == SWEEP_FAILED)
        json_out_string(f, r->error ? r->error : "");
    else
        fputs("null", f);
    fprintf(f, ",\n\"npus\": %" PRIu32 ",\n\"finish\": %" PRIu64 ",\n\"finish_sum\": %" PRIu64
               ",\n\"exposed_sum\": %" PRIu64 ",\n\"wall_seconds\": %.6f,\n\"peak_memory_kib\": %ld\n}\n",
            r->npus, r->finish, r->finish_sum, r->exposed_sum, r->wall_s, r->peak_kib);
}

int sweep_result_write(const char *dir, size_t point, const char *signature, const sweep_result *r)
{
    char tmp[4096], final[4096];
    snprintf(tmp, sizeof tmp, "%s/result.json.tmp", dir);
    snprintf(final, sizeof final, "%s/result.json", dir);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return -1;
    write_body(f, point, signature, r);
    /* The data must be on disk before the name says the result is there. */
    if (fflush(f) != 0 || fsync(fileno(f)) != 0) {
        fclose(f);
        return -1;
    }
    if (fclose(f) != 0)
        return -1;
    return rename(tmp, final);
}

static uint64_t get_u64(json_object *o, const char *key)
{
    json_object *v = NULL;
    return json_object_object_get_ex(o, key, &v) ? json_object_get_uint64(v) : 0;
}

void sweep_result_set_error(sweep_result *r, const char *text)
{
    free(r->error);
    r->error = strdup(text);
}

void sweep_result_clear(sweep_result *r)
{
    free(r->error);
    memset(r, 0, sizeof *r);
}

static void fill(json_object *root, sweep_result *r)
{
    json_object *v = NULL;
    r->npus = (uint32_t)get_u64(root, "npus");
    r->finish = get_u64(root, "finish");
    r->finish_sum = get_u64(root, "finish_sum");
    r->exposed_sum = get_u64(root, "exposed_sum");
    r->measured = true;
    r->wall_s = json_object_object_get_ex(root, "wall_seconds", &v) ? json_object_get_double(v) : 0;
    r->peak_kib = (long)get_u64(root, "peak_memory_kib");
    if (r->status == SWEEP_FAILED && json_object_object_get_ex(root, "error", &v) && json_object_get_string(v))
        sweep_result_set_error(r, json_object_get_string(v));
}

bool sweep_result_reuse(const char *dir, const char *signature, bool failed_too, sweep_result *r)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/result.json", dir);
    if (access(path, F_OK) != 0)
        return false;
    json_object *root = json_object_from_file(path);
    json_object *sig = NULL, *status = NULL;
    const char *st = root && json_object_object_get_ex(root, "status", &status) ? json_object_get_string(status) : NULL;
    bool ok = st && !strcmp(st, "ok"), failed = st && !strcmp(st, "failed");
    bool same = root && json_object_object_get_ex(root, "signature", &sig) && json_object_get_string(sig) &&
                !strcmp(json_object_get_string(sig), signature) && (ok || (failed_too && failed));
    if (same) {
        sweep_result_clear(r);
        r->status = ok ? SWEEP_OK : SWEEP_FAILED;
        fill(root, r);
    }
    json_object_put(root);
    return same;
}
