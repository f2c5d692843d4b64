#include "etcmd/et_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/input_file.h"

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int add(et_files *f, const char *path)
{
    char **p = realloc(f->paths, (f->n + 1) * sizeof *p);
    if (!p)
        return -1;
    f->paths = p;
    if (!(f->paths[f->n] = strdup(path)))
        return -1;
    f->n++;
    return 0;
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
    if (out->n == 0) {
        /* a compact workload (vimana-et generate transformer --single-file):
         * its traces are ETs of their own, its role map is the simulator's */
        buf = malloc(cap + 16);
        if (buf)
            snprintf(buf, cap + 16, "%s.roles.json", arg);
        if (buf && is_file(buf))
            fprintf(stderr, "%s: %s: a compact workload (%s): name one of the traces it lists, each an ET of its "
                            "own\n", prog, arg, buf);
        else
            fprintf(stderr, "%s: %s: no such file, and no %s.0.et\n", prog, arg, arg);
        free(buf);
        et_files_free(out);
        return -1;
    }
    return 0;
}

void et_files_free(et_files *f)
{
    for (size_t i = 0; i < f->n; i++)
        free(f->paths[i]);
    free(f->paths);
    memset(f, 0, sizeof *f);
}
