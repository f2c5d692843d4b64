/* --network-faults handed to the backend (see the header). */
#include "host/fault_links.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "host/backend_loader.h"
#include "host/network_faults.h"
#include "host/network_host.h"
#include "util/msg_escape.h"
#include "util/sorted.h"

/* The backend's links as the faults name them: each link's two device ids,
 * and the devices' names once a fault names one. */
typedef struct link_table {
    sim *s;
    uint32_t n_links, n_devices;
    uint32_t *ends;                       /* [2 * n_links]: src, dst */
    char (*names)[DEVICE_NAME_SIZE];      /* [n_devices], or NULL until needed */
    char path[512];                       /* the faults file, escaped */
} link_table;

static int read_ends(link_table *t)
{
    sim *s = t->s;
    if (network_host_num_links(s, &t->n_links) != 0)
        return -1;
    t->ends = malloc(2 * (size_t)(t->n_links ? t->n_links : 1) * sizeof *t->ends);
    if (!t->ends) {
        sim_fail(s, "out of memory");
        return -1;
    }
    for (uint32_t i = 0; i < t->n_links; i++) {
        vimana_link_stats st;
        memset(&st, 0, sizeof st);
        if (s->be->link_stats(s->be_ctx, i, &st) != VIMANA_OK) {
            sim_fail(s, "network backend %s: link_stats() failed for link %u of %u", s->be->name, i, t->n_links);
            return -1;
        }
        t->ends[2 * i] = st.src_device;
        t->ends[2 * i + 1] = st.dst_device;
        uint32_t top = st.src_device > st.dst_device ? st.src_device : st.dst_device;
        if (top >= t->n_devices)
            t->n_devices = top + 1;
    }
    return 0;
}

static int read_names(link_table *t)
{
    sim *s = t->s;
    t->names = calloc(t->n_devices ? t->n_devices : 1, sizeof *t->names);
    if (!t->names) {
        sim_fail(s, "out of memory");
        return -1;
    }
    for (uint32_t d = 0; d < t->n_devices; d++) {
        char why[160];
        if (device_name_get(s->be, s->be_ctx, s->n_npus, d, t->names[d], why, sizeof why) != 0) {
            sim_fail(s, "network backend %s: %s", s->be->name, why);
            return -1;
        }
    }
    return 0;
}

static bool all_digits(const char *text)
{
    for (const char *c = text; *c; c++)
        if (*c < '0' || *c > '9')
            return false;
    return text[0] != '\0';
}

/* The device an end names: an id of the link records, or a name. */
static int resolve_end(link_table *t, const net_fault *f, const char *end, uint32_t *out)
{
    char shown[80];
    if (all_digits(end)) {
        unsigned long long id = strlen(end) > 10 ? ~0ull : strtoull(end, NULL, 10);
        if (id >= t->n_devices) {
            sim_fail(t->s, "%s:%zu: link: no device %s (the network's devices are 0 to %u, as --report's link "
                           "records number them)", t->path, f->line, msg_escape(end, shown, sizeof shown),
                     t->n_devices ? t->n_devices - 1 : 0);
            return -1;
        }
        *out = (uint32_t)id;
        return 0;
    }
    if (!t->names && read_names(t) != 0)
        return -1;
    for (uint32_t d = 0; d < t->n_devices; d++) {
        if (strcmp(t->names[d], end) == 0) {
            *out = d;
            return 0;
        }
    }
    sim_fail(t->s, "%s:%zu: link: no device named '%s' (names as --report's link records give them, e.g. '%s')",
             t->path, f->line, msg_escape(end, shown, sizeof shown), t->names[0]);
    return -1;
}

static uint32_t find_link(const link_table *t, uint32_t a, uint32_t b)
{
    for (uint32_t i = 0; i < t->n_links; i++)
        if (t->ends[2 * i] == a && t->ends[2 * i + 1] == b)
            return i;
    return FAULT_NO_LINK;
}

static int resolve(link_table *t, const net_fault *f, fault_link *out)
{
    memset(out, 0, sizeof *out);
    if (resolve_end(t, f, f->end[0], &out->device[0]) != 0 || resolve_end(t, f, f->end[1], &out->device[1]) != 0)
        return -1;
    if (!t->names && read_names(t) != 0)
        return -1;
    for (int k = 0; k < 2; k++)
        memcpy(out->name[k], t->names[out->device[k]], DEVICE_NAME_SIZE);
    out->link[0] = find_link(t, out->device[0], out->device[1]);
    out->link[1] = find_link(t, out->device[1], out->device[0]);
    if (out->link[0] == FAULT_NO_LINK && out->link[1] == FAULT_NO_LINK) {
        sim_fail(t->s, "%s:%zu: link: no link between %s and %s in %s", t->path, f->line, out->name[0], out->name[1],
                 t->s->opt->network);
        return -1;
    }
    out->at = f->at;
    out->factor = f->factor;
    return 0;
}

static int hand_over(link_table *t, const net_faults *nf, vimana_link_fault_fn fn)
{
    sim *s = t->s;
    key_order *order = malloc((nf->n ? nf->n : 1) * sizeof *order);
    s->faults = calloc(nf->n ? nf->n : 1, sizeof *s->faults);
    if (!order || !s->faults) {
        free(order);
        sim_fail(s, "out of memory");
        return -1;
    }
    /* The order faults reach the backend: by tick, ties in file order. */
    for (size_t i = 0; i < nf->n; i++)
        order[i] = (key_order){nf->items[i].at, i};
    key_order_sort(order, nf->n);
    int rc = 0;
    for (size_t k = 0; k < nf->n && rc == 0; k++) {
        const net_fault *f = &nf->items[order[k].index];
        fault_link *fl = &s->faults[k];
        rc = resolve(t, f, fl);
        for (int dir = 0; dir < 2 && rc == 0; dir++) {
            char why[512] = "";
            if (fl->link[dir] == FAULT_NO_LINK)
                continue;
            if (fn(s->be_ctx, fl->link[dir], fl->at, fl->factor, why, sizeof why) != VIMANA_OK) {
                char text[520];
                sim_fail(s, "%s:%zu: link [%s, %s]: %s", t->path, f->line, fl->name[0], fl->name[1],
                         msg_escape(why[0] ? why : "refused by the network backend", text, sizeof text));
                rc = -1;
            }
        }
        if (rc == 0)
            s->n_faults = k + 1;
    }
    free(order);
    return rc;
}

int fault_links_apply(sim *s)
{
    if (!s->opt->network_faults)
        return 0;
    vimana_link_fault_fn fn = backend_link_fault_fn(s->be);
    if (!fn || !(s->be->capabilities & VIMANA_CAP_LINK_STATS)) {
        sim_fail(s, "--network-faults: network backend %s cannot model link faults (congestion_aware, ns3_shim and "
                    "garnet can)", s->be->name);
        return -1;
    }
    link_table t = {.s = s};
    msg_escape(s->opt->network_faults, t.path, sizeof t.path);
    net_faults nf;
    char err[1024];
    int rc = net_faults_load(s->opt->network_faults, &nf, err, sizeof err);
    if (rc != 0)
        sim_fail(s, "%s", err);
    if (rc == 0)
        rc = read_ends(&t);
    if (rc == 0)
        rc = hand_over(&t, &nf, fn);
    net_faults_free(&nf);
    free(t.ends);
    free(t.names);
    return rc;
}

void fault_links_free(sim *s)
{
    free(s->faults);
    s->faults = NULL;
    s->n_faults = 0;
}
