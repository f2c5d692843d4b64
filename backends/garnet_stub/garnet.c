/*
 * garnet.so - a Garnet-style flit-level network model (in the spirit of
 * Garnet 2.0, written from its published description, not gem5 code):
 * routers with input-buffered virtual channels, credit-based flow control,
 * a configurable router pipeline and wormhole switching of packets of
 * flits, on the network YAML's Ring / FullyConnected / Switch dimensions
 * (routed dimension-order, with a dateline on rings) or on a topology graph
 * (shortest paths with the toolkit's ECMP choice).
 *
 * Time: 1 cycle = 1 tick = 1 ns (a 1 GHz router clock). A link of B bytes
 * per ns carries B / flit_bytes flits per cycle: a flit occupies its link's
 * serialiser flit_bytes / B cycles (32.32 fixed point), and a flit may
 * start in cycle t while the serialiser frees before t + 1, so a fast link
 * moves several flits per cycle and a slow one one flit every few cycles.
 * A flit sent in cycle t is written into the downstream VC at t + L (L =
 * the link latency in cycles, at least 1) - a flit longer than a cycle
 * at T + L, T the cycle its tail leaves the serialiser in - and may win
 * switch allocation there from then + pipeline; the credit it frees when it leaves that
 * buffer reaches the upstream router L cycles later.
 *
 * Network faults (link_fault, ABI 1.4): a bandwidth factor changes a link's
 * serialiser rate from its cycle on; a link down (topology graphs) leaves
 * the routes, packets waiting for it choose again at their router, those
 * holding a VC of it cross it.
 *
 * See backends/garnet_stub/README.md for the model, parameters and limits.
 *
 * Packets: a message is cut into packets of packet_flits flits (default:
 * one packet), each its own wormhole unit with its own VC on every link;
 * the NI cuts the next packet when the one before takes its VC, and sends
 * a message's flits in order. Switch allocation is separable: each crossbar
 * input port (a link's downstream end, or an NI's injection port onto a
 * link) picks one VC a cycle, round robin; each output port grants the
 * inputs that picked it round robin, a flit a grant, as its serialiser
 * allows. An NPU ejects at most eject_flits flits a cycle.
 *
 * Hot path: messages, packets, VCs and ports are dense arrays (messages
 * and packets with free lists); a VC's flits are a ring of their ready
 * times and its returning credits a ring of arrival times, allocated once
 * per VC (the first time it is used) and reused; nothing is allocated per
 * flit. Only output ports with packets waiting for a VC and input ports
 * holding an output are visited in a cycle, and a cycle in which no flit
 * moved jumps the clock to the next time anything can change; with nothing
 * in flight no cycle runs.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vimana/backend_toolkit.h"
#include "vimana/link_faults.h"
#include "vimana/net_layout.h"
#include "vimana/topology_graph.h"

#define NIL UINT32_MAX
#define NO_CYCLE UINT64_MAX
/* A slot id with this bit is the NI's injection queue of a packet; without
 * it, a link VC (link * vcs + vc). */
#define INJ_BIT 0x80000000u
#define GN_MAX_FC_NPUS 4096u
#define GN_MAX_LINKS (GN_MAX_FC_NPUS * GN_MAX_FC_NPUS / 4u)
/* Longest link in cycles and largest automatic VC depth (flits). */
#define GN_MAX_LATENCY 4294967295.0
#define GN_MAX_AUTO_DEPTH (1u << 17)
#define GN_MAX_FLITS (1ull << 32)
/* VCs per link: at most 64 (a bit mask per input port); vcs=auto takes
 * enough of Garnet 2.0's 5-flit data packets to cover a credit round trip,
 * never fewer than its 4 VCs per vnet. */
#define GN_MAX_VCS 64u
#define GN_MIN_AUTO_VCS 4u
#define GN_GARNET_DATA_FLITS 5.0
/* packet_flits when not given (see README: Packets and flits). */
#define GN_DEFAULT_PACKET_FLITS 0u

/* ---- options ------------------------------------------------------------- */

typedef struct {
    uint32_t flit_bytes;   /* bytes per flit (Garnet 2.0: 16) */
    uint32_t vcs;          /* virtual channels per input port; 0 = auto (auto_vcs), resolved at init */
    uint32_t vc_depth;     /* flits per VC; 0 = auto (a credit round trip) */
    uint32_t pipeline;     /* router pipeline cycles (1) */
    uint32_t stats;        /* log flit-hops per second at the end of run */
    uint32_t packet_flits; /* flits per packet; 0 = max (one packet a message) */
    uint32_t eject_flits;  /* flits an NI ejects per cycle; 0 = auto (its fastest incoming link's rate) */
} gn_options;

/* ---- state --------------------------------------------------------------- */

/* A message in flight. It is cut into packets of packet_flits flits one
 * at a time, at the NI: the next packet is cut when the previous one takes
 * its VC on the first link, so a message holds few packets however long it
 * is. The NI injects its flits in order (sent); the host is told when every
 * flit has been ejected (ejected == flits). */
typedef struct {
    uint64_t token;
    uint64_t bytes;
    uint64_t flits;
    uint64_t cut;            /* flits already cut into packets */
    uint64_t sent;           /* flits the NI has put on the first link, in order */
    uint64_t ejected;        /* flits ejected at the destination */
    vimana_tick ready;       /* when its first packet may take part in allocation */
    uint32_t src, dst;
    uint32_t next_free;      /* free-list chain */
} message;

/* A packet: flits [first, first + flits) of its message. The injection
 * fields are the NI's queue (the packet's source buffer). */
typedef struct {
    uint64_t first;
    uint64_t flits;
    uint64_t inj_fwd;        /* flits the NI has put on the first link */
    vimana_tick inj_ready;   /* when the head may take part in VC allocation at the NI */
    uint32_t msg;
    uint32_t inj_out, inj_out_vc, inj_next; /* first output, its VC, waiting-list (or free-list) chain */
    uint32_t dst;            /* destination NPU */
    uint32_t cur;            /* the device (YAML) or node (graph) the head is routed from */
    union {
        struct {
            uint32_t target; /* YAML: where the crossing of the current dimension ends */
            uint32_t via;    /* YAML: the switch of a Switch dimension */
        };
        uint64_t ecmp;       /* graph: vimana_topo_next_link's state */
    };
    uint8_t dim;
    int8_t step;             /* Ring: +1 or -1 */
    uint8_t crossed;         /* Ring: the packet crossed this dimension's dateline (VC class 1) */
} packet;

/* One virtual channel of a link: the downstream router's input buffer and
 * the upstream router's view of it (its credits), in one place. */
typedef struct {
    uint32_t pkt;            /* packet whose flits it holds; NIL once its tail left */
    uint32_t owner;          /* upstream slot sending into it; NIL once that sent its tail */
    uint32_t out, out_vc;    /* the packet's output at the downstream router, and its VC there
                              * (0 once granted for an ejection port, which has no VCs) */
    uint32_t next;           /* chain of the output's waiting list */
    uint32_t credits;        /* free slots the upstream router knows of */
    uint32_t fhead, fcount;  /* flits in flight or buffered: ring of ready times */
    uint32_t chead, ccount;  /* credits on their way back: ring of arrival times */
    uint64_t fwd;            /* flits that left this buffer */
    vimana_tick free_at;     /* may be allocated again from here (the tail's credit is back) */
    vimana_tick *ring;       /* [0, depth) flits, [depth, 2 depth) credits */
} vc_state;

/* A serialiser: the next flit may start at cycle + frac / 2^32, that is in
 * any cycle t >= cycle (a flit may start in t while it frees before t + 1). */
typedef struct {
    vimana_tick cycle;
    uint32_t frac;
} serialiser;

/* The time a serialiser takes per flit: cycles + frac / 2^32. */
typedef struct {
    uint64_t cycles;
    uint32_t frac;
} flit_time;

/* An output port: a link (ids 0..n_links-1) or an NPU's ejection port. */
typedef struct {
    serialiser ser;          /* the link's, or the ejection port's (eject_flits) */
    uint32_t wait_head, wait_tail; /* slots whose packet waits for a VC here (FIFO) */
    uint32_t n_busy;         /* VCs holding a packet */
    uint32_t rr;             /* switch allocation: the input port first in round-robin order */
    uint32_t req_head;       /* input ports requesting it in this cycle */
    uint32_t active;
} out_port;

