/* Fuzz target: `vimana-et synth sample` (tools/synth): the model reader
 * with its key and range checks, then, for models small enough to sample
 * within the fuzzer's time limit, the sampler's own checks (sequences,
 * message pairing, tiling) and writer. */
#include <math.h>
#include <stdio.h>

#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "synth/synth_model.h"
#include "synth/synth_sample.h"

/* Nodes a sample of the model would hold per rank: local nodes (the mean
 * counts, rounded) plus one event per step, over the largest role. */
static double nodes_per_rank(const synth_model *m)
{
    double most = 0;
    for (size_t r = 0; r < m->n_roles; r++) {
        double n = 0;
        for (size_t s = 0; s < m->roles[r].n_steps; s++) {
            n += 1;
            for (int k = 0; k < SK_LOCAL_KINDS; k++)
                n += floor(m->roles[r].steps[s].count[k] + 0.5);
        }
        if (n > most)
            most = n;
    }
    return most;
}

int fuzz_target_synth_model(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX], prefix[FUZZ_PATH_MAX];
    fuzz_write("model.json", data, size, path);
    synth_model m;
    if (synth_model_read("fuzz_synth_model", path, &m) != 0)
        return 0;
    if (m.ranks <= 16 && nodes_per_rank(&m) * (double)m.ranks <= 20000)
        synth_sample_write("fuzz_synth_model", path, &m, m.ranks, 1, fuzz_path("sample", prefix));
    synth_model_free(&m);
    return 0;
}
