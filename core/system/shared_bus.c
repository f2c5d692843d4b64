/*
 * The shared memory bus of "model-shared-bus": 1 (the reference's behaviour, docs/simulator.md),
 * ported rule by rule from the reference's MemBus, LogGP and
 * MemMovRequest (astra-sim/astra-sim astra-sim/system/), because every quirk
 * of it moves ticks.
 *
 * Per NPU there are four LogGP endpoints: the outer bus's NPU and MA sides
 * (the JSON's L, o, g, G) and the nested bus's NPU2 and MEM2 sides (same L,
 * o, g; G = 0.0038), which only the outer NPU side uses. An endpoint is
 * half duplex: a transfer leaves its `sends` queue when the endpoint is free,
 * puts the partner into Receiving, and finishes sending after
 * offset + G(size-1) and receiving after offset + (size-1)G + L + o, where
 * offset is o, or the rest of the gap g since the endpoint's last transfer
 * when it sent last. An endpoint that has sent more than THRESHOLD times in
 * a row yields to a partner that has something to send.
 *
 * The outer NPU side never talks to its partner directly: before it sends,
 * a request first crosses the nested bus MEM2 -> NPU2 ("pre_send"); what it
 * receives crosses NPU2 -> MEM2 before it is processed ("pre_process"),
 * sent back or retired - the first two as a round trip (the nested request
 * carries send_back). The MA side processes and sends back itself.
 *
 * Requests come from a slab (stable addresses); the queues are intrusive
 * FIFOs. The reference's pre_send, pre_process and retirements lists are
 * only ever looked up through the request that a nested transfer carries,
 * so they need no storage here.
 */
#include "system/shared_bus.h"

#include <stdlib.h>

#include "util/slab.h"

#define THRESHOLD 8u        /* consecutive sends before an endpoint yields */
#define NESTED_G 0.0038     /* G of the nested NPU_MEM bus (a double literal upstream) */
#define TICK_LIMIT 1e18     /* larger L/o/g would not fit the reference's Tick either */

enum side { SIDE_NPU, SIDE_MA, SIDE_NPU2, SIDE_MEM2, SIDES };
enum xfer_state { XS_FREE, XS_SENDING, XS_RECEIVING };
enum bus_event {
    BE_GENERAL,             /* only runs the "anything to send?" check */
    BE_SEND_FINISHED,
    BE_REC_FINISHED,
    BE_PROCESSING_FINISHED,
    BE_CONSIDER_RETIRE,     /* a nested transfer of the outer NPU side ended */
    BE_CONSIDER_PROCESS,
    BE_CONSIDER_SEND_BACK,
};

typedef struct bus_req bus_req;
struct bus_req {
    bus_req *next;          /* queue link */
    bus_req *outer;         /* nested request: the outer request it carries; NULL for an outer one */
    uint64_t size;
    bool processed, send_back;
    uint8_t call_event;     /* outer request: what the NPU side does when its nested transfer ends */
    npu_event_fn done;      /* outer request: the bundle's callback */
    void *obj;
    uint64_t data;
};

typedef struct req_fifo {
    bus_req *head, *tail;
    uint32_t len;
} req_fifo;

typedef struct endpoint {
    uint32_t npu;
    uint8_t side;
    uint8_t cur, prev;          /* enum xfer_state */
    bool processing_busy;
    uint32_t subsequent_reads;  /* sends since this endpoint last started receiving */
    vimana_tick last_trans;
    double G;
    req_fifo sends, receives, processing;
    bus_req *talking;           /* the outer request whose nested transfer just ended */
} endpoint;

struct shared_bus {
    endpoint *ends;             /* SIDES per NPU, never moved: events point at them */
    uint32_t n_npus;
    slab reqs;
    vimana_tick L, o, g;
    uint64_t reduction_delay;
};

/* ---- small helpers ------------------------------------------------------- */

static void fifo_push(req_fifo *f, bus_req *r)
{
    r->next = NULL;
    if (f->tail)
        f->tail->next = r;
    else
        f->head = r;
    f->tail = r;
    f->len++;
}

static bus_req *fifo_pop(req_fifo *f)
{
    bus_req *r = f->head;
    f->head = r->next;
    if (!f->head)
        f->tail = NULL;
    f->len--;
    r->next = NULL;
    return r;
}

