#include "util/parent_dirs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

int parent_dirs_make(const char *path, char *err, size_t err_len)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return 0;
    size_t len = (size_t)(slash - path);
    if (len >= sizeof dir) {
        snprintf(err, err_len, "%s: path too long", path);
        return -1;
    }
    memcpy(dir, path, len);
    dir[len] = '\0';
    if (dirs_make(dir) != 0) {
        snprintf(err, err_len, "%s: cannot create directory: %s", dir, strerror(errno));
        return -1;
    }
    return 0;
}

int dirs_make(char *dir)
{
    /* Past a leading '/': the root is no folder to make. An empty name
     * goes to mkdir, which refuses it. */
    for (char *p = dir[0] ? dir + 1 : dir;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        if (mkdir(dir, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = saved;
        if (saved == '\0')
            return 0;
    }
}
