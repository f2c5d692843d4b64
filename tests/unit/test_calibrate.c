/* vimana calibrate's stages: the nccl-tests reader (layouts, N/A, size 0,
 * all-gather's size mapping, the faster of the two times) and the closed
 * form against hand-computed ticks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "unit_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/calibrate/calibrate_fit.h"
#include "cmd/calibrate/calibrate_input.h"

static char *write_tmp(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "/tmp/vimana-test-calibrate-%d-%s", (int)getpid(), name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

/* Appends the rows of `text`, written to a file called `name`, to *d
 * (ranks from its header, else the topology's 8); returns the reader's
 * status, the message in err. */
static int read_text(const char *name, const char *text, calib_data *d, char *err, size_t len)
{
    char *path = write_tmp(name, text);
    int rc = calib_read_file(path, 8, d, err, len);
    unlink(path);
    return rc;
}

/* A point as the reader must give it. */
typedef struct want_point {
    enum coll_kind coll;
    uint64_t tests_bytes, comm_size;
    uint32_t npus;
    double measured_ns;
    uint32_t line;
} want_point;

/* Appends the rows of `text` as read_text does; the reader must accept
 * the file and *d then hold exactly the n points of want, in order (those
 * of earlier files first). */
static void read_ok(const char *name, const char *text, calib_data *d, const want_point *want, size_t n)
{
    char err[512];
    assert_int_equal(read_text(name, text, d, err, sizeof err), 0);
    assert_int_equal(d->n, n);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(d->pts[i].coll, want[i].coll);
        assert_int_equal(d->pts[i].tests_bytes, want[i].tests_bytes);
        assert_int_equal(d->pts[i].comm_size, want[i].comm_size);
        assert_int_equal(d->pts[i].npus, want[i].npus);
        assert_true(d->pts[i].measured_ns == want[i].measured_ns);
        assert_int_equal(d->pts[i].line, want[i].line);
    }
}

/* read_ok on points of its own, freed after: a file read alone. */
static void read_alone(const char *name, const char *text, const want_point *want, size_t n)
{
    calib_data d = {0};
    read_ok(name, text, &d, want, n);
    calib_data_free(&d);
}

static void test_reader_layouts(void **state)
{
    (void)state;
    calib_data d = {0};
    /* new layout (13 fields), old layouts (12 and 11), a 0-byte row, N/A:
     * the faster time (in place), out of place where in place is N/A */
    const char *text = "# nThread 1 nGpus 1 minBytes 0\n"
                       "# nccl-tests all_reduce_perf\n"
                       "\n"
                       "0 0 float sum -1 5.00 0 0 0 5.00 0 0 0\n"
                       "1024 256 float sum -1 20.50 0 0 0 19.25 0 0 0\n"
                       "2048 512 float sum 22.00 0 0 0 23.00 0 0 0\n"
                       "4096 1024 float 30.00 0 0 0 N/A 0 0 0\n";
    static const want_point want[] = {
        {COLL_ALL_REDUCE, 1024, 1024, 8, 19250.0, 5},
        {COLL_ALL_REDUCE, 2048, 2048, 8, 22000.0, 6},
        {COLL_ALL_REDUCE, 4096, 4096, 8, 30000.0, 7},
        /* all_gather from the file name: comm_size = size / ranks */
        {COLL_ALL_GATHER, 8192, 1024, 8, 40000.0, 1},
        /* the ranks the header lists, not the topology's */
        {COLL_ALL_GATHER, 8192, 2048, 4, 40000.0, 7},
    };
    read_ok("all_reduce.txt", text, &d, want, 3);
    read_ok("all_gather_perf.txt", "8192 256 float none -1 40.00 0 0 0 41.00 0 0 0\n", &d, want, 4);
    read_ok("all_gather_4.txt",
            "# nThread 1 nGpus 1\n"
            "#  Rank  0 Group  0 Pid   10 on h device  0 [0x1b] NVIDIA H100\n"
            "#  Rank  1 Group  0 Pid   11 on h device  1 [0x2b] NVIDIA H100\n"
            "#  Rank  2 Group  0 Pid   12 on h device  2 [0x3b] NVIDIA H100\n"
            "#  Rank  3 Group  0 Pid   13 on h device  3 [0x4b] NVIDIA H100\n"
            "#  Ranked by nothing\n"
            "8192 512 float none -1 40.00 0 0 0 41.00 0 0 0\n",
            &d, want, 5);
    calib_data_free(&d);
}

