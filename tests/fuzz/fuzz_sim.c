/* Fuzz target: the whole simulator (core/workload, core/system, core/sim)
 * with the analytical backend on a two-NPU ring. The input holds the ETs of
 * NPU 0 and NPU 1 (see fuzz_split2: a 4-byte little-endian length of the
 * first, then both files); the system, network and memory files are fixed. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "fuzz_sim_run.h"

static const char system_json[] =
    "{\"scheduling-policy\": \"LIFO\", \"endpoint-delay\": 10, \"active-chunks-per-dimension\": 1,\n"
    " \"preferred-dataset-splits\": 4, \"all-reduce-implementation\": [\"ring\"],\n"
    " \"all-gather-implementation\": [\"ring\"], \"reduce-scatter-implementation\": [\"ring\"],\n"
    " \"all-to-all-implementation\": [\"ring\"], \"collective-optimization\": \"localBWAware\",\n"
    " \"local-mem-bw\": 50, \"boost-mode\": 0}\n";
static const char network_yml[] =
    "topology: [ Ring ]\nnpus_count: [ 2 ]\nbandwidth: [ 50.0 ]\nlatency: [ 500.0 ]\n";
static const char memory_json[] = "{\"memory-type\": \"NO_MEMORY_EXPANSION\"}\n";

/* The analytical backend of this build tree, unless the environment names
 * another module. */
static const char *backend_path(void)
{
    const char *env = getenv("VIMANA_FUZZ_BACKEND");
    return env && *env ? env : FUZZ_ANALYTICAL_BACKEND;
}

int fuzz_target_sim(const uint8_t *data, size_t size)
{
    fuzz_pin_backend("fuzz_sim", backend_path());
    const uint8_t *et0, *et1;
    size_t n0, n1;
    fuzz_split2(data, size, &et0, &n0, &et1, &n1);
    char path[FUZZ_PATH_MAX], prefix[FUZZ_PATH_MAX];
    char workload[FUZZ_PATH_MAX + 32], sys[FUZZ_PATH_MAX + 32], net[FUZZ_PATH_MAX + 32];
    char mem[FUZZ_PATH_MAX + 40], backend[FUZZ_PATH_MAX + 32], report[FUZZ_PATH_MAX + 32];
    fuzz_write("w.0.et", et0, n0, path);
    fuzz_write("w.1.et", et1, n1, path);
    snprintf(workload, sizeof workload, "--workload-configuration=%s", fuzz_path("w", prefix));
    snprintf(sys, sizeof sys, "--system-configuration=%s",
             fuzz_write("system.json", (const uint8_t *)system_json, sizeof system_json - 1, path));
    snprintf(net, sizeof net, "--network-configuration=%s",
             fuzz_write("network.yml", (const uint8_t *)network_yml, sizeof network_yml - 1, path));
    snprintf(mem, sizeof mem, "--remote-memory-configuration=%s",
             fuzz_write("memory.json", (const uint8_t *)memory_json, sizeof memory_json - 1, path));
    snprintf(backend, sizeof backend, "--network-backend=%s", backend_path());
    /* --report: its figures (the tensors' peak among them) are read too */
    snprintf(report, sizeof report, "--report=%s", fuzz_path("report.json", path));
    char *argv[] = {"vimana", workload, sys, net, mem, backend, report, NULL};
    fuzz_sim_run("fuzz_sim", argv);
    return 0;
}
