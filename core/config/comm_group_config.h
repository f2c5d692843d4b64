/* comm_group_config.h - communicator groups: {"<id>": [npu, ...], ...}
 * (the reference's behaviour, docs/simulator.md). The member order is kept: it is the
 * order of the group's ring. */
#ifndef VIMANA_CONFIG_COMM_GROUP_CONFIG_H
#define VIMANA_CONFIG_COMM_GROUP_CONFIG_H

#include <stddef.h>
#include <stdint.h>

typedef struct comm_group_def {
    int64_t id;          /* key in the JSON (> 0) */
    uint32_t *npus;      /* members in JSON order */
    uint32_t n_npus;
} comm_group_def;

typedef struct comm_group_config {
    comm_group_def *groups;
    size_t n_groups;
} comm_group_config;

/* Reads the file and checks every member is in [0, total_npus) and appears
 * once. Returns 0, or -1 with a one-line message naming the file and group. */
int comm_group_config_load(const char *path, uint32_t total_npus, comm_group_config *out,
                           char *err, size_t err_len);
void comm_group_config_free(comm_group_config *cfg);

#endif
