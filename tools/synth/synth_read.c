#include "synth/synth_read.h"

#include <stdbool.h>

#include "common/cli.h"

int synth_read_nodes(const char *prog, const char *path, synth_node_fn add, void *ctx)
{
    vet_error err;
    vet_reader *r = vet_reader_open(path, &err);
    if (!r) {
        cli_error(prog, "error: %s", err.msg);
        return -1;
    }
    const vet_node *n;
    bool out_of_memory = false;
    int rc = 0;
    while (!out_of_memory && (rc = vet_reader_next(r, &n, &err)) == 1)
        out_of_memory = add(ctx, n) != 0;
    vet_reader_close(r);
    if (out_of_memory) {
        cli_error(prog, "out of memory");
        return -1;
    }
    if (rc < 0) {
        cli_error(prog, "error: %s", err.msg);
        return -1;
    }
    return 0;
}
