/* Fuzz target: `vimana sweep SPEC.yaml` (core/cmd/sweep/sweep_spec.c,
 * sweep_points.c, sweep_config.c): the sweep file reader, the grid
 * expansion, the check of every axis key against the base system JSON and
 * network YAML (a fixed pair written beside the input, which sweep files
 * name as system.json and network.yml), and the point files of the first
 * point (written to a folder of their own), and the first point's
 * generator command line (sweep_genspec.c) when it generates its
 * workload. Nothing is run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "cmd/sweep/sweep_config.h"
#include "cmd/sweep/sweep_genspec.h"
#include "cmd/sweep/sweep_points.h"
#include "cmd/sweep/sweep_spec.h"

static const char SYSTEM[] = "{\"scheduling-policy\": \"LIFO\", \"endpoint-delay\": 10,\n"
                             " \"active-chunks-per-dimension\": 1, \"preferred-dataset-splits\": 4,\n"
                             " \"all-reduce-implementation\": [\"ring\"], \"all-gather-implementation\": [\"ring\"],\n"
                             " \"reduce-scatter-implementation\": [\"ring\"], \"all-to-all-implementation\": [\"direct\"],\n"
                             " \"collective-optimization\": \"localBWAware\", \"local-mem-bw\": 1600}\n";
static const char NETWORK[] = "topology: [ Ring ]\nnpus_count: [ 8 ]\nbandwidth: [ 50.0 ]  # GB/s\nlatency: [ 500.0 ]  # ns\n";

static void write_base(void)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("system.json", (const uint8_t *)SYSTEM, sizeof SYSTEM - 1, path);
    fuzz_write("network.yml", (const uint8_t *)NETWORK, sizeof NETWORK - 1, path);
    /* The first point's files go to a folder of their own, so that they
     * never replace the base pair. */
    mkdir(fuzz_path("point", path), 0700);
}

int fuzz_target_sweep_spec(const uint8_t *data, size_t size)
{
    static int base_written;
    if (!base_written) {
        write_base();
        base_written = 1;
    }
    char path[FUZZ_PATH_MAX], dir[FUZZ_PATH_MAX], err[1024];
    fuzz_write("sweep.yaml", data, size, path);
    sweep_spec s;
    if (sweep_spec_load(path, &s, err, sizeof err) != 0) {
        sweep_spec_free(&s); /* what was read before the error */
        return 0;
    }
    size_t *rows = NULL, n_points = 0;
    if (sweep_points_expand(&s, &rows, &n_points, err, sizeof err) == 0 && sweep_config_check(&s, err, sizeof err) == 0 &&
        n_points > 0) {
        sweep_point_files files;
        memset(&files, 0, sizeof files);
        if (sweep_config_point(&s, rows, fuzz_path("point", dir), &files, err, sizeof err) == 0)
            sweep_point_files_free(&files);
        if (s.n_generate) {
            sweep_gen_point g;
            sweep_gen_point_of(&s, rows, &g);
            char **args = sweep_gen_point_args(&s, &g);
            for (size_t i = 0; args[i]; i++)
                free(args[i]);
            free(args);
            free(sweep_gen_point_text(&s, &g));
        }
    }
    free(rows);
    sweep_spec_free(&s);
    return 0;
}
