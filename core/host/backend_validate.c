/* The checks every backend host applies (backend_validate.h). */
#include "host/backend_validate.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/msg_escape.h"

/* The reason buffer init() gets: what the hosts gave it before. */
#define INIT_REASON_BYTES 1024

const char *backend_name_problem(const vimana_backend *d)
{
    return !d->name ? "name is NULL" : !d->name[0] ? "name is empty" : NULL;
}

int backend_open(const char *name, loaded_backend *lb, char *err, size_t err_len)
{
    if (backend_load(name, lb, err, err_len) != 0)
        return -1;
    const char *problem = backend_name_problem(lb->desc);
    if (problem) {
        snprintf(err, err_len, "%s: backend descriptor: %s (the host names the backend by it)", lb->path, problem);
        return -1;
    }
    return 0;
}

int backend_call_init(const vimana_backend *be, const vimana_backend_params *params, const vimana_host *host,
                      void **ctx, char *reason, size_t reason_len, bool *contract)
{
    char text[INIT_REASON_BYTES];
    memset(text, 0, sizeof text);
    int rc = be->init(params, host, ctx, text, sizeof text);
    reason[0] = '\0';
    *contract = false;
    if (rc == VIMANA_OK)
        return rc;
    /* The contract says the text is NUL-terminated within the buffer; one
     * that is not would be read past its end. */
    if (!memchr(text, '\0', sizeof text)) {
        snprintf(reason, reason_len, "its error message has no terminating NUL within the %d bytes it was given",
                 INIT_REASON_BYTES);
        *contract = true;
        return rc;
    }
    msg_one_line(text, reason, reason_len);
    return rc;
}

int backend_read_dims(const vimana_backend *be, void *ctx, uint32_t *n_dims, uint32_t dim_size[BACKEND_MAX_DIMS],
                      uint32_t *n_npus, char *why, size_t why_len)
{
    uint32_t nd = be->num_dims(ctx);
    if (nd == 0 || nd > BACKEND_MAX_DIMS) {
        snprintf(why, why_len, "the network has %" PRIu32 " dimensions (vimana supports 1 to %u)", nd,
                 BACKEND_MAX_DIMS);
        return -1;
    }
    uint64_t product = 1;
    for (uint32_t d = 0; d < nd; d++) {
        dim_size[d] = be->dim_size(ctx, d);
        if (dim_size[d] == 0) {
            snprintf(why, why_len, "dimension %" PRIu32 " has 0 NPUs", d);
            return -1;
        }
        /* Each factor is below 2^32 and the product so far at most 2^31:
         * the multiplication cannot wrap. */
        product *= dim_size[d];
        if (product > BACKEND_MAX_NPUS) {
            snprintf(why, why_len, "the dimensions multiply to more than %u NPUs", BACKEND_MAX_NPUS);
            return -1;
        }
    }
    *n_dims = nd;
    *n_npus = (uint32_t)product;
    return 0;
}

uint64_t backend_link_bound(uint32_t n_dims, const uint32_t *dim_size, uint32_t n_npus)
{
    uint64_t per_npu = 0;
    for (uint32_t d = 0; d < n_dims; d++)
        per_npu += dim_size[d];
    /* Saturating: past 2^32 no uint32_t count can exceed the bound. */
    uint64_t bound = n_npus && per_npu > UINT64_MAX / 4 / n_npus ? UINT64_MAX : 4 * (uint64_t)n_npus * per_npu;
    return bound < BACKEND_MIN_LINK_BOUND ? BACKEND_MIN_LINK_BOUND : bound;
}

int backend_num_links(const vimana_backend *be, void *ctx, uint32_t n_dims, const uint32_t *dim_size,
                      uint32_t n_npus, uint32_t *n, char *why, size_t why_len)
{
    uint32_t links = be->num_links(ctx);
    uint64_t bound = backend_link_bound(n_dims, dim_size, n_npus);
    if (links > bound) {
        snprintf(why, why_len, "num_links() returned %" PRIu32 " for a network of %" PRIu32 " NPUs (at most %" PRIu64
                 " links are possible)", links, n_npus, bound);
        return -1;
    }
    *n = links;
    return 0;
}
