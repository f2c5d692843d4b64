/*
 * vimana/network_api.h - the ABI between the Vimana simulator and its
 * network backends.
 *
 * A backend is a shared object that exports one symbol,
 * `vimana_backend_entry`, returning a pointer to a constant descriptor
 * (struct vimana_backend). The simulator (the "host") loads it at run time,
 * checks the descriptor's version fields, and from then on talks to the
 * network only through the descriptor's functions. The backend talks back
 * only through the host callbacks it receives in init(); it links nothing
 * from the simulator executable.
 *
 * Time is an unsigned 64-bit count of ticks; 1 tick = 1 ns. The backend owns
 * the event loop: the host schedules its own work with schedule() and the
 * whole simulation runs inside run().
 *
 * The ABI rule. Binary: the host loads a backend whose abi_major equals
 * VIMANA_NETWORK_ABI_MAJOR and whose abi_minor is not newer than the
 * host's (the GStreamer rule). A minor version only gives meaning to
 * reserved slots, or appends to a struct the host allocates (the link
 * counters), so no size and no field's offset ever changes; `struct_size`
 * says how much of the descriptor the backend filled in, and the host reads
 * a field only when abi_minor and struct_size both cover it. Anything else
 * is a new major version, which the host refuses in one line.
 *
 * Source: each struct is named after the version that last changed it
 * (struct vimana_backend_1_5, struct vimana_host_1_3, ...), and the
 * unversioned typedefs (vimana_backend, vimana_host, vimana_link_stats,
 * ...) name the current ones: write those. Every versioned name a released
 * 1.x header declared stays, as a macro for today's struct of its family
 * (as Open MPI keeps its _2_0_0 names), so that a source written against
 * any 1.x header compiles unchanged, its versioned and unversioned names
 * mixed as that header allowed. Rebuilt with VIMANA_BACKEND_HEADER_INIT,
 * such a source is a backend of this header's version: the slots added
 * since are zero, which means "absent", but the link counters added since
 * (1.2's queueing ticks, 1.5's ECN marks and pauses) read 0, which is a
 * value. A source that fills only the counters of its own minor starts its
 * descriptor with VIMANA_BACKEND_HEADER_INIT_MINOR(that minor) instead, and
 * the host reports the others as unknown.
 *
 * Writing a backend (every example in the installed headers is compiled
 * by tests/e2e/header_examples.sh and by scripts/test-install):
 *
 *   ```c
 *   #include <vimana/network_api.h>
 *   int my_init(const vimana_backend_params *params, const vimana_host *host, void **ctx,
 *               char *err, size_t err_len);
 *   void my_fini(void *ctx);
 *   int my_send(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag,
 *               uint64_t token);
 *   static const vimana_backend my_backend = {
 *       VIMANA_BACKEND_HEADER_INIT,
 *       .name = "mynet", .description = "one hop, 1 ns a byte",
 *       .init = my_init, .fini = my_fini, .sim_send = my_send,
 *       // ... num_dims, dim_size, schedule, now and run as well
 *   };
 *   VIMANA_BACKEND_EXPORT const vimana_backend *vimana_backend_entry(void)
 *   {
 *       return &my_backend;
 *   }
 *   ```
 *
 * History: 1.0 first release; 1.1 adds vimana_host.failed and
 * vimana_backend.stop (both optional for the other side to use); 1.2 adds
 * the link counters max_queue_ticks and queue_ticks and the optional
 * vimana_backend.device_name; 1.3 adds the cache hints
 * vimana_host.will_deliver and will_run (optional for both sides); 1.4 adds
 * the optional vimana_backend.link_fault (vimana --network-faults); 1.5
 * adds the link counters ecn_marks and pause_ticks and the optional
 * vimana_backend.options table. The released versioned names: 1.0
 * vimana_host_1_0, vimana_backend_params_1_0, vimana_link_stats_1_0,
 * vimana_backend_1_0; 1.1 vimana_host_1_1, vimana_backend_1_1; 1.2 to 1.4
 * vimana_link_stats_1_2, vimana_backend_1_2; 1.5 vimana_link_stats_1_5,
 * vimana_backend_option_1_5 (the host struct kept the name
 * vimana_host_1_1, and the descriptor vimana_backend_1_2, up to 1.5).
 *
 * Build it as a module (libtool: -module -avoid-version, exporting only
 * `vimana_backend_entry`); `pkg-config --variable=pluginsdir vimana` names
 * the install directory.
 */
