/* fuzz_targets.c - the table of fuzz targets (fuzz_targets.h). */
#include "fuzz_targets.h"

#include <string.h>

#define FUZZ_TARGET_ENTRY(name) {#name, fuzz_target_##name},
const fuzz_target fuzz_targets[] = {FUZZ_TARGET_LIST(FUZZ_TARGET_ENTRY){NULL, NULL}};

fuzz_target_fn fuzz_target_find(const char *name)
{
    for (const fuzz_target *t = fuzz_targets; name && t->name; t++)
        if (strcmp(t->name, name) == 0)
            return t->run;
    return NULL;
}

void fuzz_target_names(FILE *out)
{
    for (const fuzz_target *t = fuzz_targets; t->name; t++)
        fprintf(out, "%s\n", t->name);
}
