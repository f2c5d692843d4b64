/*
 * bench_trace_link_gen - writes a synthetic, linkable PyTorch host ET +
 * Kineto trace pair of a chosen total size, to time `vimana-et link`.
 *
 *   bench_trace_link_gen [--size BYTES] [--threads N] [--fractional] PREFIX
 *
 * writes PREFIX_host.json and PREFIX_kineto.json (default 1 GB in total,
 * 8 CPU threads). The shapes follow real traces: one main thread running
 * profiler steps of nested forward/backward ops (linear -> t/addmm, relu,
 * to -> _to_copy -> copy_ with a device-to-host memcpy and a stream
 * synchronize, an NCCL all-reduce under c10d::allreduce_ ->
 * record_param_comms -> nccl:all_reduce), and worker threads running
 * bursts of ops separated by idle gaps of a few milliseconds (inter-thread
 * groups). Host nodes carry tensor inputs/outputs and the seven attrs of
 * schema 1.1.0-chakra.0.0.4 and are written at operator exit (children
 * first, as the observer does); Kineto events carry record-function ids,
 * External ids, correlations, streams and ac2g flows. --fractional writes
 * nanosecond-precision times ("12.345") like PyTorch >= 2.2.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PID 4242
#define COMPUTE_STREAM 7
#define NCCL_STREAM 20

typedef struct gen {
    FILE *host, *kineto;
    uint64_t next_id, next_rf, next_ext, next_corr, next_tensor;
    bool host_first, kineto_first, fractional;
    uint64_t stream_free[2];   /* ns when the compute / NCCL stream is idle */
} gen;

typedef struct thread_ctx {
    uint64_t tid;          /* Kineto tid */
    uint64_t et_tid;       /* host attr tid */
    uint64_t root_id;      /* its [pytorch|profiler|execution_trace|thread] node */
    uint64_t clock;        /* ns */
} thread_ctx;

/* An op being recorded: filled at entry, written at exit. */
typedef struct op {
    const char *name, *cat, *schema;
    uint64_t id, rf, ext, parent, start;
    unsigned n_tensors;
} op;

static void print_time(gen *g, FILE *f, uint64_t ns)
{
    if (g->fractional)
        fprintf(f, "%llu.%03llu", (unsigned long long)(ns / 1000), (unsigned long long)(ns % 1000));
    else
        fprintf(f, "%llu", (unsigned long long)(ns / 1000));
}

/* Kineto rounds to whole microseconds in the integer format: keep start and
 * duration consistent by rounding both ends. */
static uint64_t us_floor(gen *g, uint64_t ns)
{
    return g->fractional ? ns : ns / 1000 * 1000;
}

static void kineto_sep(gen *g)
{
    fputs(g->kineto_first ? "\n  " : ",\n  ", g->kineto);
    g->kineto_first = false;
}

static void kineto_x(gen *g, const char *cat, const char *name, uint64_t pid, uint64_t tid, uint64_t ts,
                     uint64_t end)
{
    kineto_sep(g);
    ts = us_floor(g, ts);
    end = us_floor(g, end);
    fprintf(g->kineto, "{\"ph\": \"X\", \"cat\": \"%s\", \"name\": \"%s\", \"pid\": %llu, \"tid\": %llu, \"ts\": ", cat,
            name, (unsigned long long)pid, (unsigned long long)tid);
    print_time(g, g->kineto, ts);
    fputs(", \"dur\": ", g->kineto);
    print_time(g, g->kineto, end - ts);
}

static void tensor(gen *g, FILE *f, unsigned numel)
{
    uint64_t t = g->next_tensor;
    g->next_tensor += 2;
    fprintf(f, "[%llu, %llu, 0, %u, 4, \"cuda:0\"]", (unsigned long long)t, (unsigned long long)t + 1, numel);
}

