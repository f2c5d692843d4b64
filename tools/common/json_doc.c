/* json_doc_check_file (json_doc.h); the parser is the base utilities'. */
#include "common/json_doc.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/cli.h"
#include "util/input_file.h"

int json_doc_check_file(const char *prog, const char *path)
{
    char why[256];
    if (input_file_check(path, why, sizeof why) != 0) {
        cli_error(prog, "error: %s: %s", path, why);
        return -1;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        cli_error(prog, "error: %s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    fclose(f);
    return 0;
}
