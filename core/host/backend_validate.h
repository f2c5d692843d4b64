/*
 * backend_validate.h - what every host of a network backend checks before
 * it trusts one: the simulator (network_host), --jobs (jobs_run) and
 * `vimana backend-check` (check_scenarios, mock_host) call these, so that a
 * module backend-check refuses is refused by vimana the same way, never
 * trusted into a crash, an over-read or a wrapped count.
 *
 * Each returns a reason without a file prefix; the caller adds the module
 * or the network file its messages name.
 */
#ifndef VIMANA_HOST_BACKEND_VALIDATE_H
#define VIMANA_HOST_BACKEND_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "host/backend_loader.h"
#include "vimana/network_api.h"

/* The most dimensions and NPUs a host accepts (system/context.h's
 * SIM_MAX_DIMS; 2^31 - 1 NPUs, so that NPU ids fit an int). */
#define BACKEND_MAX_DIMS 16u
#define BACKEND_MAX_NPUS (UINT32_MAX / 2)
/* Links any network may have however small: the floor of the bound below. */
#define BACKEND_MIN_LINK_BOUND (1u << 24)

/* "name is NULL" or "name is empty" for a descriptor whose name the host
 * cannot print, else NULL. */
const char *backend_name_problem(const vimana_backend *d);

/* The simulator's and --jobs' way in: loads the module `name` as
 * backend_load does and refuses a descriptor whose name the host cannot
 * print. 0, or -1 with err set (backend_load's reason, or "PATH: backend
 * descriptor: REASON (the host names the backend by it)"); a refused
 * module stays loaded, for the caller's backend_unload. */
int backend_open(const char *name, loaded_backend *lb, char *err, size_t err_len);

/* Calls init() with a reason buffer of the host's own and returns its
 * status. After a failure, reason holds the backend's reason escaped to
 * one line ("" when it gave none) or, when the backend left its text
 * without a NUL inside the buffer, the host's own: "its error message has
 * no terminating NUL within the 1024 bytes it was given", with *contract
 * set (the backend broke the ABI; the caller names the module). */
int backend_call_init(const vimana_backend *be, const vimana_backend_params *params, const vimana_host *host,
                      void **ctx, char *reason, size_t reason_len, bool *contract);

/* The topology of an initialised backend: num_dims() from 1 to
 * BACKEND_MAX_DIMS, every dim_size() at least 1, and their product at most
 * BACKEND_MAX_NPUS, checked after every factor so that no overflow can
 * wrap it back into range. Fills dim_size[0, *n_dims) and *n_npus; 0, or
 * -1 with the reason: "the network has 0 dimensions (vimana supports 1 to
 * 16)", "dimension 1 has 0 NPUs", "the dimensions multiply to more than
 * 2147483647 NPUs". */
int backend_read_dims(const vimana_backend *be, void *ctx, uint32_t *n_dims, uint32_t dim_size[BACKEND_MAX_DIMS],
                      uint32_t *n_npus, char *why, size_t why_len);

/* The most links a network of these dimensions can have: every NPU
 * connected to every other of each dimension in both directions, with as
 * many switch links again, and never below BACKEND_MIN_LINK_BOUND. A
 * bigger num_links() is a broken backend, not billions of link_stats()
 * calls. */
uint64_t backend_link_bound(uint32_t n_dims, const uint32_t *dim_size, uint32_t n_npus);

/* num_links() checked against backend_link_bound: 0 with *n set, or -1
 * with the reason "num_links() returned N for a network of M NPUs (at
 * most B links are possible)". */
int backend_num_links(const vimana_backend *be, void *ctx, uint32_t n_dims, const uint32_t *dim_size,
                      uint32_t n_npus, uint32_t *n, char *why, size_t why_len);

#endif