static void host_node(gen *g, const thread_ctx *t, const op *o)
{
    FILE *f = g->host;
    fputs(g->host_first ? "\n    " : ",\n    ", f);
    g->host_first = false;
    fprintf(f, "{\"id\": %llu, \"name\": \"%s\", \"ctrl_deps\": %llu, \"inputs\": {\"values\": [",
            (unsigned long long)o->id, o->name, (unsigned long long)o->parent);
    for (unsigned i = 0; i < o->n_tensors; i++) {
        fputs(i ? ", " : "", f);
        tensor(g, f, 1024u << (i % 4));
    }
    fputs(o->n_tensors ? ", 1, 1.0], \"shapes\": [" : "], \"shapes\": [", f);
    for (unsigned i = 0; i < o->n_tensors; i++)
        fprintf(f, "%s[%u, 1024]", i ? ", " : "", 1u << (i % 4));
    fputs(o->n_tensors ? ", [], []], \"types\": [" : "], \"types\": [", f);
    for (unsigned i = 0; i < o->n_tensors; i++)
        fputs(i ? ", \"Tensor(float)\"" : "\"Tensor(float)\"", f);
    fputs(o->n_tensors ? ", \"Int\", \"Double\"]}, \"outputs\": {\"values\": [" : "]}, \"outputs\": {\"values\": [", f);
    if (o->n_tensors)
        tensor(g, f, 4096);
    fprintf(f, "], \"shapes\": [%s], \"types\": [%s]}, ", o->n_tensors ? "[4, 1024]" : "",
            o->n_tensors ? "\"Tensor(float)\"" : "");
    fprintf(f,
            "\"attrs\": [{\"name\": \"rf_id\", \"type\": \"uint64\", \"value\": %llu}, {\"name\": \"fw_parent\", "
            "\"type\": \"uint64\", \"value\": 0}, {\"name\": \"seq_id\", \"type\": \"int64\", \"value\": %lld}, "
            "{\"name\": \"scope\", \"type\": \"uint64\", \"value\": 0}, {\"name\": \"tid\", \"type\": \"uint64\", "
            "\"value\": %llu}, {\"name\": \"fw_tid\", \"type\": \"uint64\", \"value\": 0}, {\"name\": \"op_schema\", "
            "\"type\": \"string\", \"value\": \"%s\"}]}",
            (unsigned long long)o->rf, (long long)(o->rf % 7 ? -1 : (long long)o->rf),
            (unsigned long long)t->et_tid, o->schema);
}

static op begin(gen *g, thread_ctx *t, const char *name, const char *cat, uint64_t parent, unsigned n_tensors)
{
    op o = {.name = name, .cat = cat, .schema = "", .parent = parent, .n_tensors = n_tensors};
    if (n_tensors)
        o.schema = "aten::op(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor";
    o.id = g->next_id;
    g->next_id += 1 + 2 * n_tensors;   /* tensors and storages share the id counter */
    o.rf = g->next_rf++;
    o.ext = g->next_ext++;
    t->clock += 2000;
    o.start = t->clock;
    return o;
}

static void end(gen *g, thread_ctx *t, const op *o)
{
    t->clock += 3000;
    kineto_x(g, o->cat, o->name, PID, t->tid, o->start, t->clock);
    fprintf(g->kineto, ", \"args\": {\"External id\": %llu, \"Record function id\": %llu, \"Ev Idx\": %llu}}",
            (unsigned long long)o->ext, (unsigned long long)o->rf, (unsigned long long)o->ext);
    host_node(g, t, o);
}