/* An input port of a router's crossbar: the downstream end of link l (id
 * l; its slots are the link's VCs) or the NI's injection port onto link l
 * (id n_links + l; its slots are the NI's packets that hold a VC of l).
 * Separable switch allocation: in each cycle an input port picks one slot,
 * round robin, and sends only that slot's flits, at most as many as its
 * serialiser (its link's rate) lets start in the cycle. */
typedef struct {
    serialiser ser;
    uint32_t rr;             /* VC index first in round-robin order */
    uint32_t pick, pick_v;   /* slot picked in this cycle, and its VC index */
    uint32_t n_holding;      /* slots holding an output (a VC, or an ejection port) */
    uint64_t holding;        /* bit v: its slot of VC index v holds an output (input_slot) */
    uint32_t req_next;       /* chain of its output's requests */
    uint32_t active;
} in_port;

typedef struct {
    uint64_t step_cycles;    /* flit_bytes / bytes_per_ns: the serialiser time of a flit */
    uint32_t step_frac;
    uint32_t latency;        /* cycles */
    uint32_t depth;          /* flits per VC */
    uint32_t dim;            /* YAML: its dimension */
    double bytes_per_ns;
    flit_time in_step;       /* the crossbar input ports it feeds: its fastest rate (built, or a faster fault's) */
} link_info;

typedef struct garnet {
    vimana_bt bt;
    vimana_topo *topo;
    gn_options opt;
    uint32_t npus, n_dims;
    vimana_net_layout lay;   /* network YAML: device and link numbering */
    uint32_t n_links;
    link_info *li;
    out_port *outs;          /* n_links + npus */
    in_port *ins;            /* 2 n_links */
    vc_state *vc;            /* n_links * vcs */
    uint32_t *active;        /* output ports with packets waiting for a VC */
    uint32_t n_active;
    uint32_t *active_in;     /* input ports holding an output */
    uint32_t n_active_in;
    uint32_t *req_outs;      /* output ports requested in this cycle */
    uint32_t n_req_outs;
    flit_time *ej_step;      /* per NPU: its ejection port's time per flit */
    packet *pkts;
    uint32_t n_pkts, cap_pkts, free_pkts;
    message *msgs;
    uint32_t n_msgs, cap_msgs, free_msgs, in_flight;
    uint64_t *deliver;       /* tokens whose tail was ejected this cycle */
    uint32_t n_deliver, cap_deliver;
    vimana_tick next_cycle;
    uint64_t flit_hops, cycles;
    /* --network-faults (link_fault): the faults registered, to apply at
     * their ticks. A fault rewrites its link's link_info when it is due, so
     * the cycle reads nothing more: without faults the list stays empty
     * and a run is cycle for cycle what it was. */
    vimana_link_faults faults;
} garnet;

static void log_error(garnet *g, const char *msg)
{
    g->bt.host.log(g->bt.host.host, VIMANA_LOG_ERROR, msg);
}

/* ---- options parsing ------------------------------------------------------ */

typedef struct {
    const char *key;
    size_t offset;
    uint32_t lo, hi;
    const char *word;        /* a keyword accepted for the value 0 (auto, max), or NULL */
} option_spec;

static const option_spec option_specs[] = {
    {"flit_bytes", offsetof(gn_options, flit_bytes), 1, 65536, NULL},
    {"vcs", offsetof(gn_options, vcs), 1, GN_MAX_VCS, "auto"},
    {"vc_depth", offsetof(gn_options, vc_depth), 1, 1u << 20, "auto"},
    {"pipeline", offsetof(gn_options, pipeline), 1, 1000, NULL},
    {"stats", offsetof(gn_options, stats), 0, 1, NULL},
    {"packet_flits", offsetof(gn_options, packet_flits), 0, 1u << 20, "max"},
    {"eject_flits", offsetof(gn_options, eject_flits), 1, 65536, "auto"},
};

static int parse_option(gn_options *o, const char *item, size_t n, char *err, size_t len)
{
    char buf[160], quoted[200];
    snprintf(buf, sizeof buf, "%.*s", (int)(n < 150 ? n : 150), item);
    vimana_bt_escape(buf, quoted, sizeof quoted);
    const char *eq = memchr(item, '=', n);
    if (!eq) {
        snprintf(err, len, "garnet: --backend-options: '%s' is not key=value", quoted);
        return -1;
    }
    size_t klen = (size_t)(eq - item);
    for (size_t i = 0; i < sizeof option_specs / sizeof option_specs[0]; i++) {
        const option_spec *s = &option_specs[i];
        if (strlen(s->key) != klen || strncmp(s->key, item, klen) != 0)
            continue;
        const char *v = eq + 1;
        size_t vlen = n - klen - 1;
        uint32_t *field = (uint32_t *)((char *)o + s->offset);
        if (s->word && vlen == strlen(s->word) && strncmp(v, s->word, vlen) == 0) {
            *field = 0;
            return 0;
        }
        uint64_t x = 0;
        size_t j = 0;
        for (; j < vlen && j < 12 && v[j] >= '0' && v[j] <= '9'; j++)
            x = x * 10 + (uint64_t)(v[j] - '0');
        if (vlen == 0 || j != vlen || x < s->lo || x > s->hi) {
            snprintf(err, len, "garnet: --backend-options: '%s': %s must be an integer from %u to %u%s%s", quoted,
                     s->key, s->lo, s->hi, s->word ? " or " : "", s->word ? s->word : "");
            return -1;
        }
        *field = (uint32_t)x;
        return 0;
    }
    snprintf(err, len, "garnet: --backend-options: unknown key in '%s' (known: flit_bytes, vcs, vc_depth, "
             "pipeline, stats, packet_flits, eject_flits)", quoted);
    return -1;
}

static int parse_options(gn_options *o, const char *s, char *err, size_t len)
{
    *o = (gn_options){.flit_bytes = 16, .vcs = 0, .vc_depth = 0, .pipeline = 1, .stats = 0,
                      .packet_flits = GN_DEFAULT_PACKET_FLITS, .eject_flits = 0};
    if (!s)
        return 0;
    while (*s) {
        const char *end = strchr(s, ',');
        size_t n = end ? (size_t)(end - s) : strlen(s);
        if (parse_option(o, s, n, err, len) != 0)
            return -1;
        s += n + (end ? 1 : 0);
    }
    return 0;
}

/* ---- topology of a network YAML (the layout congestion_aware uses) -------- */
/*
 * Devices and links are numbered by the toolkit's vimana/net_layout.h, as
 * in congestion_aware, so link records compare one to one.
 */

static uint32_t link_id(const garnet *g, uint32_t d, uint32_t a, uint32_t b)
{
    return vimana_net_layout_link_id(&g->lay, d, a, b);
}

static void name_link(void *ctx, uint32_t link, uint32_t dim, uint32_t a, uint32_t b)
{
    garnet *g = ctx;
    vimana_bt_link_ends(&g->bt, link, a, b);
    g->li[link].dim = dim;
}

/* Dimension-order routing (the toolkit's legs): cross the lowest
 * dimension that differs. */
static void enter_next_dim(const garnet *g, packet *p)
{
    vimana_net_leg leg = vimana_net_layout_leg(&g->lay, p->cur, p->dst);
    p->dim = (uint8_t)leg.dim;
    p->crossed = 0;
    p->target = leg.target;
    p->via = leg.via;
    p->step = (int8_t)leg.step;
}

static uint32_t next_device(const garnet *g, const packet *p)
{
    return vimana_net_layout_leg_next(&g->lay, p->dim, p->cur, p->target, p->via, p->step);
}

/* ---- routing: the output a packet takes at each router -------------------- */

static uint32_t eject_port(const garnet *g, uint32_t npu)
{
    return g->n_links + npu;
}

