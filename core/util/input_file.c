/*
 * input_file.c - see input_file.h.
 */
#include "util/input_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *file_kind(mode_t mode)
{
    if (S_ISCHR(mode))
        return "character device";
    if (S_ISBLK(mode))
        return "block device";
    if (S_ISFIFO(mode))
        return "pipe";
    if (S_ISSOCK(mode))
        return "socket";
    return "special file";
}

int input_file_check(const char *path, char *why, size_t why_len)
{
    struct stat st;
    /* stat follows symbolic links: a link to a regular file is fine. */
    if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
        return 0;
    if (S_ISDIR(st.st_mode))
        snprintf(why, why_len, "is a directory, expected a file");
    else
        snprintf(why, why_len, "not a regular file (%s)", file_kind(st.st_mode));
    return -1;
}

FILE *input_file_open(const char *path, const char *shown, const char *mode, char *msg, size_t msg_len)
{
    char why[128];
    if (input_file_check(path, why, sizeof why) != 0) {
        snprintf(msg, msg_len, "%s: %s", shown, why);
        return NULL;
    }
    errno = 0;
    FILE *f = fopen(path, mode);
    if (!f)
        snprintf(msg, msg_len, "%s: cannot open: %s", shown, errno ? strerror(errno) : "unknown error");
    return f;
}

char *input_file_read(FILE *f, size_t limit, size_t *len)
{
    char *text = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            if (cap == limit)
                break;
            size_t grown = cap ? cap * 2 : 65536;
            grown = grown > limit || grown < cap ? limit : grown;
            char *bigger = realloc(text, grown);
            if (!bigger) {
                free(text);
                return NULL;
            }
            text = bigger;
            cap = grown;
        }
        size_t got = fread(text + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;   /* the end, or an error: ferror tells */
    }
    *len = n;
    return text;
}