/* A launch call inside `o` and the GPU op it starts. */
static void launch(gen *g, thread_ctx *t, const op *o, const char *call, const char *gpu_cat, const char *gpu_name,
                   int stream_slot, uint64_t gpu_ns, bool nccl)
{
    uint64_t corr = g->next_corr++;
    uint64_t at = t->clock += 1000;
    t->clock += 4000;
    kineto_x(g, "cuda_runtime", call, PID, t->tid, at, t->clock);
    fprintf(g->kineto, ", \"args\": {\"External id\": %llu, \"cbid\": 211, \"correlation\": %llu}}",
            (unsigned long long)o->ext, (unsigned long long)corr);
    unsigned stream = stream_slot ? NCCL_STREAM : COMPUTE_STREAM;
    uint64_t start = at + 6000 > g->stream_free[stream_slot] ? at + 6000 : g->stream_free[stream_slot];
    g->stream_free[stream_slot] = start + gpu_ns;
    kineto_x(g, gpu_cat, gpu_name, 0, stream, start, start + gpu_ns);
    fprintf(g->kineto,
            ", \"args\": {\"External id\": %llu, \"queued\": 0, \"device\": 0, \"context\": 1, \"stream\": %u, "
            "\"correlation\": %llu, \"registers per thread\": 128, \"shared memory\": 32768, \"blocks per SM\": 1.5, "
            "\"warps per SM\": 12.0, \"grid\": [132, 1, 1], \"block\": [256, 1, 1], \"est. achieved occupancy %%\": 25%s}}",
            (unsigned long long)o->ext, stream, (unsigned long long)corr,
            nccl ? ", \"Process Group Name\": \"0\", \"Process Group Description\": \"default_pg\"" : "");
    /* ac2g flow from the call to the kernel */
    kineto_sep(g);
    fprintf(g->kineto, "{\"ph\": \"s\", \"id\": %llu, \"pid\": %d, \"tid\": %llu, \"ts\": ", (unsigned long long)corr,
            PID, (unsigned long long)t->tid);
    print_time(g, g->kineto, us_floor(g, at));
    fputs(", \"cat\": \"ac2g\", \"name\": \"ac2g\"}", g->kineto);
    kineto_sep(g);
    fprintf(g->kineto, "{\"ph\": \"f\", \"id\": %llu, \"pid\": 0, \"tid\": %u, \"ts\": ", (unsigned long long)corr,
            stream);
    print_time(g, g->kineto, us_floor(g, start));
    fputs(", \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"}", g->kineto);
}

static void linear_layer(gen *g, thread_ctx *t, uint64_t parent)
{
    op lin = begin(g, t, "aten::linear", "cpu_op", parent, 3);
    op tr = begin(g, t, "aten::t", "cpu_op", lin.id, 1);
    op tp = begin(g, t, "aten::transpose", "cpu_op", tr.id, 1);
    end(g, t, &tp);
    end(g, t, &tr);
    op mm = begin(g, t, "aten::addmm", "cpu_op", lin.id, 3);
    launch(g, t, &mm, "cudaLaunchKernel", "kernel", "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas", 0, 40000, false);
    end(g, t, &mm);
    end(g, t, &lin);
    op relu = begin(g, t, "aten::relu", "cpu_op", parent, 1);
    op cmin = begin(g, t, "aten::clamp_min", "cpu_op", relu.id, 1);
    launch(g, t, &cmin, "cudaLaunchKernel", "kernel", "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", 0, 8000, false);
    end(g, t, &cmin);
    end(g, t, &relu);
}

static void copy_to_host(gen *g, thread_ctx *t, uint64_t parent)
{
    op to = begin(g, t, "aten::to", "cpu_op", parent, 1);
    op tc = begin(g, t, "aten::_to_copy", "cpu_op", to.id, 1);
    op cp = begin(g, t, "aten::copy_", "cpu_op", tc.id, 2);
    launch(g, t, &cp, "cudaMemcpyAsync", "gpu_memcpy", "Memcpy DtoH (Device -> Pinned)", 0, 3000, false);
    /* The copy waits for the stream: a cudaStreamSynchronize that returns
     * when the compute stream drains. */
    uint64_t at = t->clock += 1000;
    uint64_t done = g->stream_free[0] > at ? g->stream_free[0] : at;
    t->clock = done + 2000;
    kineto_x(g, "cuda_runtime", "cudaStreamSynchronize", PID, t->tid, at, t->clock);
    fprintf(g->kineto, ", \"args\": {\"External id\": %llu, \"cbid\": 131, \"correlation\": %llu}}",
            (unsigned long long)cp.ext, (unsigned long long)g->next_corr++);
    end(g, t, &cp);
    end(g, t, &tc);
    end(g, t, &to);
    op item = begin(g, t, "aten::item", "cpu_op", parent, 1);
    op lsd = begin(g, t, "aten::_local_scalar_dense", "cpu_op", item.id, 1);
    end(g, t, &lsd);
    end(g, t, &item);
}