#ifndef VIMANA_NETWORK_API_H
#define VIMANA_NETWORK_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define VIMANA_NETWORK_ABI_MAJOR 1
#define VIMANA_NETWORK_ABI_MINOR 5

/* The one exported symbol of every backend. */
#define VIMANA_BACKEND_ENTRY_SYMBOL "vimana_backend_entry"

#if defined(__GNUC__)
#define VIMANA_BACKEND_EXPORT __attribute__((visibility("default")))
#else
#define VIMANA_BACKEND_EXPORT
#endif

typedef uint64_t vimana_tick;

/* A deferred call: fn(arg, data) at the scheduled tick. */
typedef void (*vimana_event_fn)(void *arg, uint64_t data);

/* Log levels for vimana_host.log. */
enum vimana_log_level {
    VIMANA_LOG_DEBUG = 0,
    VIMANA_LOG_INFO = 1,
    VIMANA_LOG_WARNING = 2,
    VIMANA_LOG_ERROR = 3,
};

/* Return codes of backend functions. */
enum vimana_status {
    VIMANA_OK = 0,
    VIMANA_ERR_CONFIG = 1,   /* bad network configuration */
    VIMANA_ERR_ARGUMENT = 2, /* e.g. unknown NPU, src == dst, size 0 */
    VIMANA_ERR_NOMEM = 3,
    VIMANA_ERR_STALLED = 4,  /* run() ended with messages that can never arrive */
    VIMANA_ERR_INTERNAL = 5,
};

/*
 * Capability bits a backend advertises. The host refuses a network of more
 * than one dimension on a backend without MULTI_DIM (one line naming the
 * backend and the network file), and refuses at load a backend whose
 * LINK_STATS bit and num_links()/link_stats() disagree. CONGESTION is
 * informational: the host does not read it.
 */
#define VIMANA_CAP_MULTI_DIM      (1u << 0) /* accepts networks of more than one dimension */
#define VIMANA_CAP_CONGESTION     (1u << 1) /* models link contention */
#define VIMANA_CAP_LINK_STATS     (1u << 2) /* implements num_links() and link_stats() */

/*
 * Services the host offers the backend. Passed to init(); valid until
 * fini(). `host` is opaque and is passed back on every call. Fields marked
 * "since 1.x" are valid when struct_size covers them (a host of 1.x or
 * later always fills them); earlier hosts leave that space zero. Named
 * after 1.3, the last version that gave it a field.
 */
