/* Fuzz target: `vimana-et convert pytorch --simulate` (tools/pytorch): the
 * Python-compatible JSON reader, the host-trace model, the conversion, the
 * ET writer and the list scheduler on one host trace. */
#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "vimana-et/commands.h"

int fuzz_target_pytorch_json(const uint8_t *data, size_t size)
{
    char input[FUZZ_PATH_MAX], output[FUZZ_PATH_MAX];
    fuzz_write("host.json", data, size, input);
    fuzz_path("out.et", output);
    char *argv[] = {"pytorch", "--input", input, "--output", output, "--simulate", NULL};
    cmd_convert_pytorch(6, argv);
    return 0;
}
