/* ns3_shim's reader of upstream astra-network-ns3's config.txt
 * (backends/ns3_shim/upstream_config.c): upstream's own sample, as users
 * bring it (CRLF line ends, TOPOLOGY_FILE relative to its folder), gives
 * the exact options; every refusal's exact line. No ns-3 needed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include "unit_main.h"

#include "ns3_shim/upstream_config.h"

#ifndef TOPO_SRCDIR
#define TOPO_SRCDIR "."
#endif
#define UP TOPO_SRCDIR "/tests/data/upstream-ns3/scratch/"

/* Upstream's sample: CC_MODE 12 has no rate control (none), PFC on, the
 * switch's 32 MiB over its 8 ports, the 400 Gb/s entries of the ECN maps
 * (800 and 3200 KB of 1000 bytes, 0.2). */
static void test_upstream_sample(void **state)
{
    (void)state;
    ns3_upstream u;
    char err[512] = "", opts[512];
    assert_true(ns3_upstream_is_config(UP "config/config.txt"));
    assert_false(ns3_upstream_is_config(UP "topology/8_nodes_1_switch_topology.txt"));
    assert_int_equal(ns3_upstream_read(UP "config/config.txt", &u, err, sizeof err), 0);
    assert_string_equal(u.topology, UP "config/../../scratch/topology/8_nodes_1_switch_topology.txt");
    assert_int_equal(u.packet, 1000);
    assert_int_equal(u.cc_mode, 12);
    vimana_topo *t = NULL;
    assert_int_equal(vimana_topo_load(u.topology, &t, err, sizeof err), 0);
    assert_int_equal(ns3_upstream_options(&u, t, opts, sizeof opts, err, sizeof err), 0);
    assert_string_equal(opts, "packet=1000,cc=none,completion=ack,pfc=on,buffer=4194304,ecn_kmin=800000,ecn_kmax=3200000,"
                              "ecn_pmax=0.2");
    /* in the file's order */
    assert_string_equal(u.no_effect, "USE_DYNAMIC_PFC_THRESHOLD, FLOW_FILE, TRACE_FILE, TRACE_OUTPUT_FILE, "
                                     "FCT_OUTPUT_FILE, PFC_OUTPUT_FILE, SIMULATOR_STOP_TIME, ALPHA_RESUME_INTERVAL, "
                                     "RATE_DECREASE_INTERVAL, CLAMP_TARGET_RATE, FAST_RECOVERY_TIMES, "
                                     "DCTCP_RATE_AI, L2_CHUNK_SIZE, L2_ACK_INTERVAL, L2_BACK_TO_ZERO, HAS_WIN, "
                                     "GLOBAL_T, VAR_WIN, FAST_REACT, INT_MULTI, MULTI_RATE, SAMPLE_FEEDBACK, "
                                     "PINT_LOG_BASE, PINT_PROB, ACK_HIGH_PRIO, ENABLE_TRACE, QLEN_MON_FILE, "
                                     "QLEN_MON_START, QLEN_MON_END");
    vimana_topo_free(t);
}

/* A config written here from lines: its path, for the reader. */
static const char *write_config(const char *lines)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/ns3_upstream_%d.txt", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (int)getpid());
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fprintf(fp, "TOPOLOGY_FILE %s\n%s", UP "topology/8_nodes_1_switch_topology.txt", lines);
    fclose(fp);
    return path;
}

static void expect_options(const char *lines, const char *want)
{
    ns3_upstream u;
    char err[512] = "", opts[512];
    const char *path = write_config(lines);
    assert_int_equal(ns3_upstream_read(path, &u, err, sizeof err), 0);
    vimana_topo *t = NULL;
    assert_int_equal(vimana_topo_load(u.topology, &t, err, sizeof err), 0);
    int rc = ns3_upstream_options(&u, t, opts, sizeof opts, err, sizeof err);
    if (rc != 0)
        fail_msg("%s", err);
    assert_string_equal(opts, want);
    vimana_topo_free(t);
    unlink(path);
}

/* DCQCN (CC_MODE 1, upstream's default) and HPCC (3) with their keys. */
static void test_cc_modes(void **state)
{
    (void)state;
    expect_options("", "packet=1000,cc=dcqcn,completion=ack,pfc=on,buffer=2097152");
    expect_options("CC_MODE 1\nRATE_AI 50Mb/s\nRATE_HAI 100Mb/s\nMIN_RATE 100Mb/s\nEWMA_GAIN 0.00390625\n"
                   "RP_TIMER 900\nBUFFER_SIZE 32\nPACKET_PAYLOAD_SIZE 4096\n",
                   "packet=4096,cc=dcqcn,dcqcn_rate_ai=50,dcqcn_rate_hai=100,dcqcn_min_rate=100,"
                   "dcqcn_g=0.00390625,dcqcn_timer=900,completion=ack,pfc=on,buffer=4194304");
    expect_options("CC_MODE 3\nU_TARGET 0.95\nMI_THRESH 0\nRATE_AI 1Gb/s\nENABLE_QCN 0\n"
                   "KMIN_MAP 1 400000000000 800\nKMAX_MAP 1 400000000000 3200\nPMAX_MAP 1 400000000000 0.2\n",
                   "packet=1000,cc=hpcc,hpcc_eta=0.95,hpcc_max_stage=0,hpcc_rate_ai=1000,completion=ack,pfc=on,buffer=2097152,"
                   "ecn_kmin=1125899906842624,ecn_kmax=1125899906842624");
}

