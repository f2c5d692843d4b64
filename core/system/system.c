/* Per-NPU system state: queues, allocators, communicator groups, pools. */
#include "system/system.h"

#include <stdlib.h>
#include <string.h>

#include "system/custom.h"
#include "system/msg_match.h"
#include "system/remote_mem.h"
#include "system/shared_bus.h"

/* Queue dimensions: the network's, or more when an implementation list
 * places a one* ring beyond them. */
static uint32_t queue_dims(const sim *s)
{
    uint32_t dims = s->n_dims;
    for (int k = 0; k < COLL_KINDS; k++)
        if (s->cfg.n_impl[k] > dims)
            dims = s->cfg.n_impl[k];
    return dims;
}

/* A configured group, on member `index`: its member list is the
 * configuration's (read and range-checked by comm_group_config_load),
 * shared by all its members rather than copied for each. */
static int add_config_group(sim *s, uint32_t npu, const comm_group_def *def, uint32_t index)
{
    npu_sys *sys = &s->sys[npu];
    npu_group *grown = realloc(sys->groups, (sys->n_groups + 1) * sizeof *grown);
    if (!grown) {
        sim_fail(s, "out of memory");
        return -1;
    }
    sys->groups = grown;
    npu_group *g = &sys->groups[sys->n_groups++];
    *g = (npu_group){.key = def->id, .internal_id = def->id, .members = def->npus, .n_members = def->n_npus,
                     .my_index = index, .num_streams = (uint64_t)def->id * 1000000u, .borrowed = true};
    return 0;
}

int system_init(sim *s)
{
    /* Whole cache lines: every stream then starts one (system.h). Blocks
     * of two streams per NPU (256 to 32768 of them): at thousands of NPUs
     * a block spans megabytes, which the slab backs with huge pages, so
     * that the look-ahead's prefetch of a cold stream (npu_events.c,
     * msg_match.c) does not wait for a page walk first. */
    size_t per_block = (size_t)s->n_npus * 2;
    per_block = per_block < 256 ? 256 : per_block > 32768 ? 32768 : per_block;
    slab_init(&s->streams, (sizeof(stream) + 63) & ~(size_t)63, per_block);
    slab_init(&s->datasets, sizeof(dataset), 256);
    slab_init(&s->bundles, PHASE_BUNDLE_BYTES, 1024);
    slab_init(&s->rdv, 64, 256);
    /* Zeroed and never written here: see npu_sys (system.h). */
    s->queue_dims = queue_dims(s);
    s->queues_per_npu = s->queue_dims * s->opt->queues_per_dim;
    s->sys = calloc(s->n_npus, sizeof *s->sys);
    s->queues = calloc((size_t)s->n_npus * s->queues_per_npu, sizeof *s->queues);
    s->queue_ctr = calloc((size_t)s->n_npus * 3 * s->queue_dims, sizeof *s->queue_ctr);
    if (!s->sys || !s->queues || !s->queue_ctr || system_events_init(s) != 0 || msg_table_init(s) != 0 ||
        remote_mem_init(s) != 0) {
        sim_fail(s, "out of memory");
        return -1;
    }
    if (shared_bus_init(s) != 0)
        return -1;
    /* Each NPU holds the groups it is a member of (a collective on any
     * other is an error: group_of in the workload layer tells "not a
     * member" from "not found" by the configuration), so that the groups
     * cost their members, not NPUs x groups. */
    for (size_t g = 0; g < s->groups.n_groups; g++) {
        const comm_group_def *def = &s->groups.groups[g];
        for (uint32_t i = 0; i < def->n_npus; i++)
            if (add_config_group(s, def->npus[i], def, i) != 0)
                return -1;
    }
    return 0;
}

static void free_group(npu_group *g)
{
    if (!g->borrowed)
        free(g->members);
}

/* A run that stops early (an error, a deadlock) leaves collectives in
 * flight: their streams still sit in the queues with their phase lists and
 * run-time buffers. The slabs free the streams themselves. */
static void release_queued_streams(sim *s, uint32_t npu)
{
    queue_state *queues = npu_queues(s, npu);
    for (uint32_t q = 0; q < s->queues_per_npu; q++) {
        for (stream *st = queues[q].head; st; st = st->next) {
            phase_release(s, st);
            free((void *)st->phases);
            st->phases = NULL;
        }
    }
}

void system_fini(sim *s)
{
    if (s->sys) {
        for (uint32_t i = 0; i < s->n_npus; i++) {
            npu_sys *sys = &s->sys[i];
            if (s->queues)
                release_queued_streams(s, i);
            for (uint32_t g = 0; g < sys->n_groups; g++)
                free_group(&sys->groups[g]);
            free(sys->groups);
            for (uint32_t r = 0; r < sys->n_retired; r++)
                free(sys->retired[r]);
            free(sys->retired);
        }
        free(s->sys);
        s->sys = NULL;
    }
    free(s->queues);
    s->queues = NULL;
    free(s->queue_ctr);
    s->queue_ctr = NULL;
    system_events_fini(s);
    msg_table_fini(s);
    remote_mem_fini(s);
    shared_bus_fini(s);
    custom_cache_free(s);
    slab_destroy(&s->streams);
    slab_destroy(&s->datasets);
    slab_destroy(&s->bundles);
    slab_destroy(&s->rdv);
}

npu_group *system_find_group(sim *s, uint32_t npu, int64_t key)
{
    npu_sys *sys = &s->sys[npu];
    for (uint32_t g = 0; g < sys->n_groups; g++)
        if (sys->groups[g].key == key)
            return &sys->groups[g];
    return NULL;
}

bool system_group_declared(const sim *s, int64_t key)
{
    for (size_t g = 0; g < s->groups.n_groups; g++)
        if (s->groups.groups[g].id == key)
            return true;
    return false;
}

/* Adds or replaces a group (a METADATA node may redefine one). */
int system_add_group(sim *s, uint32_t npu, int64_t key, int64_t internal_id, const uint32_t *members,
                     uint32_t n_members)
{
    npu_sys *sys = &s->sys[npu];
    npu_group *g = system_find_group(s, npu, key);
    if (!g) {
        npu_group *grown = realloc(sys->groups, (sys->n_groups + 1) * sizeof *grown);
        if (!grown) {
            sim_fail(s, "out of memory");
            return -1;
        }
        sys->groups = grown;
        g = &sys->groups[sys->n_groups++];
    } else {
        /* phases of running collectives may still point at the old list */
        uint32_t **grown = realloc(sys->retired, (sys->n_retired + 1) * sizeof *grown);
        if (!grown) {
            sim_fail(s, "out of memory");
            return -1;
        }
        sys->retired = grown;
        sys->retired[sys->n_retired++] = g->borrowed ? NULL : g->members;
    }
    memset(g, 0, sizeof *g);
    g->key = key;
    g->internal_id = internal_id;
    g->members = malloc(n_members * sizeof *g->members);
    if (!g->members) {
        sim_fail(s, "out of memory");
        return -1;
    }
    memcpy(g->members, members, n_members * sizeof *members);
    g->n_members = n_members;
    g->my_index = UINT32_MAX;
    for (uint32_t i = 0; i < n_members; i++) {
        if (members[i] >= s->n_npus) {
            sim_fail(s, "communicator group %lld: member %u is not an NPU of this %u-NPU system", (long long)key,
                     members[i], s->n_npus);
            return -1;
        }
        if (members[i] == npu)
            g->my_index = i;
    }
    g->num_streams = (uint64_t)internal_id * 1000000u;
    return 0;
}
