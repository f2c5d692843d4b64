/* Content hash and comparison of files (util/file_digest.h). */
#include "util/file_digest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/hash.h"
#include "util/input_file.h"

/* Two blocks live on the stack while comparing. */
enum { BLOCK = 1 << 15 };

/* Opens a regular file for reading; NULL for anything else (a device
 * would be read for ever). */
static FILE *open_regular(const char *path)
{
    char why[128];
    if (input_file_check(path, why, sizeof why) != 0)
        return NULL;
    return fopen(path, "rb");
}

/* The whole file into memory when it has at most keep_max bytes (by
 * fstat, then checked by reading to the end). NULL: too large, or it
 * changed size while read. */
static unsigned char *read_small(FILE *f, uint64_t keep_max, uint64_t *len)
{
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || st.st_size < 0 || (uint64_t)st.st_size > keep_max)
        return NULL;
    size_t size = (size_t)st.st_size;
    unsigned char *buf = malloc(size + 1); /* + 1: detects growth, and malloc(0) */
    if (!buf)
        return NULL;
    size_t got = fread(buf, 1, size + 1, f);
    if (got != size || ferror(f)) {
        free(buf);
        rewind(f);
        return NULL;
    }
    *len = size;
    return buf;
}

int file_digest_keep(const char *path, uint64_t keep_max, file_digest *out, unsigned char **kept)
{
    FILE *f = open_regular(path);
    if (kept)
        *kept = NULL;
    if (!f)
        return -1;
    *out = (file_digest){.hash = HASH_FNV1A_SEED};
    uint64_t len;
    unsigned char *small = kept ? read_small(f, keep_max, &len) : NULL;
    if (small) {
        /* A kept file is in memory, so its length fits a size_t. */
        out->hash = hash_fnv1a(out->hash, small, (size_t)len);
        out->size = len;
        *kept = small;
        fclose(f);
        return 0;
    }
    unsigned char buf[BLOCK];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
        out->hash = hash_fnv1a(out->hash, buf, got);
        out->size += got;
    }
    int rc = ferror(f) ? -1 : 0;
    fclose(f);
    return rc;
}

int file_digest_of(const char *path, file_digest *out)
{
    return file_digest_keep(path, 0, out, NULL);
}

bool file_same_bytes(const char *a, const char *b)
{
    FILE *fa = open_regular(a), *fb = fa ? open_regular(b) : NULL;
    bool same = fa && fb;
    unsigned char ba[BLOCK], bb[BLOCK];
    while (same) {
        size_t na = fread(ba, 1, BLOCK, fa), nb = fread(bb, 1, BLOCK, fb);
        if (na != nb || memcmp(ba, bb, na) != 0 || ferror(fa) || ferror(fb))
            same = false;
        else if (na == 0)
            break;
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}
