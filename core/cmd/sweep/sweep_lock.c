/* The results folder's lock (sweep_lock.h). */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* flock */

#include "cmd/sweep/sweep_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "util/msg_escape.h"

/* The holder's process id as it wrote it, for the message; 0 when the
 * file holds none yet (the holder is between flock and write). */
static long holder_pid(int fd)
{
    char text[32];
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    if (n <= 0)
        return 0;
    text[n] = '\0';
    char *end;
    long pid = strtol(text, &end, 10);
    return end != text && pid > 0 ? pid : 0;
}

/* Writes our process id into the lock file, for the refusal a second
 * sweep prints; the lock itself is the flock, not the text. */
static void write_pid(int fd)
{
    char text[32];
    int n = snprintf(text, sizeof text, "%ld\n", (long)getpid());
    /* A failure only leaves the refusal without a process id. */
    bool written = ftruncate(fd, 0) == 0 && pwrite(fd, text, (size_t)n, 0) == n;
    (void)written;
}

int sweep_lock_take(const char *dir, char *why, size_t len)
{
    char shown[512];
    msg_escape(dir, shown, sizeof shown);
    size_t n = strlen(dir) + sizeof "/" SWEEP_LOCK_NAME;
    char *path = malloc(n);
    if (!path) {
        snprintf(why, len, "%s: out of memory", shown);
        return -1;
    }
    snprintf(path, n, "%s/%s", dir, SWEEP_LOCK_NAME);
    /* Close-on-exec: a point's vimana must not hold the lock after us. */
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    free(path);
    if (fd < 0) {
        snprintf(why, len, "%s/%s: cannot open: %s", shown, SWEEP_LOCK_NAME, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
        write_pid(fd);
        return fd;
    }
    int e = errno;
    long pid = e == EWOULDBLOCK ? holder_pid(fd) : 0;
    close(fd);
    if (e != EWOULDBLOCK)
        snprintf(why, len, "%s/%s: cannot lock: %s", shown, SWEEP_LOCK_NAME, strerror(e));
    else if (pid)
        snprintf(why, len, "%s: another vimana sweep is writing into this folder (process %ld); wait for it or "
                 "choose another --out", shown, pid);
    else
        snprintf(why, len, "%s: another vimana sweep is writing into this folder; wait for it or choose another --out",
                 shown);
    return -1;
}
