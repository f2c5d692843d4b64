/*
 * ns3_shim.so - Vimana's network traffic on real ns-3 (Debian libns3-dev
 * 3.37) behind the C descriptor of vimana/network_api.h (ABI 1.5).
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
 * Physics (options buffer, pfc, cc, ecn_*, completion; README "Physics"):
 * the shim's own FIFO per link in front of the device (so that drops, ECN
 * marks, PFC pauses and INT see the real queue), ACKs/NACKs/CNPs back to
 * the source, go-back-N on a lossy fabric, and DCQCN or HPCC at the sender
 * (their arithmetic in cc_math.c). Without those options the plain path
 * above runs, unchanged.
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
#include <cerrno>
#include <cinttypes>
#include <cstdarg>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include <ns3/data-rate.h>
#include <ns3/drop-tail-queue.h>
#include <ns3/mac48-address.h>
#include <ns3/node.h>
#include <ns3/nstime.h>
#include <ns3/packet.h>
#include <ns3/point-to-point-channel.h>
#include <ns3/point-to-point-net-device.h>
#include <ns3/ppp-header.h>
#include <ns3/simulator.h>
#include <ns3/tag.h>

#include "ns3_shim/cc_math.h"
#include "ns3_shim/shim_topology.h"
#include "ns3_shim/upstream_config.h"
#include "vimana/backend_toolkit.h"

namespace {

using ns3::Ptr;

const uint32_t NIL = UINT32_MAX;
const uint32_t DEFAULT_PACKET = 4096;
const uint32_t MIN_PACKET = 64, MAX_PACKET = 65000;
const uint32_t PPP_HEADER = 2;
const uint16_t PPP_IPV4 = 0x0021; /* PPP's protocol number for IPv4 (EtherType 0x0800) */
/* ns-3 counts time steps (ps) in an int64: the last tick it can reach,
 * with a margin for the serialisation of packets past it. */
const vimana_tick MAX_TICK = (vimana_tick)(INT64_MAX / 1000) - (1ull << 40);

/* What each packet carries besides its length: its message, and, once
 * links going down or up have made its message's route stale, that it is
 * routed hop by hop (loose) with its own ECMP state. */
/* With the physics options (Physics below) it also says what the packet
 * is (data, or an ACK, NACK or CNP going back to the source), its sequence
 * number (a data packet's index; an ACK's or NACK's next index expected),
 * its ECN bit (CE on data, the echo on an ACK), its INT record (HPCC) and
 * its message's generation (a slot reused after the message ended). */
enum PacketKind : uint8_t { PK_DATA = 0, PK_ACK, PK_NACK, PK_CNP };

class ShimTag : public ns3::Tag {
  public:
    uint32_t msg = 0;
    uint8_t loose = 0;
    uint64_t ecmp = 0;
    bool phys = false; /* the fields below travel (the physics path only: the plain path's tag stays 13 bytes) */
    uint8_t kind = PK_DATA;
    uint8_t ecn = 0;
    uint32_t seq = 0;
    uint32_t info = UINT32_MAX;
    uint32_t gen = 0;

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
    /* The physics fields follow when bit 7 of the `loose` byte says so. */
    uint32_t GetSerializedSize() const override { return phys ? 27 : 13; }
    void Serialize(ns3::TagBuffer b) const override
    {
        b.WriteU32(msg);
        b.WriteU8((uint8_t)(loose | (phys ? 0x80 : 0)));
        b.WriteU64(ecmp);
        if (!phys)
            return;
        b.WriteU8(kind);
        b.WriteU8(ecn);
        b.WriteU32(seq);
        b.WriteU32(info);
        b.WriteU32(gen);
    }
    void Deserialize(ns3::TagBuffer b) override
    {
        msg = b.ReadU32();
        uint8_t l = b.ReadU8();
        loose = l & 1;
        phys = (l & 0x80) != 0;
        ecmp = b.ReadU64();
        if (!phys)
            return;
        kind = b.ReadU8();
        ecn = b.ReadU8();
        seq = b.ReadU32();
        info = b.ReadU32();
        gen = b.ReadU32();
    }
    void Print(std::ostream &os) const override { os << "msg=" << msg; }
};

enum CcMode { CC_NONE, CC_DCQCN, CC_HPCC };

/* --backend-options, checked at init(). Rates in bit/s, times in ps. */
struct Options {
    uint32_t packet = DEFAULT_PACKET;
    bool buffer_inf = true;
    uint64_t buffer = 0; /* bytes per switch egress port */
    bool pfc = false;
    CcMode cc = CC_NONE;
    bool ecn_given = false; /* an ecn_* key was given: the physics path, marks counted */
    uint64_t ecn_kmin = 100000, ecn_kmax = 400000;
    double ecn_pmax = 0.2;
    bool ack_completion = false;
    double dcqcn_rate_ai = 5e9, dcqcn_rate_hai = 10e9, dcqcn_min_rate = 100e6, dcqcn_g = 1.0 / 256;
    int64_t dcqcn_timer_ps = 55000000;
    double hpcc_eta = 0.95;
    uint32_t hpcc_max_stage = 5;
    double hpcc_rate_ai = 50e6;
};

/* DCQCN's constants that are not options (the paper's values): F, the
 * byte counter B, the receiver's CNP interval N. */
const uint32_t DCQCN_STAGES = 5;
const uint64_t DCQCN_BYTE_COUNTER = 10ull * 1000 * 1000;
const int64_t CNP_INTERVAL_PS = 50000000;
/* ACK, NACK and CNP payload bytes (a RoCE ACK with its headers). */
const uint32_t CTRL_BYTES = 62;
/* Go-back-N's retransmission timeout on a lossy fabric (pfc=off, finite
 * buffer): for drops no later packet reveals (the tail of a message). */
const int64_t RTO_PS = 100000000;

struct Message {
    uint64_t token = 0, bytes = 0, sent = 0, received = 0;
    uint32_t src = 0, dst = 0;
    uint32_t next_free = NIL;
    uint32_t route_epoch = 0;     /* Sim::route_epoch when `route` was chosen */
    std::vector<uint32_t> route;   /* directed link ids */
    std::vector<uint32_t> rroute;  /* the way back, for ACKs (physics) */
    std::vector<uint32_t> entered; /* the links its packets have entered: it counts once on each */
    /* Physics: sender and receiver state of one flow (a message). */
    uint32_t gen = 0;              /* bumped when the slot is freed: stale packets and events see it */
    uint32_t npkts = 0, snd_nxt = 0, snd_una = 0, max_sent = 0;
    uint32_t rcv_next = 0, nack_for = NIL;
    bool send_pending = false, rx_done = false;
    int64_t last_cnp_ps = INT64_MIN, rto_at_ps = 0;
    uint32_t timer_epoch = 0;
    double rate_bps = 0, line_bps = 0, window = 0; /* pacing rate; HPCC window (bytes) */
    int64_t base_rtt_ps = 0;
    cc_dcqcn dcqcn;
    cc_hpcc hpcc;
};

/* One queued packet of the physics path. */
struct QItem {
    Ptr<ns3::Packet> p;
    uint32_t in_link = NIL; /* the link it came in by (PFC's ingress accounting), NIL at its source */
    uint32_t wire = 0;      /* bytes on the wire */
    int64_t enq_ps = 0;
};

/* A FIFO on a ring that only grows (by doubling): std::deque allocates
 * and frees a node every few dozen packets; this allocates only while a
 * queue reaches a new depth. */
