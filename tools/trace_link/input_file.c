/* MAP_ANONYMOUS and MAP_POPULATE are not in POSIX 2008. */
#define _DEFAULT_SOURCE

#include "trace_link/input_file.h"
#include "util/input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#ifndef MAP_POPULATE
#define MAP_POPULATE 0
#endif

/* Pre-faulted, zeroed anonymous memory of at least n bytes; NULL on failure. */
static char *map_anonymous(size_t n, size_t *mapped)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t len = (n + page - 1) / page * page;
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    *mapped = len;
    return p;
}

/* Peeks at the first bytes and the size; a gzip file also reports the size
 * of its (last member's) content, modulo 2^32, in its last four bytes. */
static int inspect(const char *path, int fd, int *is_gzip, size_t *size, size_t *size_hint, tl_diag *d)
{
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        return tl_fail(d, "%s: not a regular file", path);
    unsigned char head[2] = {0, 0}, tail[4];
    *size = *size_hint = (size_t)st.st_size;
    *is_gzip = pread(fd, head, 2, 0) == 2 && head[0] == 0x1f && head[1] == 0x8b;
    if (*is_gzip && st.st_size >= 18 && pread(fd, tail, 4, st.st_size - 4) == 4) {
        size_t isize = (size_t)tail[0] | (size_t)tail[1] << 8 | (size_t)tail[2] << 16 | (size_t)tail[3] << 24;
        /* ISIZE wraps at 4 GiB: only trust it when it is not smaller than
         * the compressed size; and it is a number from the file: deflate
         * expands at most 1032-fold, so a larger claim is corrupt (the
         * buffer is pre-faulted: a 25-byte file claiming 2 GiB would take
         * that much memory before zlib reports the damage) */
        if (isize >= *size && isize / 1032 <= *size)
            *size_hint = isize;
    }
    return 0;
}

/* Maps the file followed by at least one zero byte: a zeroed anonymous
 * region is reserved first and the file mapped over its start. */
static int load_plain(const char *path, int fd, size_t size, tl_buffer *out, tl_diag *d)
{
    size_t mapped;
    char *base = map_anonymous(size + 1, &mapped);
    if (!base)
        return tl_fail(d, "%s: out of memory mapping %zu bytes", path, size);
    if (size > 0 && mmap(base, size, PROT_READ, MAP_PRIVATE | MAP_FIXED | MAP_POPULATE, fd, 0) == MAP_FAILED) {
        int e = errno;
        munmap(base, mapped);
        return tl_fail(d, "%s: cannot map: %s", path, strerror(e));
    }
    out->data = base;
    out->len = size;
    out->mapped = mapped;
    return 0;
}

static int grow(tl_buffer *b, size_t *cap)
{
    size_t ncap = *cap + *cap / 2, mapped;
    char *n = map_anonymous(ncap, &mapped);
    if (!n)
        return -1;
    memcpy(n, b->data, b->len);
    munmap(b->data, b->mapped);
    b->data = n;
    b->mapped = mapped;
    *cap = mapped;
    return 0;
}

/* zlib's message for g, without the "PATH: " it prefixes (the caller's
 * line names the path already). */
static const char *gz_message(gzFile g, const char *path, int *errnum)
{
    const char *msg = gzerror(g, errnum);
    size_t n = strlen(path);
    if (strncmp(msg, path, n) == 0 && strncmp(msg + n, ": ", 2) == 0)
        msg += n + 2;
    return msg;
}

static int load_gzip(const char *path, size_t hint, tl_buffer *out, tl_diag *d)
{
    gzFile g = gzopen(path, "rb");
    if (!g)
        return tl_fail(d, "%s: cannot open: %s", path, strerror(errno));
    gzbuffer(g, 1u << 18);
    size_t cap;
    out->len = 0;
    out->data = map_anonymous(hint + 1 > 4096 ? hint + 1 : 4096, &out->mapped);
    if (!out->data) {
        gzclose(g);
        return tl_fail(d, "%s: out of memory", path);
    }
    cap = out->mapped;
    for (;;) {
        if (cap - out->len < 2 && grow(out, &cap) != 0) {
            gzclose(g);
            tl_buffer_free(out);
            return tl_fail(d, "%s: out of memory decompressing", path);
        }
        size_t want = cap - out->len - 1;
        unsigned chunk = want > (1u << 30) ? (1u << 30) : (unsigned)want;
        int got = gzread(g, out->data + out->len, chunk);
        if (got < 0) {
            int errnum;
            tl_fail(d, "%s: gzip data is corrupt: %s", path, gz_message(g, path, &errnum));
            gzclose(g);
            tl_buffer_free(out);
            return -1;
        }
        if (got == 0)
            break;
        out->len += (size_t)got;
    }
    /* A truncated stream ends without a read error; zlib reports it here. */
    int errnum;
    const char *msg = gz_message(g, path, &errnum);
    if (errnum != Z_OK) {
        tl_fail(d, "%s: gzip data is truncated or corrupt: %s", path, msg);
        gzclose(g);
        tl_buffer_free(out);
        return -1;
    }
    gzclose(g);
    out->data[out->len] = '\0';
    return 0;
}

int tl_buffer_load(const char *path, tl_buffer *out, tl_diag *d)
{
    memset(out, 0, sizeof *out);
    /* before open(): opening a FIFO waits for a writer, and a directory or
     * device would only give a misleading reason later */
    char why[96];
    if (input_file_check(path, why, sizeof why) != 0)
        return tl_fail(d, "%s: %s", path, why);
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return tl_fail(d, "%s: cannot open: %s", path, strerror(errno));
    int is_gzip = 0;
    size_t size = 0, hint = 0;
    int rc = inspect(path, fd, &is_gzip, &size, &hint, d);
    if (rc == 0)
        rc = is_gzip ? load_gzip(path, hint, out, d) : load_plain(path, fd, size, out, d);
    close(fd);
    return rc;
}

void tl_buffer_free(tl_buffer *b)
{
    if (b->data && b->mapped)
        munmap(b->data, b->mapped);
    else
        free(b->data);
    memset(b, 0, sizeof *b);
}
