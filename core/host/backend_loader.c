/*
 * Backend loading. libltdl's state is process-wide; the loader is the only
 * place that touches it. A refused module never aborts the host: every
 * failure is returned as text naming the file and, for ABI mismatches, both
 * versions.
 */
/* realpath() is XSI. */
#define _XOPEN_SOURCE 700

#include "host/backend_loader.h"

#include <dirent.h>
#include <dlfcn.h>
#include <ltdl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "util/msg_escape.h"

/* The build tree (an uninstalled vimana's backends) and the install
 * directory, from the Makefile. */
#ifndef VIMANA_BUILD_DIR
#define VIMANA_BUILD_DIR ""
#endif
#ifndef VIMANA_BUILD_BACKEND_DIRS
#define VIMANA_BUILD_BACKEND_DIRS ""
#endif
#ifndef VIMANA_INSTALL_BACKEND_DIR
#define VIMANA_INSTALL_BACKEND_DIR ""
#endif

/* Functions a backend must provide, and the descriptor size that covers
 * the last field this host reads. */
#define REQUIRED_SIZE (offsetof(vimana_backend, run) + sizeof(void *))

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
    return backend_check_capabilities(path, d, err, err_len);
}

/* The host reads link counters only when all three agree, so a backend
 * whose bit and functions disagree would silently lose its statistics (or
 * have the host call a NULL function): refused instead. */
int backend_check_capabilities(const char *path, const vimana_backend *d, char *err, size_t err_len)
{
    const char *name = d->name ? d->name : "?";
    bool cap = (d->capabilities & VIMANA_CAP_LINK_STATS) != 0;
    if (!d->num_links != !d->link_stats) {
        snprintf(err, err_len, "%s: backend '%s' implements %s() without %s(): give both or neither", path, name,
                 d->num_links ? "num_links" : "link_stats", d->num_links ? "link_stats" : "num_links");
        return -1;
    }
    if (cap && !d->link_stats) {
        snprintf(err, err_len, "%s: backend '%s' advertises VIMANA_CAP_LINK_STATS but does not implement "
                 "num_links() and link_stats()", path, name);
        return -1;
    }
    if (!cap && d->link_stats) {
        snprintf(err, err_len, "%s: backend '%s' implements num_links() and link_stats() but does not advertise "
                 "VIMANA_CAP_LINK_STATS", path, name);
        return -1;
    }
    return 0;
}

/* stop() is a 1.1 field: a 1.0 backend's descriptor may end before it, or
 * hold whatever its reserved slot held (zero by the 1.0 rules, but only
 * abi_minor says that the slot means stop). */
vimana_stop_fn backend_stop_fn(const vimana_backend *d)
{
    if (d->abi_minor < 1 || d->struct_size < offsetof(vimana_backend, stop) + sizeof(void *))
        return NULL;
    return d->stop;
}

/* device_name is a 1.2 field: the same rule as stop() one version later. */
vimana_device_name_fn backend_device_name_fn(const vimana_backend *d)
{
    if (d->abi_minor < 2 || d->struct_size < offsetof(vimana_backend, device_name) + sizeof(void *))
        return NULL;
    return d->device_name;
}

/* link_fault is a 1.4 field: the same rule again. */
vimana_link_fault_fn backend_link_fault_fn(const vimana_backend *d)
{
    if (d->abi_minor < 4 || d->struct_size < offsetof(vimana_backend, link_fault) + sizeof(void *))
        return NULL;
    return d->link_fault;
}

/* options is a 1.5 field: the same rule again. */
const vimana_backend_option *backend_options_table(const vimana_backend *d)
{
    if (d->abi_minor < 5 || d->struct_size < offsetof(vimana_backend, options) + sizeof(void *))
        return NULL;
    return d->options;
}

bool backend_has_queue_stats(const vimana_backend *d)
{
    return d->abi_minor >= 2;
}

bool backend_has_physics_stats(const vimana_backend *d)
{
    return d->abi_minor >= 5;
}

