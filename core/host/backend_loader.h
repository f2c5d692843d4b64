/*
 * backend_loader.h - finds, loads (libltdl) and version-checks a network
 * backend module. Errors are one line naming the file and what to do.
 */
#ifndef VIMANA_HOST_BACKEND_LOADER_H
#define VIMANA_HOST_BACKEND_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vimana/network_api.h"

typedef struct loaded_backend {
    void *handle;                /* lt_dlhandle */
    const vimana_backend *desc;
    char path[1024];
} loaded_backend;

/* `name` is a path ("./x.so", "/opt/b/mynet") or a bare name ("analytical",
 * "analytical.so") searched in the folders of backend_search_path() that
 * exist. A module that exists but cannot be loaded stops the search, with
 * the dynamic linker's reason (e.g. the library it needs and cannot find).
 * Returns 0, or -1 with err set. */
int backend_load(const char *name, loaded_backend *out, char *err, size_t err_len);
void backend_unload(loaded_backend *b);

/* The version rule, separate so that it can be tested: 0 if a descriptor
 * with these fields can be used by this host, else -1 with err set. It
 * ends with backend_check_capabilities. */
int backend_check_version(const char *path, const vimana_backend *desc, char *err, size_t err_len);

/* The capability bits against the functions they promise: LINK_STATS needs
 * num_links() and link_stats(), and those two need the bit. 0, or -1 with
 * err set. */
int backend_check_capabilities(const char *path, const vimana_backend *desc, char *err, size_t err_len);

/* The descriptor's stop() when the backend's ABI version has that field
 * (1.1 and later, struct_size covering it) and fills it; else NULL. */
typedef void (*vimana_stop_fn)(void *ctx);
vimana_stop_fn backend_stop_fn(const vimana_backend *desc);

/* Whether the loaded module is the one shipped as `name` ("analytical"):
 * its descriptor has that name and its file is the build tree's or the
 * install folder's name.so (resolved paths), not a user's module that
 * happens to be called so. */
bool backend_is_shipped(const loaded_backend *lb, const char *name);

/* The descriptor's device_name() when the backend's ABI version has that
 * field (1.2 and later, struct_size covering it) and fills it; else NULL. */
typedef const char *(*vimana_device_name_fn)(void *ctx, uint32_t device, char *buf, size_t len);
vimana_device_name_fn backend_device_name_fn(const vimana_backend *desc);

/* The descriptor's link_fault() when the backend's ABI version has that
 * field (1.4 and later, struct_size covering it) and fills it; else NULL. */
typedef int (*vimana_link_fault_fn)(void *ctx, uint32_t link, vimana_tick at, double bandwidth_factor, char *err,
                                    size_t err_len);
vimana_link_fault_fn backend_link_fault_fn(const vimana_backend *desc);

/* The options table (a 1.5 field), or NULL for an older backend or none. */
const vimana_backend_option *backend_options_table(const vimana_backend *desc);

/* Whether the backend's link counters include max_queue_ticks and
 * queue_ticks (ABI 1.2 and later); an older backend leaves them 0, which
 * means "not known", not "no wait". */
bool backend_has_queue_stats(const vimana_backend *desc);

/* Whether the backend's link counters include ecn_marks and pause_ticks
 * (ABI 1.5 and later); an older backend leaves them 0, which means "not
 * known". */
bool backend_has_physics_stats(const vimana_backend *desc);

/* True when the executable `exe` (a resolved path) is the build tree's own
 * program: `build_dir`/NAME or libtool's `build_dir`/.libs/NAME. Only such a
 * vimana looks for backends in the build tree. */
bool backend_is_build_tree_exe(const char *exe, const char *build_dir);

/* The ':'-separated folders a bare name is searched in, in order:
 * `env_path` ($VIMANA_BACKEND_PATH, may be NULL), the build tree's backend
 * folders when `uninstalled`, then the install directory. */
void backend_search_path(const char *env_path, bool uninstalled, char *out, size_t out_len);

/* The folders a bare name is searched in by this process, as
 * backend_load searches them ($VIMANA_BACKEND_PATH, the build tree when
 * this vimana is the build tree's, the install directory). */
void backend_default_search_path(char *out, size_t out_len);

/* The module a backend name loads: the shipped backends' other names
 * (garnet_stub: garnet, ns3: ns3_shim, congestion_unaware: analytical), or
 * the name itself. A name found as a module is loaded as it is. */
const char *backend_module_for(const char *name);

/* The modules in the folders of `dirs` (':'-separated), ", "-separated:
 * what a "not found" lists. */
void backend_list_modules(const char *dirs, char *out, size_t out_len);

#endif
