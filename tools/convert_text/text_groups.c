/* The communicator groups of HYBRID_TRANSFORMER (placement in text_groups.h). */
#include "text_groups.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "text_fields.h"

static bool is_transformer(enum text_mode mode)
{
    return mode == TEXT_MODE_HYBRID_TRANSFORMER || mode == TEXT_MODE_HYBRID_TRANSFORMER_FWD_IN_BCKWD;
}

bool text_groups_used(const struct text_workload *w)
{
    return is_transformer(w->mode) && w->mp_group > 0;
}

int text_groups_check(const struct text_workload *w, struct text_error *err)
{
    const char *mode = text_mode_get(w->mode)->keyword;
    if (is_transformer(w->mode) && w->mp_group == 0)
        return text_fail(err, w->path, 1,
                         "mode %s needs --model-parallel-npu-group N: its collectives are split between "
                         "model-parallel groups of N NPUs and data-parallel groups, a size the file does not "
                         "fix for the simulated NPUs",
                         mode);
    if (!is_transformer(w->mode) && w->mp_group != 0)
        return text_fail(err, w->path, 1,
                         "--model-parallel-npu-group applies only to the modes HYBRID_TRANSFORMER and "
                         "HYBRID_TRANSFORMER_FWD_IN_BCKWD, not %s",
                         mode);
    return 0;
}

#define MP_KEY "model_parallel_NPU_group:"

/* Reads `model_parallel_NPU_group: G` from line 1 into *group (0 when the
 * key is absent). Returns 0, or -1 with `err` set when G is not a positive
 * integer. */
static int file_mp_group(const struct text_workload *w, uint64_t *group, struct text_error *err)
{
    size_t n = w->params ? text_split_fields(w->params, w->params_len, NULL, 0) : 0;
    struct text_field *f = n ? calloc(n, sizeof *f) : NULL;
    if (n && !f)
        return text_fail(err, w->path, 1, "out of memory");
    if (n)
        text_split_fields(w->params, w->params_len, f, n);
    int rc = 0;
    *group = 0;
    for (size_t k = 0; k < n && rc == 0; k++) {
        if (f[k].len != strlen(MP_KEY) || memcmp(f[k].start, MP_KEY, f[k].len) != 0)
            continue;
        if (k + 1 == n)
            rc = text_fail(err, w->path, 1, "expected the model-parallel group size after '" MP_KEY "', got end of line");
        else if (text_parse_u64(f[k + 1].start, f[k + 1].len, UINT64_MAX, group) != TEXT_INT_OK || *group == 0)
            rc = text_fail(err, w->path, 1, "expected a positive integer after '" MP_KEY "', got '%.*s'",
                           (int)(f[k + 1].len > 32 ? 32 : f[k + 1].len), f[k + 1].start);
        break;
    }
    free(f);
    return rc;
}

int text_groups_resolve(struct text_workload *w, FILE *warnings, struct text_error *err)
{
    if (!is_transformer(w->mode))
        return 0;
    uint64_t in_file;
    if (file_mp_group(w, &in_file, err) != 0)
        return -1;
    if (in_file == 0)
        return 0;
    if (w->mp_group == 0) {
        if (w->npus % in_file != 0)
            return text_fail(err, w->path, 1,
                             MP_KEY " %" PRIu64 " does not divide --num-npus %" PRIu64
                             " (give --model-parallel-npu-group N to choose another split)",
                             in_file, w->npus);
        w->mp_group = in_file;
    } else if (w->mp_group != in_file && warnings) {
        fprintf(warnings,
                "%s:1: warning: the file's " MP_KEY " %" PRIu64 " differs from --model-parallel-npu-group %" PRIu64
                ", which is used\n",
                w->path, in_file, w->mp_group);
    }
    return 0;
}

static uint64_t mp_groups(const struct text_workload *w)
{
    return w->npus / w->mp_group;
}

uint64_t text_group_size(const struct text_workload *w, enum text_phase phase)
{
    return phase == TEXT_WG ? mp_groups(w) : w->mp_group;
}

uint64_t text_group_id(const struct text_workload *w, enum text_phase phase, uint64_t npu)
{
    if (phase == TEXT_WG)
        return 1 + mp_groups(w) + npu % w->mp_group;
    return 1 + npu / w->mp_group;
}

char *text_groups_path(const char *prefix)
{
    size_t n = strlen(prefix) + sizeof ".groups.json";
    char *path = malloc(n);
    if (path)
        snprintf(path, n, "%s.groups.json", prefix);
    return path;
}

/* "first": [first, first + stride, ...] with `count` members. */
static void put_group(FILE *f, bool *first_group, uint64_t id, uint64_t first, uint64_t stride, uint64_t count)
{
    fprintf(f, "%s\n  \"%" PRIu64 "\": [", *first_group ? "" : ",", id);
    *first_group = false;
    for (uint64_t k = 0; k < count; k++)
        fprintf(f, "%s%" PRIu64, k ? ", " : "", first + k * stride);
    fputc(']', f);
}

int text_groups_write(const struct text_workload *w, const char *prefix, struct text_error *err)
{
    char *path = text_groups_path(prefix);
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f) {
        int rc = text_fail(err, path ? path : prefix, 0, "cannot create: %s", path ? strerror(errno) : "out of memory");
        free(path);
        return rc;
    }
    bool first = true;
    uint64_t d = mp_groups(w), n = w->mp_group;
    fputc('{', f);
    for (uint64_t g = 0; n > 1 && g < d; g++)
        put_group(f, &first, 1 + g, g * n, 1, n);
    for (uint64_t j = 0; d > 1 && j < n; j++)
        put_group(f, &first, 1 + d + j, j, n, d);
    fputs("\n}\n", f);
    int rc = 0;
    if (ferror(f) | (fclose(f) != 0)) {
        rc = text_fail(err, path, 0, "cannot write: %s", strerror(errno));
        unlink(path);
    }
    free(path);
    return rc;
}