template <typename T> class Fifo {
  public:
    bool empty() const { return count_ == 0; }
    T &front() { return buf_[head_]; }
    void push_back(T &&v)
    {
        if (count_ == buf_.size())
            Grow();
        buf_[(head_ + count_) % buf_.size()] = std::move(v);
        count_++;
    }
    void pop_front()
    {
        buf_[head_] = T();
        head_ = (head_ + 1) % buf_.size();
        count_--;
    }

  private:
    void Grow()
    {
        std::vector<T> bigger(buf_.empty() ? 16 : buf_.size() * 2);
        for (size_t i = 0; i < count_; i++)
            bigger[i] = std::move(buf_[(head_ + i) % buf_.size()]);
        buf_.swap(bigger);
        head_ = 0;
    }
    std::vector<T> buf_;
    size_t head_ = 0, count_ = 0;
};

/* An HPCC packet's INT: the hops it has left, filled at each egress. */
struct IntRec {
    uint32_t n = 0, next_free = NIL;
    cc_int_hop hop[CC_HPCC_MAX_HOPS];
};

/* A bandwidth factor's rate on a link from its tick on (link_fault). */
struct RateChange {
    int64_t at_ps;
    ns3::DataRate rate;
};

struct Sim;

/* A link's device queue, which also mirrors whether the device is idle,
 * and lets a message "ride" its first link (Sim::Ride): on the plain path
 * a message's packets are paced at the link's rate, so while it is the
 * only one on that link its next packet is due exactly when the device
 * finishes the last one. The device asks this queue for its next packet
 * at that tick anyway, so the packet is made then, and the pacer's event
 * (a third of the events per packet-hop) is not needed. */
class RiderQueue : public ns3::DropTailQueue<ns3::Packet> {
  public:
    Sim *sim = nullptr;
    uint32_t link = NIL;
    Ptr<ns3::Packet> Dequeue() override;
    Ptr<ns3::Packet> TakeHead() { return ns3::DropTailQueue<ns3::Packet>::Dequeue(); }
    bool Append(Ptr<ns3::Packet> p) { return ns3::DropTailQueue<ns3::Packet>::Enqueue(p); }
};

/* Per directed link: its transmitting device, its rates, and the shadow of
 * its FIFO (when the device finishes what it was handed), for the queueing
 * and busy counters: a DropTail point-to-point device is a work-conserving
 * FIFO, so the shadow is exact. */
struct Link {
    Ptr<ns3::PointToPointNetDevice> dev;
    Ptr<RiderQueue> devq;            /* the device's queue */
    bool dev_idle = true;            /* the device has nothing to send (its last dequeue found nothing) */
    uint32_t rider = NIL;            /* the message riding this link (RiderQueue), NIL if none */
    int64_t ride_at_ps = 0;          /* when the rider's next packet is due */
    ns3::DataRate base, rate;        /* as built; the device's now */
    std::vector<RateChange> changes; /* the bandwidth factors registered, in order of tick */
    bool down = false;               /* out of the routes now (a topology file) */
    int64_t free_at_ps = 0;
    uint64_t busy_ps = 0;
    /* The last serialisation time asked of this link (TxTime): a message's
     * packets are one size, and ns-3 computes each by a 128-bit division. */
    uint64_t memo_bps = 0;
    uint32_t memo_bytes = 0;
    ns3::Time memo_tx;
    /* Physics: the shim's own egress FIFO in front of the device (the
     * device gets a packet only when idle, so its queue stays empty). */
    Fifo<QItem> q;
    uint64_t qbytes = 0, tx_bytes = 0, ecn_marks = 0;
    bool busy = false, paused = false, switch_egress = false;
    int64_t paused_since = 0, latency_ps = 0;
    uint64_t pause_ps = 0;
    /* As the ingress of a switch: bytes that came in by it and wait in the
     * switch, the PFC thresholds, and whether a pause is in force. */
    uint64_t in_bytes = 0, xoff = 0, xon = 0;
    bool pause_sent = false, pfc_ingress = false;
    /* Senders whose first link this is, held while it is paused (PFC
     * stops the NIC's scheduler, not only its wire): (message, generation). */
    std::vector<std::pair<uint32_t, uint32_t>> held;
};

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

/* Run-wide counters of the physics path (logged at the end of run()). */
struct PhysStats {
    uint64_t drops = 0, retransmits = 0, timeouts = 0, nacks = 0, cnps = 0, pauses = 0, acks = 0;
};

