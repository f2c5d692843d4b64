/* Fuzz target: the remote-memory JSON reader (core/config/memory_config.c). */
#include "config/memory_config.h"
#include "fuzz_input.h"
#include "fuzz_targets.h"

int fuzz_target_memory_json(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("memory.json", data, size, path);
    mem_config cfg;
    char err[512];
    /* The simulator frees the configuration after a failed load too. */
    if (mem_config_load(path, &cfg, err, sizeof err) != 0) {
        mem_config_free(&cfg);
        return 0;
    }
    memory_type_name(cfg.type);
    mem_config_free(&cfg);
    return 0;
}