static endpoint *side_of(struct shared_bus *b, uint32_t npu, enum side side)
{
    return &b->ends[(size_t)npu * SIDES + side];
}

/* NPU <-> MA, NPU2 <-> MEM2 */
static endpoint *partner(struct shared_bus *b, const endpoint *e)
{
    return side_of(b, e->npu, (enum side)(e->side ^ 1u));
}

/* Only the outer NPU side owns a nested bus (MemBus is built with
 * attach = true, which attaches it to the NPU side alone). */
static bool has_nested(const endpoint *e)
{
    return e->side == SIDE_NPU;
}

/* The reference hands these sums (double) to Sys::register_event, whose
 * cycle count is an integer tick: the conversion truncates toward zero.
 * Out-of-range values (only from absurd parameters) are clamped instead of
 * being undefined. */
static vimana_tick ticks(double t)
{
    if (!(t > 0))
        return 0;
    return t < 1.8e19 ? (vimana_tick)t : UINT64_MAX;
}

/* MemMovRequest::size is an int; (size - 1) may be -1 for an empty bundle. */
static double size_minus_one(uint64_t size)
{
    return (double)((int64_t)size - 1);
}

static bus_req *req_new(sim *s, uint64_t size, bool processed, bool send_back)
{
    bus_req *r = slab_alloc(&s->bus->reqs);
    if (!r) {
        sim_fail(s, "out of memory (shared bus requests)");
        return NULL;
    }
    *r = (bus_req){.size = size, .processed = processed, .send_back = send_back};
    return r;
}

static void endpoint_call(sim *s, endpoint *e, enum bus_event ev);

static void on_bus_event(sim *s, void *obj, uint64_t ev)
{
    if (s->failed)
        return;
    endpoint_call(s, obj, (enum bus_event)ev);
}

static void register_bus_event(sim *s, endpoint *e, enum bus_event ev, vimana_tick delta)
{
    npu_register_event(s, e->npu, delta, on_bus_event, e, ev);
}

/* ---- transfers (LogGP::process_next_read, switch_to_receiver) ------------ */

static void switch_to_receiver(sim *s, endpoint *e, bus_req *r, vimana_tick offset)
{
    struct shared_bus *b = s->bus;
    fifo_push(&e->receives, r);
    e->prev = e->cur;
    e->cur = XS_RECEIVING;
    /* evaluated left to right in double, as upstream: offset + (size-1)G + L + o */
    double t = (double)offset + size_minus_one(r->size) * e->G + (double)b->L + (double)b->o;
    register_bus_event(s, e, BE_REC_FINISHED, ticks(t));
    e->subsequent_reads = 0;
}

static void process_next_read(sim *s, endpoint *e)
{
    struct shared_bus *b = s->bus;
    vimana_tick now = sim_now(s);
    vimana_tick offset = b->o;
    if (e->prev == XS_SENDING) {
        /* back-to-back sends keep the gap g between transfers */
        vimana_tick elapsed = now - e->last_trans;
        offset = b->o + elapsed > b->g ? b->o : b->g - elapsed;
    }
    bus_req *r = fifo_pop(&e->sends);
    uint64_t size = r->size;
    switch_to_receiver(s, partner(b, e), r, offset);
    e->cur = XS_SENDING;
    register_bus_event(s, e, BE_SEND_FINISHED, ticks((double)offset + e->G * size_minus_one(size)));
}

/* The check that ends every LogGP::call and request_read: a free endpoint
 * sends its oldest request, unless it has sent more than THRESHOLD times in
 * a row and its partner has something to send and has not. Then the
 * partner, if free, gets the turn; otherwise both wait for the next event. */
static void try_send(sim *s, endpoint *e)
{
    if (e->cur != XS_FREE || e->sends.len == 0)
        return;
    endpoint *p = partner(s->bus, e);
    if (e->subsequent_reads > THRESHOLD && p->sends.len > 0 && p->subsequent_reads <= THRESHOLD) {
        if (p->cur == XS_FREE)
            endpoint_call(s, p, BE_GENERAL);
        return;
    }
    process_next_read(s, e);
}

/* ---- requests (LogGP::request_read, MemMovRequest::call) ----------------- */

static void request_read(sim *s, endpoint *e, bus_req *r);

/* Sends outer request `outer` of the NPU side across the nested bus:
 * NPU2 -> MEM2 when to_mem, else MEM2 -> NPU2. The nested request always
 * has processed = false; send_back makes it a round trip. */