struct vimana_host_1_3 {
    uint32_t struct_size;  /* sizeof(vimana_host) as the host knows it */
    uint32_t reserved0;
    void *host;
    /* One line of text, without trailing newline. */
    void (*log)(void *host, enum vimana_log_level level, const char *message);
    /*
     * The message sent with sim_send(..., token) has fully arrived at its
     * destination. Call it from inside the backend's event loop, at the tick
     * of arrival; the host matches it with its receive and runs the
     * handlers synchronously, which may call back into the backend
     * (sim_send, schedule, ...). Exactly once per token, with the token
     * unchanged (it is opaque), and never from inside sim_send: the host
     * checks all three and stops the run naming the backend otherwise.
     */
    void (*delivered)(void *host, uint64_t token);
    /*
     * Since 1.1. The backend hit an error it cannot recover from inside
     * run() (one line: what and where). The host records it, reports it once
     * and asks the backend to stop (stop() below); the backend then returns
     * from run() with an error status. May be NULL in a pre-1.1 host.
     * Vimana prints `vimana: error: network backend NAME failed: MESSAGE`
     * (control characters of MESSAGE escaped, so it stays one line) and
     * exits non-zero; only the run's first error is reported.
     */
    void (*failed)(void *host, const char *message);
    /*
     * Since 1.3, optional (NULL in an older host; a backend may also never
     * call them). Hints for the cache that change nothing: the backend's
     * event loop is about to deliver `token` (will_deliver) or to run the
     * event fn(arg, data) scheduled through schedule() (will_run), a few
     * events from now. Stage 0, a few events ahead: the host starts
     * loading the first record that event reads; stage 1, later and still
     * ahead of the event (the toolkit: 4 and 2 events ahead): the host
     * reads that record, loaded by then, and starts loading the ones it
     * leads to. The host only prefetches in them: no call into the
     * backend, no state change. An event loop that knows its next events
     * may call them, for any event, in any order, or never; the host
     * computes the same either way.
     */
    void (*will_deliver)(void *host, uint64_t token, int stage);
    void (*will_run)(void *host, vimana_event_fn fn, void *arg, uint64_t data, int stage);
    void *reserved[5];
};
typedef struct vimana_host_1_3 vimana_host;
/* The host struct's names in older headers (the ABI rule, above). */
#define vimana_host_1_0 vimana_host_1_3
#define vimana_host_1_1 vimana_host_1_3

/* What init() is given. Strings live until init() returns: copy them.
 * The host fills every field but `reserved`. */
struct vimana_backend_params_1_0 {
    uint32_t struct_size;
    uint32_t reserved0;
    const char *network_config; /* path of the network configuration file */
    const char *options;        /* backend-specific "key=value,..." or NULL */
    void *reserved[8];
};
typedef struct vimana_backend_params_1_0 vimana_backend_params;

/*
 * Per-link counters (optional, VIMANA_CAP_LINK_STATS). The host reads them
 * once, when it completes --report (a "links" record per link that carried
 * a message; FILE.links.csv for a CSV report).
 *
 * The host zeroes the whole struct before each link_stats() call, so a
 * 1.0/1.1 backend, which fills only the fields up to busy_ticks, leaves the
 * 1.2 fields 0. The host reads them only from a backend with abi_minor >= 2
 * and reports them as unknown (null in JSON, empty in CSV) otherwise: a 0
 * there would claim that no message ever waited.
 */
struct vimana_link_stats_1_5 {
    uint32_t src_device, dst_device; /* device ids: NPUs first, then switches */
    uint64_t bytes;
    uint64_t messages;
    vimana_tick busy_ticks;          /* how long messages held the link */
    /* Since 1.2. Time messages spent in this link's queue before they
     * started crossing it: the longest single wait, and the sum of all
     * waits (divide by messages for the mean). */
    vimana_tick max_queue_ticks;
    vimana_tick queue_ticks;
    /* Since 1.5, the counters of a backend with packet-level physics. A
     * backend without ECN or PFC fills them 0 (nothing was marked, nothing
     * paused). The host reads them only from a backend with abi_minor >= 5
     * and reports them as unknown (null in JSON, empty in CSV) otherwise. */
    /* Packets marked Congestion Experienced (ECN) at this link's queue. */
    uint64_t ecn_marks;
    /* How long this link's transmitter was paused by its far end (PFC). */
    vimana_tick pause_ticks;
};
typedef struct vimana_link_stats_1_5 vimana_link_stats;
/* Its names in older headers (the ABI rule, above): each older layout is a
 * prefix of this one, and the host allocates the struct. */
#define vimana_link_stats_1_0 vimana_link_stats_1_5
#define vimana_link_stats_1_2 vimana_link_stats_1_5

/*
 * Since 1.5: one --backend-options key a backend reads, in the table its
 * descriptor points to (vimana_backend.options, ended by an entry whose key
 * is NULL). `vimana backend-check PLUGIN --options` prints the table, and
 * when backend-check has to shrink its messages for a slow backend it names
 * the keys with a `faster` value. The table is for people and listings:
 * init() still parses and checks the options itself.
 */
