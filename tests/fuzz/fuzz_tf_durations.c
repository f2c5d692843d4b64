/* Fuzz target: `vimana-et generate transformer --durations FILE`
 * (tools/transformer/tf_durations.c): the JSON reader with its key checks
 * and range checks. A refusal must come with its one-line message. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "transformer/tf_durations.h"

int fuzz_target_tf_durations(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("durations.json", data, size, path);
    struct tf_durations d;
    char msg[1024] = "";
    if (tf_durations_load(path, &d, msg, sizeof msg) != 0 && msg[0] == '\0') {
        fprintf(stderr, "fuzz_tf_durations: refused without a message\n");
        abort();
    }
    return 0;
}
