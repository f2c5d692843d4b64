/*
 * fuzz_targets.h - the fuzz targets: tests/fuzz/fuzz_<name>.c defines
 * fuzz_target_<name>, with libFuzzer's signature. One libFuzzer program
 * (fuzz_main.c: `VIMANA_FUZZ_TARGET=<name> tests/fuzz/fuzz ...`) and one
 * replay program (replay_main.c: `tests/fuzz/replay <name> FILE...`) serve
 * them all, through the table below: a new target is its file and a line
 * of FUZZ_TARGET_LIST.
 */
#ifndef VIMANA_TESTS_FUZZ_TARGETS_H
#define VIMANA_TESTS_FUZZ_TARGETS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define FUZZ_TARGET_LIST(X) \
    X(comm_group_json) \
    X(custom_map) \
    X(et_master) \
    X(et_reader) \
    X(from_json) \
    X(inf_arrivals) \
    X(jobs_spec) \
    X(kineto_json) \
    X(linkmap) \
    X(logical_dims) \
    X(memory_json) \
    X(network_faults) \
    X(network_yaml) \
    X(npu_scale) \
    X(pytorch_json) \
    X(role_map) \
    X(sim) \
    X(sweep_spec) \
    X(synth_groups) \
    X(synth_model) \
    X(system_json) \
    X(text_workload) \
    X(tf_device) \
    X(tf_durations) \
    X(topology)

#define FUZZ_TARGET_DECLARE(name) int fuzz_target_##name(const uint8_t *data, size_t size);
FUZZ_TARGET_LIST(FUZZ_TARGET_DECLARE)
#undef FUZZ_TARGET_DECLARE

typedef int (*fuzz_target_fn)(const uint8_t *data, size_t size);

typedef struct fuzz_target {
    const char *name;
    fuzz_target_fn run;
} fuzz_target;

/* Every target, in FUZZ_TARGET_LIST's order; the last entry's name is NULL. */
extern const fuzz_target fuzz_targets[];

/* The target called `name`, or NULL. */
fuzz_target_fn fuzz_target_find(const char *name);

/* Writes the targets' names to `out`, one a line. */
void fuzz_target_names(FILE *out);

#endif
