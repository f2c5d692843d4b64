/*
 * Backend loading. libltdl's state is process-wide; the loader is the only
 * place that touches it. A refused module never aborts the host: every
 * failure is returned as text naming the file and, for ABI mismatches, both
 * versions.
 */
#include "sim/backend_loader.h"

#include <ltdl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#ifndef VIMANA_BUILD_BACKEND_DIRS
#define VIMANA_BUILD_BACKEND_DIRS ""
#endif
#ifndef VIMANA_INSTALL_BACKEND_DIR
#define VIMANA_INSTALL_BACKEND_DIR ""
#endif

/* Functions a backend must provide, and the descriptor size that covers
 * the last field this host reads. */
#define REQUIRED_SIZE (offsetof(struct vimana_backend_1_0, run) + sizeof(void *))

int backend_check_version(const char *path, const vimana_backend *d, char *err, size_t err_len)
{
    if (d->abi_major != VIMANA_NETWORK_ABI_MAJOR || d->abi_minor > VIMANA_NETWORK_ABI_MINOR) {
        snprintf(err, err_len, "%s: backend ABI %u.%u is not compatible with this vimana (ABI %d.%d): %s", path,
                 d->abi_major, d->abi_minor, VIMANA_NETWORK_ABI_MAJOR, VIMANA_NETWORK_ABI_MINOR,
                 d->abi_major != VIMANA_NETWORK_ABI_MAJOR ? "major versions differ; rebuild the backend against "
                                                             "this vimana's network_api.h"
                                                           : "the backend is newer; upgrade vimana");
        return -1;
    }
    if (d->struct_size < REQUIRED_SIZE) {
        snprintf(err, err_len, "%s: backend descriptor is %u bytes, too small for ABI %u.%u (needs at least %zu)",
                 path, d->struct_size, d->abi_major, d->abi_minor, (size_t)REQUIRED_SIZE);
        return -1;
    }
    const char *missing = !d->init ? "init" : !d->fini ? "fini" : !d->num_dims ? "num_dims"
                          : !d->dim_size ? "dim_size" : !d->sim_send ? "sim_send" : !d->schedule ? "schedule"
                          : !d->now ? "now" : !d->run ? "run" : NULL;
    if (missing) {
        snprintf(err, err_len, "%s: backend '%s' does not implement %s()", path, d->name ? d->name : "?", missing);
        return -1;
    }
    return 0;
}

static bool has_slash(const char *s)
{
    return strchr(s, '/') != NULL;
}

/* Tries one candidate; on success fills `out`. */
static int try_open(const char *candidate, loaded_backend *out, char *why, size_t why_len)
{
    lt_dlhandle h = lt_dlopenext(candidate);
    if (!h) {
        const char *e = lt_dlerror();
        snprintf(why, why_len, "%s", e ? e : "cannot open");
        return -1;
    }
    out->handle = h;
    snprintf(out->path, sizeof out->path, "%s", candidate);
    const lt_dlinfo *info = lt_dlgetinfo(h);
    if (info && info->filename)
        snprintf(out->path, sizeof out->path, "%s", info->filename);
    return 0;
}

/* Splits a ':'-separated list and tries dir/name in each directory. */
static int search_dirs(const char *dirs, const char *name, loaded_backend *out, char *tried, size_t tried_len)
{
    if (!dirs || !*dirs)
        return -1;
    char *copy = strdup(dirs);
    if (!copy)
        return -1;
    int rc = -1;
    for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir && rc != 0; dir = strtok_r(NULL, ":", &save)) {
        char candidate[1024], why[256];
        snprintf(candidate, sizeof candidate, "%s/%s", dir, name);
        rc = try_open(candidate, out, why, sizeof why);
        size_t used = strlen(tried);
        if (rc != 0 && used + 8 < tried_len)
            snprintf(tried + used, tried_len - used, "%s%s", used ? ", " : "", dir);
    }
    free(copy);
    return rc;
}

int backend_load(const char *name, loaded_backend *out, char *err, size_t err_len)
{
    memset(out, 0, sizeof *out);
    if (lt_dlinit() != 0) {
        snprintf(err, err_len, "cannot initialise libltdl: %s", lt_dlerror());
        return -1;
    }
    char base[512];
    snprintf(base, sizeof base, "%s", name);
    size_t len = strlen(base);
    /* lt_dlopenext adds the platform suffix itself. */
    if (len > 3 && strcmp(base + len - 3, ".so") == 0)
        base[len - 3] = '\0';
    char tried[1024] = "";
    int rc;
    if (has_slash(name)) {
        char why[512];
        rc = try_open(base, out, why, sizeof why);
        if (rc != 0)
            snprintf(err, err_len, "%s: cannot load network backend: %s (check the path, and run `ldd` on the "
                     "module to find missing libraries)", name, why);
    } else {
        rc = search_dirs(getenv("VIMANA_BACKEND_PATH"), base, out, tried, sizeof tried);
        if (rc != 0)
            rc = search_dirs(VIMANA_BUILD_BACKEND_DIRS, base, out, tried, sizeof tried);
        if (rc != 0)
            rc = search_dirs(VIMANA_INSTALL_BACKEND_DIR, base, out, tried, sizeof tried);
        if (rc != 0)
            snprintf(err, err_len, "network backend '%s' not found (searched $VIMANA_BACKEND_PATH, the build tree "
                     "and %s; looked in: %s); give a path with --network-backend=./%s.so",
                     name, VIMANA_INSTALL_BACKEND_DIR, tried[0] ? tried : "nothing", base);
    }
    if (rc != 0) {
        lt_dlexit();
        return -1;
    }
    void *sym = lt_dlsym((lt_dlhandle)out->handle, VIMANA_BACKEND_ENTRY_SYMBOL);
    if (!sym) {
        snprintf(err, err_len, "%s: not a vimana network backend (no symbol %s)", out->path,
                 VIMANA_BACKEND_ENTRY_SYMBOL);
        backend_unload(out);
        return -1;
    }
    vimana_backend_entry_fn entry;
    memcpy(&entry, &sym, sizeof entry);
    out->desc = entry();
    if (!out->desc) {
        snprintf(err, err_len, "%s: %s() returned no descriptor", out->path, VIMANA_BACKEND_ENTRY_SYMBOL);
        backend_unload(out);
        return -1;
    }
    if (backend_check_version(out->path, out->desc, err, err_len) != 0) {
        backend_unload(out);
        return -1;
    }
    return 0;
}

void backend_unload(loaded_backend *b)
{
    if (b->handle) {
        lt_dlclose((lt_dlhandle)b->handle);
        b->handle = NULL;
        lt_dlexit();
    }
    b->desc = NULL;
}
