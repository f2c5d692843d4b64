/* fopencookie: a stream that writes to two places, so that every writer of
 * the run (report, warnings, backends' log lines) is logged unchanged. */
#define _GNU_SOURCE
#include "sim/log_files.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "util/parent_dirs.h"

/* Creates the folder and its missing parents, like mkdir -p. */
static int make_folder(const char *folder, char *err, size_t len)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s", folder) >= (int)sizeof path) {
        snprintf(err, len, "--logging-folder: path too long");
        return -1;
    }
    if (dirs_make(path) != 0) {
        snprintf(err, len, "--logging-folder: %s: cannot create: %s", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (stat(folder, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, len, "--logging-folder: %s: not a directory", folder);
        return -1;
    }
    return 0;
}

static FILE *open_in(const char *folder, const char *name, char *err, size_t len)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", folder, name);
    FILE *f = fopen(path, "w");
    if (!f)
        snprintf(err, len, "--logging-folder: %s: cannot create: %s", path, strerror(errno));
    return f;
}

typedef struct tee {
    FILE *first, *second;
} tee;

static ssize_t tee_write(void *cookie, const char *buf, size_t size)
{
    tee *t = cookie;
    if (fwrite(buf, 1, size, t->first) != size || fwrite(buf, 1, size, t->second) != size)
        return -1;
    return (ssize_t)size;
}

static int tee_close(void *cookie)
{
    free(cookie);
    return 0;
}

static FILE *tee_open(FILE *first, FILE *second)
{
    tee *t = malloc(sizeof *t);
    if (!t)
        return NULL;
    *t = (tee){first, second};
    FILE *f = fopencookie(t, "w", (cookie_io_functions_t){.write = tee_write, .close = tee_close});
    if (!f) {
        free(t);
        return NULL;
    }
    /* line by line, so that log.log keeps stdout and stderr in order */
    setvbuf(f, NULL, _IOLBF, 0);
    return f;
}

int log_files_open(log_files *lf, const char *folder, FILE *out, FILE *log, char *err, size_t err_len)
{
    *lf = (log_files){.out = out, .log = log, .user_out = out, .user_log = log};
    if (!folder)
        return 0;
    if (make_folder(folder, err, err_len) != 0)
        return -1;
    if (!(lf->all = open_in(folder, "log.log", err, err_len)) ||
        !(lf->errors = open_in(folder, "err.log", err, err_len)))
        return -1;
    lf->out = tee_open(out, lf->all);
    lf->log = tee_open(log, lf->all);
    if (!lf->out || !lf->log) {
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    return 0;
}

static int close_one(FILE *f)
{
    if (!f)
        return 0;
    bool bad = ferror(f) != 0;
    return (fclose(f) != 0 || bad) ? -1 : 0;
}

int log_files_close(log_files *lf)
{
    int rc = 0;
    if (lf->out != lf->user_out)
        rc |= close_one(lf->out);
    if (lf->log != lf->user_log)
        rc |= close_one(lf->log);
    rc |= close_one(lf->all);
    rc |= close_one(lf->errors);
    *lf = (log_files){.out = lf->user_out, .log = lf->user_log, .user_out = lf->user_out, .user_log = lf->user_log};
    return rc;
}
