/* Fuzz target: `vimana-et generate transformer --device FILE`
 * (tools/transformer/tf_device_file.c): the device file's JSON reader, its
 * key and range checks and the GEMM calibration they feed. A refusal must
 * come with its one-line message; an accepted device must be usable. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "transformer/tf_device_file.h"

int fuzz_target_tf_device(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("device.json", data, size, path);
    struct tf_device d;
    char msg[1024] = "";
    if (tf_device_load(path, &d, msg, sizeof msg) != 0) {
        if (msg[0] == '\0') {
            fprintf(stderr, "fuzz_tf_device: refused without a message\n");
            abort();
        }
        return 0;
    }
    if (!(d.gemm_efficiency > 0 && d.gemm_efficiency <= 1) || !isfinite(d.peak_flops) || d.sms == 0) {
        fprintf(stderr, "fuzz_tf_device: accepted an unusable device\n");
        abort();
    }
    return 0;
}
