/* Fuzz target: `vimana --network-faults FILE.yaml` (core/host/network_faults.c
 * reads it, core/host/fault_links.c resolves its links, congestion_aware's
 * link_fault takes them): the input is the faults file; the simulator runs
 * a 1 MiB ring all-reduce of 8 NPUs (inputs/sweeps/workloads/ar_1MiB_8) on
 * congestion_aware over a small fat tree, so bandwidth factors, links down
 * (rerouted, in flight too) and partitions all run, with --report. */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "fuzz_sim_run.h"

/* tests/data/topology/fat_tree_8.txt: NPUs 0-3 under leaf 8, 4-7 under
 * leaf 9, both leaves up to spines 10 and 11. */
static const char topology[] =
    "12 4 12\n8 9 10 11\n"
    "0 8 400Gbps 500ns 0\n1 8 400Gbps 500ns 0\n2 8 400Gbps 500ns 0\n3 8 400Gbps 500ns 0\n"
    "4 9 400Gbps 500ns 0\n5 9 400Gbps 500ns 0\n6 9 400Gbps 500ns 0\n7 9 400Gbps 500ns 0\n"
    "8 10 800Gbps 1000ns 0\n8 11 800Gbps 1000ns 0\n9 10 800Gbps 1000ns 0\n9 11 800Gbps 1000ns 0\n";

int fuzz_target_network_faults(const uint8_t *data, size_t size)
{
    fuzz_pin_backend("fuzz_network_faults", FUZZ_CA_BACKEND);
    char path[FUZZ_PATH_MAX];
    char faults[FUZZ_PATH_MAX + 32], net[FUZZ_PATH_MAX + 32], report[FUZZ_PATH_MAX + 32];
    snprintf(faults, sizeof faults, "--network-faults=%s", fuzz_write("faults.yaml", data, size, path));
    snprintf(net, sizeof net, "--network-configuration=%s",
             fuzz_write("fat_tree.txt", (const uint8_t *)topology, sizeof topology - 1, path));
    snprintf(report, sizeof report, "--report=%s", fuzz_path("report.json", path));
    char *argv[] = {"vimana", "--workload-configuration=" FUZZ_SRCDIR "/inputs/sweeps/workloads/ar_1MiB_8",
                    "--system-configuration=" FUZZ_SRCDIR "/inputs/system/ring.json", net,
                    "--network-backend=" FUZZ_CA_BACKEND, faults, report, NULL};
    fuzz_sim_run("fuzz_network_faults", argv);
    return 0;
}
