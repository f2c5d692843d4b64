/*
 * module_name.h - which copy of a test module is running. The test
 * modules that take their behaviour from their file name (misbehave.c,
 * host11.c) are built once and copied under each name (tests/sim.mk,
 * tests/backends/copy-module); a copy finds its name through dladdr().
 */
#ifndef VIMANA_TESTS_BACKENDS_MODULE_NAME_H
#define VIMANA_TESTS_BACKENDS_MODULE_NAME_H

#include <dlfcn.h>
#include <string.h>

/* The index in names[0, n) of the file name (up to its first '.') of the
 * module that holds `code`, or -1 for a name not among them. */
static inline int module_name_index(void *code, const char *const *names, int n)
{
    Dl_info info;
    if (!dladdr(code, &info) || !info.dli_fname)
        return -1;
    const char *base = strrchr(info.dli_fname, '/');
    base = base ? base + 1 : info.dli_fname;
    size_t len = strcspn(base, ".");
    for (int i = 0; i < n; i++)
        if (strlen(names[i]) == len && strncmp(base, names[i], len) == 0)
            return i;
    return -1;
}

#endif
