/*
 * ns3_shim.so - Vimana's network traffic on real ns-3 (Debian libns3-dev
 * 3.37) behind the C descriptor of vimana/network_api.h (ABI 1.4).
 *
 * The network (shim_topology.h: a network YAML or a topology file, the same
 * devices, links and routes as congestion_aware) becomes ns-3 nodes, one per
 * device, and one PointToPointChannel per directed link with a
 * PointToPointNetDevice at each end (rate and delay from the configuration,
 * an unbounded DropTail queue: the network is lossless). No internet stack:
 * the shim registers its own protocol handler on every node and forwards
 * packets along the message's route (source routing over the routes
 * congestion_aware takes), so switches are plain forwarding nodes.
 *
 * Transport: a rate-based sender written here. A message is cut into
 * packets of `packet` bytes (option, default 4096; the last one shorter);
 * the source hands one packet to its first link every time that link can
 * serialise one (paced at the link's rate), and the destination counts the
 * bytes that arrive: the host is told of the message at the ns-3 time its
 * last byte arrives. Each packet carries a 2-byte PPP header on the wire.
 *
 * Faults (link_fault): registered before run(), each takes effect at its
 * tick (an ns-3 event; at once for tick 0). A bandwidth factor sets the
 * device's DataRate, which the pacer and the shadow FIFO read too; a link
 * down leaves the topology graph's routes. What a device already holds
 * still crosses it: a packet is rerouted when it is next forwarded
 * (Sim::NextHop).
 *
 * Time: one ns-3 simulation per process, resolution 1 ps (so that a
 * packet's serialisation time is not rounded to whole ns); 1 tick = 1 ns =
 * 1000 ns-3 time steps. The host's schedule/now/run/stop are
 * Simulator::Schedule/Now/Run/Stop.
 *
 * No C++ exception leaves this file: every function of the descriptor
 * catches everything. Inputs ns-3 would abort on are refused before ns-3
 * sees them.
 */
#include <cinttypes>
#include <cstdarg>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include <ns3/data-rate.h>
#include <ns3/drop-tail-queue.h>
#include <ns3/mac48-address.h>
#include <ns3/node.h>
#include <ns3/nstime.h>
#include <ns3/packet.h>
#include <ns3/point-to-point-channel.h>
#include <ns3/point-to-point-net-device.h>
#include <ns3/simulator.h>
#include <ns3/tag.h>

#include "ns3_shim/shim_topology.h"
#include "vimana/backend_toolkit.h"

namespace {

using ns3::Ptr;

const uint32_t NIL = UINT32_MAX;
const uint32_t DEFAULT_PACKET = 4096;
const uint32_t MIN_PACKET = 64, MAX_PACKET = 65000;
const uint32_t PPP_HEADER = 2;
/* ns-3 counts time steps (ps) in an int64: the last tick it can reach,
 * with a margin for the serialisation of packets past it. */
const vimana_tick MAX_TICK = (vimana_tick)(INT64_MAX / 1000) - (1ull << 40);

/* What each packet carries besides its length: its message, and, once
 * links going down or up have made its message's route stale, that it is
 * routed hop by hop (loose) with its own ECMP state. */
class ShimTag : public ns3::Tag {
  public:
    uint32_t msg = 0;
    uint8_t loose = 0;
    uint64_t ecmp = 0;

    static ns3::TypeId GetTypeId()
    {
        /* Registered once per process: the name is looked up first, so a
         * second load of the module does not register it twice. */
        static ns3::TypeId tid = [] {
            ns3::TypeId t;
            if (ns3::TypeId::LookupByNameFailSafe("vimana::Ns3ShimTag", &t))
                return t;
            return ns3::TypeId("vimana::Ns3ShimTag").SetParent<ns3::Tag>();
        }();
        return tid;
    }
    ns3::TypeId GetInstanceTypeId() const override { return GetTypeId(); }
    uint32_t GetSerializedSize() const override { return 13; }
    void Serialize(ns3::TagBuffer b) const override
    {
        b.WriteU32(msg);
        b.WriteU8(loose);
        b.WriteU64(ecmp);
    }
    void Deserialize(ns3::TagBuffer b) override
    {
        msg = b.ReadU32();
        loose = b.ReadU8();
        ecmp = b.ReadU64();
    }
    void Print(std::ostream &os) const override { os << "msg=" << msg; }
};

struct Message {
    uint64_t token = 0, bytes = 0, sent = 0, received = 0;
    uint32_t src = 0, dst = 0;
    uint32_t next_free = NIL;
    uint32_t route_epoch = 0;     /* Sim::route_epoch when `route` was chosen */
    std::vector<uint32_t> route;   /* directed link ids */
    std::vector<uint32_t> entered; /* the links its packets have entered: it counts once on each */
};

/* A bandwidth factor's rate on a link from its tick on (link_fault). */
struct RateChange {
    int64_t at_ps;
    ns3::DataRate rate;
};

/* Per directed link: its transmitting device, its rates, and the shadow of
 * its FIFO (when the device finishes what it was handed), for the queueing
 * and busy counters: a DropTail point-to-point device is a work-conserving
 * FIFO, so the shadow is exact. */
struct Link {
    Ptr<ns3::PointToPointNetDevice> dev;
    ns3::DataRate base, rate;        /* as built; the device's now */
    std::vector<RateChange> changes; /* the bandwidth factors registered, in order of tick */
    bool down = false;               /* out of the routes now (a topology file) */
    int64_t free_at_ps = 0;
    uint64_t busy_ps = 0;
};

struct Sim;

}  // namespace