/* The output at the source router. NIL if the route cache cannot grow. */
static uint32_t route_first(garnet *g, packet *p, uint32_t src)
{
    if (g->topo) {
        p->cur = vimana_topo_npu_node(g->topo, src);
        p->ecmp = vimana_topo_ecmp_hash(src, p->dst);
        uint32_t l = vimana_topo_next_link(g->topo, p->cur, p->dst, &p->ecmp);
        return l == VIMANA_TOPO_NONE ? NIL : l;
    }
    p->cur = src;
    enter_next_dim(g, p);
    return link_id(g, p->dim, p->cur, next_device(g, p));
}

/* The dateline: on a ring dimension, the link from coordinate n-1 to 0
 * (or 0 to n-1 going the other way) moves a packet to VC class 1 for the
 * rest of that dimension, which breaks the ring's cyclic dependency. */
static void vc_range(garnet *g, packet *p, uint32_t *lo, uint32_t *hi)
{
    uint32_t v = g->opt.vcs;
    *lo = 0;
    *hi = v;
    if (g->topo || v < 2 || g->bt.net.dims[p->dim].topology != VIMANA_NET_RING)
        return;
    uint32_t n = g->bt.net.dims[p->dim].npus, c = vimana_net_layout_coord(&g->lay, p->cur, p->dim);
    if ((p->step > 0 && c == n - 1) || (p->step < 0 && c == 0))
        p->crossed = 1;
    *lo = p->crossed ? v / 2 : 0;
    *hi = p->crossed ? v : v / 2;
}

/* The head crossed `link`: the output at the router at its far end (a link
 * or the destination's ejection port). NIL if the route cache cannot grow. */
static uint32_t route_advance(garnet *g, packet *p, uint32_t link)
{
    if (g->topo) {
        p->cur = vimana_topo_link_info(g->topo, link)->dst;
        if (p->cur == vimana_topo_npu_node(g->topo, p->dst))
            return eject_port(g, p->dst);
        uint32_t l = vimana_topo_next_link(g->topo, p->cur, p->dst, &p->ecmp);
        return l == VIMANA_TOPO_NONE ? NIL : l;
    }
    p->cur = next_device(g, p);
    if (p->cur == p->dst)
        return eject_port(g, p->dst);
    if (p->cur == p->target)
        enter_next_dim(g, p);
    return link_id(g, p->dim, p->cur, next_device(g, p));
}

/* Routing at a router found no link (VIMANA_TOPO_NONE): without faults the
 * route cache could not grow; with links down the router may also be cut
 * off from the packet's destination (a packet caught there when they went
 * down). */
static __attribute__((cold, noinline)) void no_route(garnet *g, const packet *p)
{
    char name[VIMANA_DEVICE_NAME_MAX + 1];
    if (!g->faults.items) {
        vimana_bt_fail(&g->bt, "garnet: out of memory for the route cache");
        return;
    }
    vimana_bt_fail(&g->bt, "garnet: a packet for NPU %u at %s has no route left: the links down cut it off from "
                   "its destination (or the route cache is out of memory)", p->dst,
                   vimana_topo_node_name(g->topo, p->cur, name, sizeof name));
}

/* ---- slots: where a packet's flits wait at a router input ----------------- */

static uint32_t *slot_next(garnet *g, uint32_t s)
{
    return s & INJ_BIT ? &g->pkts[s & ~INJ_BIT].inj_next : &g->vc[s].next;
}

static uint32_t slot_pkt(const garnet *g, uint32_t s)
{
    return s & INJ_BIT ? s & ~INJ_BIT : g->vc[s].pkt;
}

static uint32_t *slot_out_vc(garnet *g, uint32_t s)
{
    return s & INJ_BIT ? &g->pkts[s & ~INJ_BIT].inj_out_vc : &g->vc[s].out_vc;
}

/* The output a slot's packet takes at its router. */
static uint32_t *slot_out(garnet *g, uint32_t s)
{
    return s & INJ_BIT ? &g->pkts[s & ~INJ_BIT].inj_out : &g->vc[s].out;
}

static uint32_t link_of_vc(const garnet *g, uint32_t s)
{
    return s / g->opt.vcs;
}

/* The crossbar input port a slot belongs to: its link's downstream end, or
 * the NI's injection port onto its first link. */
static uint32_t input_of(const garnet *g, uint32_t s)
{
    return s & INJ_BIT ? g->n_links + g->pkts[s & ~INJ_BIT].inj_out : link_of_vc(g, s);
}

/* The VC index of slot s at its input port (input_slot's v): its VC of the
 * link for a link's slot, the VC of its first link it holds for an NI's. */
static uint32_t input_vc_index(garnet *g, uint32_t s)
{
    return s & INJ_BIT ? *slot_out_vc(g, s) : s % g->opt.vcs;
}

/* The ready time of the slot's next flit, or NO_CYCLE if none is there. The
 * NI sends a message's flits in order: a packet's flits wait until the
 * packets cut before it have all left. */
static vimana_tick slot_front(const garnet *g, uint32_t s)
{
    if (s & INJ_BIT) {
        const packet *p = &g->pkts[s & ~INJ_BIT];
        if (p->inj_fwd == p->flits || g->msgs[p->msg].sent != p->first + p->inj_fwd)
            return NO_CYCLE;
        return p->inj_ready;
    }
    const vc_state *v = &g->vc[s];
    return v->fcount ? v->ring[v->fhead] : NO_CYCLE;
}

/* When the slot's head may take part in VC allocation: at the NI before
 * the packets ahead of it have left (a packet takes its VC while the one
 * before streams), elsewhere when the head is in the buffer. */
static vimana_tick slot_head_ready(const garnet *g, uint32_t s)
{
    return s & INJ_BIT ? g->pkts[s & ~INJ_BIT].inj_ready : slot_front(g, s);
}

/* The slot's next flit leaves its buffer in cycle t: its credit starts back
 * upstream. Returns the flit's index in its packet. */
static uint64_t slot_pop(garnet *g, uint32_t s, vimana_tick t)
{
    if (s & INJ_BIT) {
        packet *p = &g->pkts[s & ~INJ_BIT];
        g->msgs[p->msg].sent++;
        return p->inj_fwd++;
    }
    vc_state *v = &g->vc[s];
    const link_info *li = &g->li[link_of_vc(g, s)];
    v->fhead = v->fhead + 1 == li->depth ? 0 : v->fhead + 1;
    v->fcount--;
    uint32_t at = v->chead + v->ccount;
    v->ring[li->depth + (at >= li->depth ? at - li->depth : at)] = t + li->latency;
    v->ccount++;
    return v->fwd++;
}

/* The slot's tail left in cycle t: it holds no output any more, and a VC
 * may be allocated again once the tail's credit is back upstream. */
static void slot_release(garnet *g, uint32_t s, vimana_tick t)
{
    in_port *in = &g->ins[input_of(g, s)];
    in->n_holding--;
    in->holding &= ~(1ull << input_vc_index(g, s));
    if (s & INJ_BIT)
        return;
    vc_state *v = &g->vc[s];
    uint32_t link = link_of_vc(g, s);
    v->pkt = NIL;
    v->free_at = t + g->li[link].latency;
    g->outs[link].n_busy--;
}

static void activate(garnet *g, uint32_t o)
{
    if (!g->outs[o].active) {
        g->outs[o].active = 1;
        g->active[g->n_active++] = o;
    }
}

/* The slot now holds its output (a VC there, or the ejection port): its
 * input port takes part in switch allocation. */
static void hold_output(garnet *g, uint32_t s, uint32_t out_vc)
{
    *slot_out_vc(g, s) = out_vc;
    in_port *in = &g->ins[input_of(g, s)];
    in->n_holding++;
    in->holding |= 1ull << input_vc_index(g, s);
    if (!in->active) {
        in->active = 1;
        g->active_in[g->n_active_in++] = input_of(g, s);
    }
}

static void wait_append(garnet *g, uint32_t o, uint32_t s)
{
    out_port *op = &g->outs[o];
    *slot_next(g, s) = NIL;
    if (op->wait_tail == NIL)
        op->wait_head = s;
    else
        *slot_next(g, op->wait_tail) = s;
    op->wait_tail = s;
    activate(g, o);
}

static void wait_remove(garnet *g, uint32_t o, uint32_t prev, uint32_t s)
{
    out_port *op = &g->outs[o];
    uint32_t next = *slot_next(g, s);
    if (prev == NIL)
        op->wait_head = next;
    else
        *slot_next(g, prev) = next;
    if (op->wait_tail == s)
        op->wait_tail = prev;
}