struct vimana_backend_option_1_5 {
    const char *key;      /* "packet": lower-case letters, digits and '_' */
    const char *values;   /* what it accepts, e.g. "64 to 65000 (bytes)" */
    const char *fallback; /* the default, as text: "4096" */
    const char *help;     /* one line: what it changes */
    const char *faster;   /* a value that makes runs faster at some cost in detail, or NULL */
};
typedef struct vimana_backend_option_1_5 vimana_backend_option;
#define VIMANA_BACKEND_MAX_OPTIONS 256

/* The largest bandwidth factor a link fault may give (network_api.h,
 * link_fault). */
#define VIMANA_FAULT_MAX_FACTOR 1e6

/* The longest device name the host accepts from device_name(), in bytes
 * (without the terminating NUL). */
#define VIMANA_DEVICE_NAME_MAX 63

/*
 * The descriptor. Every function receives the context init() created.
 * Functions return enum vimana_status unless stated otherwise; on an error
 * they describe it through host->log(VIMANA_LOG_ERROR, ...) first. A backend
 * never calls exit() or abort() on bad input.
 *
 * What the host (vimana) reads, honestly: the version fields and `name`
 * (in messages and --report); `capabilities` (above); every function but
 * sim_recv, which this host never calls (reserved: the host matches
 * messages itself); dim_bandwidth for --report and its check (finite,
 * > 0) and for the nccl model's tuner (a system JSON's "nccl.tuner" 1
 * weighs algorithms by it; without it such a run stops at setup): the
 * backend still times every message; num_links/link_stats/device_name only for --report; stop only
 * when abi_minor >= 1 and device_name only when abi_minor >= 2, each when
 * struct_size covers it. `description` is for listings and tools; a run
 * does not read it. Named after 1.5, the last version that gave it a field.
 */
struct vimana_backend_1_5 {
    uint16_t abi_major;
    uint16_t abi_minor;
    uint32_t struct_size;
    const char *name;
    const char *description;
    uint64_t capabilities;

    /* Reads the configuration and builds the network. On failure, returns
     * non-zero with a one-line reason in err (naming the file, key or line). */
    int (*init)(const vimana_backend_params *params, const vimana_host *host, void **ctx,
                char *err, size_t err_len);
    /* Releases everything; ctx is invalid afterwards. */
    void (*fini)(void *ctx);

    /* Topology: the system layer builds its logical rings from these.
     * NPUs are numbered 0..npus-1 with dimension 0 varying fastest. */
    uint32_t (*num_dims)(void *ctx);
    uint32_t (*dim_size)(void *ctx, uint32_t dim);
    /* GB/s (2^30 bytes). Optional (NULL: --report says null; the nccl
     * model's tuner refuses to run). The host
     * checks each dimension's value once, after init(): a value that is not
     * finite and greater than 0 stops the run naming the backend. */
    double (*dim_bandwidth)(void *ctx, uint32_t dim);

    /* Injects `bytes` from src to dst at the current tick. When the last
     * byte has arrived at dst the backend calls host->delivered(token).
     * `tag` is informational (matching is the host's job). */
    int (*sim_send)(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag,
                    uint64_t token);
    /* Tells the backend that dst posted a receive. Informational; may be
     * NULL for backends that do not model the receiver. Reserved: this
     * host never calls it (receives are matched on the host side). */
    int (*sim_recv)(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag);

    /* Runs fn(arg, data) at now() + delta. Calls scheduled for one tick run
     * in the order they were scheduled, including calls scheduled for the
     * current tick while it is being processed. */
    int (*schedule)(void *ctx, vimana_tick delta, vimana_event_fn fn, void *arg, uint64_t data);
    /* The current tick; never less than an earlier answer (the host stops
     * the run, naming the backend, if time goes backwards). */
    vimana_tick (*now)(void *ctx);
    /* Processes events until none is left. */
    int (*run)(void *ctx);

    /* Optional (NULL when absent): number of links, and counters of link i.
     * Both or neither, and exactly when VIMANA_CAP_LINK_STATS is set. */
    uint32_t (*num_links)(void *ctx);
    int (*link_stats)(void *ctx, uint32_t link, vimana_link_stats *out);