struct Sim {
    ns3_shim *owner;
    uint32_t packet = DEFAULT_PACKET;
    Options opt;
    bool physics = false, acks = false, lossy = false;
    /* Messages may ride their first link (RiderQueue): not once a fault is
     * registered, since a rate change or a new route must reach the pacer. */
    bool ride_ok = true;
    uint64_t rng = 0x5eed0f1a2b3c4d5eull; /* ECN's draws: fixed seed, reproducible */
    std::vector<std::vector<uint32_t>> rx_link; /* [device][ifindex]: the link a device receives */
    std::vector<IntRec> ints;
    uint32_t free_ints = NIL;
    PhysStats st;
    std::vector<Ptr<ns3::Node>> nodes;
    uint32_t first_node_id = 0;
    std::vector<Link> links;
    /* Every point-to-point device's broadcast address, made once: the
     * device builds it from a string on each GetBroadcast(). */
    ns3::Address broadcast;
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
    bool DeviceRx(Ptr<ns3::NetDevice> dev, Ptr<const ns3::Packet> p, uint16_t proto, const ns3::Address &from);
    void Hand(uint32_t link, Ptr<ns3::Packet> p, uint32_t mi);
    void Account(uint32_t link, uint32_t payload, uint32_t mi);
    Ptr<ns3::Packet> NewPacket(uint32_t mi);
    Ptr<ns3::Packet> Ride(uint32_t link);
    void StopRiding();
    ns3::Time TxTime(uint32_t link, const ns3::DataRate &rate, uint32_t bytes);
    void Count(uint32_t mi, uint32_t link, uint32_t payload, int64_t wait_ps);
    const ns3::DataRate &RateFrom(uint32_t link, int64_t start_ps) const;
    bool Route(Message &m);
    uint32_t NextHop(Message &m, ShimTag &tag, uint32_t device);
    void SendNext(uint32_t mi);
    uint32_t Alloc();
    int AddFault(uint32_t link, vimana_tick at, double factor, char *err, size_t err_len);
    bool SetFault(uint32_t link, double factor);
    void OnFault(uint32_t link, double factor);
    /* Physics (Options): own queues, PFC, ECN, ACKs, CC. */
    int SetupPhysics(char *err, size_t err_len);
    void StartPhys(uint32_t mi);
    void SendPhys(uint32_t mi, uint32_t gen);
    void Enqueue(uint32_t link, Ptr<ns3::Packet> p, uint32_t in_link, ShimTag &tag);
    void Kick(uint32_t link);
    void TxDone(uint32_t link);
    void SetPaused(uint32_t link, bool on);
    void Ingress(uint32_t in_link, uint32_t wire, bool in);
    void SendCtrl(uint32_t mi, PacketKind kind, uint32_t seq, uint8_t ecn, uint32_t info);
    void OnData(uint32_t mi, const ShimTag &tag, uint32_t size);
    void OnCtrl(uint32_t mi, const ShimTag &tag);
    void OnRto(uint32_t mi, uint32_t gen);
    void OnDcqcnTimer(uint32_t mi, uint32_t gen, uint32_t epoch);
    void ArmDcqcnTimer(Message &m, uint32_t mi);
    void FreeMsg(uint32_t mi);
    void Deliver(Message &m);
    void SetRate(Message &m);
    uint32_t AllocInt();
    void FreeInt(uint32_t i);
    uint32_t PacketBytes(const Message &m, uint32_t seq) const;
    uint32_t NextHopPhys(Message &m, ShimTag &tag, uint32_t device);
    bool Ready(const Message &m) const;
    void LogPhysics();
    void ReceivePhys(Ptr<ns3::NetDevice> dev, Ptr<const ns3::Packet> p, ShimTag &tag, uint32_t device);
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
    rx_link.resize(t.devices);
    for (uint32_t d = 0; d < t.devices; d++) {
        nodes.push_back(ns3::CreateObject<ns3::Node>());
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
            auto q = ns3::CreateObject<RiderQueue>();
            q->SetMaxSize(ns3::QueueSize(ns3::QueueSizeUnit::PACKETS, UINT32_MAX));
            q->sim = this;
            q->link = k ? NIL : l; /* the reverse device of a link carries nothing */
            ends[k]->SetQueue(q);
            if (!k)
                links[l].devq = q;
            uint32_t dev = k ? sl.dst_device : sl.src_device;
            uint32_t ifindex = nodes[dev]->AddDevice(ends[k]);
            /* Straight to the shim, past the node's protocol-handler
             * dispatch (AddDevice set it): the shim is the only handler. */
            ends[k]->SetReceiveCallback(ns3::MakeCallback(&Sim::DeviceRx, this));
            broadcast = ends[k]->GetBroadcast();
            if (k) {
                /* Which link a packet came in by: PFC accounts by ingress. */
                if (rx_link[dev].size() <= ifindex)
                    rx_link[dev].resize(ifindex + 1, NIL);
                rx_link[dev][ifindex] = l;
            }
            ends[k]->Attach(channel);
        }
        links[l].dev = ends[0];
        links[l].latency_ps = (int64_t)(sl.latency_ns * 1000.0 + 0.5);
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

bool Sim::DeviceRx(Ptr<ns3::NetDevice> dev, Ptr<const ns3::Packet> p, uint16_t proto, const ns3::Address &from)
{
    Receive(dev, p, proto, from, broadcast, ns3::NetDevice::PACKET_HOST);
    return true;
}

/* The time `link` takes to serialise `bytes` at `rate`: ns-3's, remembered
 * for the last (rate, size) asked, which is every packet of a message but
 * its last. */
ns3::Time Sim::TxTime(uint32_t link, const ns3::DataRate &rate, uint32_t bytes)
{
    Link &l = links[link];
    if (l.memo_bytes != bytes || l.memo_bps != rate.GetBitRate()) {
        l.memo_tx = rate.CalculateBytesTxTime(bytes);
        l.memo_bytes = bytes;
        l.memo_bps = rate.GetBitRate();
    }
    return l.memo_tx;
}

/* The counters and the shadow FIFO of `link` for a packet of message mi
 * with `payload` bytes that enters its device now. */
void Sim::Account(uint32_t link, uint32_t payload, uint32_t mi)
{
    Link &l = links[link];
    int64_t now = NowPs();
    int64_t start = l.free_at_ps > now ? l.free_at_ps : now;
    int64_t tx = TxTime(link, RateFrom(link, start), payload + PPP_HEADER).GetTimeStep();
    Count(mi, link, payload, start - now);
    l.free_at_ps = start + tx;
    l.busy_ps += (uint64_t)tx;
}

/* Puts one packet of message mi on `link`: the counters first (the shadow
 * FIFO says how long it waits), then the device. */
void Sim::Hand(uint32_t link, Ptr<ns3::Packet> p, uint32_t mi)
{
    Account(link, p->GetSize(), mi);
    if (!links[link].dev->Send(p, broadcast, 0x0800)) {
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
    if (acks) {
        long back = shim_topology_route(&owner->topo, m.dst, m.src, nullptr, 0);
        if (back <= 0)
            return false;
        m.rroute.resize((size_t)back);
        shim_topology_route(&owner->topo, m.dst, m.src, m.rroute.data(), (size_t)back);
    }
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
    Ptr<ns3::Packet> p = NewPacket(mi);
    uint32_t size = p->GetSize();
    uint32_t link = m.route[0];
    Link &l = links[link];
    /* Idle before this packet: it starts now, and the device finishes it
     * when the next is due. A link without latency is left out: the
     * packet's arrival would share that tick, and a send it causes there
     * must still queue behind the next packet, as the pacer's order has it. */
    bool can_ride = ride_ok && l.rider == NIL && l.dev_idle && l.devq->IsEmpty() && l.latency_ps > 0;
    Hand(link, p, mi);
    if (m.sent >= m.bytes)
        return;
    int64_t gap = TxTime(link, l.rate, size + PPP_HEADER).GetTimeStep();
    if (can_ride) {
        l.rider = mi;
        l.ride_at_ps = NowPs() + gap;
        return;
    }
    ns3::Simulator::Schedule(ns3::PicoSeconds(gap), &Sim::SendNext, this, mi);
}

/* The next packet of message mi, tagged with its message. */
Ptr<ns3::Packet> Sim::NewPacket(uint32_t mi)
{
    Message &m = msgs[mi];
    uint64_t left = m.bytes - m.sent;
    uint32_t size = left < packet ? (uint32_t)left : packet;
    Ptr<ns3::Packet> p = ns3::Create<ns3::Packet>(size);
    ShimTag tag;
    tag.msg = mi;
    p->AddPacketTag(tag);
    m.sent += size;
    return p;
}

/* The device of `link` has finished a packet and asks for the next one,
 * at the tick its rider's next packet is due. What SendNext would do
 * right after this dequeue (the two events share the tick and follow each
 * other) is done here: alone, the rider's packet goes straight to the wire
 * and it rides on; behind other packets, it queues and is paced by events
 * again. */
Ptr<ns3::Packet> Sim::Ride(uint32_t link)
{
    Link &l = links[link];
    uint32_t mi = l.rider;
    l.rider = NIL;
    int64_t now = NowPs();
    if (l.ride_at_ps != now) {
        /* Not reached: the device's serialisation is the pacer's (one rate, one memo). */
        int64_t wait = l.ride_at_ps > now ? l.ride_at_ps - now : 0;
        ns3::Simulator::Schedule(ns3::PicoSeconds(wait), &Sim::SendNext, this, mi);
        return l.devq->TakeHead();
    }
    Ptr<ns3::Packet> p = NewPacket(mi);
    uint32_t size = p->GetSize();
    Account(link, size, mi);
    ns3::PppHeader ppp;
    ppp.SetProtocol(PPP_IPV4); /* what the device's Send adds for 0x0800 */
    p->AddHeader(ppp);
    bool more = msgs[mi].sent < msgs[mi].bytes;
    int64_t gap = TxTime(link, l.rate, size + PPP_HEADER).GetTimeStep();
    if (l.devq->IsEmpty()) {
        if (more) {
            l.rider = mi;
            l.ride_at_ps = now + gap;
        }
        return p;
    }
    l.devq->Append(p);
    if (more)
        ns3::Simulator::Schedule(ns3::PicoSeconds(gap), &Sim::SendNext, this, mi);
    return l.devq->TakeHead();
}

/* Every rider goes back to the pacer's events (a fault is registered). */
void Sim::StopRiding()
{
    ride_ok = false;
    int64_t now = NowPs();
    for (Link &l : links) {
        if (l.rider == NIL)
            continue;
        int64_t wait = l.ride_at_ps > now ? l.ride_at_ps - now : 0;
        ns3::Simulator::Schedule(ns3::PicoSeconds(wait), &Sim::SendNext, this, l.rider);
        l.rider = NIL;
    }
}

Ptr<ns3::Packet> RiderQueue::Dequeue()
{
    if (link == NIL)
        return TakeHead();
    Link &l = sim->links[link];
    Ptr<ns3::Packet> p = l.rider != NIL ? sim->Ride(link) : TakeHead();
    l.dev_idle = p == nullptr;
    return p;
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
    if (physics) {
        ReceivePhys(dev, p, tag, device);
        return;
    }
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

/* ---- physics (Options: buffers, PFC, ECN, ACKs, DCQCN, HPCC) -------------- */

/* With any physics option the shim queues packets itself, one FIFO per
 * directed link in front of its device, and hands the device a packet only
 * when the link is idle and not paused: the device's own queue stays
 * empty, so that a finite buffer, ECN marks, PFC pauses and INT see the
 * real queue. Timing is the device's (the same serialisation), so with no
 * drops, no pauses and no CC the packets move exactly as on the plain path. */

/* The PFC thresholds of every link into a switch (README, "Physics"): the
 * switch's buffer is `buffer` bytes per egress port, shared by its n
 * ingress ports as buffer / n each; an ingress pauses its upstream when
 * the bytes that came in by it and still wait in the switch exceed xoff =
 * buffer / n - headroom, headroom being what can still arrive before the
 * pause takes effect (2 x delay x rate on the wire and at the sender, and
 * two packets being serialised); it resumes at xon = xoff - 2 packets.
 * Every egress port then holds at most n x (xoff + headroom) = buffer:
 * no drop. */
int Sim::SetupPhysics(char *err, size_t err_len)
{
    const shim_topology &t = owner->topo;
    std::vector<uint32_t> n_in(t.devices, 0);
    for (uint32_t l = 0; l < t.n_links; l++) {
        const shim_link &sl = t.links[l];
        if (sl.bytes_per_ns <= 0)
            continue;
        links[l].switch_egress = sl.src_device >= t.npus;
        if (sl.dst_device >= t.npus)
            n_in[sl.dst_device]++;
    }
    if (!opt.pfc)
        return VIMANA_OK;
    const double wire = (double)(packet + PPP_HEADER);
    for (uint32_t l = 0; l < t.n_links; l++) {
        const shim_link &sl = t.links[l];
        if (sl.bytes_per_ns <= 0 || sl.dst_device < t.npus)
            continue;
        double headroom = 2 * sl.bytes_per_ns * sl.latency_ns + 2 * wire;
        double xoff = (double)opt.buffer / n_in[sl.dst_device] - headroom;
        if (!(xoff >= 3 * wire)) {
            snprintf(err, err_len, "ns3: backend option buffer=%" PRIu64 ": with pfc=on, switch %u's %u ingress ports "
                     "need at least %.0f bytes each (PFC headroom %.0f for link %u's rate and delay, and 3 packets)",
                     opt.buffer, sl.dst_device, n_in[sl.dst_device], headroom + 3 * wire, headroom, l);
            return VIMANA_ERR_CONFIG;
        }
        Link &k = links[l];
        k.pfc_ingress = true;
        k.xoff = (uint64_t)xoff;
        k.xon = (uint64_t)(xoff - 2 * wire);
    }
    return VIMANA_OK;
}

uint32_t Sim::AllocInt()
{
    uint32_t i = free_ints;
    if (i != NIL) {
        free_ints = ints[i].next_free;
    } else {
        ints.emplace_back();
        i = (uint32_t)(ints.size() - 1);
    }
    ints[i].n = 0;
    return i;
}

void Sim::FreeInt(uint32_t i)
{
    ints[i].next_free = free_ints;
    free_ints = i;
}

uint32_t Sim::PacketBytes(const Message &m, uint32_t seq) const
{
    uint64_t left = m.bytes - (uint64_t)seq * packet;
    return left < packet ? (uint32_t)left : packet;
}

/* Whether the sender may send its next packet now: one is left, and for
 * HPCC the window has room. */
bool Sim::Ready(const Message &m) const
{
    if (m.snd_nxt >= m.npkts)
        return false;
    return opt.cc != CC_HPCC || (double)(m.snd_nxt - m.snd_una) * packet < m.window;
}

static cc_dcqcn_params dcqcn_params(const Options &o, double line_bps)
{
    cc_dcqcn_params p;
    p.line_bps = line_bps;
    p.rate_ai_bps = o.dcqcn_rate_ai;
    p.rate_hai_bps = o.dcqcn_rate_hai;
    p.min_bps = o.dcqcn_min_rate < line_bps ? o.dcqcn_min_rate : line_bps;
    p.g = o.dcqcn_g;
    p.stages = DCQCN_STAGES;
    p.byte_counter = DCQCN_BYTE_COUNTER;
    return p;
}

static cc_hpcc_params hpcc_params(const Options &o, const Message &m, uint32_t packet)
{
    cc_hpcc_params p;
    double t = (double)m.base_rtt_ps;
    p.eta = o.hpcc_eta;
    p.max_stage = o.hpcc_max_stage;
    p.w_ai = o.hpcc_rate_ai / 8e12 * t;
    p.w_init = m.line_bps / 8e12 * t;
    p.w_min = packet;
    if (p.w_init < p.w_min)
        p.w_init = p.w_min;
    p.t_ps = m.base_rtt_ps;
    return p;
}

/* The pacing rate from the CC state: line rate without CC, DCQCN's
 * current rate, HPCC's window over the base RTT (at most line rate). */
void Sim::SetRate(Message &m)
{
    if (opt.cc == CC_DCQCN)
        m.rate_bps = m.dcqcn.rc;
    else if (opt.cc == CC_HPCC)
        m.rate_bps = m.window * 8e12 / (double)m.base_rtt_ps;
    else
        m.rate_bps = m.line_bps;
    if (m.rate_bps > m.line_bps)
        m.rate_bps = m.line_bps;
}

/* A new message on the physics path: its flow state, the way back for
 * its ACKs, its base RTT (HPCC's T: every hop's delay and one packet's
 * serialisation out, one ACK's back), then its first packet. */
void Sim::StartPhys(uint32_t mi)
{
    Message &m = msgs[mi];
    m.npkts = (uint32_t)((m.bytes + packet - 1) / packet);
    m.snd_nxt = m.snd_una = m.max_sent = m.rcv_next = 0;
    m.nack_for = NIL;
    m.send_pending = m.rx_done = false;
    m.last_cnp_ps = INT64_MIN;
    m.received = 0;
    m.line_bps = (double)links[m.route[0]].rate.GetBitRate();
    int64_t rtt = 0;
    for (uint32_t l : m.route)
        rtt += links[l].latency_ps + links[l].rate.CalculateBytesTxTime(packet + PPP_HEADER).GetTimeStep();
    for (uint32_t l : m.rroute)
        rtt += links[l].latency_ps + links[l].rate.CalculateBytesTxTime(CTRL_BYTES + PPP_HEADER).GetTimeStep();
    m.base_rtt_ps = rtt > 0 ? rtt : 1;
    if (opt.cc == CC_DCQCN) {
        cc_dcqcn_params p = dcqcn_params(opt, m.line_bps);
        cc_dcqcn_init(&m.dcqcn, &p);
    } else if (opt.cc == CC_HPCC) {
        cc_hpcc_params p = hpcc_params(opt, m, packet);
        cc_hpcc_init(&m.hpcc, &p);
        m.window = m.hpcc.w;
    }
    SetRate(m);
    if (lossy) {
        m.rto_at_ps = NowPs() + RTO_PS;
        ns3::Simulator::Schedule(ns3::PicoSeconds(RTO_PS), &Sim::OnRto, this, mi, m.gen);
    }
    SendPhys(mi, m.gen);
}

/* The paced sender: one packet now (a retransmission when go-back-N has
 * moved snd_nxt back), the next after its time at the pacing rate (the
 * first link's own rate without CC, as on the plain path). */
void Sim::SendPhys(uint32_t mi, uint32_t gen)
{
    if (msgs[mi].gen != gen)
        return; /* the message ended: a stale event */
    Message &m = msgs[mi];
    m.send_pending = false;
    if (!Ready(m))
        return; /* done, or the window is closed: an ACK or a timeout resumes */
    if (links[m.route[0]].paused) {
        /* PFC has paused the NIC: the flow waits, its rate unspent, and
         * resumes with the link (SetPaused). */
        m.send_pending = true;
        links[m.route[0]].held.emplace_back(mi, gen);
        return;
    }
    if (m.route_epoch != route_epoch && !Route(m)) {
        vimana_bt_fail(bt(), "ns3: out of memory for the route cache");
        ns3::Simulator::Stop();
        return;
    }
    uint32_t seq = m.snd_nxt++;
    uint32_t size = PacketBytes(m, seq);
    if (seq < m.max_sent)
        st.retransmits++;
    else
        m.max_sent = seq + 1;
    Ptr<ns3::Packet> p = ns3::Create<ns3::Packet>(size);
    ShimTag tag;
    tag.phys = true;
    tag.msg = mi;
    tag.gen = m.gen;
    tag.seq = seq;
    tag.info = opt.cc == CC_HPCC ? AllocInt() : NIL;
    p->AddPacketTag(tag);
    if (opt.cc == CC_DCQCN) {
        cc_dcqcn_params dp = dcqcn_params(opt, m.line_bps);
        cc_dcqcn_on_sent(&m.dcqcn, &dp, size);
        SetRate(m);
    }
    uint32_t link = m.route[0];
    ns3::Time gap = opt.cc == CC_NONE
                        ? TxTime(link, links[link].rate, size + PPP_HEADER)
                        : ns3::PicoSeconds((int64_t)((size + PPP_HEADER) * 8e12 / m.rate_bps + 0.5));
    Enqueue(link, p, NIL, tag);
    m.send_pending = true;
    ns3::Simulator::Schedule(gap, &Sim::SendPhys, this, mi, m.gen);
}

/* PFC's ingress accounting of a switch: `wire` bytes that came in by
 * in_link enter (in) or leave the switch; crossing xoff sends a pause, and
 * xon a resume, which reach the upstream transmitter one link delay later
 * (the PFC frame's own serialisation is left out). */
void Sim::Ingress(uint32_t in_link, uint32_t wire, bool in)
{
    if (in_link == NIL || !links[in_link].pfc_ingress)
        return;
    Link &k = links[in_link];
    if (in) {
        k.in_bytes += wire;
        if (!k.pause_sent && k.in_bytes > k.xoff) {
            k.pause_sent = true;
            ns3::Simulator::Schedule(ns3::PicoSeconds(k.latency_ps), &Sim::SetPaused, this, in_link, true);
        }
        return;
    }
    k.in_bytes -= wire;
    if (k.pause_sent && k.in_bytes <= k.xon) {
        k.pause_sent = false;
        ns3::Simulator::Schedule(ns3::PicoSeconds(k.latency_ps), &Sim::SetPaused, this, in_link, false);
    }
}

void Sim::SetPaused(uint32_t link, bool on)
{
    Link &l = links[link];
    if (on == l.paused)
        return;
    l.paused = on;
    if (on) {
        l.paused_since = NowPs();
        st.pauses++;
        return;
    }
    l.pause_ps += (uint64_t)(NowPs() - l.paused_since);
    Kick(link);
    std::vector<std::pair<uint32_t, uint32_t>> held;
    held.swap(l.held);
    for (const auto &h : held)
        if (msgs[h.first].gen == h.second)
            SendPhys(h.first, h.second);
    if (l.held.empty()) {
        held.clear();
        l.held.swap(held); /* keep the capacity: no allocation per pause */
    }
}

/* A packet joins link's FIFO: dropped when a switch egress buffer cannot
 * hold it, ECN-marked by the RED-like rule on the bytes ahead of it at a
 * switch egress (data only). */
void Sim::Enqueue(uint32_t link, Ptr<ns3::Packet> p, uint32_t in_link, ShimTag &tag)
{
    Link &l = links[link];
    uint32_t wire = p->GetSize() + PPP_HEADER;
    if (l.switch_egress && !opt.buffer_inf && l.qbytes + wire > opt.buffer) {
        st.drops++;
        if (tag.info != NIL)
            FreeInt(tag.info);
        if (opt.pfc) {
            /* The thresholds hold at the configured rates; a bandwidth
             * factor above 1 upstream can beat them. Without ACKs
             * (cc=none) nothing would resend the packet: fail, naming it. */
            vimana_bt_fail(bt(), "ns3: link %u dropped a packet with pfc=on (its %" PRIu64 "-byte buffer overflowed: "
                           "a bandwidth factor above 1 upstream outran the PFC headroom)", link, opt.buffer);
            ns3::Simulator::Stop();
        }
        return;
    }
    if (l.switch_egress && tag.kind == PK_DATA &&
        cc_ecn_mark(l.qbytes, opt.ecn_kmin, opt.ecn_kmax, opt.ecn_pmax, &rng)) {
        tag.ecn = 1;
        l.ecn_marks++;
        p->ReplacePacketTag(tag);
    }
    l.q.push_back(QItem{p, in_link, wire, NowPs()});
    l.qbytes += wire;
    Ingress(in_link, wire, true);
    Kick(link);
}

/* The link's transmitter: the next packet to the device when idle and not
 * paused; the counters as on the plain path (a data packet's wait is from
 * its enqueue), and the INT hop of an HPCC packet (queue behind it, bytes
 * sent, time, rate). */
void Sim::Kick(uint32_t link)
{
    Link &l = links[link];
    if (l.busy || l.paused || l.q.empty())
        return;
    QItem it = std::move(l.q.front());
    l.q.pop_front();
    l.qbytes -= it.wire;
    Ingress(it.in_link, it.wire, false);
    int64_t now = NowPs();
    int64_t tx = TxTime(link, l.rate, it.wire).GetTimeStep();
    ShimTag tag;
    it.p->PeekPacketTag(tag);
    if (tag.kind == PK_DATA) {
        if (msgs[tag.msg].gen == tag.gen)
            Count(tag.msg, link, it.p->GetSize(), now - it.enq_ps);
        else
            bt()->links[link].bytes += it.p->GetSize();
        if (tag.info != NIL) {
            IntRec &r = ints[tag.info];
            if (r.n < CC_HPCC_MAX_HOPS)
                r.hop[r.n++] = cc_int_hop{l.qbytes, l.tx_bytes + it.wire, now, (double)l.rate.GetBitRate()};
        }
    }
    l.busy_ps += (uint64_t)tx;
    l.tx_bytes += it.wire;
    l.busy = true;
    if (!l.dev->Send(it.p, broadcast, 0x0800)) {
        vimana_bt_fail(bt(), "ns3: link %u refused a packet (device queue full)", link);
        ns3::Simulator::Stop();
        return;
    }
    ns3::Simulator::Schedule(ns3::PicoSeconds(tx), &Sim::TxDone, this, link);
}

void Sim::TxDone(uint32_t link)
{
    links[link].busy = false;
    Kick(link);
}

/* An ACK, NACK or CNP from the receiver back to the sender, on the
 * message's way back. */
void Sim::SendCtrl(uint32_t mi, PacketKind kind, uint32_t seq, uint8_t ecn, uint32_t info)
{
    Message &m = msgs[mi];
    if (m.route_epoch != route_epoch && !Route(m)) {
        vimana_bt_fail(bt(), "ns3: out of memory for the route cache");
        ns3::Simulator::Stop();
        return;
    }
    Ptr<ns3::Packet> p = ns3::Create<ns3::Packet>(CTRL_BYTES);
    ShimTag tag;
    tag.phys = true;
    tag.msg = mi;
    tag.gen = m.gen;
    tag.kind = kind;
    tag.seq = seq;
    tag.ecn = ecn;
    tag.info = info;
    p->AddPacketTag(tag);
    if (kind == PK_ACK)
        st.acks++;
    Enqueue(m.rroute[0], p, NIL, tag);
}

void Sim::Deliver(Message &m)
{
    uint64_t token = m.token;
    owner->bt.host.delivered(owner->bt.host.host, token);
}

void Sim::FreeMsg(uint32_t mi)
{
    Message &m = msgs[mi];
    m.route.clear();
    m.rroute.clear();
    m.entered.clear();
    m.gen++;
    m.next_free = free_msgs;
    free_msgs = mi;
}

/* The receiver: in-order data is acknowledged (cumulative ACK, with the
 * ECN echo and the INT record); a gap (a drop upstream) gets one NACK per
 * missing packet; a duplicate a fresh ACK. A marked packet makes a CNP,
 * at most one per CNP_INTERVAL per flow (DCQCN's notification point).
 * Without ACKs (lossless, no CC, receiver completion) it only counts. */
void Sim::OnData(uint32_t mi, const ShimTag &tag, uint32_t size)
{
    Message &m = msgs[mi];
    if (!acks) {
        m.received += size;
        if (m.received < m.bytes)
            return;
        uint64_t token = m.token;
        FreeMsg(mi);
        owner->bt.host.delivered(owner->bt.host.host, token);
        return;
    }
    int64_t now = NowPs();
    if (opt.cc == CC_DCQCN && tag.ecn && (m.last_cnp_ps == INT64_MIN || now - m.last_cnp_ps >= CNP_INTERVAL_PS)) {
        m.last_cnp_ps = now;
        st.cnps++;
        SendCtrl(mi, PK_CNP, 0, 0, NIL);
    }
    if (tag.seq == m.rcv_next) {
        m.rcv_next++;
        m.received += size;
        SendCtrl(mi, PK_ACK, m.rcv_next, tag.ecn, tag.info);
        if (m.rcv_next == m.npkts && !m.rx_done) {
            m.rx_done = true;
            if (!opt.ack_completion)
                Deliver(m); /* m may move: the host may send */
        }
        return;
    }
    if (tag.info != NIL)
        FreeInt(tag.info);
    if (tag.seq > m.rcv_next) {
        if (m.nack_for != m.rcv_next) {
            m.nack_for = m.rcv_next;
            st.nacks++;
            SendCtrl(mi, PK_NACK, m.rcv_next, 0, NIL);
        }
        return;
    }
    SendCtrl(mi, PK_ACK, m.rcv_next, 0, NIL);
}

/* The sender's side of ACKs, NACKs and CNPs: the cumulative ACK moves
 * snd_una (and the timeout); a NACK also moves snd_nxt back (go-back-N);
 * HPCC's window follows the INT; a CNP cuts DCQCN's rate. The last ACK
 * ends the message (and delivers it with completion=ack). */
void Sim::OnCtrl(uint32_t mi, const ShimTag &tag)
{
    Message &m = msgs[mi];
    if (tag.kind == PK_CNP) {
        if (opt.cc == CC_DCQCN && m.snd_una < m.npkts) {
            cc_dcqcn_params dp = dcqcn_params(opt, m.line_bps);
            cc_dcqcn_on_cnp(&m.dcqcn, &dp);
            SetRate(m);
            ArmDcqcnTimer(m, mi);
        }
        return;
    }
    if (tag.seq > m.snd_una) {
        m.snd_una = tag.seq;
        m.rto_at_ps = NowPs() + RTO_PS;
        if (m.snd_nxt < m.snd_una)
            m.snd_nxt = m.snd_una;
    }
    if (tag.kind == PK_NACK && m.snd_nxt > tag.seq)
        m.snd_nxt = tag.seq;
    if (tag.info != NIL) {
        if (opt.cc == CC_HPCC) {
            cc_hpcc_params hp = hpcc_params(opt, m, packet);
            const IntRec &r = ints[tag.info];
            m.window = cc_hpcc_on_ack(&m.hpcc, &hp, r.hop, r.n, tag.seq, m.snd_nxt);
            SetRate(m);
        }
        FreeInt(tag.info);
    }
    if (m.snd_una >= m.npkts) {
        bool deliver = opt.ack_completion;
        uint64_t token = m.token;
        FreeMsg(mi);
        if (deliver)
            owner->bt.host.delivered(owner->bt.host.host, token);
        return;
    }
    if (!m.send_pending)
        SendPhys(mi, m.gen);
}

/* Go-back-N's timeout: no ACK progress for RTO_PS: resend from snd_una. */
void Sim::OnRto(uint32_t mi, uint32_t gen)
{
    if (msgs[mi].gen != gen)
        return;
    Message &m = msgs[mi];
    if (m.snd_una >= m.npkts)
        return;
    int64_t now = NowPs();
    if (now < m.rto_at_ps) {
        ns3::Simulator::Schedule(ns3::PicoSeconds(m.rto_at_ps - now), &Sim::OnRto, this, mi, gen);
        return;
    }
    st.timeouts++;
    m.snd_nxt = m.snd_una;
    m.rto_at_ps = now + RTO_PS;
    ns3::Simulator::Schedule(ns3::PicoSeconds(RTO_PS), &Sim::OnRto, this, mi, gen);
    if (!m.send_pending)
        SendPhys(mi, gen);
}

/* DCQCN's timer restarts at each rate decrease (the paper's reset of the
 * counters); an older timer's event finds its epoch gone. */
void Sim::ArmDcqcnTimer(Message &m, uint32_t mi)
{
    m.timer_epoch++;
    ns3::Simulator::Schedule(ns3::PicoSeconds(opt.dcqcn_timer_ps), &Sim::OnDcqcnTimer, this, mi, m.gen,
                             m.timer_epoch);
}

/* Alpha's decay and a rate increase step each period, until the rate is
 * back at line rate (then nothing changes until the next CNP). */
void Sim::OnDcqcnTimer(uint32_t mi, uint32_t gen, uint32_t epoch)
{
    if (msgs[mi].gen != gen || msgs[mi].timer_epoch != epoch)
        return;
    Message &m = msgs[mi];
    if (m.snd_una >= m.npkts)
        return;
    cc_dcqcn_params dp = dcqcn_params(opt, m.line_bps);
    cc_dcqcn_on_timer(&m.dcqcn, &dp);
    SetRate(m);
    if (m.dcqcn.rc < m.line_bps)
        ns3::Simulator::Schedule(ns3::PicoSeconds(opt.dcqcn_timer_ps), &Sim::OnDcqcnTimer, this, mi, gen, epoch);
}

/* The link a control packet (going back to the source) leaves `device`
 * by: the way back while current, else hop by hop (as NextHop). */
uint32_t Sim::NextHopPhys(Message &m, ShimTag &tag, uint32_t device)
{
    if (tag.kind == PK_DATA)
        return NextHop(m, tag, device);
    if (!tag.loose && m.route_epoch == route_epoch) {
        for (uint32_t link : m.rroute)
            if (owner->topo.links[link].src_device == device)
                return link;
    }
    if (!owner->topo.topo)
        return NIL;
    if (!tag.loose) {
        tag.loose = 1;
        tag.ecmp = vimana_topo_ecmp_hash(m.dst, m.src);
    }
    return shim_topology_next_link(&owner->topo, device, m.src, &tag.ecmp);
}

/* A packet arrives at `device` on the physics path. A packet of a message
 * that has ended (a duplicate after go-back-N, a late CNP or ACK) leaves
 * the network here. */
void Sim::ReceivePhys(Ptr<ns3::NetDevice> dev, Ptr<const ns3::Packet> p, ShimTag &tag, uint32_t device)
{
    Message &m = msgs[tag.msg];
    if (tag.gen != m.gen) {
        if (tag.info != NIL)
            FreeInt(tag.info);
        return;
    }
    uint32_t target = tag.kind == PK_DATA ? m.dst : m.src;
    if (device == target) {
        if (tag.kind == PK_DATA)
            OnData(tag.msg, tag, p->GetSize());
        else
            OnCtrl(tag.msg, tag);
        return;
    }
    uint32_t link = NextHopPhys(m, tag, device);
    if (link == NIL) {
        vimana_bt_fail(bt(), "ns3: a packet for NPU %u reached device %u, which the links down cut off from it (or "
                       "the route cache cannot grow)", target, device);
        ns3::Simulator::Stop();
        return;
    }
    Ptr<ns3::Packet> copy = p->Copy();
    if (tag.loose)
        copy->ReplacePacketTag(tag);
    uint32_t ifindex = dev->GetIfIndex();
    uint32_t in = ifindex < rx_link[device].size() ? rx_link[device][ifindex] : NIL;
    Enqueue(link, copy, in, tag);
}

/* One line at the end of run(): what the physics did in all. */
void Sim::LogPhysics()
{
    uint64_t marks = 0, pause_ps = 0;
    for (const Link &l : links) {
        marks += l.ecn_marks;
        pause_ps += l.pause_ps;
    }
    char msg[400];
    snprintf(msg, sizeof msg, "ns3: physics: %" PRIu64 " ECN marks, %" PRIu64 " CNPs, %" PRIu64 " pauses (%" PRIu64
             " ticks), %" PRIu64 " drops, %" PRIu64 " NACKs, %" PRIu64 " timeouts, %" PRIu64 " packets resent, %"
             PRIu64 " ACKs", marks, st.cnps, st.pauses, pause_ps / 1000, st.drops, st.nacks, st.timeouts,
             st.retransmits, st.acks);
    owner->bt.host.log(owner->bt.host.host, VIMANA_LOG_INFO, msg);
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
    StopRiding();
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

const char KNOWN_OPTIONS[] = "packet=BYTES, buffer=BYTES|inf, pfc=on|off, cc=none|dcqcn|hpcc, ecn_kmin=BYTES, "
                             "ecn_kmax=BYTES, ecn_pmax=0..1, completion=receiver|ack, dcqcn_rate_ai=Mbit/s, "
                             "dcqcn_rate_hai=Mbit/s, dcqcn_min_rate=Mbit/s, dcqcn_g=0..1, dcqcn_timer=us, "
                             "hpcc_eta=0..1, hpcc_max_stage=N, hpcc_rate_ai=Mbit/s";

/* A whole number: digits only (no sign, no spaces), at most max. */
bool parse_whole(const std::string &v, uint64_t max, uint64_t *out)
{
    if (v.empty() || v.size() > 20 || v.find_first_not_of("0123456789") != std::string::npos)
        return false;
    errno = 0;
    unsigned long long x = strtoull(v.c_str(), nullptr, 10);
    if (errno || x > max)
        return false;
    *out = x;
    return true;
}

/* A finite real number in [lo, hi] (lo excluded when open_lo). */
bool parse_real(const std::string &v, double lo, double hi, bool open_lo, double *out)
{
    if (v.empty() || v.find_first_of(" \t\n") != std::string::npos)
        return false;
    char *end = nullptr;
    double x = strtod(v.c_str(), &end);
    if (*end || !(x >= lo && x <= hi) || (open_lo && x == lo))
        return false;
    *out = x;
    return true;
}

/* One key=value into *o, or the reason it is refused (empty: unknown key). */
std::string parse_option(const std::string &key, const std::string &v, Options *o, bool *known)
{
    *known = true;
    uint64_t u = 0;
    double d = 0;
    const uint64_t MAX_BYTES = 1ull << 50;
    if (key == "packet") {
        if (!parse_whole(v, MAX_PACKET, &u) || u < MIN_PACKET)
            return "packet must be a whole number of bytes from " + std::to_string(MIN_PACKET) + " to " +
                   std::to_string(MAX_PACKET);
        o->packet = (uint32_t)u;
    } else if (key == "buffer") {
        if (v == "inf") {
            o->buffer_inf = true;
        } else if (parse_whole(v, MAX_BYTES, &u) && u > 0) {
            o->buffer_inf = false;
            o->buffer = u;
        } else {
            return "buffer must be inf or a whole number of bytes from 1 to 2^50";
        }
    } else if (key == "pfc") {
        if (v != "on" && v != "off")
            return "pfc must be on or off";
        o->pfc = v == "on";
    } else if (key == "cc") {
        if (v == "none")
            o->cc = CC_NONE;
        else if (v == "dcqcn")
            o->cc = CC_DCQCN;
        else if (v == "hpcc")
            o->cc = CC_HPCC;
        else
            return "cc must be none, dcqcn or hpcc";
    } else if (key == "ecn_kmin" || key == "ecn_kmax") {
        if (!parse_whole(v, MAX_BYTES, &u))
            return key + " must be a whole number of bytes up to 2^50";
        (key == "ecn_kmin" ? o->ecn_kmin : o->ecn_kmax) = u;
        o->ecn_given = true;
    } else if (key == "ecn_pmax") {
        if (!parse_real(v, 0, 1, false, &d))
            return "ecn_pmax must be a number from 0 to 1";
        o->ecn_pmax = d;
        o->ecn_given = true;
    } else if (key == "completion") {
        if (v != "receiver" && v != "ack")
            return "completion must be receiver or ack";
        o->ack_completion = v == "ack";
    } else if (key == "dcqcn_rate_ai" || key == "dcqcn_rate_hai" || key == "dcqcn_min_rate" ||
               key == "hpcc_rate_ai") {
        if (!parse_real(v, 0, 1e9, true, &d))
            return key + " must be a rate in Mbit/s above 0 and at most 1e9";
        double bps = d * 1e6;
        if (key == "dcqcn_rate_ai")
            o->dcqcn_rate_ai = bps;
        else if (key == "dcqcn_rate_hai")
            o->dcqcn_rate_hai = bps;
        else if (key == "dcqcn_min_rate")
            o->dcqcn_min_rate = bps;
        else
            o->hpcc_rate_ai = bps;
    } else if (key == "dcqcn_g") {
        if (!parse_real(v, 0, 1, true, &d))
            return "dcqcn_g must be a number above 0 and at most 1";
        o->dcqcn_g = d;
    } else if (key == "dcqcn_timer") {
        if (!parse_real(v, 0, 1e9, true, &d) || d * 1e6 < 1)
            return "dcqcn_timer must be a time in us from 0.000001 to 1e9";
        o->dcqcn_timer_ps = (int64_t)(d * 1e6 + 0.5);
    } else if (key == "hpcc_eta") {
        if (!parse_real(v, 0, 1, true, &d))
            return "hpcc_eta must be a number above 0 and at most 1";
        o->hpcc_eta = d;
    } else if (key == "hpcc_max_stage") {
        if (!parse_whole(v, 1000000, &u))
            return "hpcc_max_stage must be a whole number from 0 to 1000000";
        o->hpcc_max_stage = (uint32_t)u;
    } else {
        *known = false;
    }
    return std::string();
}

/* Comma-separated key=value pairs (KNOWN_OPTIONS), then what only the
 * whole set can say: kmin above kmax, PFC without a finite buffer. */
int parse_options(const char *options, Options *o, char *err, size_t err_len)
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
        size_t eq = item.find('=');
        bool known = false;
        std::string why;
        if (eq != std::string::npos)
            why = parse_option(item.substr(0, eq), item.substr(eq + 1), o, &known);
        if (!known) {
            snprintf(err, err_len, "ns3: unknown backend option '%s' (known: %s)", shown, KNOWN_OPTIONS);
            return VIMANA_ERR_CONFIG;
        }
        if (!why.empty()) {
            snprintf(err, err_len, "ns3: backend option '%s': %s", shown, why.c_str());
            return VIMANA_ERR_CONFIG;
        }
    }
    if (o->ecn_kmin > o->ecn_kmax) {
        snprintf(err, err_len, "ns3: backend options: ecn_kmin (%" PRIu64 ") is above ecn_kmax (%" PRIu64 ")",
                 o->ecn_kmin, o->ecn_kmax);
        return VIMANA_ERR_CONFIG;
    }
    if (o->pfc && o->buffer_inf) {
        snprintf(err, err_len, "ns3: backend option pfc=on needs a finite buffer=BYTES (PFC pauses as a switch "
                 "buffer fills; an infinite one never does)");
        return VIMANA_ERR_CONFIG;
    }
    if (!o->buffer_inf && o->buffer < (uint64_t)o->packet + PPP_HEADER) {
        snprintf(err, err_len, "ns3: backend option buffer=%" PRIu64 " holds no packet of %u bytes (packet + a "
                 "2-byte header)", o->buffer, o->packet + PPP_HEADER);
        return VIMANA_ERR_CONFIG;
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

/* Upstream astra-network-ns3's config.txt given as the network
 * configuration (upstream_config.h): its TOPOLOGY_FILE becomes the
 * network, its keys the options, before the user's --backend-options
 * (a key given twice takes the later value). The keys with no effect here
 * are named in one info line. */
int read_upstream(ns3_shim *s, const vimana_backend_params *params, std::string *options, char *err,
                  size_t err_len)
{
    *options = params && params->options ? params->options : "";
    if (!s->bt.network_path || !ns3_upstream_is_config(s->bt.network_path))
        return VIMANA_OK;
    std::unique_ptr<ns3_upstream> u(new ns3_upstream());
    if (ns3_upstream_read(s->bt.network_path, u.get(), err, err_len) != 0)
        return VIMANA_ERR_CONFIG;
    vimana_topo *t = nullptr;
    int rc = vimana_topo_load(u->topology, &t, err, err_len);
    if (rc == 1)
        snprintf(err, err_len, "%s: TOPOLOGY_FILE %s is not an ns-3 topology .txt", s->bt.network_path,
                 u->topology);
    if (rc != 0)
        return VIMANA_ERR_CONFIG;
    char opts[1024];
    rc = ns3_upstream_options(u.get(), t, opts, sizeof opts, err, err_len);
    vimana_topo_free(t);
    if (rc != 0)
        return VIMANA_ERR_CONFIG;
    char *topology = strdup(u->topology);
    if (!topology) {
        snprintf(err, err_len, "out of memory");
        return VIMANA_ERR_NOMEM;
    }
    if (u->no_effect[0])
        vimana_bt_log(&s->bt, VIMANA_LOG_INFO, "%s: read as upstream's config.txt (%s); no effect here: %s",
                      s->bt.network_path, opts, u->no_effect);
    free(s->bt.network_path);
    s->bt.network_path = topology;
    *options = options->empty() ? std::string(opts) : std::string(opts) + "," + *options;
    return VIMANA_OK;
}

int setup(ns3_shim *s, const vimana_backend_params *params, char *err, size_t err_len)
{
    Options opt;
    std::string options;
    int rc = read_upstream(s, params, &options, err, err_len);
    if (rc == VIMANA_OK)
        rc = parse_options(options.c_str(), &opt, err, err_len);
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
    Sim *sim = s->sim;
    sim->packet = opt.packet;
    sim->opt = opt;
    sim->lossy = !opt.buffer_inf && !opt.pfc;
    sim->acks = opt.cc != CC_NONE || opt.ack_completion || sim->lossy;
    sim->physics = sim->acks || !opt.buffer_inf || opt.pfc || opt.ecn_given;
    sim->Build();
    return sim->physics ? sim->SetupPhysics(err, err_len) : VIMANA_OK;
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
        if (sim->physics && (bytes - 1) / sim->packet >= UINT32_MAX) {
            log_error(s, "ns3: a message of %" PRIu64 " bytes is more than 2^32 - 1 packets of %u bytes (the "
                      "physics options number packets in 32 bits)", bytes, sim->packet);
            return VIMANA_ERR_ARGUMENT;
        }
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
        if (!sim->physics) {
            sim->SendNext(mi);
            return VIMANA_OK;
        }
        if (sim->acks && !sim->Route(m)) {
            log_error(s, "ns3: out of memory for the route cache");
            return VIMANA_ERR_NOMEM;
        }
        sim->StartPhys(mi);
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
        if (s->sim->physics)
            s->sim->LogPhysics();
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
    int rc = vimana_bt_link_stats(ctx, link, out);
    if (rc == VIMANA_OK) {
        const Link &l = s->sim->links[link];
        uint64_t pause = l.pause_ps + (l.paused ? (uint64_t)(Sim::NowPs() - l.paused_since) : 0);
        out->ecn_marks = l.ecn_marks;
        out->pause_ticks = pause / 1000;
    }
    return rc;
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

/* --backend-options as `vimana backend-check ns3_shim --options` lists
 * them (parse_option reads them; README.md, "Options"). */
const vimana_backend_option ns3_options[] = {
    {"packet", "64 to 65000 (bytes)", "4096", "payload bytes per packet", "65000"},
    {"buffer", "inf, 1 to 2^50 (bytes)", "inf", "buffer of each switch egress port; a packet that does not fit is "
     "dropped", nullptr},
    {"pfc", "on, off", "off", "lossless: a switch ingress pauses its upstream transmitter (needs a finite buffer)",
     nullptr},
    {"cc", "none, dcqcn, hpcc", "none", "the sender: line rate, DCQCN (rate, CNPs) or HPCC (window from INT)",
     nullptr},
    {"ecn_kmin", "bytes", "100000", "no ECN mark with this many bytes queued or fewer", nullptr},
    {"ecn_kmax", "bytes, >= ecn_kmin", "400000", "above this every data packet is marked", nullptr},
    {"ecn_pmax", "0 to 1", "0.2", "marking probability at ecn_kmax", nullptr},
    {"completion", "receiver, ack", "receiver", "delivered() at the last byte's arrival or at the sender's last ACK",
     nullptr},
    {"dcqcn_rate_ai", "Mbit/s, > 0", "5000", "DCQCN additive increase step", nullptr},
    {"dcqcn_rate_hai", "Mbit/s, > 0", "10000", "DCQCN hyper increase step", nullptr},
    {"dcqcn_min_rate", "Mbit/s, > 0", "100", "floor of DCQCN's rate", nullptr},
    {"dcqcn_g", "(0, 1]", "1/256", "gain of DCQCN's alpha EWMA", nullptr},
    {"dcqcn_timer", "us, > 0", "55", "DCQCN's rate increase timer and alpha's decay period", nullptr},
    {"hpcc_eta", "(0, 1]", "0.95", "HPCC's target utilisation", nullptr},
    {"hpcc_max_stage", "0 to 1000000", "5", "HPCC's additive steps before a multiplicative one", nullptr},
    {"hpcc_rate_ai", "Mbit/s, > 0", "50", "HPCC's additive step, as a rate", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

vimana_backend make_descriptor()
{
    vimana_backend d;
    memset(&d, 0, sizeof d);
    d.abi_major = VIMANA_NETWORK_ABI_MAJOR;
    d.abi_minor = VIMANA_NETWORK_ABI_MINOR;
    d.struct_size = (uint32_t)sizeof(vimana_backend);
    d.name = "ns3";
    d.description = "packet-level network on ns-3 (point-to-point links, the routes of congestion_aware; by "
                    "default lossless FIFOs and line-rate senders, optionally finite buffers, PFC, ECN, DCQCN or "
                    "HPCC)";
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
    d.options = ns3_options;
    return d;
}

const vimana_backend ns3_backend = make_descriptor();

}  // namespace

extern "C" VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void);

extern "C" VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
{
    return &ns3_backend;
}