/* ---- messages and packets --------------------------------------------------- */

static uint32_t pkt_alloc(garnet *g)
{
    if (g->free_pkts != NIL) {
        uint32_t i = g->free_pkts;
        g->free_pkts = g->pkts[i].inj_next;
        return i;
    }
    if (g->n_pkts >= INJ_BIT ||
        vimana_bt_pool_grow((void **)&g->pkts, &g->cap_pkts, g->n_pkts, sizeof *g->pkts) != VIMANA_OK)
        return NIL;
    return g->n_pkts++;
}

static void pkt_free(garnet *g, uint32_t i)
{
    g->pkts[i].inj_next = g->free_pkts;
    g->free_pkts = i;
}

static uint32_t msg_alloc(garnet *g)
{
    if (g->free_msgs != NIL) {
        uint32_t i = g->free_msgs;
        g->free_msgs = g->msgs[i].next_free;
        return i;
    }
    if (g->n_msgs >= NIL ||
        vimana_bt_pool_grow((void **)&g->msgs, &g->cap_msgs, g->n_msgs, sizeof *g->msgs) != VIMANA_OK)
        return NIL;
    return g->n_msgs++;
}

static void msg_free(garnet *g, uint32_t i)
{
    g->msgs[i].next_free = g->free_msgs;
    g->free_msgs = i;
    g->in_flight--;
}

/* Cuts message m's next packet (packet_flits flits, or what is left) at its
 * NI, ready for VC allocation at `ready`. VIMANA_OK, or an error code (the
 * packet pool or the route cache cannot grow). */
static int cut_packet(garnet *g, uint32_t m, vimana_tick ready)
{
    message *msg = &g->msgs[m];
    uint64_t left = msg->flits - msg->cut;
    uint64_t n = g->opt.packet_flits && g->opt.packet_flits < left ? g->opt.packet_flits : left;
    uint32_t pi = pkt_alloc(g);
    if (pi == NIL)
        return VIMANA_ERR_NOMEM;
    msg = &g->msgs[m];
    packet *p = &g->pkts[pi];
    *p = (packet){.first = msg->cut, .flits = n, .inj_ready = ready, .msg = m, .inj_out_vc = NIL,
                  .inj_next = NIL, .dst = msg->dst};
    p->inj_out = route_first(g, p, msg->src);
    if (p->inj_out == NIL) {
        pkt_free(g, pi);
        return VIMANA_ERR_NOMEM;
    }
    msg->cut += n;
    wait_append(g, p->inj_out, INJ_BIT | pi);
    return VIMANA_OK;
}

/* ---- the cycle ------------------------------------------------------------ */

static void on_cycle(void *ctx, uint64_t tick);

static void schedule_cycle(garnet *g, vimana_tick at)
{
    if (g->next_cycle != NO_CYCLE && g->next_cycle <= at)
        return;
    g->next_cycle = at;
    if (vimana_evq_schedule(g->bt.evq, at - vimana_evq_now(g->bt.evq), on_cycle, g, at) != VIMANA_OK)
        vimana_bt_fail(&g->bt, "garnet: out of memory scheduling a cycle");
}

static bool lazy_ring(vc_state *v, uint32_t depth)
{
    if (!v->ring)
        v->ring = malloc(2 * (size_t)depth * sizeof *v->ring);
    return v->ring != NULL;
}

/* Slot s (at the head of link o's waiting list) takes VC v of link o in
 * cycle t: its packet is routed one router on, where it waits for a VC of
 * its next link or holds the ejection port at once. */
static bool take_vc(garnet *g, uint32_t o, uint32_t s, uint32_t v, vimana_tick t)
{
    const link_info *li = &g->li[o];
    uint32_t vi = o * g->opt.vcs + v;
    vc_state *c = &g->vc[vi];
    if (!lazy_ring(c, li->depth)) {
        vimana_bt_fail(&g->bt, "garnet: out of memory for a virtual channel's buffer");
        return false;
    }
    uint32_t pi = slot_pkt(g, s);
    packet *p = &g->pkts[pi];
    uint32_t out2 = route_advance(g, p, o);
    if (out2 == NIL) {
        no_route(g, p);
        return false;
    }
    *c = (vc_state){.pkt = pi, .owner = s, .out = out2, .out_vc = NIL, .credits = li->depth, .ring = c->ring};
    hold_output(g, s, v);
    g->outs[o].n_busy++;
    /* Link statistics count the message once, with its first packet. */
    const message *msg = &g->msgs[p->msg];
    if (p->first == 0)
        vimana_bt_link_count(&g->bt, o, msg->bytes,
                             (vimana_tick)((double)msg->flits * g->opt.flit_bytes / li->bytes_per_ns));
    if (out2 >= g->n_links)
        hold_output(g, vi, 0);
    else
        wait_append(g, out2, vi);
    /* The NI cuts the message's next packet now, so that it may take its
     * VC while this one streams. */
    if ((s & INJ_BIT) && msg->cut < msg->flits && cut_packet(g, p->msg, t) != VIMANA_OK) {
        vimana_bt_fail(&g->bt, "garnet: out of memory");
        return false;
    }
    return true;
}

/* VC allocation on link o: waiting packets whose head is here take a free
 * VC of their class, first come first served. Returns whether any did. */
static bool allocate_vcs(garnet *g, uint32_t o, vimana_tick t)
{
    out_port *op = &g->outs[o];
    bool any = false;
    for (uint32_t prev = NIL, s = op->wait_head, next; s != NIL && op->n_busy < g->opt.vcs; s = next) {
        next = *slot_next(g, s);
        if (slot_head_ready(g, s) > t) {
            prev = s;
            continue;
        }
        packet *p = &g->pkts[slot_pkt(g, s)];
        uint32_t lo, hi, v;
        vc_range(g, p, &lo, &hi);
        for (v = lo; v < hi; v++) {
            const vc_state *c = &g->vc[o * g->opt.vcs + v];
            if (c->pkt == NIL && c->free_at <= t)
                break;
        }
        if (v == hi) {
            prev = s;
            continue;
        }
        wait_remove(g, o, prev, s);
        if (!take_vc(g, o, s, v, t))
            return any;
        any = true;
    }
    return any;
}

/* Credits whose return has arrived by cycle t become usable. */
static void absorb_credits(vc_state *c, uint32_t depth, vimana_tick t)
{
    while (c->ccount && c->ring[depth + c->chead] <= t) {
        c->chead = c->chead + 1 == depth ? 0 : c->chead + 1;
        c->ccount--;
        c->credits++;
    }
}

/* Advances a serialiser by one flit started in cycle t; returns the cycle
 * the flit's tail leaves in (t for a flit of a cycle or less: it crosses
 * within its cycle). */
static inline vimana_tick serialise(serialiser *se, flit_time ft, vimana_tick t)
{
    if (se->cycle < t) {
        se->cycle = t;
        se->frac = 0;
    }
    uint64_t frac = (uint64_t)se->frac + ft.frac;
    se->cycle += ft.cycles + (frac >> 32);
    se->frac = (uint32_t)frac;
    bool long_flit = ft.cycles > 1 || (ft.cycles == 1 && ft.frac > 0);
    return !long_flit ? t : se->frac ? se->cycle : se->cycle - 1;
}

static flit_time link_flit_time(const garnet *g, uint32_t l)
{
    return (flit_time){g->li[l].step_cycles, g->li[l].step_frac};
}

/* Whether slot s may send a flit to its output in cycle t: a ready flit, a
 * credit for its VC there (an ejection port needs none), and an output
 * serialiser that lets a flit start. */
static inline bool slot_can_send(garnet *g, uint32_t s, vimana_tick t)
{
    uint32_t ov = *slot_out_vc(g, s);
    if (ov == NIL)
        return false;
    uint32_t o = *slot_out(g, s);
    if (g->outs[o].ser.cycle > t)
        return false;
    /* The cheap tests first: a VC out of credits is the common wait. */
    if (o < g->n_links) {
        vc_state *c = &g->vc[o * g->opt.vcs + ov];
        if (c->credits == 0) {
            if (c->ccount == 0 || c->ring[g->li[o].depth + c->chead] > t)
                return false;
            absorb_credits(c, g->li[o].depth, t);
        }
    }
    return slot_front(g, s) <= t;
}