static bool has_slash(const char *s)
{
    return strchr(s, '/') != NULL;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool backend_is_build_tree_exe(const char *exe, const char *build_dir)
{
    const char *slash = strrchr(exe, '/');
    size_t n = strlen(build_dir);
    if (!slash || n == 0 || strncmp(exe, build_dir, n) != 0)
        return false;
    const char *rest = exe + n; /* "/vimana" or "/.libs/vimana" */
    return rest == slash || (strncmp(rest, "/.libs", 6) == 0 && rest + 6 == slash);
}

/* Compares resolved paths, so that symbolic links and "..", in the build
 * directory or in the way vimana was started, cannot fool the test. */
static bool running_uninstalled(void)
{
    if (!VIMANA_BUILD_DIR[0])
        return false;
    char *exe = realpath("/proc/self/exe", NULL);
    char *build = realpath(VIMANA_BUILD_DIR, NULL);
    bool yes = exe && build && backend_is_build_tree_exe(exe, build);
    free(exe);
    free(build);
    return yes;
}

static void append_dirs(char *out, size_t out_len, const char *dirs)
{
    size_t used = strlen(out);
    if (dirs && *dirs && used < out_len)
        snprintf(out + used, out_len - used, "%s%s", used ? ":" : "", dirs);
}

void backend_search_path(const char *env_path, bool uninstalled, char *out, size_t out_len)
{
    out[0] = '\0';
    append_dirs(out, out_len, env_path);
    if (uninstalled)
        append_dirs(out, out_len, VIMANA_BUILD_BACKEND_DIRS);
    append_dirs(out, out_len, VIMANA_INSTALL_BACKEND_DIR);
}

void backend_default_search_path(char *out, size_t out_len)
{
    backend_search_path(getenv("VIMANA_BACKEND_PATH"), running_uninstalled(), out, out_len);
}

/* The file lt_dlopenext opens for `base` (a path without ".so"): the
 * shared object, the name as given, or for a libtool archive (base.la or
 * base with base.la beside it) the uninstalled copy in .libs. Returns the
 * first that exists, or NULL. */
static const char *module_file(const char *base, char *buf, size_t len)
{
    size_t n = strlen(base);
    bool is_la = n > 3 && strcmp(base + n - 3, ".la") == 0;
    size_t stem = is_la ? n - 3 : n;
    if (!is_la) {
        snprintf(buf, len, "%s.so", base);
        if (is_file(buf))
            return buf;
        snprintf(buf, len, "%s", base);
        if (is_file(buf))
            return buf;
    }
    char la[1024];
    snprintf(la, sizeof la, "%.*s.la", (int)stem, base);
    const char *slash = strrchr(base, '/');
    size_t dir_len = slash ? (size_t)(slash - base + 1) : 0;
    snprintf(buf, len, "%.*s.libs/%.*s.so", (int)dir_len, base, (int)(stem - dir_len), base + dir_len);
    return is_file(la) && is_file(buf) ? buf : NULL;
}

/* libltdl reports any failure of an existing module as "file not found".
 * Opening the file again with dlopen() gives the dynamic linker's reason,
 * such as the name of a library the module needs and cannot find. */
static void load_failure_reason(const char *file, const char *ltdl_error, char *why, size_t why_len)
{
    void *h = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    const char *reason = h ? NULL : dlerror();
    if (h)
        dlclose(h);
    char esc[512];
    msg_escape(reason ? reason : ltdl_error ? ltdl_error : "cannot open", esc, sizeof esc);
    snprintf(why, why_len, "%s", esc);
}

/* Opens `base` (a path, module suffix removed), which exists as `file`. */
static int open_module(const char *base, const char *file, loaded_backend *out, char *why, size_t why_len)
{
    lt_dlhandle h = lt_dlopenext(base);
    if (!h) {
        load_failure_reason(file, lt_dlerror(), why, why_len);
        return -1;
    }
    out->handle = h;
    snprintf(out->path, sizeof out->path, "%s", file);
    const lt_dlinfo *info = lt_dlgetinfo(h);
    if (info && info->filename)
        snprintf(out->path, sizeof out->path, "%s", info->filename);
    return 0;
}

static void add_tried(char *tried, size_t tried_len, const char *dir)
{
    size_t used = strlen(tried);
    if (used + strlen(dir) + 3 < tried_len)
        snprintf(tried + used, tried_len - used, "%s%s", used ? ", " : "", dir);
}

/* Looks for `base` in each existing folder of `dirs`. Returns 0 when
 * loaded, 1 when found nowhere (`tried` lists the folders), -1 when a
 * module was found but failed to load (err says why). */
static int search_dirs(const char *dirs, const char *base, loaded_backend *out, char *tried, size_t tried_len,
                       char *err, size_t err_len)
{
    char *copy = strdup(dirs);
    if (!copy) {
        snprintf(err, err_len, "out of memory searching for network backend '%s'", base);
        return -1;
    }
    int rc = 1;
    for (char *save = NULL, *dir = strtok_r(copy, ":", &save); dir && rc == 1; dir = strtok_r(NULL, ":", &save)) {
        if (!is_dir(dir))
            continue;
        add_tried(tried, tried_len, dir);
        char candidate[1024], file[1100], why[512];
        snprintf(candidate, sizeof candidate, "%s/%s", dir, base);
        if (!module_file(candidate, file, sizeof file))
            continue;
        rc = open_module(candidate, file, out, why, sizeof why);
        if (rc != 0)
            snprintf(err, err_len, "%s: cannot load network backend: %s", file, why);
    }
    free(copy);
    return rc;
}

static int open_by_path(const char *name, const char *base, loaded_backend *out, char *err, size_t err_len)
{
    char file[1100], why[512];
    if (!module_file(base, file, sizeof file)) {
        snprintf(err, err_len, "%s: cannot load network backend: file not found (check the path)", name);
        return -1;
    }
    if (open_module(base, file, out, why, sizeof why) != 0) {
        snprintf(err, err_len, "%s: cannot load network backend: %s", name, why);
        return -1;
    }
    return 0;
}

/* The names users also give the shipped backends: the folder a module is
 * built in (backends/garnet_stub holds garnet, backends/ns3_shim ns3_shim,
 * which calls itself ns3) and the reference's name for the analytical model. */
static const struct {
    const char *name, *module;
} backend_aliases[] = {
    {"congestion_unaware", "analytical"},
    {"garnet_stub", "garnet"},
    {"ns3", "ns3_shim"},
};

const char *backend_module_for(const char *name)
{
    for (size_t i = 0; i < sizeof backend_aliases / sizeof backend_aliases[0]; i++)
        if (!strcmp(name, backend_aliases[i].name))
            return backend_aliases[i].module;
    return name;
}

#define MAX_LISTED 64

struct module_names {
    char name[MAX_LISTED][128];
    size_t n;
};

static void add_name(struct module_names *m, const char *name, size_t len)
{
    if (len >= sizeof m->name[0] || m->n == MAX_LISTED)
        return;
    for (size_t i = 0; i < m->n; i++)
        if (strlen(m->name[i]) == len && !strncmp(m->name[i], name, len))
            return;
    snprintf(m->name[m->n++], sizeof m->name[0], "%.*s", (int)len, name);
}

/* The modules in `dir`: NAME.so files, and NAME.la (a build tree's, the
 * module in .libs). */
static void list_modules_in(const char *dir, struct module_names *m)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 3 && (!strcmp(e->d_name + n - 3, ".so") || !strcmp(e->d_name + n - 3, ".la")))
            add_name(m, e->d_name, n - 3);
    }
    closedir(d);
}

