/*
 * output_file.c - write to PATH.part, rename on success.
 */
#include "timeline/output_file.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Output is written in many small pieces; a large buffer keeps the
 * number of write calls low for big logs. */
#define OUTPUT_BUFFER (1u << 20)

int output_file_open(output_file *o, const char *path, char err[OUTPUT_FILE_MSG_MAX])
{
    o->path = path;
    o->part_path = NULL;
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        return 0;
    }
    size_t len = strlen(path);
    o->part_path = malloc(len + sizeof ".part");
    if (!o->part_path) {
        snprintf(err, OUTPUT_FILE_MSG_MAX, "out of memory");
        return -1;
    }
    memcpy(o->part_path, path, len);
    memcpy(o->part_path + len, ".part", sizeof ".part");
    o->f = fopen(o->part_path, "w");
    if (!o->f) {
        snprintf(err, OUTPUT_FILE_MSG_MAX, "%s: cannot create: %s", path, strerror(errno));
        free(o->part_path);
        o->part_path = NULL;
        return -1;
    }
    setvbuf(o->f, NULL, _IOFBF, OUTPUT_BUFFER);
    return 0;
}

int output_file_commit(output_file *o, char err[OUTPUT_FILE_MSG_MAX])
{
    if (!o->part_path) {
        if (fflush(o->f) != 0 || ferror(o->f)) {
            snprintf(err, OUTPUT_FILE_MSG_MAX, "<stdout>: write failed: %s", strerror(errno));
            return -1;
        }
        return 0;
    }
    int rc = 0;
    int failed = ferror(o->f);
    if (fclose(o->f) != 0 || failed) {
        snprintf(err, OUTPUT_FILE_MSG_MAX, "%s: write failed: %s", o->part_path, strerror(errno ? errno : EIO));
        rc = -1;
    } else if (rename(o->part_path, o->path) != 0) {
        snprintf(err, OUTPUT_FILE_MSG_MAX, "%s: cannot rename to %s: %s", o->part_path, o->path, strerror(errno));
        rc = -1;
    }
    if (rc != 0)
        remove(o->part_path);
    free(o->part_path);
    o->part_path = NULL;
    o->f = NULL;
    return rc;
}

void output_file_discard(output_file *o)
{
    if (!o->part_path)
        return;
    fclose(o->f);
    remove(o->part_path);
    free(o->part_path);
    o->part_path = NULL;
    o->f = NULL;
}