/* Input port i's slot of VC index v (NIL if none holds an output there). */
static inline uint32_t input_slot(const garnet *g, uint32_t i, uint32_t v)
{
    if (i < g->n_links) {
        uint32_t s = i * g->opt.vcs + v;
        return g->vc[s].pkt != NIL && g->vc[s].out_vc != NIL ? s : NIL;
    }
    uint32_t owner = g->vc[(i - g->n_links) * g->opt.vcs + v].owner;
    return owner != NIL && (owner & INJ_BIT) ? owner : NIL;
}

/* Switch allocation, input stage: input port i picks one slot that can
 * send, round robin over its VCs, and requests that slot's output. */
static void input_request(garnet *g, uint32_t i, vimana_tick t)
{
    in_port *in = &g->ins[i];
    in->pick = NIL;
    if (in->ser.cycle > t)
        return;
    /* Only the VCs whose slots hold an output, from rr on and then from 0:
     * with many VCs and few in use a scan of all of them would dominate. */
    uint64_t from_rr = in->holding & (~0ull << in->rr), before_rr = in->holding & ~(~0ull << in->rr);
    for (uint64_t left = from_rr ? from_rr : before_rr; left; ) {
        uint32_t v = (uint32_t)__builtin_ctzll(left);
        left &= left - 1;
        if (!left && from_rr) {
            left = before_rr;
            from_rr = 0;
        }
        uint32_t s = input_slot(g, i, v);
        if (s == NIL || !slot_can_send(g, s, t))
            continue;
        in->pick = s;
        in->pick_v = v;
        uint32_t o = *slot_out(g, s);
        if (g->outs[o].req_head == NIL)
            g->req_outs[g->n_req_outs++] = o;
        in->req_next = g->outs[o].req_head;
        g->outs[o].req_head = i;
        return;
    }
}

/* The requesting input of output o next in round-robin order (from o's
 * pointer) whose picked slot can still send a flit in cycle t, or NIL. */
static uint32_t next_granted(garnet *g, uint32_t o, vimana_tick t)
{
    uint32_t n_in = 2 * g->n_links, rr = g->outs[o].rr, best = NIL, best_d = UINT32_MAX;
    for (uint32_t i = g->outs[o].req_head; i != NIL; i = g->ins[i].req_next) {
        uint32_t d = i >= rr ? i - rr : i + n_in - rr;
        if (d < best_d && g->ins[i].ser.cycle <= t && g->ins[i].pick != NIL && slot_can_send(g, g->ins[i].pick, t)) {
            best = i;
            best_d = d;
        }
    }
    return best;
}

/* Ejection of slot s's next flit at NPU port o: the tail of a message's
 * last packet delivers it. */
static void eject_flit(garnet *g, uint32_t s, vimana_tick t)
{
    uint32_t pi = g->vc[s].pkt;
    packet *p = &g->pkts[pi];
    if (slot_pop(g, s, t) + 1 < p->flits)
        return;
    slot_release(g, s, t);
    message *msg = &g->msgs[p->msg];
    msg->ejected += p->flits;
    uint32_t m = p->msg;
    pkt_free(g, pi);
    if (msg->ejected < msg->flits)
        return;
    if (g->n_deliver == g->cap_deliver &&
        vimana_bt_pool_grow((void **)&g->deliver, &g->cap_deliver, g->n_deliver, sizeof *g->deliver) != VIMANA_OK) {
        vimana_bt_fail(&g->bt, "garnet: out of memory");
        return;
    }
    g->deliver[g->n_deliver++] = msg->token;
    msg_free(g, m);
}

/* Sends slot s's next flit onto link o in cycle t (its serialiser was
 * advanced by the caller; `tail` is the cycle the flit's tail leaves in). */
static void send_flit(garnet *g, uint32_t o, uint32_t s, vimana_tick t, vimana_tick tail)
{
    const link_info *li = &g->li[o];
    uint32_t v = *slot_out_vc(g, s);
    vc_state *c = &g->vc[o * g->opt.vcs + v];
    vimana_tick ready = slot_front(g, s);
    uint64_t k = slot_pop(g, s, t);
    const packet *p = &g->pkts[c->pkt];
    if (k == 0 && p->first == 0)
        vimana_bt_link_queued(&g->bt, o, t - ready);
    uint32_t at = c->fhead + c->fcount;
    /* The destination NI takes a flit as it arrives: ejection needs no route
     * or VC, so only routers a flit passes through cost the pipeline. */
    vimana_tick stage = c->out >= g->n_links ? 0 : g->opt.pipeline;
    c->ring[at >= li->depth ? at - li->depth : at] = tail + li->latency + stage;
    c->fcount++;
    c->credits--;
    g->flit_hops++;
    if (k + 1 == p->flits) {
        c->owner = NIL;
        slot_release(g, s, t);
    }
}

/* Switch allocation, output stage: output o grants its requesting inputs
 * round robin, one flit a grant, while its serialiser lets a flit start in
 * cycle t and a requesting input can still send. */
static bool output_grant(garnet *g, uint32_t o, vimana_tick t)
{
    bool moved = false;
    flit_time out_ft = o < g->n_links ? link_flit_time(g, o) : g->ej_step[o - g->n_links];
    /* With one input requesting (the common case) no round robin is
     * needed: it sends while both serialisers and its slot allow. */
    bool alone = g->ins[g->outs[o].req_head].req_next == NIL;
    uint32_t i = NIL;
    while (g->outs[o].ser.cycle <= t) {
        if (!alone || i == NIL)
            i = next_granted(g, o, t);
        else if (g->ins[i].ser.cycle > t || !slot_can_send(g, g->ins[i].pick, t))
            i = NIL;
        if (i == NIL)
            break;
        in_port *in = &g->ins[i];
        uint32_t s = in->pick;
        in->rr = in->pick_v + 1 == g->opt.vcs ? 0 : in->pick_v + 1;
        g->outs[o].rr = i + 1 == 2 * g->n_links ? 0 : i + 1;
        serialise(&in->ser, g->li[i < g->n_links ? i : i - g->n_links].in_step, t);
        vimana_tick tail = serialise(&g->outs[o].ser, out_ft, t);
        if (o < g->n_links)
            send_flit(g, o, s, t, tail);
        else
            eject_flit(g, s, t);
        moved = true;
        if (g->bt.failed)
            break;
    }
    g->outs[o].req_head = NIL;
    return moved;
}

static void consider(vimana_tick *best, vimana_tick at, vimana_tick t)
{
    if (at > t && at < *best)
        *best = at;
}

/* After a cycle in which nothing moved: the first cycle in which anything
 * can (a flit becomes ready, a credit comes back, a VC frees, a serialiser
 * frees). NO_CYCLE if nothing ever will: a deadlock. */
static vimana_tick next_wake(garnet *g, vimana_tick t)
{
    vimana_tick best = NO_CYCLE;
    for (uint32_t k = 0; k < g->n_active; k++) {
        uint32_t o = g->active[k];
        for (uint32_t s = g->outs[o].wait_head; s != NIL; s = *slot_next(g, s))
            consider(&best, slot_head_ready(g, s), t);
        for (uint32_t v = 0; v < g->opt.vcs; v++)
            if (g->vc[o * g->opt.vcs + v].pkt == NIL)
                consider(&best, g->vc[o * g->opt.vcs + v].free_at, t);
    }
    for (uint32_t k = 0; k < g->n_active_in; k++) {
        uint32_t i = g->active_in[k];
        for (uint64_t left = g->ins[i].holding; left; left &= left - 1) {
            uint32_t s = input_slot(g, i, (uint32_t)__builtin_ctzll(left));
            if (s == NIL)
                continue;
            vimana_tick f = slot_front(g, s);
            consider(&best, f, t);
            uint32_t o = *slot_out(g, s);
            if (o < g->n_links) {
                const vc_state *c = &g->vc[o * g->opt.vcs + *slot_out_vc(g, s)];
                if (c->ccount)
                    consider(&best, c->ring[g->li[o].depth + c->chead], t);
            }
            if (f <= t) {
                consider(&best, g->outs[o].ser.cycle, t);
                consider(&best, g->ins[i].ser.cycle, t);
            }
        }
    }
    return best;
}