/* The context: the toolkit's part first (the default num_dims/dim_size/
 * dim_bandwidth read it), then the topology and the ns-3 side. */
struct ns3_shim {
    vimana_bt bt;
    shim_topology topo;
    Sim *sim;
};

namespace {

/* ns-3's simulator is a process-wide singleton: one context at a time. */
bool g_live = false;

struct Sim {
    ns3_shim *owner;
    uint32_t packet = DEFAULT_PACKET;
    std::vector<Ptr<ns3::Node>> nodes;
    uint32_t first_node_id = 0;
    std::vector<Link> links;
    std::vector<Message> msgs;
    uint32_t free_msgs = NIL;
    std::vector<uint32_t> route_buf;
    /* Faults: per link the factor of its latest fault registered (1 without,
     * 0 down: the partition check as of that fault's tick), the smallest
     * factor any link will have (route_fits), and a count of the changes of
     * the set of links up (a route chosen before the latest is stale). */
    std::vector<double> registered;
    double min_factor = 1;
    uint32_t route_epoch = 0;

    explicit Sim(ns3_shim *o) : owner(o) {}

    vimana_bt *bt() { return &owner->bt; }

    static int64_t NowPs() { return ns3::Simulator::Now().GetTimeStep(); }

    void Build();
    void Receive(Ptr<ns3::NetDevice> dev, Ptr<const ns3::Packet> p, uint16_t proto, const ns3::Address &from,
                 const ns3::Address &to, ns3::NetDevice::PacketType type);
    void Hand(uint32_t link, Ptr<ns3::Packet> p, uint32_t mi);
    void Count(uint32_t mi, uint32_t link, uint32_t payload, int64_t wait_ps);
    const ns3::DataRate &RateFrom(uint32_t link, int64_t start_ps) const;
    bool Route(Message &m);
    uint32_t NextHop(Message &m, ShimTag &tag, uint32_t device);
    void SendNext(uint32_t mi);
    uint32_t Alloc();
    int AddFault(uint32_t link, vimana_tick at, double factor, char *err, size_t err_len);
    bool SetFault(uint32_t link, double factor);
    void OnFault(uint32_t link, double factor);
    /* A host event runs at or after the ns-3 time it was scheduled from
     * (`from_ps`): an event scheduled in ns-3's past is run by an ns-3
     * built without asserts (Debian's) with its clock gone back, not
     * refused; a run that sees it fails, naming it. */
    void HostEvent(vimana_event_fn fn, void *arg, uint64_t data, int64_t from_ps)
    {
        int64_t now_ps = NowPs();
        if (now_ps < from_ps) {
            vimana_bt_fail(bt(), "ns3: a host event ran at %" PRId64 " ps, scheduled at %" PRId64
                                 " ps: ns-3's clock went back", now_ps, from_ps);
            ns3::Simulator::Stop();
            return;
        }
        fn(arg, data);
    }
};

void Sim::Build()
{
    const shim_topology &t = owner->topo;
    nodes.reserve(t.devices);
    for (uint32_t d = 0; d < t.devices; d++) {
        nodes.push_back(ns3::CreateObject<ns3::Node>());
        nodes.back()->RegisterProtocolHandler(ns3::MakeCallback(&Sim::Receive, this), 0, nullptr, false);
    }
    first_node_id = t.devices ? nodes[0]->GetId() : 0;
    links.resize(t.n_links);
    for (uint32_t l = 0; l < t.n_links; l++) {
        const shim_link &sl = t.links[l];
        if (sl.bytes_per_ns <= 0)
            continue; /* an unused slot of the link table */
        auto channel = ns3::CreateObject<ns3::PointToPointChannel>();
        channel->SetAttribute("Delay", ns3::TimeValue(ns3::PicoSeconds((int64_t)(sl.latency_ns * 1000.0 + 0.5))));
        links[l].base = links[l].rate = ns3::DataRate((uint64_t)(sl.bytes_per_ns * 8e9 + 0.5));
        Ptr<ns3::PointToPointNetDevice> ends[2];
        for (int k = 0; k < 2; k++) {
            ends[k] = ns3::CreateObject<ns3::PointToPointNetDevice>();
            ends[k]->SetAddress(ns3::Mac48Address::Allocate());
            ends[k]->SetDataRate(links[l].rate);
            ends[k]->SetMtu((uint16_t)packet);
            auto q = ns3::CreateObject<ns3::DropTailQueue<ns3::Packet>>();
            q->SetMaxSize(ns3::QueueSize(ns3::QueueSizeUnit::PACKETS, UINT32_MAX));
            ends[k]->SetQueue(q);
            nodes[k ? sl.dst_device : sl.src_device]->AddDevice(ends[k]);
            ends[k]->Attach(channel);
        }
        links[l].dev = ends[0];
    }
    registered.assign(t.n_links, 1.0);
}

uint32_t Sim::Alloc()
{
    if (free_msgs != NIL) {
        uint32_t i = free_msgs;
        free_msgs = msgs[i].next_free;
        return i;
    }
    msgs.emplace_back();
    return (uint32_t)(msgs.size() - 1);
}

/* The rate a packet that starts crossing `link` at start_ps gets: the
 * device's now, or the one a bandwidth factor gives it by then (a packet
 * queued before a fault and started after it). A fault's event was
 * scheduled before run(), so at its tick it runs before the device's own
 * events: a packet starting on that tick gets the new rate. */
const ns3::DataRate &Sim::RateFrom(uint32_t link, int64_t start_ps) const
{
    const Link &l = links[link];
    if (start_ps <= NowPs())
        return l.rate;
    for (auto c = l.changes.rbegin(); c != l.changes.rend(); ++c)
        if (c->at_ps <= start_ps)
            return c->rate;
    return l.base;
}

/* The link counters: bytes per packet; a message once per link, when its
 * first packet enters it (that packet's wait is the message's), even when
 * a reroute sends its later packets over links the first did not take. */
void Sim::Count(uint32_t mi, uint32_t link, uint32_t payload, int64_t wait_ps)
{
    Message &m = msgs[mi];
    bt()->links[link].bytes += payload;
    for (uint32_t e : m.entered)
        if (e == link)
            return;
    m.entered.push_back(link);
    bt()->links[link].messages++;
    vimana_bt_link_queued(bt(), link, (vimana_tick)(wait_ps / 1000));
}

/* Puts one packet of message mi on `link`: the counters first (the shadow
 * FIFO says how long it waits), then the device. */
void Sim::Hand(uint32_t link, Ptr<ns3::Packet> p, uint32_t mi)
{
    Link &l = links[link];
    int64_t now = NowPs();
    int64_t start = l.free_at_ps > now ? l.free_at_ps : now;
    int64_t tx = RateFrom(link, start).CalculateBytesTxTime(p->GetSize() + PPP_HEADER).GetTimeStep();
    Count(mi, link, p->GetSize(), start - now);
    l.free_at_ps = start + tx;
    l.busy_ps += (uint64_t)tx;
    if (!l.dev->Send(p, l.dev->GetBroadcast(), 0x0800)) {
        vimana_bt_fail(bt(), "ns3: link %u refused a packet (device queue full)", link);
        ns3::Simulator::Stop(); /* the toolkit stops only its own queue */
    }
}

/* The message's route from its source over the links up now. False if
 * the route cache cannot grow (link_fault refused every partition). */
bool Sim::Route(Message &m)
{
    long hops = shim_topology_route(&owner->topo, m.src, m.dst, nullptr, 0);
    if (hops <= 0)
        return false;
    m.route.resize((size_t)hops);
    shim_topology_route(&owner->topo, m.src, m.dst, m.route.data(), (size_t)hops);
    m.route_epoch = route_epoch;
    return true;
}

/* The link a packet of m leaves `device` by. While the route is current
 * the packet follows it (source routing: one path per message, no lookup
 * per hop). Once links have gone down or come back up since it was chosen,
 * or the packet is off the route the source has chosen since, it is routed
 * hop by hop over the shortest paths of the links up now, from where it
 * is, and stays so (a stale route could lead it back where it was).
 * NIL if there is no such link. */
uint32_t Sim::NextHop(Message &m, ShimTag &tag, uint32_t device)
{
    if (!tag.loose && m.route_epoch == route_epoch) {
        /* A shortest or dimension-order route visits a device once: the
         * hop that leaves this device is the next one. */
        for (uint32_t link : m.route)
            if (owner->topo.links[link].src_device == device)
                return link;
    }
    if (!owner->topo.topo)
        return NIL; /* a network YAML's routes never change */
    if (!tag.loose) {
        tag.loose = 1;
        tag.ecmp = vimana_topo_ecmp_hash(m.src, m.dst);
    }
    return shim_topology_next_link(&owner->topo, device, m.dst, &tag.ecmp);
}

/* The rate-based sender: one packet now, the next when the first link has
 * serialised this one (at the rate in force now). A route made stale by a
 * fault is chosen again here, so the message's later packets take the
 * new one from the source. */
void Sim::SendNext(uint32_t mi)
{
    Message &m = msgs[mi];
    if (m.route_epoch != route_epoch && !Route(m)) {
        vimana_bt_fail(bt(), "ns3: out of memory for the route cache");
        ns3::Simulator::Stop(); /* the toolkit stops only its own queue */
        return;
    }
    uint64_t left = m.bytes - m.sent;
    uint32_t size = left < packet ? (uint32_t)left : packet;
    Ptr<ns3::Packet> p = ns3::Create<ns3::Packet>(size);
    ShimTag tag;
    tag.msg = mi;
    p->AddPacketTag(tag);
    m.sent += size;
    uint32_t link = m.route[0];
    Hand(link, p, mi);
    if (m.sent < m.bytes)
        ns3::Simulator::Schedule(links[link].rate.CalculateBytesTxTime(size + PPP_HEADER), &Sim::SendNext, this, mi);
}

void Sim::Receive(Ptr<ns3::NetDevice> dev, Ptr<const ns3::Packet> p, uint16_t, const ns3::Address &,
                  const ns3::Address &, ns3::NetDevice::PacketType)
{
    ShimTag tag;
    if (!p->PeekPacketTag(tag) || tag.msg >= msgs.size()) {
        vimana_bt_fail(bt(), "ns3: a packet without the shim's tag arrived");
        ns3::Simulator::Stop(); /* the toolkit stops only its own queue */
        return;
    }
    uint32_t device = dev->GetNode()->GetId() - first_node_id;
    Message &m = msgs[tag.msg];
    if (device == m.dst) {
        m.received += p->GetSize();
        if (m.received < m.bytes)
            return;
        uint64_t token = m.token;
        m.route.clear();
        m.entered.clear();
        m.next_free = free_msgs;
        free_msgs = tag.msg;
        owner->bt.host.delivered(owner->bt.host.host, token);
        return;
    }
    uint32_t link = NextHop(m, tag, device);
    if (link != NIL) {
        Ptr<ns3::Packet> copy = p->Copy();
        if (tag.loose)
            copy->ReplacePacketTag(tag); /* its ECMP state moved on */
        Hand(link, copy, tag.msg);
        return;
    }
    if (owner->topo.topo)
        vimana_bt_fail(bt(), "ns3: a packet for NPU %u reached device %u, which the links down cut off from it (or "
                       "the route cache cannot grow)", m.dst, device);
    else
        vimana_bt_fail(bt(), "ns3: a packet reached device %u, which is not on its route", device);
    ns3::Simulator::Stop(); /* the toolkit stops only its own queue */
}

/* ---- network faults (link_fault, ABI 1.4) ---------------------------------- */

/* `base` times `factor`, as a whole number of bit/s (link_fault checked
 * that it is one). */
ns3::DataRate scaled(const ns3::DataRate &base, double factor)
{
    return ns3::DataRate((uint64_t)((double)base.GetBitRate() * factor + 0.5));
}

/* Registers a checked fault: the partition check over the latest factor of
 * every link, the rate change for the shadow FIFO, the event at its tick. */
int Sim::AddFault(uint32_t link, vimana_tick at, double factor, char *err, size_t err_len)
{
    double was = registered[link];
    registered[link] = factor;
    if (factor == 0) {
        std::vector<uint8_t> down(registered.size());
        for (size_t l = 0; l < registered.size(); l++)
            down[l] = registered[l] == 0;
        int rc = shim_topology_check_partition(&owner->topo, down.data(), at, err, err_len);
        if (rc != VIMANA_OK) {
            registered[link] = was;
            return rc;
        }
    }
    int64_t now = NowPs(), at_ps = (int64_t)at * 1000;
    if (at_ps < now)
        at_ps = now;
    if (factor > 0) {
        links[link].changes.push_back(RateChange{at_ps, scaled(links[link].base, factor)});
        if (factor < min_factor)
            min_factor = factor;
    }
    /* A fault of the current tick (0: the host registers faults before its
     * first sends, which it makes before run()) applies at once, so that
     * those sends see it; a later one is an event. */
    if (at_ps == now) {
        if (SetFault(link, factor))
            return VIMANA_OK;
        snprintf(err, err_len, "out of memory");
        return VIMANA_ERR_NOMEM;
    }
    ns3::Simulator::Schedule(ns3::PicoSeconds(at_ps - now), &Sim::OnFault, this, link, factor);
    return VIMANA_OK;
}

/* A fault takes effect. The device keeps what it holds (the packet on the
 * wire and its FIFO cross at the rate each starts with); a link down only
 * leaves the routes, and a change of the links up makes every route chosen
 * before it stale (NextHop). False without memory. */
bool Sim::SetFault(uint32_t link, double factor)
{
    Link &l = links[link];
    if (factor > 0) {
        l.rate = scaled(l.base, factor);
        l.dev->SetDataRate(l.rate);
    }
    bool down = factor == 0;
    if (!owner->topo.topo || down == l.down)
        return true;
    if (vimana_topo_set_link_down(owner->topo.topo, link, down) != 0)
        return false;
    l.down = down;
    route_epoch++;
    return true;
}

/* A fault's event, at its tick. */
void Sim::OnFault(uint32_t link, double factor)
{
    if (!SetFault(link, factor)) {
        vimana_bt_fail(bt(), "ns3: out of memory taking a link down");
        ns3::Simulator::Stop(); /* the toolkit stops only its own queue */
    }
}

/* ---- options ---------------------------------------------------------------- */

/* "packet=BYTES" (the only key). */
int parse_options(const char *options, uint32_t *packet, char *err, size_t err_len)
{
    if (!options || !*options)
        return VIMANA_OK;
    std::string all(options);
    size_t pos = 0;
    while (pos <= all.size()) {
        size_t comma = all.find(',', pos);
        std::string item = all.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        pos = comma == std::string::npos ? all.size() + 1 : comma + 1;
        char shown[200];
        vimana_bt_escape(item.c_str(), shown, sizeof shown);
        if (item.compare(0, 7, "packet=") == 0) {
            char *end = nullptr;
            unsigned long long v = strtoull(item.c_str() + 7, &end, 10);
            if (item.size() == 7 || *end || v < MIN_PACKET || v > MAX_PACKET) {
                snprintf(err, err_len, "ns3: backend option '%s': packet must be a whole number of bytes from %u "
                         "to %u", shown, MIN_PACKET, MAX_PACKET);
                return VIMANA_ERR_CONFIG;
            }
            *packet = (uint32_t)v;
        } else {
            snprintf(err, err_len, "ns3: unknown backend option '%s' (known: packet=BYTES)", shown);
            return VIMANA_ERR_CONFIG;
        }
    }
    return VIMANA_OK;
}

/* A link ns-3 cannot model: a rate below 1 bit/s (DataRate is whole bits
 * per second; 0 would divide by zero) or a delay past its clock. */
int check_links(const shim_topology *t, const char *path, char *err, size_t err_len)
{
    for (uint32_t l = 0; l < t->n_links; l++) {
        const shim_link &sl = t->links[l];
        if (sl.bytes_per_ns <= 0 && sl.src_device == sl.dst_device)
            continue;
        if (!(sl.bytes_per_ns * 8e9 >= 1.0)) {
            snprintf(err, err_len, "%s: link %u (device %u to %u): a rate under 1 bit/s cannot be simulated by "
                     "ns-3", path ? path : "network", l, sl.src_device, sl.dst_device);
            return VIMANA_ERR_CONFIG;
        }
        if (!(sl.latency_ns < 1e15)) {
            snprintf(err, err_len, "%s: link %u (device %u to %u): a delay of %g ns is beyond ns-3's clock (1e15 "
                     "ns at 1 ps resolution)", path ? path : "network", l, sl.src_device, sl.dst_device,
                     sl.latency_ns);
            return VIMANA_ERR_CONFIG;
        }
    }
    return VIMANA_OK;
}

void log_error(ns3_shim *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void log_error(ns3_shim *s, const char *fmt, ...)
{
    char msg[640];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    s->bt.host.log(s->bt.host.host, VIMANA_LOG_ERROR, msg);
}

void shim_free(ns3_shim *s)
{
    if (s->sim) {
        delete s->sim;
        ns3::Simulator::Destroy();
        g_live = false;
    }
    shim_topology_free(&s->topo);
    vimana_bt_fini(&s->bt);
    delete s;
}

/* 1 ps steps: a 4 KiB packet at 400 Gb/s takes about 82 ns, which whole ns
 * would round on every packet. ns-3 allows it once per process. The
 * module's own copy of ns-3's inline resolution lookup (Time::From and
 * friends) initialises itself on first use by resetting the resolution to
 * ns: it is used once first, so that it cannot undo the change later. */
bool g_resolution_set = false;

void set_resolution()
{
    (void)ns3::NanoSeconds(0).GetTimeStep();
    if (!g_resolution_set)
        ns3::Time::SetResolution(ns3::Time::PS);
    g_resolution_set = true;
}

/* ---- the descriptor ------------------------------------------------------------ */

int setup(ns3_shim *s, const vimana_backend_params *params, char *err, size_t err_len)
{
    uint32_t packet = DEFAULT_PACKET;
    int rc = parse_options(params ? params->options : nullptr, &packet, err, err_len);
    if (rc == VIMANA_OK)
        rc = shim_topology_load(&s->topo, &s->bt, err, err_len);
    if (rc == VIMANA_OK)
        rc = check_links(&s->topo, s->bt.network_path, err, err_len);
    if (rc == VIMANA_OK && vimana_bt_links_alloc(&s->bt, s->topo.n_links) != VIMANA_OK) {
        snprintf(err, err_len, "out of memory");
        rc = VIMANA_ERR_NOMEM;
    }
    if (rc != VIMANA_OK)
        return rc;
    for (uint32_t l = 0; l < s->topo.n_links; l++)
        vimana_bt_link_ends(&s->bt, l, s->topo.links[l].src_device, s->topo.links[l].dst_device);
    if (g_live) {
        snprintf(err, err_len, "ns3: one ns-3 simulation per process, and one is already open");
        return VIMANA_ERR_CONFIG;
    }
    set_resolution();
    g_live = true;
    s->sim = new Sim(s);
    s->sim->packet = packet;
    s->sim->Build();
    return VIMANA_OK;
}

int shim_init(const vimana_backend_params *params, const vimana_host *host, void **ctx, char *err, size_t err_len)
{
    ns3_shim *s = nullptr;
    try {
        s = new ns3_shim();
        int rc = vimana_bt_init(&s->bt, params, host, err, err_len);
        if (rc == VIMANA_OK)
            rc = setup(s, params, err, err_len);
        if (rc != VIMANA_OK) {
            shim_free(s);
            return rc;
        }
        *ctx = s;
        return VIMANA_OK;
    } catch (const std::bad_alloc &) {
        snprintf(err, err_len, "out of memory");
    } catch (...) {
        snprintf(err, err_len, "ns3: ns-3 raised an exception while building the network");
    }
    try {
        if (s)
            shim_free(s);
    } catch (...) {
    }
    return VIMANA_ERR_INTERNAL;
}

void shim_fini(void *ctx)
{
    try {
        if (ctx)
            shim_free(static_cast<ns3_shim *>(ctx));
    } catch (...) {
    }
}

/* The whole route, queueing aside, must end before the last tick ns-3's
 * clock holds, at the smallest bandwidth factor any link will have. */
bool route_fits(ns3_shim *s, const std::vector<uint32_t> &route, uint64_t bytes, vimana_tick now, double min_factor)
{
    double total = (double)now;
    for (uint32_t link : route) {
        const shim_link &sl = s->topo.links[link];
        total += sl.latency_ns + ((double)bytes + (double)PPP_HEADER * ((double)bytes / MIN_PACKET + 1)) /
                                     (sl.bytes_per_ns * min_factor);
    }
    return total < (double)MAX_TICK;
}

int shim_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t, uint64_t token)
{
    ns3_shim *s = static_cast<ns3_shim *>(ctx);
    try {
        Sim *sim = s->sim;
        if (src >= s->topo.npus || dst >= s->topo.npus || src == dst || bytes == 0) {
            log_error(s, "ns3: invalid message %u -> %u of %" PRIu64 " bytes", src, dst, bytes);
            return VIMANA_ERR_ARGUMENT;
        }
        long hops = shim_topology_route(&s->topo, src, dst, nullptr, 0);
        if (hops <= 0) {
            log_error(s, "ns3: out of memory for the route cache");
            return VIMANA_ERR_NOMEM;
        }
        sim->route_buf.resize((size_t)hops);
        shim_topology_route(&s->topo, src, dst, sim->route_buf.data(), (size_t)hops);
        vimana_tick now = (vimana_tick)(Sim::NowPs() / 1000);
        if (!route_fits(s, sim->route_buf, bytes, now, sim->min_factor)) {
            log_error(s, "ns3: a message of %" PRIu64 " bytes from NPU %u to NPU %u would arrive after %" PRIu64
                      " ns, the end of ns-3's clock at 1 ps resolution", bytes, src, dst, MAX_TICK);
            return VIMANA_ERR_ARGUMENT;
        }
        uint32_t mi = sim->Alloc();
        Message &m = sim->msgs[mi];
        m.token = token;
        m.bytes = bytes;
        m.sent = m.received = 0;
        m.src = src;
        m.dst = dst;
        m.route = sim->route_buf;
        m.route_epoch = sim->route_epoch;
        sim->SendNext(mi);
        return VIMANA_OK;
    } catch (const std::bad_alloc &) {
        log_error(s, "ns3: out of memory");
        return VIMANA_ERR_NOMEM;
    } catch (...) {
        log_error(s, "ns3: ns-3 raised an exception in sim_send");
        return VIMANA_ERR_INTERNAL;
    }
}

int shim_schedule(void *ctx, vimana_tick delta, vimana_event_fn fn, void *arg, uint64_t data)
{
    ns3_shim *s = static_cast<ns3_shim *>(ctx);
    try {
        int64_t now_ps = Sim::NowPs();
        vimana_tick now = (vimana_tick)(now_ps / 1000);
        if (delta > MAX_TICK - now) {
            log_error(s, "ns3: an event %" PRIu64 " ns after t = %" PRIu64 " is past the end of ns-3's clock (%"
                      PRIu64 " ns at 1 ps resolution)", delta, now, MAX_TICK);
            return VIMANA_ERR_ARGUMENT;
        }
        /* On the whole tick even when now is inside one (a packet arrived
         * at a fraction of a ns): the host's ticks stay exact. An event for
         * the current tick (delta 0) while ns-3 is inside it runs at once:
         * its tick, now_ps / 1000, is the one asked for, and the tick's
         * start would be in ns-3's past. */
        int64_t at_ps = (int64_t)(now + delta) * 1000;
        int64_t delay_ps = at_ps > now_ps ? at_ps - now_ps : 0;
        ns3::Simulator::Schedule(ns3::PicoSeconds(delay_ps), &Sim::HostEvent, s->sim, fn, arg, data, now_ps);
        return VIMANA_OK;
    } catch (const std::bad_alloc &) {
        log_error(s, "ns3: out of memory");
        return VIMANA_ERR_NOMEM;
    } catch (...) {
        log_error(s, "ns3: ns-3 raised an exception in schedule");
        return VIMANA_ERR_INTERNAL;
    }
}

vimana_tick shim_now(void *)
{
    try {
        return (vimana_tick)(Sim::NowPs() / 1000);
    } catch (...) {
        return 0;
    }
}

int shim_run(void *ctx)
{
    ns3_shim *s = static_cast<ns3_shim *>(ctx);
    try {
        ns3::Simulator::Run();
        return s->bt.failed ? VIMANA_ERR_INTERNAL : VIMANA_OK;
    } catch (const std::bad_alloc &) {
        vimana_bt_fail(&s->bt, "ns3: out of memory");
    } catch (...) {
        vimana_bt_fail(&s->bt, "ns3: ns-3 raised an exception during the run");
    }
    return VIMANA_ERR_INTERNAL;
}

void shim_stop(void *)
{
    try {
        ns3::Simulator::Stop();
    } catch (...) {
    }
}

/* The toolkit's table, with busy time from the shadow FIFO (ps, rounded
 * down to ticks). */
int shim_link_stats(void *ctx, uint32_t link, vimana_link_stats *out)
{
    ns3_shim *s = static_cast<ns3_shim *>(ctx);
    if (link < s->topo.n_links)
        s->bt.links[link].busy_ticks = s->sim->links[link].busy_ps / 1000;
    return vimana_bt_link_stats(ctx, link, out);
}

/* What link_fault refuses before anything is registered, in one line:
 * congestion_aware's range and dimension-order refusals, and what ns-3
 * cannot hold (a rate that is not a whole number of bit/s from 1 to 2^64 -
 * 1, a tick past its clock). */
int check_fault(ns3_shim *s, uint32_t link, vimana_tick at, double factor, char *err, size_t err_len)
{
    const shim_topology &t = s->topo;
    if (link >= t.n_links || !(factor == 0 || (factor > 0 && factor <= VIMANA_FAULT_MAX_FACTOR))) {
        snprintf(err, err_len, "ns3: link %u of %u, bandwidth factor %g: out of range", link, t.n_links, factor);
        return VIMANA_ERR_ARGUMENT;
    }
    const shim_link &sl = t.links[link];
    if (sl.bytes_per_ns <= 0) {
        snprintf(err, err_len, "ns3: link %u of %u is an unused slot of the link numbering (it joins no devices)",
                 link, t.n_links);
        return VIMANA_ERR_ARGUMENT;
    }
    if (factor == 0 && !t.topo) {
        snprintf(err, err_len, "ns3 routes a network of dimensions in dimension order, with no other path for a "
                 "link that is down: give the network as a topology file, or a bandwidth-factor");
        return VIMANA_ERR_CONFIG;
    }
    if (at > MAX_TICK) {
        snprintf(err, err_len, "ns3: a fault at tick %" PRIu64 " is past the end of ns-3's clock (%" PRIu64
                 " ns at 1 ps resolution)", at, MAX_TICK);
        return VIMANA_ERR_ARGUMENT;
    }
    double bps = (double)s->sim->links[link].base.GetBitRate() * factor;
    if (factor > 0 && !(bps >= 1.0 && bps < 0x1p64)) {
        snprintf(err, err_len, "ns3: link %u (device %u to %u), bandwidth factor %g: a rate of %g bit/s cannot be "
                 "simulated by ns-3 (whole bit/s, 1 to 2^64 - 1)", link, sl.src_device, sl.dst_device, factor, bps);
        return VIMANA_ERR_CONFIG;
    }
    return VIMANA_OK;
}

int shim_link_fault(void *ctx, uint32_t link, vimana_tick at, double factor, char *err, size_t err_len)
{
    ns3_shim *s = static_cast<ns3_shim *>(ctx);
    try {
        int rc = check_fault(s, link, at, factor, err, err_len);
        return rc == VIMANA_OK ? s->sim->AddFault(link, at, factor, err, err_len) : rc;
    } catch (const std::bad_alloc &) {
        snprintf(err, err_len, "out of memory");
        return VIMANA_ERR_NOMEM;
    } catch (...) {
        snprintf(err, err_len, "ns3: ns-3 raised an exception registering a link fault");
        return VIMANA_ERR_INTERNAL;
    }
}

const char *shim_device_name(void *ctx, uint32_t device, char *buf, size_t len)
{
    return shim_topology_device_name(&static_cast<ns3_shim *>(ctx)->topo, device, buf, len);
}

vimana_backend make_descriptor()
{
    vimana_backend d;
    memset(&d, 0, sizeof d);
    d.abi_major = VIMANA_NETWORK_ABI_MAJOR;
    d.abi_minor = VIMANA_NETWORK_ABI_MINOR;
    d.struct_size = (uint32_t)sizeof(vimana_backend);
    d.name = "ns3";
    d.description = "packet-level network on ns-3 (point-to-point links, lossless FIFO queues, a rate-based "
                    "sender, the routes of congestion_aware)";
    d.capabilities = VIMANA_CAP_CONGESTION | VIMANA_CAP_LINK_STATS | VIMANA_CAP_MULTI_DIM;
    d.init = shim_init;
    d.fini = shim_fini;
    d.num_dims = vimana_bt_num_dims;
    d.dim_size = vimana_bt_dim_size;
    d.dim_bandwidth = vimana_bt_dim_bandwidth;
    d.sim_send = shim_send;
    d.schedule = shim_schedule;
    d.now = shim_now;
    d.run = shim_run;
    d.num_links = vimana_bt_num_links;
    d.link_stats = shim_link_stats;
    d.stop = shim_stop;
    d.device_name = shim_device_name;
    d.link_fault = shim_link_fault;
    return d;
}

const vimana_backend ns3_backend = make_descriptor();

}  // namespace

extern "C" VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void);

extern "C" VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
{
    return &ns3_backend;
}