static void all_reduce(gen *g, thread_ctx *t, uint64_t parent)
{
    op c = begin(g, t, "c10d::allreduce_", "cpu_op", parent, 1);
    op rpc = begin(g, t, "record_param_comms", "cpu_op", c.id, 1);
    op nccl = begin(g, t, "nccl:all_reduce", "user_annotation", rpc.id, 1);
    launch(g, t, &nccl, "cudaLaunchKernel", "kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", 1, 90000, true);
    end(g, t, &nccl);
    end(g, t, &rpc);
    end(g, t, &c);
}

static void main_step(gen *g, thread_ctx *t, unsigned step, unsigned layers)
{
    char name[32];
    snprintf(name, sizeof name, "ProfilerStep#%u", step);
    /* The op names are string literals except this one: keep it alive. */
    op ps = begin(g, t, name, "user_annotation", t->root_id, 0);
    op fwd = begin(g, t, "## forward ##", "user_annotation", ps.id, 0);
    for (unsigned l = 0; l < layers; l++)
        linear_layer(g, t, fwd.id);
    end(g, t, &fwd);
    op bwd = begin(g, t, "## backward ##", "user_annotation", ps.id, 0);
    for (unsigned l = 0; l < layers; l++)
        linear_layer(g, t, bwd.id);
    all_reduce(g, t, bwd.id);
    end(g, t, &bwd);
    copy_to_host(g, t, ps.id);
    end(g, t, &ps);
}

/* A worker: a burst of element-wise ops, then an idle gap (> 1 ms, a new
 * inter-thread group). */
static void worker_burst(gen *g, thread_ctx *t, unsigned ops)
{
    op burst = begin(g, t, "## data_loader ##", "user_annotation", t->root_id, 0);
    for (unsigned i = 0; i < ops; i++) {
        op add = begin(g, t, "aten::add_", "cpu_op", burst.id, 2);
        op mul = begin(g, t, "aten::mul", "cpu_op", add.id, 2);
        end(g, t, &mul);
        end(g, t, &add);
    }
    end(g, t, &burst);
    t->clock += 2500000;
}

static uint64_t file_size(FILE *f)
{
    long n = ftell(f);
    return n < 0 ? 0 : (uint64_t)n;
}

static FILE *open_out(const char *prefix, const char *suffix)
{
    size_t n = strlen(prefix) + strlen(suffix) + 1;
    char *path = malloc(n);
    if (!path)
        return NULL;
    snprintf(path, n, "%s%s", prefix, suffix);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "bench_trace_link_gen: %s: %s\n", path, strerror(errno));
    else
        setvbuf(f, NULL, _IOFBF, 1 << 20);
    free(path);
    return f;
}

static int parse_u64(const char *text, uint64_t *out)
{
    char *endp;
    errno = 0;
    unsigned long long v = strtoull(text, &endp, 10);
    uint64_t scale = 1;
    if (*endp == 'K' || *endp == 'k')
        scale = 1000, endp++;
    else if (*endp == 'M')
        scale = 1000000, endp++;
    else if (*endp == 'G')
        scale = 1000000000, endp++;
    if (errno || *endp || endp == text)
        return -1;
    *out = (uint64_t)v * scale;
    return 0;
}

static void usage(void)
{
    fputs("usage: bench_trace_link_gen [--size BYTES (K/M/G suffix, default 1G)] [--threads N (default 8)] "
          "[--fractional] PREFIX\n",
          stderr);
}