static void stalled(garnet *g, vimana_tick t)
{
    vimana_bt_fail(&g->bt, "stalled: %u message%s pending at t = %llu (garnet: no flit can ever move: a routing "
                   "deadlock; more vcs or a topology without cyclic routes avoids it)", g->in_flight,
                   g->in_flight == 1 ? "" : "s", (unsigned long long)t);
}

/* VC allocation on every link with packets waiting for a VC; the links
 * whose waiting list empties leave the active list. */
static bool allocation_pass(garnet *g, vimana_tick t)
{
    bool any = false;
    uint32_t n = g->n_active, w = 0;
    for (uint32_t k = 0; k < n && !g->bt.failed; k++) {
        uint32_t o = g->active[k];
        any |= allocate_vcs(g, o, t);
        if (g->outs[o].wait_head != NIL)
            g->active[w++] = o;
        else
            g->outs[o].active = 0;
    }
    /* Links activated during the pass (packets routed on) were appended. */
    for (uint32_t k = n; k < g->n_active; k++)
        g->active[w++] = g->active[k];
    g->n_active = w;
    return any;
}

/* Separable switch allocation: every input port requests, then every
 * output port requested grants; inputs that hold no output any more leave
 * the active list. */
static bool switch_pass(garnet *g, vimana_tick t)
{
    bool moved = false;
    g->n_req_outs = 0;
    for (uint32_t k = 0; k < g->n_active_in; k++)
        input_request(g, g->active_in[k], t);
    for (uint32_t k = 0; k < g->n_req_outs && !g->bt.failed; k++)
        moved |= output_grant(g, g->req_outs[k], t);
    uint32_t w = 0;
    for (uint32_t k = 0; k < g->n_active_in; k++) {
        uint32_t i = g->active_in[k];
        if (g->ins[i].n_holding)
            g->active_in[w++] = i;
        else
            g->ins[i].active = 0;
    }
    g->n_active_in = w;
    return moved;
}

static void on_cycle(void *ctx, uint64_t tick)
{
    garnet *g = ctx;
    if (tick != g->next_cycle)
        return; /* superseded by an earlier cycle */
    g->next_cycle = NO_CYCLE;
    g->cycles++;
    vimana_tick t = tick;
    bool moved = allocation_pass(g, t);
    if (!g->bt.failed)
        moved |= switch_pass(g, t);
    if (g->bt.failed)
        return;
    uint32_t k = g->n_deliver;
    g->n_deliver = 0;
    for (uint32_t i = 0; i < k && !g->bt.failed; i++)
        g->bt.host.delivered(g->bt.host.host, g->deliver[i]);
    if ((g->n_active == 0 && g->n_active_in == 0) || g->bt.failed)
        return;
    vimana_tick next = moved ? t + 1 : next_wake(g, t);
    if (next == NO_CYCLE)
        stalled(g, t);
    else
        schedule_cycle(g, next);
}

/* ---- init: a topology graph (as congestion_aware reads it) --------------- */

static int graph_layout(garnet *g, char *err, size_t err_len)
{
    int rc = vimana_bt_graph_network(&g->bt, g->topo, "garnet", GN_MAX_LINKS, &g->n_links, err, err_len);
    if (rc != VIMANA_OK)
        return rc;
    g->n_dims = g->bt.net.n_dims;
    g->npus = g->bt.net.total_npus;
    return VIMANA_OK;
}

static int yaml_layout(garnet *g, char *err, size_t err_len)
{
    g->n_dims = g->bt.net.n_dims;
    g->npus = g->bt.net.total_npus;
    vimana_net_layout_init(&g->lay, &g->bt.net);
    if (g->lay.n_links > GN_MAX_LINKS) {
        snprintf(err, err_len, "%s: npus_count: this network needs more than %u links, more than the garnet "
                 "backend supports", g->bt.network_path, GN_MAX_LINKS);
        return VIMANA_ERR_CONFIG;
    }
    g->n_links = (uint32_t)g->lay.n_links;
    return VIMANA_OK;
}

static int load_network(garnet *g, char *err, size_t err_len)
{
    int rc = vimana_bt_load_graph_or_yaml(&g->bt, &g->topo, err, err_len);
    if (rc != VIMANA_OK)
        return rc;
    return g->topo ? graph_layout(g, err, err_len) : yaml_layout(g, err, err_len);
}

/* The serialiser time of a flit on a link of this rate, in cycles. */
static double flit_cycles(const garnet *g, double bytes_per_ns)
{
    return g->opt.flit_bytes / bytes_per_ns;
}

/* The time per flit at `bytes_per_ns` (32.32 cycles; the caller has
 * checked it is below 2^31 cycles). */
static flit_time rate_flit_time(const garnet *g, double bytes_per_ns)
{
    double step = flit_cycles(g, bytes_per_ns);
    flit_time ft = {(uint64_t)step, 0};
    double frac = (step - (double)ft.cycles) * 0x1p32 + 0.5;
    ft.frac = frac >= 0x1p32 ? UINT32_MAX : (uint32_t)frac;
    return ft;
}

/* The link's rate: its serialiser time per flit. The caller has checked
 * flit_cycles() < 2^31. */
static void set_link_rate(garnet *g, uint32_t l, double bytes_per_ns)
{
    link_info *li = &g->li[l];
    flit_time ft = rate_flit_time(g, bytes_per_ns);
    li->bytes_per_ns = bytes_per_ns;
    li->step_cycles = ft.cycles;
    li->step_frac = ft.frac;
}

/* The flits a link carries in a credit round trip (2L + pipeline + 2
 * cycles) at this rate. */
static double round_trip_flits(const garnet *g, uint32_t latency, double bytes_per_ns)
{
    return (2.0 * latency + g->opt.pipeline + 2.0) * bytes_per_ns / g->opt.flit_bytes;
}

/* vc_depth=auto: enough flits to cover a credit round trip at this rate,
 * so that a lone packet runs at the link's rate. */
static uint32_t auto_depth(const garnet *g, uint32_t latency, double bytes_per_ns)
{
    double depth = round_trip_flits(g, latency, bytes_per_ns) + 2.0;
    return depth > GN_MAX_AUTO_DEPTH ? GN_MAX_AUTO_DEPTH : (uint32_t)depth;
}

/* vcs=auto: a packet holds its VC for its serialisation and a credit round
 * trip, so a link of long latency needs many packets in flight to stay
 * busy. Enough VCs for Garnet 2.0's 5-flit data packets to cover the
 * longest round trip of the network, from Garnet's 4 up to 64 (README,
 * "Packet size"): 4 on Garnet's 1-cycle links, 64 on links of hundreds of
 * cycles. */
static uint32_t auto_vcs(const garnet *g)
{
    double most = 0;
    for (uint32_t l = 0; l < g->n_links; l++) {
        double f = round_trip_flits(g, g->li[l].latency, g->li[l].bytes_per_ns);
        if (f > most)
            most = f;
    }
    double v = ceil(most / GN_GARNET_DATA_FLITS) + 1.0;
    return v < GN_MIN_AUTO_VCS ? GN_MIN_AUTO_VCS : v > GN_MAX_VCS ? GN_MAX_VCS : (uint32_t)v;
}

/* A link's timing: serialiser time per flit, latency in cycles (rounded,
 * at least 1) and VC depth. */
static int set_link_timing(garnet *g, uint32_t l, double bytes_per_ns, double latency_ns, char *err,
                           size_t err_len)
{
    link_info *li = &g->li[l];
    if (!(latency_ns < GN_MAX_LATENCY) || !(flit_cycles(g, bytes_per_ns) < 0x1p31)) {
        snprintf(err, err_len, "%s: link %u: latency %g ns or bandwidth %g bytes/ns is outside what the garnet "
                 "backend simulates (latency below 2^32 cycles, a flit below 2^31 cycles)", g->bt.network_path,
                 l, latency_ns, bytes_per_ns);
        return VIMANA_ERR_CONFIG;
    }
    set_link_rate(g, l, bytes_per_ns);
    li->in_step = rate_flit_time(g, bytes_per_ns);
    double lat = latency_ns + 0.5;
    li->latency = lat < 1.0 ? 1u : (uint32_t)lat;
    li->depth = g->opt.vc_depth ? g->opt.vc_depth : auto_depth(g, li->latency, bytes_per_ns);
    return VIMANA_OK;
}

