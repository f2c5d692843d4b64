/*
 * fuzz_main.c - libFuzzer's entry points for every fuzz target of
 * fuzz_targets.h in one program: VIMANA_FUZZ_TARGET names the target
 * (`VIMANA_FUZZ_TARGET=sim tests/fuzz/fuzz -max_total_time=60 CORPUS`;
 * tests/fuzz/run-fuzzers sets it). Read at each input rather than kept:
 * a lookup among a few dozen names costs nothing beside a target's work.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_targets.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *name = getenv("VIMANA_FUZZ_TARGET");
    if (!fuzz_target_find(name)) {
        fprintf(stderr, "fuzz: set VIMANA_FUZZ_TARGET to one of these targets%s%s%s:\n", name ? " (not '" : "",
                name ? name : "", name ? "')" : "");
        fuzz_target_names(stderr);
        exit(2);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_target_find(getenv("VIMANA_FUZZ_TARGET"))(data, size);
}
