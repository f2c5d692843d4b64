#include "fuzz_sim_run.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim/options.h"
#include "sim/run.h"

void fuzz_sim_run(const char *target, char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    sim_options opt;
    char err[512];
    if (sim_options_parse(argc, argv, &opt, err, sizeof err) != OPTIONS_RUN) {
        fprintf(stderr, "%s: %s\n", target, err);
        abort();
    }
    const char *verbose = getenv("VIMANA_FUZZ_VERBOSE");
    FILE *out = verbose && *verbose == '1' ? stderr : fopen("/dev/null", "w");
    if (!out)
        abort();
    sim_run(&opt, out, out);
    if (out != stderr)
        fclose(out);
}

void fuzz_pin_backend(const char *target, const char *path)
{
    static void *pinned;
    if (pinned)
        return;
    pinned = dlopen(path, RTLD_NOW);
    if (!pinned) {
        fprintf(stderr, "%s: cannot load the backend %s: %s\n", target, path, dlerror());
        abort();
    }
}
