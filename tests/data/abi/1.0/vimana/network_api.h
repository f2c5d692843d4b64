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
 * Versioning (the GStreamer rule): the host accepts a backend whose
 * abi_major equals VIMANA_NETWORK_ABI_MAJOR and whose abi_minor is not newer
 * than the host's. Minor versions only append fields before `reserved`, so a
 * field's offset never changes; `struct_size` says how much of the
 * descriptor the backend actually filled in.
 *
 * Writing a backend:
 *
 *   #include <vimana/network_api.h>
 *   static const struct vimana_backend my_backend = {
 *       VIMANA_BACKEND_HEADER_INIT,
 *       .name = "mynet", .description = "...",
 *       .init = my_init, .fini = my_fini, ...
 *   };
 *   VIMANA_BACKEND_EXPORT const struct vimana_backend *vimana_backend_entry(void)
 *   { return &my_backend; }
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
#define VIMANA_NETWORK_ABI_MINOR 0

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

/* Capability bits a backend advertises. */
#define VIMANA_CAP_MULTI_DIM      (1u << 0) /* accepts networks of more than one dimension */
#define VIMANA_CAP_CONGESTION     (1u << 1) /* models link contention */
#define VIMANA_CAP_LINK_STATS     (1u << 2) /* implements link_stats() */

/*
 * Services the host offers the backend. Passed to init(); valid until
 * fini(). `host` is opaque and is passed back on every call.
 */
struct vimana_host_1_0 {
    uint32_t struct_size;  /* sizeof(struct vimana_host_1_0) as the host knows it */
    uint32_t reserved0;
    void *host;
    /* One line of text, without trailing newline. */
    void (*log)(void *host, enum vimana_log_level level, const char *message);
    /*
     * The message sent with sim_send(..., token) has fully arrived at its
     * destination. Call it from inside the backend's event loop, at the tick
     * of arrival; the host matches it with its receive and runs the
     * handlers synchronously, which may call back into the backend
     * (sim_send, schedule, ...).
     */
    void (*delivered)(void *host, uint64_t token);
    void *reserved[8];
};
typedef struct vimana_host_1_0 vimana_host;

/* What init() is given. Strings live until init() returns: copy them. */
struct vimana_backend_params_1_0 {
    uint32_t struct_size;
    uint32_t reserved0;
    const char *network_config; /* path of the network configuration file */
    const char *options;        /* backend-specific "key=value,..." or NULL */
    void *reserved[8];
};
typedef struct vimana_backend_params_1_0 vimana_backend_params;

/* Per-link counters (optional, VIMANA_CAP_LINK_STATS). */
struct vimana_link_stats_1_0 {
    uint32_t src_device, dst_device; /* device ids: NPUs first, then switches */
    uint64_t bytes;
    uint64_t messages;
    vimana_tick busy_ticks;
};
typedef struct vimana_link_stats_1_0 vimana_link_stats;

/*
 * The descriptor. Every function receives the context init() created.
 * Functions return enum vimana_status unless stated otherwise; on an error
 * they describe it through host->log(VIMANA_LOG_ERROR, ...) first. A backend
 * never calls exit() or abort() on bad input.
 */
struct vimana_backend_1_0 {
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
    double (*dim_bandwidth)(void *ctx, uint32_t dim); /* GB/s (2^30 bytes) */

    /* Injects `bytes` from src to dst at the current tick. When the last
     * byte has arrived at dst the backend calls host->delivered(token).
     * `tag` is informational (matching is the host's job). */
    int (*sim_send)(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag,
                    uint64_t token);
    /* Tells the backend that dst posted a receive. Informational; may be
     * NULL for backends that do not model the receiver. */
    int (*sim_recv)(void *ctx, uint32_t src, uint32_t dst, uint64_t bytes, uint32_t tag);

    /* Runs fn(arg, data) at now() + delta. Calls scheduled for one tick run
     * in the order they were scheduled, including calls scheduled for the
     * current tick while it is being processed. */
    int (*schedule)(void *ctx, vimana_tick delta, vimana_event_fn fn, void *arg, uint64_t data);
    vimana_tick (*now)(void *ctx);
    /* Processes events until none is left. */
    int (*run)(void *ctx);

    /* Optional (NULL when absent): number of links, and counters of link i. */
    uint32_t (*num_links)(void *ctx);
    int (*link_stats)(void *ctx, uint32_t link, vimana_link_stats *out);

    void *reserved[16];
};
typedef struct vimana_backend_1_0 vimana_backend;

/* Fills the version fields of a descriptor in a designated initialiser. */
#define VIMANA_BACKEND_HEADER_INIT                                               \
    .abi_major = VIMANA_NETWORK_ABI_MAJOR, .abi_minor = VIMANA_NETWORK_ABI_MINOR, \
    .struct_size = (uint32_t)sizeof(struct vimana_backend_1_0)

/* Signature of the entry symbol. */
typedef const vimana_backend *(*vimana_backend_entry_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* VIMANA_NETWORK_API_H */