/* The rate a link was built with (the fault's factor multiplies it). */
static double built_rate(const garnet *g, uint32_t l)
{
    return g->topo ? vimana_topo_link_info(g->topo, l)->bytes_per_ns : g->bt.net.dims[g->li[l].dim].bytes_per_ns;
}

static bool faster(flit_time a, flit_time b)
{
    return a.cycles < b.cycles || (a.cycles == b.cycles && a.frac < b.frac);
}

/* The ejection port of an NPU: eject_flits flits a cycle, or (auto) what
 * its fastest incoming link delivers at the rate it was built with; an
 * NPU no link reaches ejects a flit a cycle. A fault making a link faster
 * raises it (raise_eject_rate); a slower link leaves it. */
static void set_eject_rate(garnet *g, uint32_t npu)
{
    flit_time *ft = &g->ej_step[npu];
    if (g->opt.eject_flits) {
        uint32_t n = g->opt.eject_flits;
        *ft = n == 1 ? (flit_time){1, 0} : (flit_time){0, (uint32_t)(0x1p32 / n)};
        return;
    }
    double fastest = 0;
    for (uint32_t l = 0; l < g->n_links; l++)
        if (g->bt.links[l].dst_device == npu && g->li[l].bytes_per_ns > fastest)
            fastest = g->li[l].bytes_per_ns;
    *ft = fastest > 0 ? rate_flit_time(g, fastest) : (flit_time){1, 0};
}

/* eject_flits=auto promises an NPU ejects what its fastest link delivers:
 * a link into it that a fault makes faster raises its rate (faults come
 * before run()). */
static void raise_eject_rate(garnet *g, uint32_t link, double factor)
{
    uint32_t npu = g->bt.links[link].dst_device;
    if (g->opt.eject_flits || factor <= 1 || npu >= g->npus)
        return;
    flit_time ft = rate_flit_time(g, built_rate(g, link) * factor), *cur = &g->ej_step[npu];
    if (faster(ft, *cur))
        *cur = ft;
}

/* A crossbar input port runs at its link's fastest rate: a fault that
 * makes the link faster raises it, a slower one leaves it (the flits sent
 * before the fault still arrive at the old rate). */
static void raise_input_rate(garnet *g, uint32_t link, double factor)
{
    flit_time ft = rate_flit_time(g, built_rate(g, link) * factor);
    if (factor > 1 && faster(ft, g->li[link].in_step))
        g->li[link].in_step = ft;
}

static int init_links(garnet *g, char *err, size_t err_len)
{
    if (!g->topo)
        vimana_net_layout_links(&g->lay, name_link, g);
    for (uint32_t l = 0; l < g->n_links; l++) {
        double lat;
        if (g->topo) {
            const vimana_topo_link *tl = vimana_topo_link_info(g->topo, l);
            vimana_bt_link_ends(&g->bt, l, vimana_topo_node_device(g->topo, tl->src),
                                vimana_topo_node_device(g->topo, tl->dst));
            lat = tl->latency_ns;
        } else {
            lat = g->bt.net.dims[g->li[l].dim].latency_ns;
        }
        int rc = set_link_timing(g, l, built_rate(g, l), lat, err, err_len);
        if (rc != VIMANA_OK)
            return rc;
    }
    if (!g->opt.vcs)
        g->opt.vcs = auto_vcs(g);
    g->vc = calloc(g->n_links ? (size_t)g->n_links * g->opt.vcs : 1, sizeof *g->vc);
    if (!g->vc) {
        snprintf(err, err_len, "out of memory");
        return VIMANA_ERR_NOMEM;
    }
    for (uint32_t o = 0; o < g->n_links + g->npus; o++)
        g->outs[o] = (out_port){.wait_head = NIL, .wait_tail = NIL, .req_head = NIL};
    for (uint32_t i = 0; i < 2 * g->n_links; i++)
        g->ins[i] = (in_port){.pick = NIL, .req_next = NIL};
    for (uint64_t i = 0; i < (uint64_t)g->n_links * g->opt.vcs; i++)
        g->vc[i] = (vc_state){.pkt = NIL, .owner = NIL, .next = NIL, .out_vc = NIL};
    for (uint32_t n = 0; n < g->npus; n++)
        set_eject_rate(g, n);
    return VIMANA_OK;
}

static void gn_free(garnet *g)
{
    if (g->vc)
        for (uint64_t i = 0; i < (uint64_t)g->n_links * g->opt.vcs; i++)
            free(g->vc[i].ring);
    vimana_bt_fini(&g->bt);
    vimana_topo_free(g->topo);
    free(g->li);
    free(g->outs);
    free(g->vc);
    free(g->active);
    free(g->ins);
    free(g->active_in);
    free(g->req_outs);
    free(g->ej_step);
    free(g->pkts);
    free(g->msgs);
    free(g->deliver);
    vimana_bt_faults_free(&g->faults);
    free(g);
}

static int alloc_state(garnet *g)
{
    size_t ports = (size_t)g->n_links + g->npus;
    g->li = calloc(g->n_links ? g->n_links : 1, sizeof *g->li);
    g->outs = calloc(ports, sizeof *g->outs);
    g->active = calloc(ports, sizeof *g->active);
    g->ins = calloc(2 * (size_t)g->n_links + 1, sizeof *g->ins);
    g->active_in = calloc(2 * (size_t)g->n_links + 1, sizeof *g->active_in);
    g->req_outs = calloc(ports, sizeof *g->req_outs);
    g->ej_step = calloc(g->npus ? g->npus : 1, sizeof *g->ej_step);
    if (!g->li || !g->outs || !g->active || !g->ins || !g->active_in || !g->req_outs || !g->ej_step ||
        vimana_bt_links_alloc(&g->bt, g->n_links) != VIMANA_OK)
        return VIMANA_ERR_NOMEM;
    return VIMANA_OK;
}

static int gn_init(const vimana_backend_params *params, const vimana_host *host, void **ctx, char *err,
                   size_t err_len)
{
    garnet *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, err_len, "out of memory");
        return VIMANA_ERR_NOMEM;
    }
    g->free_pkts = NIL;
    g->free_msgs = NIL;
    g->next_cycle = NO_CYCLE;
    int rc = parse_options(&g->opt, params->options, err, err_len) == 0 ? VIMANA_OK : VIMANA_ERR_CONFIG;
    if (rc == VIMANA_OK)
        rc = vimana_bt_init(&g->bt, params, host, err, err_len);
    if (rc == VIMANA_OK)
        rc = load_network(g, err, err_len);
    if (rc == VIMANA_OK && alloc_state(g) != VIMANA_OK) {
        snprintf(err, err_len, "out of memory");
        rc = VIMANA_ERR_NOMEM;
    }
    if (rc == VIMANA_OK)
        rc = init_links(g, err, err_len);
    if (rc != VIMANA_OK) {
        gn_free(g);
        return rc;
    }
    *ctx = g;
    return VIMANA_OK;
}

static void gn_fini(void *ctx)
{
    if (ctx)
        gn_free(ctx);
}

static int gn_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag, uint64_t token)
{
    garnet *g = ctx;
    (void)tag;
    uint64_t flits = bytes / g->opt.flit_bytes + (bytes % g->opt.flit_bytes != 0);
    if (src >= g->npus || dst >= g->npus || src == dst || bytes == 0 || flits >= GN_MAX_FLITS) {
        char msg[200];
        snprintf(msg, sizeof msg, "garnet: invalid message %u -> %u of %llu bytes%s", src, dst,
                 (unsigned long long)bytes, flits >= GN_MAX_FLITS ? " (2^32 flits or more)" : "");
        log_error(g, msg);
        return VIMANA_ERR_ARGUMENT;
    }
    uint32_t m = msg_alloc(g);
    if (m == NIL) {
        log_error(g, "garnet: out of memory");
        return VIMANA_ERR_NOMEM;
    }
    vimana_tick now = vimana_evq_now(g->bt.evq);
    g->msgs[m] = (message){.token = token, .bytes = bytes, .flits = flits, .src = src, .dst = dst};
    int rc = cut_packet(g, m, now + g->opt.pipeline);
    if (rc != VIMANA_OK) {
        g->msgs[m].next_free = g->free_msgs;
        g->free_msgs = m;
        log_error(g, "garnet: out of memory for the route cache");
        return rc;
    }
    g->in_flight++;
    schedule_cycle(g, now + g->opt.pipeline);
    return VIMANA_OK;
}