/* Output as people paste it: NCCL_DEBUG=INFO log lines inside the table
 * and NCCL's version line are not rows; `mpirun --tag-output` tags
 * ("[1,0]<stdout>:") are not part of a line; a file holding two runs counts
 * each run's "#  Rank" header afresh (2 + 2 ranks, not 4). */
static void test_reader_pasted_logs(void **state)
{
    (void)state;
    /* the row of each run, with its own run's ranks */
    static const want_point want[] = {
        {COLL_ALL_REDUCE, 1024, 1024, 2, 14460.0, 6},
        {COLL_ALL_REDUCE, 2048, 2048, 2, 13560.0, 14},
    };
    const char *text = "[1,0]<stdout>:# nThread 1 nGpus 2 minBytes 1024\n"
                       "[1,0]<stdout>:#  Rank  0 Group  0 Pid  1 on h device  0 [0x19] NVIDIA H100\n"
                       "[1,0]<stdout>:#  Rank  1 Group  0 Pid  1 on h device  1 [0x3b] NVIDIA H100\n"
                       "h:880:887 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/direct pointer/read\n"
                       "NCCL version 2.20.5+cuda12.4\n"
                       "[1,0]<stdout>:        1024   256 float sum -1 15.75 0 0 0 14.46 0 0 0\n"
                       "    h:880:880 [1] NCCL INFO comm 0x55ba65abd9d0 rank 0 nranks 2 - Destroy COMPLETE\n"
                       "h:880:881 [1] NCCL WARN Cuda failure 'out of memory'\n"
                       "# Out of bounds values : 0 OK\n"
                       "# Avg bus bandwidth    : 125.437\n"
                       "# Collective test concluded: all_reduce_perf\n"
                       "#  Rank  0 Group  0 Pid  2 on h device  0 [0x19] NVIDIA H100\n"
                       "#  Rank  1 Group  0 Pid  2 on h device  1 [0x3b] NVIDIA H100\n"
                       "2048 512 float sum -1 14.16 0 0 0 13.56 0 0 0\n";
    read_alone("logs_all_reduce_perf.txt", text, want, 2);
}

/* rccl-tests' banner ("rccl-tests: Version ...", "RCCL version : ...",
 * "Hostname     : ...") is not a row; a line of letters without ':' in the
 * table still is an error naming its line. */
static void test_reader_rccl_banner(void **state)
{
    (void)state;
    const char *text = "rccl-tests: Version develop:448c4c7\n"
                       "RCCL version : 2.22.3-HEAD:7d8d67c\n"
                       "HIP version  : 6.4.43484-123eb5128\n"
                       "Hostname     : gpu-53\n"
                       "Librccl path : /opt/rocm/lib/librccl.so.1\n"
                       "# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup iters: 5\n"
                       "#  Rank  0 Group  0 Pid 1 on gpu-53 device  0 [0000:05:00] AMD Instinct MI300X\n"
                       "#  Rank  1 Group  0 Pid 2 on gpu-53 device  1 [0000:15:00] AMD Instinct MI300X\n"
                       "           8             2     float     sum      -1    31.83    0.00    0.00      0    31.62"
                       "    0.00    0.00      0\n";
    static const want_point want[] = {{COLL_ALL_REDUCE, 8, 8, 2, 31620.0, 9}};
    read_alone("rccl_all_reduce_perf.txt", text, want, 1);
    calib_data d = {0};
    char err[512];
    assert_int_equal(read_text("junk_all_reduce_perf.txt", "8 2 float sum -1 31.83 0 0 0 31.62 0 0 0\nsomething else\n",
                               &d, err, sizeof err),
                     -1);
    assert_non_null(strstr(err, "junk_all_reduce_perf.txt:2: expected an nccl-tests row"));
    calib_data_free(&d);
}

/* Switch of 8 NPUs, 400 GB/s (429.4967296 B/ns), 200 ns; defaults but
 * launch 1000, LL hop 100, channel-min-bytes 64, nvlink-efficiency 0.5.
 * All-reduce of 8192 B: ring LL, 14 steps of 1024 B, 16 channels
 * (1024 / 64), wire 1024 / (0.5 x 0.5) = 4096 B; a message
 * 2 x 200 + 4096 / 429.4967296 = 409.54 -> 409. T = 1000 + 14 x 509 = 8126.
 * All-to-all of 8192 B on a Ring: steps 1..7 to 1..7 places on, hops
 * 1 2 3 4 3 2 1: sum of 200 h + 9.54 truncated = 209 + 409 + 609 + 809 +
 * 609 + 409 + 209 = 3263; T = 1000 + 3263 + 7 x 100 = 4963. */