static void cross_nested_bus(sim *s, endpoint *npu_side, bus_req *outer, bool to_mem, bool send_back)
{
    bus_req *nested = req_new(s, outer->size, false, send_back);
    if (!nested)
        return;
    nested->outer = outer;
    request_read(s, side_of(s->bus, npu_side->npu, to_mem ? SIDE_NPU2 : SIDE_MEM2), nested);
}

static void request_read(sim *s, endpoint *e, bus_req *r)
{
    if (has_nested(e)) {
        /* pre_send: the data first comes from memory over the nested bus */
        r->call_event = BE_CONSIDER_SEND_BACK;
        cross_nested_bus(s, e, r, false, false);
        return;
    }
    fifo_push(&e->sends, r);
    try_send(s, e);
}

/* A request has been carried all the way and is out of every queue. An
 * outer request hands its bundle back (PacketBundle::call ignores which
 * event the bus reports); a nested one tells the outer NPU side of the same
 * NPU that the request it carries has crossed (MemMovRequest::call). */
static void deliver(sim *s, endpoint *at, bus_req *r)
{
    struct shared_bus *b = s->bus;
    bus_req *outer = r->outer;
    if (outer) {
        slab_free(&b->reqs, r);
        endpoint *npu_side = side_of(b, at->npu, SIDE_NPU);
        npu_side->talking = outer;
        endpoint_call(s, npu_side, (enum bus_event)outer->call_event);
        return;
    }
    npu_event_fn done = r->done;
    void *obj = r->obj;
    uint64_t data = r->data;
    slab_free(&b->reqs, r);
    done(s, obj, data);
}

/* ---- endpoint events (LogGP::call) --------------------------------------- */

static void start_processing(sim *s, endpoint *e)
{
    uint64_t size = e->processing.head->size;
    e->processing_busy = true;
    register_bus_event(s, e, BE_PROCESSING_FINISHED, (size / 100) * s->bus->reduction_delay + 50);
}

/* Queues request r on `queue` of endpoint e; with a nested bus the data goes
 * to memory and comes back first, and `then` queues it when it is back. */
static void queue_after_memory_trip(sim *s, endpoint *e, bus_req *r, enum bus_event then, req_fifo *queue)
{
    if (has_nested(e)) {
        r->call_event = then;
        cross_nested_bus(s, e, r, true, true);
    } else {
        fifo_push(queue, r);
    }
}

/* What happens to a request after it was received or processed and needs no
 * (more) processing here: go back over the bus, or retire. The NPU side
 * routes both through the nested bus first; the MA side sends back itself
 * or hands the request on at once. */
static void send_back_or_retire(sim *s, endpoint *e, bus_req *r)
{
    if (r->send_back) {
        r->send_back = false;
        queue_after_memory_trip(s, e, r, BE_CONSIDER_SEND_BACK, &e->sends);
    } else if (has_nested(e)) {
        r->call_event = BE_CONSIDER_RETIRE;
        cross_nested_bus(s, e, r, true, false);
    } else {
        deliver(s, e, r);
    }
}

static void on_send_finished(sim *s, endpoint *e)
{
    e->last_trans = sim_now(s);
    e->prev = e->cur;
    e->cur = XS_FREE;
    e->subsequent_reads++;
}

static void on_receive_finished(sim *s, endpoint *e)
{
    if (e->receives.len == 0) {
        sim_fail(s, "internal error: shared bus of NPU %u finished a receive it never started", e->npu);
        return;
    }
    e->last_trans = sim_now(s);
    e->prev = e->cur;
    /* with a second transfer already arriving the endpoint stays Receiving */
    if (e->receives.len < 2)
        e->cur = XS_FREE;
    bus_req *r = fifo_pop(&e->receives);
    if (r->processed) {
        r->processed = false;
        /* pre_process: the data goes to memory, and comes back, before it is processed */
        queue_after_memory_trip(s, e, r, BE_CONSIDER_PROCESS, &e->processing);
        if (!e->processing_busy && e->processing.len > 0)
            start_processing(s, e);
    } else {
        send_back_or_retire(s, e, r);
    }
}

