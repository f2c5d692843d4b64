/*
 * module_name.h - which copy of a test module is running. The test
 * modules that take their behaviour from their file name (misbehave.c,
 * host11.c) are built once and copied under each name (tests/sim.mk,
 * tests/backends/copy-module); a copy finds its name through dladdr().
 */
#ifndef VIMANA_TESTS_BACKENDS_MODULE_NAME_H
#define VIMANA_TESTS_BACKENDS_MODULE_NAME_H

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* The index in names[0, n) of the file name (up to its first '.') of the
 * module that holds `code`, or -1 for a name not among them. A module
 * loaded through a symbolic link (tests/e2e/sweep_resume.sh loads
 * bad_storm.so as slow.so) is named by the file the link leads to. */
static inline int module_name_index(void *code, const char *const *names, int n)
{
    Dl_info info;
    if (!dladdr(code, &info) || !info.dli_fname)
        return -1;
    char *file = realpath(info.dli_fname, NULL);
    const char *path = file ? file : info.dli_fname;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t len = strcspn(base, ".");
    int found = -1;
    for (int i = 0; i < n && found < 0; i++)
        if (strlen(names[i]) == len && strncmp(base, names[i], len) == 0)
            found = i;
    free(file);
    return found;
}

#endif
