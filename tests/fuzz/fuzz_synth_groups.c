/* Fuzz target: the communicator groups of `vimana-et synth` (tools/synth/
 * comm_groups.c): the input read as a --groups file, then as the
 * process-group list of a PyTorch METADATA node's values, added to them. */
#include <stdlib.h>
#include <string.h>

#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "synth/comm_groups.h"

int fuzz_target_synth_groups(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("groups.json", data, size, path);
    comm_groups g;
    if (comm_groups_read("fuzz", path, &g) != 0)
        memset(&g, 0, sizeof g);
    char *text = malloc(size + 1);
    if (text) {
        memcpy(text, data, size);
        text[size] = '\0';
        (void)comm_groups_add_pytorch(&g, text);
        free(text);
    }
    comm_groups_free(&g);
    return 0;
}
