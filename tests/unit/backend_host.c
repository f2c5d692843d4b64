/*
 * backend_host.c - a network backend module loaded as vimana loads it,
 * and a host that records its deliveries (backend_host.h).
 */
#include "backend_host.h"

#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const vimana_backend *backend_load(const char *dir, const char *name)
{
    const char *build = getenv("VIMANA_BUILDDIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/backends/%s/.libs/%s.so", build ? build : ".", dir, name);
    void *so = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!so)
        fail_msg("%s", dlerror());
    vimana_backend_entry_fn entry = (vimana_backend_entry_fn)dlsym(so, VIMANA_BACKEND_ENTRY_SYMBOL);
    assert_non_null(entry);
    return entry();
}

void host_delivered(void *host, uint64_t token)
{
    host_rec *h = host;
    assert_true(h->n < 8);
    h->at[h->n] = h->be->now(h->ctx);
    h->tokens[h->n++] = token;
    if (h->n == h->stop_after)
        h->be->stop(h->ctx);
}

void host_failed(void *host, const char *message)
{
    host_rec *h = host;
    snprintf(h->failed, sizeof h->failed, "%s", message);
    h->be->stop(h->ctx);
}

void write_temp(char *path, const char *text)
{
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
}