static void test_closed_form(void **state)
{
    (void)state;
    nccl_params p;
    nccl_params_default(&p);
    p.launch_ns = 1000;
    p.hop_ns[NCCL_PROTO_LL] = 100;
    p.channel_min_bytes = 64;
    p.nvlink_efficiency = 0.5;
    vimana_net_config net = {1, 8, {{VIMANA_NET_SWITCH, 8, 400, 400 * 1073741824.0 / 1e9, 200}}};
    vimana_net_dim *d = &net.dims[0];
    calib_point ar = {COLL_ALL_REDUCE, 8192, 8192, 8, 1, "x", 1, false};
    assert_int_equal(calib_model_ticks(&p, &net, &ar), 8126);
    d->topology = VIMANA_NET_RING;
    calib_point a2a = {COLL_ALL_TO_ALL, 8192, 8192, 8, 1, "x", 1, false};
    assert_int_equal(calib_model_ticks(&p, &net, &a2a), 4963);
    /* the point's rank count on the same links: 4 NPUs of the Switch, all-reduce
     * of 8192 B: 6 steps of 2048 B, 16 channels, wire 8192 B, a message
     * 400 + 8192 / 429.4967296 = 419.07 -> 419; T = 1000 + 6 x 519 = 4114 */
    d->topology = VIMANA_NET_SWITCH;
    ar.npus = 4;
    assert_int_equal(calib_model_ticks(&p, &net, &ar), 4114);
}

/* The parameters (into *p) and the two-dimension network (returned) of
 * the two tests below. */
static vimana_net_config two_node_setup(nccl_params *p)
{
    nccl_params_default(p);
    p->nvls = 0;
    p->nic_hop_ns = 400;
    return (vimana_net_config){2, 16,
                               {{VIMANA_NET_SWITCH, 8, 300, 300 * 1073741824.0 / 1e9, 250},
                                {VIMANA_NET_SWITCH, 2, 25, 25 * 1073741824.0 / 1e9, 2000}}};
}

/* The call ar on 8 ranks of that network keeps to dimension 0: one
 * all-reduce phase, not flat, of 14 LL steps of 8 B / 8 = 1 B: wire 40 B,
 * a message 500, 6000 + 14 x 1100 = 21400. */
static void expect_first_dim_alone(const nccl_params *p, const vimana_net_config *net, calib_point ar)
{
    ar.npus = 8;
    calib_phase ph[CALIB_MAX_PHASES];
    assert_int_equal(calib_call_phases(net, &ar, ph), 1);
    assert_int_equal(ph[0].flat_dims, 0);
    assert_int_equal(calib_model_ticks(p, net, &ar), 21400);
}

/* Two dimensions: Switch 8 at 300 GB/s (322.1225472 B/ns), 250 ns, the
 * NVLink; Switch 2 at 25 GB/s (26.8435456 B/ns), 2000 ns, the NIC. The
 * defaults (launch 6000, LL hop 600, channel-min-bytes 32768, NVLink 0.8,
 * NIC 0.9), no NVLS, nic-hop-latency-ns 400: a NIC step waits 1000.
 * - all-reduce of 8 B on 16 ranks: a chunk of 16 B (one per NPU);
 *   reduce-scatter on dim 0 (16 B: LL, 7 steps of 2 B, wire
 *   ceil(2 / (0.5 x 0.8 / 16)) = 80 B, a message floor(500 + 0.25) = 500):
 *   6000 + 7 x 1100 = 13700; all-reduce on dim 1 (2 B: 2 steps of 1 B,
 *   wire ceil(1 / (0.5 x 0.9 / 16)) = 36 B, a message floor(4000 + 1.34) =
 *   4001): 2 x 5001 = 10002; all-gather on dim 0 (2 B in, 16 B call: 7
 *   steps of 2 B, as the reduce-scatter): 7700. T = 31402.
 * - reduce-scatter of 4096 B: dim 0, 7 steps of 512 B, wire 20480 B, a
 *   message floor(500 + 63.58) = 563: 6000 + 7 x 1163 = 14141; dim 1
 *   (512 B in): 1 step of 256 B, wire ceil(9102.2) = 9103 B, a message
 *   floor(4000 + 339.11) = 4339: 5339. T = 19480.
 * - all-gather of 4096 B a rank: dim 1 first (8192 B call: LL), 1 step of
 *   4096 B, wire 145636 B, a message floor(4000 + 5425.3) = 9425: 6000 +
 *   10425 = 16425; then dim 0 with 8192 B a rank (65536 B call: LL), 7
 *   steps, wire 327680 B, a message floor(500 + 1017.26) = 1517: 7 x 2117
 *   = 14819. T = 31244.
 * - 8 ranks: the first dimension alone; 4 ranks: no leading dimensions. */
