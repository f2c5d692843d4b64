/* Fuzz target: `vimana-et linkmap` (tools/linkmap): the report reader with
 * its network and link checks, then the SVG writer on what it accepted. */
#include <stdio.h>

#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "linkmap/link_model.h"
#include "linkmap/linkmap_svg.h"

int fuzz_target_linkmap(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("report.json", data, size, path);
    link_model m;
    char err[LM_MSG_MAX];
    if (link_model_load(path, &m, err) == 0) {
        link_model_sort(&m);
        FILE *out = fopen("/dev/null", "w");
        if (out) {
            linkmap_svg_write(out, &m, 40);
            fclose(out);
        }
    }
    link_model_free(&m);
    return 0;
}
