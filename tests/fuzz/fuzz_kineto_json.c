/* Fuzz target: the Kineto device-trace reader of `vimana-et link`
 * (tools/trace_link/kineto_trace.c) and the link stages that only read it:
 * exclusive durations, inter-thread dependencies, GPU launchers and
 * synchronisation edges. */
#include "fuzz_input.h"
#include "fuzz_targets.h"
#include "trace_link/exclusive_dur.h"
#include "trace_link/gpu_launcher.h"
#include "trace_link/inter_thread.h"
#include "trace_link/kineto_trace.h"
#include "trace_link/sync_dep.h"

int fuzz_target_kineto_json(const uint8_t *data, size_t size)
{
    char path[FUZZ_PATH_MAX];
    fuzz_write("kineto.json", data, size, path);
    tl_diag d;
    tl_diag_init(&d, "fuzz", TL_ERROR);
    kineto_trace k;
    launcher_stats ls = {0};
    sync_edges edges = {0};
    if (kineto_trace_load(&k, path, &d) == 0 && exclusive_durations(&k, &d) == 0 &&
        inter_thread_deps(&k, &d) == 0 && find_gpu_launchers(&k, &ls, &d) == 0)
        find_sync_edges(&k, &edges, &d);
    sync_edges_free(&edges);
    kineto_trace_free(&k);
    return 0;
}