static void test_closed_form_two_dims(void **state)
{
    (void)state;
    nccl_params p;
    vimana_net_config net = two_node_setup(&p);
    calib_point ar = {COLL_ALL_REDUCE, 8, 8, 16, 1, "x", 1, true};
    assert_int_equal(calib_model_ticks(&p, &net, &ar), 31402);
    calib_point rs = {COLL_REDUCE_SCATTER, 4096, 4096, 16, 1, "x", 1, true};
    assert_int_equal(calib_model_ticks(&p, &net, &rs), 19480);
    calib_point ag = {COLL_ALL_GATHER, 65536, 4096, 16, 1, "x", 1, true};
    assert_int_equal(calib_model_ticks(&p, &net, &ag), 31244);
    calib_phase ph[CALIB_MAX_PHASES];
    assert_int_equal(calib_call_phases(&net, &ar, ph), 3);
    assert_int_equal(ph[0].coll, COLL_REDUCE_SCATTER);
    assert_int_equal(ph[1].coll, COLL_ALL_REDUCE);
    assert_int_equal(ph[1].dim, 1);
    assert_int_equal(ph[1].in, 2);
    assert_int_equal(ph[2].coll, COLL_ALL_GATHER);
    assert_int_equal(calib_prefix_dims(&net, 16), 2);
    assert_int_equal(calib_prefix_dims(&net, 8), 1);
    assert_int_equal(calib_prefix_dims(&net, 4), 0);
    assert_int_equal(calib_prefix_dims(&net, 32), 0);
    expect_first_dim_alone(&p, &net, ar);
}

/* NCCL's flat ring (oneNccl, the default over several dimensions), the
 * same network and parameters: an 8-byte all-reduce on 16 NPUs is one
 * phase of 30 LL steps of 1 B, in snake order 0..7, 15..8. An NVLink
 * message: wire ceil(1 / (0.5 x 0.8 x 1/16)) = 40 B, floor(500 + 0.12) =
 * 500, a wait of 600; the two NIC messages (7 -> 15, 8 -> 0): one channel
 * on one of the node's 8 NICs, wire ceil(1 / (0.5 x 0.9)) = 3 B,
 * floor(4000 + 0.11) = 4000, a wait of 600 + 400. NPU i ends after the
 * messages of the 30 senders before it and the waits of itself and the
 * 29 before it: two turns of the ring (2 x (14 x 500 + 2 x 4000) = 30000
 * and 2 x (14 x 600 + 2 x 1000) = 20800) less what the last to finish
 * skips, one NVLink message and two NVLink waits: 6000 + 29000 + 19600 =
 * 54600, as vimana simulates it (tests/e2e/nccl.sh). */
static void test_closed_form_flat(void **state)
{
    (void)state;
    nccl_params p;
    vimana_net_config net = two_node_setup(&p);
    calib_point ar = {COLL_ALL_REDUCE, 8, 8, 16, 1, "x", 1, false};
    calib_phase ph[CALIB_MAX_PHASES];
    assert_int_equal(calib_call_phases(&net, &ar, ph), 1);
    assert_int_equal(ph[0].flat_dims, 2);
    assert_int_equal(ph[0].link.npus, 16);
    assert_int_equal(calib_model_ticks(&p, &net, &ar), 54600);
    /* with hop-overlap 0.5 each wait shrinks by half of the time its
     * step's message kept the NPU (at most half the wait), which differs
     * from NPU to NPU: 47144, what vimana simulates (tests/e2e/nccl.sh).
     * Both values run the shortcut over the ring's repeating periods. */
    p.hop_overlap = 0.5;
    assert_int_equal(calib_model_ticks(&p, &net, &ar), 47144);
    p.hop_overlap = 0;
    /* a NIC of no rate: its messages, and the call, end at the cap (2^63
     * ticks) however many steps follow; the ring does not wrap past it */
    net.dims[1].bytes_per_ns = 1e-30;
    assert_true(calib_model_ticks(&p, &net, &ar) == (uint64_t)1 << 63);
    net.dims[1].bytes_per_ns = 25 * 1073741824.0 / 1e9;
    /* 8 ranks: the plain ring on dimension 0, as before */
    expect_first_dim_alone(&p, &net, ar);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_reader_layouts),
    cmocka_unit_test(test_reader_pasted_logs),
    cmocka_unit_test(test_reader_rccl_banner),
    cmocka_unit_test(test_closed_form),
    cmocka_unit_test(test_closed_form_two_dims),
    cmocka_unit_test(test_closed_form_flat)
)
