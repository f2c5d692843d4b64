/* memory_config.h - the remote-memory JSON (the reference's behaviour, docs/simulator.md). */
#ifndef VIMANA_CONFIG_MEMORY_CONFIG_H
#define VIMANA_CONFIG_MEMORY_CONFIG_H

#include <stddef.h>
#include <stdint.h>

enum memory_type {
    MEM_NO_EXPANSION,
    MEM_PER_NPU,
    MEM_PER_NODE,
    MEM_POOL,
};

typedef struct mem_config {
    char *path;
    enum memory_type type;
    uint64_t num_nodes;
    uint64_t num_npus_per_node;
    uint64_t latency_ns;        /* remote-mem-latency */
    uint64_t bytes_per_ns;      /* remote-mem-bw */
} mem_config;

/* Returns 0, or -1 with a one-line message naming the file and the key. */
int mem_config_load(const char *path, mem_config *out, char *err, size_t err_len);
void mem_config_free(mem_config *cfg);
const char *memory_type_name(enum memory_type t);

#endif
