/* Fuzz target: the system JSON reader (core/config/system_config.c). */
#include "config/system_config.h"
#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "system/algorithms/registry.h"

int fuzz_target_system_json(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("system.json", data, size, path);
    sys_config cfg;
    char err[512];
    /* The simulator frees the configuration after a failed load too. */
    int rc =
        sys_config_load(path, 1.0, algo_registry_builtin_names(), &cfg, err, sizeof err, fuzz_ignore_warning, NULL);
    if (rc != 0) {
        sys_config_free(&cfg);
        return 0;
    }
    char name[64];
    for (int k = 0; k < COLL_KINDS; k++) {
        for (uint32_t i = 0; i < cfg.n_impl[k]; i++)
            algo_registry_spec_name(NULL, &cfg.impl[k][i], name, sizeof name);
        sys_config_custom_for(&cfg, (enum coll_kind)k, 0);
    }
    sys_config_free(&cfg);
    return 0;
}
