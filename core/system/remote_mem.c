/*
 * Remote memory. In the serialised modes a request occupies its resource
 * (the node's memory, or the pool) for its whole access time; on completion
 * the requester's completion is registered before the resource's own
 * "free" event for the same tick, and "free" starts the next waiting request.
 */
#include "system/remote_mem.h"

#include <stdlib.h>

#include "system/system.h"
#include "util/ticks.h"

typedef struct mem_request {
    uint32_t npu;
    vimana_tick time;
    sim_done done;
} mem_request;

typedef struct mem_resource {
    bool busy;
    mem_request *waiting;
    uint32_t head, len, cap;
} mem_resource;

struct remote_mem {
    mem_resource *resources;
    uint32_t n_resources;
};

int remote_mem_init(sim *s)
{
    struct remote_mem *m = calloc(1, sizeof *m);
    if (!m)
        return -1;
    const mem_config *cfg = &s->mem;
    if (cfg->type == MEM_PER_NODE && cfg->num_npus_per_node > 0)
        m->n_resources = (uint32_t)((s->n_npus + cfg->num_npus_per_node - 1) / cfg->num_npus_per_node);
    else if (cfg->type == MEM_POOL)
        m->n_resources = 1;
    if (m->n_resources && !(m->resources = calloc(m->n_resources, sizeof *m->resources))) {
        free(m);
        return -1;
    }
    s->rmem = m;
    return 0;
}

void remote_mem_fini(sim *s)
{
    struct remote_mem *m = s->rmem;
    if (!m)
        return;
    for (uint32_t i = 0; i < m->n_resources; i++)
        free(m->resources[i].waiting);
    free(m->resources);
    free(m);
    s->rmem = NULL;
}

static void start(sim *s, uint32_t resource, mem_request r);

static void resource_free(sim *s, void *obj, uint64_t resource)
{
    (void)obj;
    mem_resource *res = &s->rmem->resources[resource];
    if (res->len == 0) {
        res->busy = false;
        return;
    }
    mem_request next = res->waiting[res->head];
    res->head = (res->head + 1) % res->cap;
    res->len--;
    start(s, (uint32_t)resource, next);
}

static void start(sim *s, uint32_t resource, mem_request r)
{
    s->rmem->resources[resource].busy = true;
    if (r.done.fn)
        npu_register_event(s, r.npu, r.time, r.done.fn, r.done.obj, r.done.data);
    npu_register_event(s, r.npu, r.time, resource_free, NULL, resource);
}

static void enqueue(sim *s, mem_resource *res, mem_request r)
{
    if (res->len == res->cap) {
        uint32_t cap = res->cap ? res->cap * 2 : 8;
        mem_request *w = malloc(cap * sizeof *w);
        if (!w) {
            sim_fail(s, "out of memory (remote memory queue)");
            return;
        }
        for (uint32_t i = 0; i < res->len; i++)
            w[i] = res->waiting[(res->head + i) % res->cap];
        free(res->waiting);
        res->waiting = w;
        res->cap = cap;
        res->head = 0;
    }
    res->waiting[(res->head + res->len) % res->cap] = r;
    res->len++;
}

void remote_mem_issue(sim *s, const mem_access *a)
{
    const mem_config *cfg = &s->mem;
    uint32_t npu = a->npu;
    uint64_t bytes = a->bytes;
    unsigned long long id = (unsigned long long)a->node_id;
    if (cfg->type == MEM_NO_EXPANSION) {
        sim_fail(s, "%s: Remote memory access is not supported in NO_MEMORY_EXPANSION (node %llu of %s)",
                 cfg->path, id, a->trace);
        return;
    }
    if (cfg->bytes_per_ns == 0) {
        sim_fail(s, "%s: key 'remote-mem-bw' must be greater than 0 (node %llu of %s)", cfg->path, id, a->trace);
        return;
    }
    if (cfg->type == MEM_PER_NODE && cfg->num_npus_per_node == 0) {
        sim_fail(s, "%s: key 'num-npus-per-node' must be greater than 0 for PER_NODE_MEMORY_EXPANSION",
                 cfg->path);
        return;
    }
    vimana_tick transfer;
    if (!ticks_from_ns((double)bytes / (double)cfg->bytes_per_ns, &transfer) ||
        transfer > UINT64_MAX - cfg->latency_ns) {
        sim_fail(s, "%s: node %llu (%s): remote memory time out of range: tensor_size %llu at remote-mem-bw %llu "
                    "plus remote-mem-latency %llu (%s) does not fit the 64-bit nanosecond clock", a->trace, id,
                 a->node_name, (unsigned long long)bytes, (unsigned long long)cfg->bytes_per_ns,
                 (unsigned long long)cfg->latency_ns, cfg->path);
        return;
    }
    mem_request r = {.npu = npu, .time = cfg->latency_ns + transfer, .done = a->done};
    if (cfg->type == MEM_PER_NPU) {
        if (r.done.fn)
            npu_register_event(s, npu, r.time, r.done.fn, r.done.obj, r.done.data);
        return;
    }
    uint32_t resource = cfg->type == MEM_POOL ? 0 : (uint32_t)(npu / cfg->num_npus_per_node);
    mem_resource *res = &s->rmem->resources[resource];
    if (res->busy)
        enqueue(s, res, r);
    else
        start(s, resource, r);
}