static void on_processing_finished(sim *s, endpoint *e)
{
    if (e->processing.len == 0) {
        sim_fail(s, "internal error: shared bus of NPU %u finished processing nothing", e->npu);
        return;
    }
    e->processing_busy = false;
    send_back_or_retire(s, e, fifo_pop(&e->processing));
    if (e->processing.len > 0)
        start_processing(s, e);
}

static void endpoint_call(sim *s, endpoint *e, enum bus_event ev)
{
    bus_req *r = e->talking;
    switch (ev) {
    case BE_GENERAL:
        break;
    case BE_SEND_FINISHED:
        on_send_finished(s, e);
        break;
    case BE_REC_FINISHED:
        on_receive_finished(s, e);
        break;
    case BE_PROCESSING_FINISHED:
        on_processing_finished(s, e);
        break;
    case BE_CONSIDER_RETIRE:
        deliver(s, e, r);
        break;
    case BE_CONSIDER_PROCESS:
        fifo_push(&e->processing, r);
        if (!e->processing_busy)
            start_processing(s, e);
        break;
    case BE_CONSIDER_SEND_BACK:
        fifo_push(&e->sends, r);
        break;
    }
    if (s->failed)
        return;
    try_send(s, e);
}

/* ---- set-up -------------------------------------------------------------- */

/* The reference keeps L, o, g, G as float members of Sys (nlohmann converts
 * the JSON number to float) and hands L, o, g to LogGP as Tick (truncated)
 * and G as double (the float's value). */
static int tick_param(sim *s, const char *key, double v, vimana_tick *out)
{
    if (!(v >= 0 && v < TICK_LIMIT)) {
        sim_fail(s, "%s: key '%s' must be a non-negative number below 1e18 with model-shared-bus", s->cfg.path,
                 key);
        return -1;
    }
    *out = (vimana_tick)(float)v;
    return 0;
}

int shared_bus_init(sim *s)
{
    if (s->bus || !s->cfg.model_shared_bus)
        return 0;
    const sys_config *cfg = &s->cfg;
    vimana_tick L, o, g;
    if (tick_param(s, "L", cfg->L, &L) != 0 || tick_param(s, "o", cfg->o, &o) != 0 ||
        tick_param(s, "g", cfg->g, &g) != 0)
        return -1;
    if (!(cfg->G >= 0 && cfg->G < TICK_LIMIT)) {
        sim_fail(s, "%s: key 'G' must be a non-negative number below 1e18 with model-shared-bus", cfg->path);
        return -1;
    }
    struct shared_bus *b = calloc(1, sizeof *b);
    if (b)
        b->ends = calloc((size_t)s->n_npus * SIDES, sizeof *b->ends);
    if (!b || !b->ends) {
        free(b);
        sim_fail(s, "out of memory (shared bus)");
        return -1;
    }
    b->n_npus = s->n_npus;
    b->L = L;
    b->o = o;
    b->g = g;
    b->reduction_delay = cfg->local_reduction_delay;
    slab_init(&b->reqs, sizeof(bus_req), 256);
    double outer_G = (double)(float)cfg->G;
    for (uint32_t npu = 0; npu < s->n_npus; npu++) {
        for (int side = 0; side < SIDES; side++) {
            endpoint *e = side_of(b, npu, (enum side)side);
            e->npu = npu;
            e->side = (uint8_t)side;
            e->cur = e->prev = XS_FREE;
            e->G = side == SIDE_NPU || side == SIDE_MA ? outer_G : NESTED_G;
        }
    }
    s->bus = b;
    return 0;
}

void shared_bus_fini(sim *s)
{
    struct shared_bus *b = s->bus;
    if (!b)
        return;
    slab_destroy(&b->reqs);
    free(b->ends);
    free(b);
    s->bus = NULL;
}

void shared_bus_request(sim *s, uint32_t npu, bool npu_to_ma, uint64_t bytes, bool processed, bool send_back,
                        npu_event_fn done, void *obj, uint64_t data)
{
    if (!s->bus && shared_bus_init(s) != 0)
        return;
    if (!s->bus || npu >= s->bus->n_npus) {
        sim_fail(s, "internal error: no shared bus for NPU %u", npu);
        return;
    }
    bus_req *r = req_new(s, bytes, processed, send_back);
    if (!r)
        return;
    r->done = done;
    r->obj = obj;
    r->data = data;
    request_read(s, side_of(s->bus, npu, npu_to_ma ? SIDE_NPU : SIDE_MA), r);
}
