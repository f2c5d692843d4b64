/*
 * replay_main.c - runs a fuzz target without libFuzzer:
 *   replay TARGET FILE...   passes each file's bytes to the target once
 *   replay --list           names the targets, one a line
 * The normal (gcc, sanitizer) build links every target into this program
 * so `make check` replays the seed corpus and every saved finding.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "util/input_file.h"

static int replay(fuzz_target_fn target, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    size_t len = 0;
    char *buf = input_file_read(f, SIZE_MAX, &len);
    int failed = ferror(f) || !buf;
    fclose(f);
    if (failed) {
        fprintf(stderr, "%s: cannot read\n", path);
        free(buf);
        return -1;
    }
    target((const uint8_t *)buf, len);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        fuzz_target_names(stdout);
        return 0;
    }
    fuzz_target_fn target = argc > 1 ? fuzz_target_find(argv[1]) : NULL;
    if (!target) {
        fprintf(stderr, "usage: replay TARGET FILE... | replay --list\n%s%s%stargets:\n", argc > 1 ? "replay: no target '" : "",
                argc > 1 ? argv[1] : "", argc > 1 ? "'\n" : "");
        fuzz_target_names(stderr);
        return 2;
    }
    int status = 0;
    for (int i = 2; i < argc; i++) {
        fprintf(stderr, "replay: %s\n", argv[i]);
        if (replay(target, argv[i]) != 0)
            status = 1;
    }
    return status;
}