int main(int argc, char **argv)
{
    uint64_t size = 1000000000, threads = 8;
    bool fractional = false;
    const char *prefix = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            if (parse_u64(argv[++i], &size) != 0)
                return usage(), 2;
        } else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            if (parse_u64(argv[++i], &threads) != 0 || threads < 1 || threads > 1000)
                return usage(), 2;
        } else if (strcmp(argv[i], "--fractional") == 0) {
            fractional = true;
        } else if (argv[i][0] != '-' && !prefix) {
            prefix = argv[i];
        } else {
            return usage(), 2;
        }
    }
    if (!prefix)
        return usage(), 2;
    gen g = {.next_id = 2 + threads, .next_rf = 1, .next_ext = 1, .next_corr = 1, .next_tensor = 1000000000,
             .host_first = true, .kineto_first = true, .fractional = fractional};
    g.host = open_out(prefix, "_host.json");
    g.kineto = open_out(prefix, "_kineto.json");
    if (!g.host || !g.kineto)
        return 1;
    fputs("{\n  \"schema\": \"1.1.0-chakra.0.0.4\", \"pid\": 4242, \"time\": \"2024-05-01 10:00:00\", \"start_ts\": "
          "1000,\n  \"nodes\": [",
          g.host);
    fputs("{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\"}],\n"
          "  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 0, \"world_size\": 2},\n  \"record_shapes\": 1,\n"
          "  \"traceEvents\": [",
          g.kineto);
    thread_ctx *ctx = calloc(threads, sizeof *ctx);
    if (!ctx)
        return 1;
    const uint64_t base = 1720000000000000000ULL;   /* ns */
    for (uint64_t i = 0; i < threads; i++)
        ctx[i] = (thread_ctx){.tid = 90000 + i, .et_tid = i + 1, .root_id = 2 + i, .clock = base + i * 700000};
    unsigned step = 0;
    while (file_size(g.host) + file_size(g.kineto) < size) {
        main_step(&g, &ctx[0], step++, 12);
        for (uint64_t i = 1; i < threads; i++)
            while (ctx[i].clock < ctx[0].clock)
                worker_burst(&g, &ctx[i], 20);
    }
    /* Thread roots, then the process root last (written at exit). */
    for (uint64_t i = 0; i < threads; i++)
        fprintf(g.host,
                ",\n    {\"id\": %llu, \"name\": \"[pytorch|profiler|execution_trace|thread]\", \"ctrl_deps\": 1, "
                "\"inputs\": {\"values\": [], \"shapes\": [], \"types\": []}, \"outputs\": {\"values\": [], "
                "\"shapes\": [], \"types\": []}, \"attrs\": [{\"name\": \"rf_id\", \"type\": \"uint64\", \"value\": "
                "0}, {\"name\": \"tid\", \"type\": \"uint64\", \"value\": %llu}]}",
                (unsigned long long)ctx[i].root_id, (unsigned long long)ctx[i].et_tid);
    fputs(",\n    {\"id\": 1, \"name\": \"[pytorch|profiler|execution_trace|process]\", \"ctrl_deps\": 1, \"inputs\": "
          "{\"values\": [], \"shapes\": [], \"types\": []}, \"outputs\": {\"values\": [], \"shapes\": [], \"types\": "
          "[]}, \"attrs\": [{\"name\": \"rf_id\", \"type\": \"uint64\", \"value\": 0}]}\n  ],\n  \"finish_ts\": 9000\n}\n",
          g.host);
    fputs("\n  ],\n  \"traceName\": \"bench.pt.trace.json\"\n}\n", g.kineto);
    free(ctx);
    int bad = ferror(g.host) || ferror(g.kineto);
    bad |= fclose(g.host) != 0;
    bad |= fclose(g.kineto) != 0;
    if (bad) {
        fprintf(stderr, "bench_trace_link_gen: write error\n");
        return 1;
    }
    fprintf(stderr, "bench_trace_link_gen: %u steps, %llu host nodes, %llu record functions\n", step,
            (unsigned long long)(g.next_rf - 1 + threads + 1), (unsigned long long)(g.next_rf - 1));
    return 0;
}