/* run() with the flit-hop rate and the VCs a link has (what vcs=auto
 * chose), logged when the option stats=1 asks. */
static int gn_run(void *ctx)
{
    garnet *g = ctx;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t hops0 = g->flit_hops;
    int rc = vimana_bt_run(ctx);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    uint64_t hops = g->flit_hops - hops0;
    vimana_bt_log(&g->bt, g->opt.stats ? VIMANA_LOG_INFO : VIMANA_LOG_DEBUG,
                  "%llu flit-hops, %llu cycles simulated, %.3f s: %.1f M flit-hops/s; %u VCs a link",
                  (unsigned long long)hops, (unsigned long long)g->cycles, s, s > 0 ? (double)hops / s / 1e6 : 0.0,
                  g->opt.vcs);
    return rc;
}

/* ---- network faults (link_fault, ABI 1.4) ---------------------------------- */
/*
 * A bandwidth factor rewrites the link's serialiser rate when its fault is
 * due: flits that start crossing from that cycle on take flit_bytes / (factor
 * x B) cycles each; the flit crossing then keeps its time. A link that goes
 * down (factor 0, topology graphs only) leaves the routes computed from then
 * on; packets holding a VC of it are committed (wormhole: their flits
 * follow the head already) and cross it at the rate it had, those that chose
 * it at their router but hold no VC of it yet choose again (reroute_waiting).
 */

/* A link that just went down: the packets in its waiting list (they chose
 * it at its router, its source node, which route_first / route_advance
 * left in their cur, and wait for a VC of it or for their head to get
 * there) choose again there, over the shortest routes left, in their
 * order. As congestion_aware's messages waiting for a link do. */
static void reroute_waiting(garnet *g, uint32_t link)
{
    out_port *op = &g->outs[link];
    uint32_t s = op->wait_head;
    if (s == NIL)
        return;
    op->wait_head = op->wait_tail = NIL;
    for (uint32_t next; s != NIL; s = next) {
        next = *slot_next(g, s);
        packet *p = &g->pkts[slot_pkt(g, s)];
        uint32_t out = vimana_topo_next_link(g->topo, p->cur, p->dst, &p->ecmp);
        if (out == VIMANA_TOPO_NONE) {
            no_route(g, p);
            return;
        }
        *slot_out(g, s) = out;
        wait_append(g, out, s);
    }
    /* The cycle planned may be later: a packet can take a VC of its new
     * link now. The fault's event runs before this tick's cycle (it was
     * scheduled before run()), so this adds no second cycle. */
    schedule_cycle(g, vimana_evq_now(g->bt.evq));
}

/* Fault k reaches its tick. */
static void on_fault(void *ctx, uint64_t k)
{
    garnet *g = ctx;
    const vimana_link_fault *f = &g->faults.items[k];
    if (f->factor > 0)
        set_link_rate(g, f->link, built_rate(g, f->link) * f->factor);
    if (vimana_bt_fault_route(&g->bt, g->topo, "garnet", f) == 1)
        reroute_waiting(g, f->link);
}

/* vc_depth=auto promises that a lone packet runs at its link's rate: a
 * link a fault makes faster gets the depth of its fastest rate. Faults
 * come before run(), when no VC of the link has its buffer yet (a buffer,
 * once there, keeps its depth). */
static void deepen_auto_vcs(garnet *g, uint32_t link, double factor)
{
    link_info *li = &g->li[link];
    if (g->opt.vc_depth || factor <= 1)
        return;
    for (uint32_t v = 0; v < g->opt.vcs; v++)
        if (g->vc[link * g->opt.vcs + v].ring)
            return;
    uint32_t depth = auto_depth(g, li->latency, built_rate(g, link) * factor);
    if (depth > li->depth)
        li->depth = depth;
}

/* The fault's link and factor, checked: one line in err otherwise. */
static int check_fault(garnet *g, uint32_t link, double factor, char *err, size_t err_len)
{
    int rc = vimana_bt_fault_check("garnet", link, g->n_links, factor, g->topo != NULL, err, err_len);
    if (rc != VIMANA_OK)
        return rc;
    double step = factor > 0 ? flit_cycles(g, built_rate(g, link) * factor) : 0;
    if (!(step < 0x1p31)) {
        snprintf(err, err_len, "garnet: link %u, bandwidth factor %g: a flit would take %g cycles on it, more than "
                 "the garnet backend simulates (a flit below 2^31 cycles)", link, factor, step);
        return VIMANA_ERR_CONFIG;
    }
    return VIMANA_OK;
}

static int gn_link_fault(void *ctx, uint32_t link, vimana_tick at, double factor, char *err, size_t err_len)
{
    garnet *g = ctx;
    int rc = check_fault(g, link, factor, err, err_len);
    if (rc != VIMANA_OK)
        return rc;
    if ((rc = vimana_bt_fault_add(&g->faults, g->topo, g->n_links, link, at, factor, err, err_len)) != VIMANA_OK)
        return rc;
    deepen_auto_vcs(g, link, factor);
    raise_eject_rate(g, link, factor);
    raise_input_rate(g, link, factor);
    return vimana_bt_fault_schedule(&g->bt, at, on_fault, g, g->faults.n - 1, err, err_len);
}

static const char *gn_device_name(void *ctx, uint32_t device, char *buf, size_t len)
{
    const garnet *g = ctx;
    return vimana_topo_device_name(g->topo, g->npus, device, buf, len);
}

/* --backend-options as `vimana backend-check garnet --options` lists them
 * (gn_parse_options reads them; README.md, "Options"). */
static const vimana_backend_option garnet_options[] = {
    {"flit_bytes", "1 to 65536 (bytes)", "16", "bytes per flit (Garnet 2.0: 16)", "65536"},
    {"vcs", "1 to 64, auto", "auto",
     "virtual channels per link; auto: enough 5-flit packets for a credit round trip, 4 (Garnet 2.0) to 64", NULL},
    {"vc_depth", "1 to 1048576, auto", "auto", "flits per VC; auto: a credit round trip of the link at its rate",
     NULL},
    {"pipeline", "1 to 1000 (cycles)", "1", "router pipeline cycles (Garnet 2.0: 1)", NULL},
    {"stats", "0, 1", "0", "1: log flit-hops, cycles and flit-hops per second at the end of the run", NULL},
    {"packet_flits", "0 to 1048576, max", "max", "flits per packet; max or 0: one packet a message", NULL},
    {"eject_flits", "1 to 65536, auto", "auto",
     "flits an NPU's ejection port takes a cycle; auto: what its fastest incoming link delivers", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static const vimana_backend garnet_backend = {
    VIMANA_BACKEND_HEADER_INIT,
    .name = "garnet",
    .description = "Garnet-style flit-level network: routers with virtual channels, credit flow control, "
                   "a configurable pipeline and wormhole switching, on network YAML dimensions or a topology file",
    .capabilities = VIMANA_CAP_CONGESTION | VIMANA_CAP_LINK_STATS | VIMANA_CAP_MULTI_DIM,
    .init = gn_init,
    .fini = gn_fini,
    .sim_send = gn_send,
    /* VIMANA_BT_DEFAULTS, but run() with the flit-hop count. */
    .num_dims = vimana_bt_num_dims, .dim_size = vimana_bt_dim_size, .dim_bandwidth = vimana_bt_dim_bandwidth,
    .schedule = vimana_bt_schedule, .now = vimana_bt_now, .run = gn_run, .stop = vimana_bt_stop,
    VIMANA_BT_LINK_STATS,
    .device_name = gn_device_name,
    .link_fault = gn_link_fault,
    .options = garnet_options,
};

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void);

VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
{
    return &garnet_backend;
}
