/* The parallelism modes of ASTRA-sim 1.0 text workloads: which convert, which
 * are refused and why, and which may serve as a HYBRID_CUSTOMIZED layer's
 * policy. */
#include <string.h>

#include "text_workload.h"

/* The transformer modes convert with --model-parallel-npu-group (the
 * groups become communicator groups, see text_groups.h). */

static const struct text_mode_info modes[] = {
    {TEXT_MODE_MICRO, "MICRO", NULL, false, {false, false, true}},
    {TEXT_MODE_DATA, "DATA", NULL, true, {false, false, true}},
    {TEXT_MODE_DATA_REORDER, "DATA_REORDER", NULL, false, {false, false, true}},
    {TEXT_MODE_MODEL, "MODEL", NULL, true, {true, true, false}},
    {TEXT_MODE_HYBRID_DATA_MODEL, "HYBRID_DATA_MODEL", NULL, true, {true, true, true}},
    {TEXT_MODE_HYBRID_MODEL_DATA, "HYBRID_MODEL_DATA", NULL, true, {true, true, true}},
    {TEXT_MODE_HYBRID_CUSTOMIZED, "HYBRID_CUSTOMIZED", NULL, false, {true, true, true}},
    {TEXT_MODE_HYBRID_DLRM, "HYBRID_DLRM", NULL, false, {false, false, true}},
    {TEXT_MODE_HYBRID_DLRM_ENHANCED, "HYBRID_DLRM_ENHANCED", NULL, false, {false, false, true}},
    {TEXT_MODE_DISTRIBUTED_INFERENCE, "DISTRIBUTED_INFERENCE", NULL, false, {true, true, false}},
    {TEXT_MODE_HYBRID_TRANSFORMER, "HYBRID_TRANSFORMER", NULL, false, {true, true, true}},
    {TEXT_MODE_HYBRID_TRANSFORMER_FWD_IN_BCKWD, "HYBRID_TRANSFORMER_FWD_IN_BCKWD", NULL, false, {true, true, true}},
};

const struct text_mode_info *text_mode_find(const char *s, size_t len)
{
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (strlen(modes[i].keyword) == len && memcmp(modes[i].keyword, s, len) == 0)
            return &modes[i];
    return NULL;
}

const struct text_mode_info *text_mode_get(enum text_mode mode)
{
    for (size_t i = 0; i < sizeof modes / sizeof modes[0]; i++)
        if (modes[i].mode == mode)
            return &modes[i];
    return NULL;
}

const char *text_mode_converted_list(void)
{
    return "MICRO, DATA, DATA_REORDER, MODEL, HYBRID_DATA_MODEL, HYBRID_MODEL_DATA, "
           "HYBRID_CUSTOMIZED, HYBRID_DLRM, HYBRID_DLRM_ENHANCED, DISTRIBUTED_INFERENCE, HYBRID_TRANSFORMER or "
           "HYBRID_TRANSFORMER_FWD_IN_BCKWD";
}
