/* Fuzz target: `vimana-et from-json` (tools/etcmd/json_in.c, json_to_et.c).
 * Whatever from-json accepts it writes as an ET, so the written file must
 * read back without error: anything else is reported as a crash. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "vimana-et/commands.h"
#include "vimana/et.h"

static void read_back(const char *path)
{
    vet_error err;
    vet_reader *r = vet_reader_open(path, &err);
    if (!r) {
        fprintf(stderr, "fuzz_from_json: from-json wrote an ET the reader refuses: %s\n", err.msg);
        abort();
    }
    vet_reader_accept_unknown_types(r, true);
    const vet_node *node;
    int rc;
    while ((rc = vet_reader_next(r, &node, &err)) == 1)
        continue;
    if (rc != 0) {
        fprintf(stderr, "fuzz_from_json: from-json wrote an ET the reader refuses: %s\n", err.msg);
        abort();
    }
    vet_reader_close(r);
}

int fuzz_target_from_json(const uint8_t *data, size_t size)
{
    char input[FUZZ_PATH_MAX], output[FUZZ_PATH_MAX];
    fuzz_write("trace.json", data, size, input);
    fuzz_path("out.et", output);
    remove(output);
    char *argv[] = {"from-json", input, "-o", output, NULL};
    if (cmd_from_json(4, argv) == 0)
        read_back(output);
    return 0;
}
