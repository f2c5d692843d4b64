/*
 * backend_host.h - a network backend module loaded as vimana loads it,
 * and a host that records its deliveries, for the unit tests of the
 * shipped backends through their descriptors.
 */
#ifndef VIMANA_TESTS_BACKEND_HOST_H
#define VIMANA_TESTS_BACKEND_HOST_H

#include <stdint.h>

#include "vimana/network_api.h"

typedef struct host_rec {
    const vimana_backend *be;
    void *ctx;
    uint64_t tokens[8];
    vimana_tick at[8];
    int n;
    int stop_after;   /* call stop() after this many deliveries (0: never) */
    char failed[512]; /* the message of host_failed */
} host_rec;

/* The descriptor of backends/DIR/.libs/NAME.so under $VIMANA_BUILDDIR (else
 * the current folder). Fails the test when it cannot be loaded. */
const vimana_backend *backend_load(const char *dir, const char *name);

/* The host's delivered callback (host is a host_rec): records the token
 * and the backend's tick, at most 8, and stops the backend after
 * stop_after deliveries. */
void host_delivered(void *host, uint64_t token);

/* The host's failed callback: keeps the message and stops the backend. */
void host_failed(void *host, const char *message);

/* Writes text into path, a mkstemp template (a name without an ending:
 * the toolkit tells a topology .txt from a YAML by its first word). */
void write_temp(char *path, const char *text);

#endif