static int by_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

void backend_list_modules(const char *dirs, char *out, size_t out_len)
{
    struct module_names *m = calloc(1, sizeof *m);
    char *copy = strdup(dirs);
    out[0] = '\0';
    for (char *save = NULL, *dir = copy && m ? strtok_r(copy, ":", &save) : NULL; dir;
         dir = strtok_r(NULL, ":", &save))
        list_modules_in(dir, m);
    if (m) {
        qsort(m->name, m->n, sizeof m->name[0], by_name);
        for (size_t i = 0, used = 0; i < m->n && used < out_len; i++, used = strlen(out))
            snprintf(out + used, out_len - used, "%s%s", i ? ", " : "", m->name[i]);
    }
    free(copy);
    free(m);
}

static int open_by_name(const char *name, const char *base, loaded_backend *out, char *err, size_t err_len)
{
    char dirs[4096], tried[1024] = "";
    backend_search_path(getenv("VIMANA_BACKEND_PATH"), running_uninstalled(), dirs, sizeof dirs);
    int rc = search_dirs(dirs, base, out, tried, sizeof tried, err, err_len);
    const char *module = backend_module_for(base);
    if (rc == 1 && module != base) {
        tried[0] = '\0';
        rc = search_dirs(dirs, module, out, tried, sizeof tried, err, err_len);
    }
    if (rc == 1) {
        char found[1024];
        backend_list_modules(dirs, found, sizeof found);
        snprintf(err, err_len, "network backend '%s' not found (looked in: %s; there: %s); set VIMANA_BACKEND_PATH or "
                 "give a path with --network-backend=./%s.so", name, tried[0] ? tried : "no existing folder",
                 found[0] ? found : "no module", base);
    }
    return rc == 0 ? 0 : -1;
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
    int rc = has_slash(name) ? open_by_path(name, base, out, err, err_len)
                             : open_by_name(name, base, out, err, err_len);
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

/* Whether `file` is the module `name`.so in `dir` or in `dir`/.libs,
 * compared as resolved paths. */
static bool module_in_dir(const char *file, const char *dir, const char *name)
{
    if (!dir[0])
        return false;
    bool yes = false;
    char *real = realpath(file, NULL);
    for (int libs = 0; libs < 2 && real && !yes; libs++) {
        char want[1200];
        snprintf(want, sizeof want, "%s%s/%s.so", dir, libs ? "/.libs" : "", name);
        char *w = realpath(want, NULL);
        yes = w && strcmp(w, real) == 0;
        free(w);
    }
    free(real);
    return yes;
}

bool backend_is_shipped(const loaded_backend *lb, const char *name)
{
    if (!lb->desc || !lb->desc->name || strcmp(lb->desc->name, name) != 0)
        return false;
    char build[1100];
    snprintf(build, sizeof build, "%s%s%s", VIMANA_BUILD_DIR, VIMANA_BUILD_DIR[0] ? "/backends/" : "",
             VIMANA_BUILD_DIR[0] ? name : "");
    return module_in_dir(lb->path, build, name) || module_in_dir(lb->path, VIMANA_INSTALL_BACKEND_DIR, name);
}
