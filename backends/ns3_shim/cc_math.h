/*
 * cc_math.h - the arithmetic of ns3_shim's packet physics, in C so that
 * unit tests can check it by hand without ns-3: the RED-like ECN marking
 * rule, a seeded RNG, DCQCN's rate updates (Zhu et al., SIGCOMM'15) and
 * HPCC's window update (Li et al., SIGCOMM'19). Written from the papers.
 * Rates are bits per second, sizes bytes, times picoseconds (ns-3's step).
 */
#ifndef VIMANA_NS3_CC_MATH_H
#define VIMANA_NS3_CC_MATH_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- ECN ----------------------------------------------------------------- */

/* The probability that a packet finding `queue` bytes ahead of it is
 * marked: 0 up to kmin included, rising linearly to pmax at kmax, 1 above
 * kmax (DCQCN's RED-like rule). kmin == kmax: 0 up to it, 1 above. */
double cc_ecn_probability(uint64_t queue, uint64_t kmin, uint64_t kmax, double pmax);

/* Whether to mark: draws from the RNG only when 0 < p < 1, so that the
 * stream (and hence every later decision) does not depend on packets that
 * are certainly or never marked. *rng is the state of the toolkit's
 * splitmix64 (vimana_bt_splitmix64): a generator of our own, so that runs
 * are identical bit for bit whatever ns-3's global RNG streams do. */
bool cc_ecn_mark(uint64_t queue, uint64_t kmin, uint64_t kmax, double pmax, uint64_t *rng);

/* ---- DCQCN (reaction point: the sender) --------------------------------- */

typedef struct cc_dcqcn_params {
    double line_bps;     /* the NIC's rate: start and ceiling */
    double rate_ai_bps;  /* additive increase step */
    double rate_hai_bps; /* hyper increase step */
    double min_bps;      /* floor of a decrease */
    double g;            /* alpha's EWMA gain */
    uint32_t stages;     /* F: fast-recovery steps before additive increase */
    uint64_t byte_counter; /* B: bytes sent per byte-counter step (0: off) */
} cc_dcqcn_params;

typedef struct cc_dcqcn {
    double rc, rt, alpha; /* current rate, target rate, congestion estimate */
    uint32_t t_count;     /* timer expiries since the last decrease */
    uint32_t b_count;     /* byte-counter expiries since the last decrease */
    uint64_t bytes;       /* bytes sent towards the next byte-counter step */
    bool cnp_since_tick;  /* a CNP arrived since the last alpha timer */
} cc_dcqcn;

void cc_dcqcn_init(cc_dcqcn *s, const cc_dcqcn_params *p);
/* A CNP: Rt = Rc, Rc = Rc (1 - alpha / 2) (not below min), alpha =
 * (1 - g) alpha + g, both counters reset. */
void cc_dcqcn_on_cnp(cc_dcqcn *s, const cc_dcqcn_params *p);
/* The periodic timer (dcqcn_timer): alpha decays by (1 - g) if no CNP came
 * during the period, and the timer counter steps the rate up. */
void cc_dcqcn_on_timer(cc_dcqcn *s, const cc_dcqcn_params *p);
/* `bytes` more sent: the byte counter steps the rate up every B bytes. */
void cc_dcqcn_on_sent(cc_dcqcn *s, const cc_dcqcn_params *p, uint64_t bytes);
/* One increase step: fast recovery (Rc = (Rt + Rc) / 2) while both counters
 * are below F, additive increase (Rt += AI first) when one has reached F,
 * hyper increase (Rt += HAI) when both have; Rt and Rc never above line. */
void cc_dcqcn_increase(cc_dcqcn *s, const cc_dcqcn_params *p);

/* ---- HPCC (the sender, from INT in ACKs) --------------------------------- */

#define CC_HPCC_MAX_HOPS 8

typedef struct cc_int_hop {
    uint64_t qlen;     /* bytes queued at the port when the packet left it */
    uint64_t tx_bytes; /* bytes the port has sent, ever */
    int64_t ts_ps;     /* when the packet left it */
    double bps;        /* the port's rate */
} cc_int_hop;

typedef struct cc_hpcc_params {
    double eta;         /* target utilisation (0.95) */
    uint32_t max_stage; /* additive steps before a multiplicative update */
    double w_ai;        /* additive step, bytes (rate_ai x T) */
    double w_init;      /* line rate x T: start and ceiling */
    double w_min;       /* floor (one packet) */
    int64_t t_ps;       /* T, the base RTT */
} cc_hpcc_params;

typedef struct cc_hpcc {
    double w, wc, u;
    uint32_t inc_stage;
    uint64_t last_update_seq;
    uint32_t n_prev;
    cc_int_hop prev[CC_HPCC_MAX_HOPS];
} cc_hpcc;

void cc_hpcc_init(cc_hpcc *s, const cc_hpcc_params *p);
/* U: the EWMA of the most utilised hop's qlen / (B T) + txRate / B,
 * weighted by the time the sample covers (tau / T, tau at most T). The
 * first ACK only records the hops (no rate yet): returns the old U. */
double cc_hpcc_measure(cc_hpcc *s, const cc_hpcc_params *p, const cc_int_hop *hops, uint32_t n);
/* The window from U: multiplicative Wc / (U / eta) + W_AI when U >= eta or
 * after max_stage additive steps, else Wc + W_AI; Wc takes the new W only
 * when update_wc (once per RTT). */
double cc_hpcc_window(cc_hpcc *s, const cc_hpcc_params *p, double u, bool update_wc);
/* An ACK for everything before `ack_seq` with its INT; snd_nxt is the next
 * sequence the sender would send. Returns the new window in bytes. */
double cc_hpcc_on_ack(cc_hpcc *s, const cc_hpcc_params *p, const cc_int_hop *hops, uint32_t n, uint64_t ack_seq,
                      uint64_t snd_nxt);

#ifdef __cplusplus
}
#endif

#endif
