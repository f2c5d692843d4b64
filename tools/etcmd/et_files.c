#include "etcmd/et_files.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/str_list.h"
#include "merge/et_master.h"

#include "util/input_file.h"

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int add(et_files *f, const char *path)
{
    return str_list_append(&f->paths, &f->n, path);
}

/* Refuses a path that exists but is not a regular file (a directory,
 * /dev/zero: reading it would fail oddly or never end). */
static int usable(const char *prog, const char *path)
{
    char why[128];
    if (input_file_check(path, why, sizeof why) == 0)
        return 0;
    fprintf(stderr, "%s: error: %s: %s\n", prog, path, why);
    return -1;
}

/* Writes rank k's file name into buf. Returns 1 when it exists, 0 when
 * neither spelling does, -1 (message printed) when one is not a file. */
static int rank_path(const char *prog, const char *prefix, size_t rank, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s.%zu.et", prefix, rank);
    if (usable(prog, buf) != 0)
        return -1;
    if (is_file(buf))
        return 1;
    snprintf(buf, cap, "%s.%zu.et.gz", prefix, rank);
    if (usable(prog, buf) != 0)
        return -1;
    return is_file(buf);
}

static int compact(const char *prog, const char *arg, et_files *out);

/* A master trace's ranks, split into a temporary folder. */
static int master(const char *prog, const char *arg, et_files *out)
{
    char tmpl[] = "/tmp/vimana-master.XXXXXX", msg[600], prefix[64], path[96], shown[4200];
    size_t n = 0;
    if (!mkdtemp(tmpl)) {
        fprintf(stderr, "%s: error: %s: cannot make a temporary folder to split it in\n", prog, arg);
        return -1;
    }
    snprintf(prefix, sizeof prefix, "%s/rank", tmpl);
    int rc = et_master_split(arg, prefix, &n, msg, sizeof msg);
    bool split = rc == 0;
    if (!split)
        fprintf(stderr, "%s: error: %s\n", prog, msg);
    out->is_prefix = true;
    if (rc == 0 && (!(out->shown = calloc(n ? n : 1, sizeof *out->shown)) || !(out->tmpdir = strdup(tmpl))))
        rc = -1;
    for (size_t k = 0; rc == 0 && k < n; k++) {
        snprintf(path, sizeof path, "%s.%zu.et", prefix, k);
        snprintf(shown, sizeof shown, "%s (rank %zu)", arg, k);
        if (add(out, path) != 0 || !(out->shown[k] = strdup(shown)))
            rc = -1;
    }
    if (rc == 0)
        return 0;
    if (split)
        fprintf(stderr, "%s: out of memory\n", prog);
    for (size_t k = 0; k < n; k++) {   /* every split file, listed in paths or not */
        snprintf(path, sizeof path, "%s.%zu.et", prefix, k);
        remove(path);
    }
    rmdir(tmpl);
    free(out->tmpdir);
    out->tmpdir = NULL;
    et_files_free(out);
    return -1;
}

const char *et_files_shown(const et_files *f, size_t k)
{
    return f->shown && f->shown[k] ? f->shown[k] : f->paths[k];
}

int et_files_resolve(const char *prog, const char *arg, et_files *out)
{
    memset(out, 0, sizeof *out);
    size_t cap = strlen(arg) + 40;
    char *buf = malloc(cap);
    if (!buf) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return -1;
    }
    int rc = 0, found = 0;
    if (usable(prog, arg) != 0) {
        found = -1;
    } else if (is_file(arg) && et_master_is(arg)) {
        free(buf);
        return master(prog, arg, out);
    } else if (is_file(arg)) {
        rc = add(out, arg);
    } else {
        out->is_prefix = true;
        for (size_t rank = 0; rc == 0 && (found = rank_path(prog, arg, rank, buf, cap)) == 1; rank++)
            rc = add(out, buf);
    }
    free(buf);
    if (rc != 0 || found < 0) {
        if (rc != 0)
            fprintf(stderr, "%s: out of memory\n", prog);
        et_files_free(out);
        return -1;
    }
    if (out->n == 0)
        return compact(prog, arg, out);
    return 0;
}

/* A compact workload's role traces, or the message that nothing matches. */
static int compact(const char *prog, const char *arg, et_files *out)
{
    size_t cap = strlen(arg) + 16;
    char *map = malloc(cap);
    if (!map) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return -1;
    }
    snprintf(map, cap, "%s.roles.json", arg);
    int rc = 0;
    char err[600];
    out->is_prefix = false;
    if (!is_file(map)) {
        fprintf(stderr, "%s: %s: no such file, and no %s.0.et\n", prog, arg, arg);
        rc = -1;
    } else if (vet_roles_load(map, 0, &out->roles, err, sizeof err) != 0) {
        fprintf(stderr, "%s: error: %s\n", prog, err);
        rc = -1;
    }
    for (uint32_t k = 0; rc == 0 && k < out->roles.n_roles; k++)
        if (usable(prog, out->roles.roles[k].trace) != 0 || add(out, out->roles.roles[k].trace) != 0)
            rc = -1;
    free(map);
    if (rc != 0)
        et_files_free(out);
    return rc;
}

int et_files_resolve_ranks(const char *prog, const char *arg, et_files *out)
{
    if (et_files_resolve(prog, arg, out) != 0)
        return -1;
    if (out->roles.n_roles == 0)
        return 0;
    fprintf(stderr, "%s: %s: a compact workload (%s.roles.json, %u ranks in %u traces): this command reads each "
                    "rank's own trace (generate them without --single-file)\n", prog, arg, arg, out->roles.n_ranks,
            out->roles.n_roles);
    et_files_free(out);
    return -1;
}

size_t et_files_n_ranks(const et_files *f)
{
    return f->roles.n_roles ? f->roles.n_ranks : f->n;
}

const char *et_files_rank(const et_files *f, size_t x, int64_t *peer_shift)
{
    *peer_shift = 0;
    if (f->roles.n_roles == 0)
        return f->paths[x];
    uint32_t k = f->roles.role_of[x];
    *peer_shift = (int64_t)x - (int64_t)f->roles.roles[k].rank;
    return f->paths[k];
}

size_t et_files_ranks_of(const et_files *f, size_t k)
{
    if (f->roles.n_roles == 0)
        return 1;
    size_t n = 0;
    for (uint32_t x = 0; x < f->roles.n_ranks; x++)
        n += f->roles.role_of[x] == k;
    return n;
}

void et_files_free(et_files *f)
{
    for (size_t i = 0; i < f->n; i++) {
        if (f->tmpdir)
            remove(f->paths[i]);
        free(f->paths[i]);
        if (f->shown)
            free(f->shown[i]);
    }
    if (f->tmpdir)
        rmdir(f->tmpdir);
    free(f->tmpdir);
    free(f->shown);
    free(f->paths);
    vet_roles_free(&f->roles);
    memset(f, 0, sizeof *f);
}