static void expect_error(const char *lines, const char *message)
{
    ns3_upstream u;
    char err[512] = "", want[600];
    const char *path = write_config(lines);
    int rc = ns3_upstream_read(path, &u, err, sizeof err);
    if (rc == 0) {
        vimana_topo *t = NULL;
        char opts[512];
        assert_int_equal(vimana_topo_load(u.topology, &t, err, sizeof err), 0);
        rc = ns3_upstream_options(&u, t, opts, sizeof opts, err, sizeof err);
        vimana_topo_free(t);
    }
    assert_int_equal(rc, -1);
    snprintf(want, sizeof want, "%s%s", path, message);
    assert_string_equal(err, want);
    unlink(path);
}

static void test_refusals(void **state)
{
    (void)state;
    expect_error("FOO 1\n", ":2: unknown key 'FOO' (not one of upstream astra-network-ns3's config.txt keys)");
    expect_error("CC_MODE 7\n", ":2: CC_MODE 7 (TIMELY) is not modelled by ns3_shim: use 1 (DCQCN), 3 (HPCC) or a "
                                "mode without rate control");
    expect_error("CC_MODE 8\n", ":2: CC_MODE 8 (DCTCP) is not modelled by ns3_shim: use 1 (DCQCN), 3 (HPCC) or a "
                                "mode without rate control");
    expect_error("ERROR_RATE_PER_LINK 0.01\n", ":2: ERROR_RATE_PER_LINK 0.01 asks for a lossy link; the topology "
                 "file's error-rate column is refused the same way, which ns3_shim does not model: write 0");
    expect_error("LINK_DOWN 1000 0 8\n", ":2: LINK_DOWN 1000 0 8 asks for a link down (use vimana --network-faults):"
                                         " write 0 0 0");
    expect_error("NIC_TOTAL_PAUSE_TIME 5\n", ":2: NIC_TOTAL_PAUSE_TIME 5 asks for PCIe pauses at the NIC, which "
                                             "ns3_shim does not model: write 0");
    expect_error("RATE_AI fast\n", ":2: RATE_AI: 'fast' must be a rate above 0 such as 50Mb/s");
    expect_error("PACKET_PAYLOAD_SIZE -5\n", ":2: PACKET_PAYLOAD_SIZE: '-5' must be a whole number from 0 to "
                                             "1000000000");
    expect_error("KMIN_MAP 2 400000000000 800\n", ":2: KMIN_MAP: expected 5 values, found 3");
    expect_error("KMIN_MAP 1 100000000000 800\nKMAX_MAP 1 100000000000 900\nPMAX_MAP 1 100000000000 0.2\n",
                 ":2: KMIN_MAP has no entry for 400000000000 bit/s, the rate of the topology's link 0 (upstream "
                 "needs one for every link speed)");
    expect_error("KMIN_MAP 1 400000000000 900\nKMAX_MAP 1 400000000000 800\nPMAX_MAP 1 400000000000 0.2\n",
                 ": for 400000000000 bit/s KMIN (900) must not exceed KMAX (800) and PMAX (0.2) must be at most 1");
    expect_error("RP_TIMER\n", ":2: RP_TIMER: expected 1 value, found 0");
}

/* No TOPOLOGY_FILE, or one that is nowhere. */
static void test_topology_file(void **state)
{
    (void)state;
    char path[256], err[512], want[600];
    ns3_upstream u;
    snprintf(path, sizeof path, "%s/ns3_upstream_t_%d.txt", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (int)getpid());
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("CC_MODE 1\n", fp);
    fclose(fp);
    assert_int_equal(ns3_upstream_read(path, &u, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s: no TOPOLOGY_FILE (the topology .txt this configuration runs on)", path);
    assert_string_equal(err, want);
    fp = fopen(path, "w");
    assert_non_null(fp);
    fputs("TOPOLOGY_FILE nowhere/x.txt\n", fp);
    fclose(fp);
    assert_int_equal(ns3_upstream_read(path, &u, err, sizeof err), -1);
    snprintf(want, sizeof want, "%s:1: TOPOLOGY_FILE: cannot read 'nowhere/x.txt' (looked next to this file and in "
             "the working directory)", path);
    assert_string_equal(err, want);
    unlink(path);
}

UNIT_TEST_MAIN(
    cmocka_unit_test(test_upstream_sample),
    cmocka_unit_test(test_cc_modes),
    cmocka_unit_test(test_refusals),
    cmocka_unit_test(test_topology_file)
)
