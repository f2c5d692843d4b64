/*
 * mock_host.h - the host side of the network API, for `vimana backend-check`.
 *
 * Stands where the simulator stands (no workload, no system layer): it
 * gives a backend the host callbacks, sends messages and schedules events
 * through the backend's functions, and checks every call the backend makes
 * back against the contract of vimana/network_api.h, reporting violations
 * to a check_report. Everything it knows lives in the struct; nothing is
 * global, so two instances can check two contexts of one backend.
 */
#ifndef VIMANA_CMD_BACKEND_CHECK_MOCK_HOST_H
#define VIMANA_CMD_BACKEND_CHECK_MOCK_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host/backend_validate.h"
#include "cmd/backend_check/check_report.h"
#include "vimana/network_api.h"

/* Tokens are MOCK_TOKEN_BASE + message index: far from 0 and from small
 * numbers, so a backend that makes one up or changes one is caught. */
#define MOCK_TOKEN_BASE UINT64_C(0x564d000000000000)
/* Records one instance can hold (the checks use a few hundred). */
#define MOCK_MAX_RECORDS 2048
/* Events plus deliveries in one run() before it counts as a storm. */
#define MOCK_ACTIVITY_LIMIT 1000000ull

/* Whether a descriptor's struct_size covers `field` (a field past it was
 * not filled in by the backend and must not be read). */
#define BACKEND_DESC_COVERS(d, field) ((d)->struct_size >= offsetof(vimana_backend, field) + sizeof((d)->field))

typedef struct mock_host mock_host;
/* What the host does when one of its events runs (or, for on_delivered,
 * when a message arrives): `param` is the value given when it was set up. */
typedef void (*mock_action)(mock_host *mh, uint64_t param);

typedef struct mock_message {
    uint32_t src, dst;
    uint64_t bytes;
    vimana_tick sent_at, delivered_at;
    uint32_t deliveries;
    int status;           /* what sim_send returned */
    bool expect_refusal;  /* an invalid message: sim_send must refuse it */
    uint64_t param;       /* handed to on_delivered */
} mock_message;

typedef struct mock_event {
    vimana_tick scheduled_at, due;
    mock_action action;
    uint64_t param;
    bool accepted;        /* schedule() returned VIMANA_OK */
    bool ran;
    bool may_drop;        /* stop() may drop it */
} mock_event;

struct mock_host {
    const vimana_backend *be;
    void *ctx;
    bool open;                      /* init succeeded, fini not yet called */
    check_report *rep;
    vimana_host host;               /* the callbacks given to init() */
    void (*stop)(void *ctx);        /* the backend's stop(), NULL when it has none */
    void *user;                     /* the scenario's own state */
    uint32_t n_dims;                /* the topology check's reading, for num_links()'s bound */
    uint32_t dim_size[BACKEND_MAX_DIMS];
    mock_action on_delivered;       /* called with the message index */
    /* Called when the backend storms and cannot be stopped: must not
     * return (run() would never come back). */
    void (*abandon)(mock_host *mh);

    vimana_tick latest_now;         /* highest now() seen */
    bool in_send, in_run, in_schedule;
    bool halted;                    /* the host called stop() (or gave up) */
    uint64_t after_halt;            /* events and deliveries seen since */
    uint64_t activity;              /* events and deliveries in this instance */
    bool storm_reported;

    mock_event events[MOCK_MAX_RECORDS];
    size_t n_events;
    bool any_event_ran;
    size_t last_event;              /* the event that ran last */

    mock_message msgs[MOCK_MAX_RECORDS];
    size_t n_msgs;

    char last_error[512];           /* the backend's last error log line, escaped */
};

/* Calls init() with the configuration. Returns its status (0 = ready);
 * on failure err holds the backend's reason (or its last error log line). */
int mock_host_open(mock_host *mh, const vimana_backend *be, check_report *rep, const char *network_config,
                   const char *options, char *err, size_t err_len);
/* Calls fini() if init succeeded. */
void mock_host_close(mock_host *mh);

/* now(), checked never to decrease. */
vimana_tick mock_now(mock_host *mh);
/* Schedules `action` after `delay` ticks; returns schedule()'s status. */
int mock_schedule(mock_host *mh, vimana_tick delay, mock_action action, uint64_t param, bool may_drop);
/* Sends a message through sim_send(); returns its status. The message's
 * index is *index (may be NULL). */
int mock_send(mock_host *mh, uint32_t src, uint32_t dst, uint64_t bytes, bool expect_refusal, uint64_t param,
              size_t *index);
/* run(), returning its status. */
int mock_run(mock_host *mh);
/* Asks the backend to stop (only when it has stop()). */
void mock_halt(mock_host *mh);

/* After run(): events that should have run and did not (schedule), and
 * messages that were accepted and never delivered (stall). */
void mock_check_events_ran(mock_host *mh);
void mock_check_all_delivered(mock_host *mh);

/* "token 0x... (NPU s -> d, B bytes, sent at tick T)" for messages. */
const char *mock_describe(const mock_host *mh, size_t msg, char *buf, size_t len);

#endif
