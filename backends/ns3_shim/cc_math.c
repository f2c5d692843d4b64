/*
 * cc_math.c - ns3_shim's ECN, DCQCN and HPCC arithmetic (cc_math.h).
 */
#include "ns3_shim/cc_math.h"

#include "vimana/backend_toolkit.h"

double cc_ecn_probability(uint64_t queue, uint64_t kmin, uint64_t kmax, double pmax)
{
    if (queue <= kmin)
        return 0;
    if (queue > kmax)
        return 1;
    /* kmin < queue <= kmax, so kmax > kmin here. */
    return pmax * (double)(queue - kmin) / (double)(kmax - kmin);
}

bool cc_ecn_mark(uint64_t queue, uint64_t kmin, uint64_t kmax, double pmax, uint64_t *rng)
{
    double p = cc_ecn_probability(queue, kmin, kmax, pmax);
    if (p <= 0)
        return false;
    if (p >= 1)
        return true;
    /* 53 random bits: a uniform double in [0, 1). */
    return (double)(vimana_bt_splitmix64(rng) >> 11) * 0x1p-53 < p;
}

/* ---- DCQCN ---------------------------------------------------------------- */

void cc_dcqcn_init(cc_dcqcn *s, const cc_dcqcn_params *p)
{
    s->rc = s->rt = p->line_bps;
    s->alpha = 1;
    s->t_count = s->b_count = 0;
    s->bytes = 0;
    s->cnp_since_tick = false;
}

void cc_dcqcn_on_cnp(cc_dcqcn *s, const cc_dcqcn_params *p)
{
    s->rt = s->rc;
    s->rc = s->rc * (1 - s->alpha / 2);
    if (s->rc < p->min_bps)
        s->rc = p->min_bps;
    s->alpha = (1 - p->g) * s->alpha + p->g;
    s->t_count = s->b_count = 0;
    s->bytes = 0;
    s->cnp_since_tick = true;
}

static double at_most(double v, double max)
{
    return v > max ? max : v;
}

void cc_dcqcn_increase(cc_dcqcn *s, const cc_dcqcn_params *p)
{
    bool t_done = s->t_count >= p->stages, b_done = s->b_count >= p->stages;
    if (t_done && b_done)
        s->rt = at_most(s->rt + p->rate_hai_bps, p->line_bps);
    else if (t_done || b_done)
        s->rt = at_most(s->rt + p->rate_ai_bps, p->line_bps);
    s->rc = at_most((s->rt + s->rc) / 2, p->line_bps);
}

void cc_dcqcn_on_timer(cc_dcqcn *s, const cc_dcqcn_params *p)
{
    if (!s->cnp_since_tick)
        s->alpha = (1 - p->g) * s->alpha;
    s->cnp_since_tick = false;
    s->t_count++;
    cc_dcqcn_increase(s, p);
}

void cc_dcqcn_on_sent(cc_dcqcn *s, const cc_dcqcn_params *p, uint64_t bytes)
{
    if (!p->byte_counter)
        return;
    s->bytes += bytes;
    while (s->bytes >= p->byte_counter) {
        s->bytes -= p->byte_counter;
        s->b_count++;
        cc_dcqcn_increase(s, p);
    }
}

/* ---- HPCC ----------------------------------------------------------------- */

void cc_hpcc_init(cc_hpcc *s, const cc_hpcc_params *p)
{
    s->w = s->wc = p->w_init;
    s->u = 0;
    s->inc_stage = 0;
    s->last_update_seq = 0;
    s->n_prev = 0;
}

double cc_hpcc_measure(cc_hpcc *s, const cc_hpcc_params *p, const cc_int_hop *hops, uint32_t n)
{
    if (n > CC_HPCC_MAX_HOPS)
        n = CC_HPCC_MAX_HOPS;
    double t = (double)p->t_ps;
    if (s->n_prev == n) {
        double u = 0, tau = 0;
        bool any = false;
        for (uint32_t i = 0; i < n; i++) {
            int64_t dt = hops[i].ts_ps - s->prev[i].ts_ps;
            /* A port's byte count only grows: a smaller one is another
             * port (the route changed under a fault): no sample. */
            if (dt <= 0 || hops[i].bps <= 0 || hops[i].tx_bytes < s->prev[i].tx_bytes)
                continue;
            /* bytes per ps -> bit/s: x 8e12. */
            double tx_bps = (double)(hops[i].tx_bytes - s->prev[i].tx_bytes) * 8e12 / (double)dt;
            uint64_t q = hops[i].qlen < s->prev[i].qlen ? hops[i].qlen : s->prev[i].qlen;
            double bdp_bytes = hops[i].bps / 8e12 * t;
            double ui = (double)q / bdp_bytes + tx_bps / hops[i].bps;
            if (!any || ui > u) {
                u = ui;
                tau = (double)dt;
                any = true;
            }
        }
        if (any) {
            if (tau > t)
                tau = t;
            s->u = (1 - tau / t) * s->u + tau / t * u;
        }
    }
    for (uint32_t i = 0; i < n; i++)
        s->prev[i] = hops[i];
    s->n_prev = n;
    return s->u;
}

double cc_hpcc_window(cc_hpcc *s, const cc_hpcc_params *p, double u, bool update_wc)
{
    double w;
    if (u >= p->eta || s->inc_stage >= p->max_stage) {
        w = s->wc / (u / p->eta) + p->w_ai;
        if (update_wc) {
            s->inc_stage = 0;
            s->wc = w;
        }
    } else {
        w = s->wc + p->w_ai;
        if (update_wc) {
            s->inc_stage++;
            s->wc = w;
        }
    }
    if (w > p->w_init)
        w = p->w_init;
    if (w < p->w_min)
        w = p->w_min;
    if (update_wc) {
        if (s->wc > p->w_init)
            s->wc = p->w_init;
        if (s->wc < p->w_min)
            s->wc = p->w_min;
    }
    s->w = w;
    return w;
}

double cc_hpcc_on_ack(cc_hpcc *s, const cc_hpcc_params *p, const cc_int_hop *hops, uint32_t n, uint64_t ack_seq,
                      uint64_t snd_nxt)
{
    double u = cc_hpcc_measure(s, p, hops, n);
    if (ack_seq > s->last_update_seq) {
        s->last_update_seq = snd_nxt;
        return cc_hpcc_window(s, p, u, true);
    }
    return cc_hpcc_window(s, p, u, false);
}
