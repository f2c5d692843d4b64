/*
 * replay_main.c - runs a fuzz target without libFuzzer: every argument is a
 * file whose bytes are passed to LLVMFuzzerTestOneInput once. The normal
 * (gcc, sanitizer) build links each target with this main so `make check`
 * replays the seed corpus and every saved finding.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_input.h"

static int replay(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap) {
            unsigned char *bigger = realloc(buf, cap * 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    int failed = ferror(f) || !buf;
    fclose(f);
    if (failed) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(buf);
        return -1;
    }
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int status = 0;
    for (int i = 1; i < argc; i++) {
        fprintf(stderr, "replay: %s\n", argv[i]);
        if (replay(argv[i]) != 0)
            status = 1;
    }
    return status;
}
