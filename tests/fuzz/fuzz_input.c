#include "fuzz_input.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* libFuzzer's entry point takes no context argument, so the scratch
 * directory has to live in a process-wide variable. */
static char scratch_dir[4096];

/* Removes the files in `dir`, then `dir`. */
static void remove_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char p[sizeof scratch_dir + 256];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

static void remove_scratch(void)
{
    remove_dir(scratch_dir);
}

/* libFuzzer leaves with _Exit() after a finding or a timeout, so atexit
 * handlers do not run: remove the directories of processes that are gone. */
static void remove_stale_scratch(const char *tmp)
{
    DIR *d = opendir(tmp);
    if (!d)
        return;
    struct dirent *e;
    char p[sizeof scratch_dir];
    while ((e = readdir(d)) != NULL) {
        long pid;
        if (sscanf(e->d_name, "vimana-fuzz-%ld-", &pid) != 1 || pid <= 0)
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        snprintf(p, sizeof p, "%s/%s", tmp, e->d_name);
        remove_dir(p);
    }
    closedir(d);
}

static void make_scratch(void)
{
    if (scratch_dir[0])
        return;
    /* A file per execution is only cheap in memory: /dev/shm is tens of
     * times faster than a disk-backed /tmp. VIMANA_FUZZ_TMPDIR overrides. */
    const char *tmp = getenv("VIMANA_FUZZ_TMPDIR");
    if (!tmp || !*tmp)
        tmp = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    remove_stale_scratch(tmp);
    snprintf(scratch_dir, sizeof scratch_dir, "%s/vimana-fuzz-%ld-XXXXXX", tmp, (long)getpid());
    if (!mkdtemp(scratch_dir)) {
        perror("fuzz: mkdtemp");
        abort();
    }
    atexit(remove_scratch);
}

const char *fuzz_path(const char *name, char path[FUZZ_PATH_MAX])
{
    make_scratch();
    snprintf(path, FUZZ_PATH_MAX, "%s/%s", scratch_dir, name);
    return path;
}

const char *fuzz_write(const char *name, const uint8_t *data, size_t size, char path[FUZZ_PATH_MAX])
{
    fuzz_path(name, path);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) {
        perror(path);
        abort();
    }
    while (size > 0) {
        ssize_t n = write(fd, data, size);
        if (n <= 0) {
            perror(path);
            abort();
        }
        data += n;
        size -= (size_t)n;
    }
    close(fd);
    return path;
}

void fuzz_split2(const uint8_t *data, size_t size, const uint8_t **p0, size_t *n0, const uint8_t **p1,
                 size_t *n1)
{
    if (size < 4) {
        *p0 = data;
        *n0 = 0;
        *p1 = data;
        *n1 = size;
        return;
    }
    size_t len = (size_t)data[0] | (size_t)data[1] << 8 | (size_t)data[2] << 16 | (size_t)data[3] << 24;
    data += 4;
    size -= 4;
    if (len > size)
        len = size;
    *p0 = data;
    *n0 = len;
    *p1 = data + len;
    *n1 = size - len;
}

void fuzz_ignore_warning(void *ctx, const char *message)
{
    (void)ctx;
    (void)message;
}