    /*
     * Since 1.1, optional (NULL = absent). The host asks run() to return
     * once the event in progress has finished; events still queued are
     * dropped. The host calls it from inside one of its callbacks after the
     * run has failed, so that the run ends at once instead of draining the
     * queue. A 1.0 backend leaves this slot zero (and the host ignores it
     * there: with abi_minor 0 the slot is a reserved one). Without stop()
     * the host drops the rest of the run's work itself as the queue drains.
     */
    void (*stop)(void *ctx);

    /*
     * Since 1.2, optional (NULL = absent). A short name for a device id of
     * the link statistics, e.g. "npu3" or "spine1" as the topology file
     * calls it, for --report's "src"/"dst". Return either `buf` (filled with
     * at most len - 1 bytes and a NUL; len is VIMANA_DEVICE_NAME_MAX + 1) or
     * a string that lives until fini(). The name must be 1 to
     * VIMANA_DEVICE_NAME_MAX printable ASCII bytes (0x20-0x7E): the host
     * stops the run naming the backend for NULL, an empty name, a longer one
     * or any other byte. Without it (and for a pre-1.2 backend, whose slot
     * is a reserved one) the host names device K "npuK" when K is below the
     * NPU count and "switchJ", J = K - NPU count, otherwise.
     */
    const char *(*device_name)(void *ctx, uint32_t device, char *buf, size_t len);

    /*
     * Since 1.4, optional (NULL = absent: the host refuses --network-faults
     * naming the backend; so it does without VIMANA_CAP_LINK_STATS, whose
     * link numbering faults use). From tick `at` on, directed link `link`
     * (0 .. num_links()-1) carries bandwidth_factor times its bandwidth --
     * a message that starts crossing it from then on -- or, with
     * bandwidth_factor 0, is down: no message is routed over it from then
     * on, messages waiting for it are routed again over the remaining
     * shortest paths from where they are, and the one crossing it at `at`
     * still arrives. A later fault on the same link replaces the earlier one
     * from its own tick. The host calls it after init() and before run(),
     * once per fault, in the order of `at` (ties in file order), for both
     * directions of a link the user named. Returns VIMANA_OK, or an error
     * with one line in err: a link out of range, a factor that is not finite
     * and in (0, 1e6] or 0, a fault the backend cannot model on this network
     * (saying why), or down links that cut NPUs off from each other (naming
     * them: the partition is refused before the run, not found in it).
     */
    int (*link_fault)(void *ctx, uint32_t link, vimana_tick at, double bandwidth_factor, char *err,
                      size_t err_len);

    /* Since 1.5, optional (NULL = none listed): the backend's options
     * (struct vimana_backend_option_1_5 above). A pre-1.5 backend's slot
     * is a reserved one, which the host does not read. */
    const struct vimana_backend_option_1_5 *options;

    void *reserved[12];
};
typedef struct vimana_backend_1_5 vimana_backend;
/* The descriptor's names in older headers (the ABI rule, above). */
#define vimana_backend_1_0 vimana_backend_1_5
#define vimana_backend_1_1 vimana_backend_1_5
#define vimana_backend_1_2 vimana_backend_1_5

/* Fills the version fields of a descriptor in a designated initialiser. */
#define VIMANA_BACKEND_HEADER_INIT VIMANA_BACKEND_HEADER_INIT_MINOR(VIMANA_NETWORK_ABI_MINOR)
/* The same for a backend that declares an older minor version of this
 * major: the host then reads only what that minor had (the ABI rule,
 * above). The size stays the whole descriptor's: minors never changed it. */
#define VIMANA_BACKEND_HEADER_INIT_MINOR(minor)                  \
    .abi_major = VIMANA_NETWORK_ABI_MAJOR, .abi_minor = (minor), \
    .struct_size = (uint32_t)sizeof(struct vimana_backend_1_5)

/* Signature of the entry symbol. */
typedef const vimana_backend *(*vimana_backend_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* VIMANA_NETWORK_API_H */
