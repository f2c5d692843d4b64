/*
 * backend_loader.h - finds, loads (libltdl) and version-checks a network
 * backend module. Errors are one line naming the file and what to do.
 */
#ifndef VIMANA_SIM_BACKEND_LOADER_H
#define VIMANA_SIM_BACKEND_LOADER_H

#include <stddef.h>

#include "vimana/network_api.h"

typedef struct loaded_backend {
    void *handle;                /* lt_dlhandle */
    const vimana_backend *desc;
    char path[1024];
} loaded_backend;

/* `name` is a path ("./x.so", "/opt/b/mynet") or a bare name ("analytical",
 * "analytical.so") searched in $VIMANA_BACKEND_PATH, the build tree, then the
 * install directory. Returns 0, or -1 with err set. */
int backend_load(const char *name, loaded_backend *out, char *err, size_t err_len);
void backend_unload(loaded_backend *b);

/* The version rule, separate so that it can be tested: 0 if a descriptor
 * with these fields can be used by this host, else -1 with err set. */
int backend_check_version(const char *path, const vimana_backend *desc, char *err, size_t err_len);

#endif
