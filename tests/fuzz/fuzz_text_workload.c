/* Fuzz target: `vimana-et convert text` (tools/convert_text): parse an
 * ASTRA-sim 1.0 text workload, plan it and write the ETs of two NPUs. */
#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "vimana-et/commands.h"

int fuzz_target_text_workload(const uint8_t *data, size_t size)
{
    char input[FUZZ_PATH_MAX], output[FUZZ_PATH_MAX];
    fuzz_write("workload.txt", data, size, input);
    fuzz_path("out", output);
    char *argv[] = {"text", "--input", input, "--output", output, "--num-npus", "2", "--num-passes", "1", NULL};
    cmd_convert_text(9, argv);
    return 0;
}
