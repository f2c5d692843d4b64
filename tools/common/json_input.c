#include "common/json_input.h"

#include "common/cli.h"
#include "util/json_doc.h"

int json_input_load(const char *prog, const char *path, size_t max_bytes, const char *too_big, json_object **root)
{
    char msg[512];
    if (json_doc_load(path, path, max_bytes, too_big, 0, root, msg, sizeof msg) != 0) {
        cli_error(prog, "error: %s", msg);
        return -1;
    }
    return 0;
}
