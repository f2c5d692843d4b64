/*
 * sweep_generate.c - the generation step of a sweep: a small pool of
 * vimana-et children (before the points run, so a bad generator value
 * stops the sweep before any simulation), each writing into a temporary
 * folder that is renamed into the cache when vimana-et succeeded.
 */
/* realpath, strdup. */
#define _XOPEN_SOURCE 700

#include "cmd/sweep/sweep_generate.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cmd/child_run.h"
#include "cmd/sweep/sweep_genspec.h"
#include "util/hash.h"
#include "util/msg_escape.h"
#include "util/or_die.h"

#ifndef VIMANA_BINDIR
#define VIMANA_BINDIR ""
#endif

static char *joined(const char *a, const char *b)
{
    char *s = or_die(malloc(strlen(a) + strlen(b) + 2));
    sprintf(s, "%s/%s", a, b);
    return s;
}

size_t sweep_workloads_add(sweep_workloads *ws, const sweep_spec *s, const size_t *row, size_t point,
                           const char *out_dir)
{
    sweep_gen_point g;
    sweep_gen_point_of(s, row, &g);
    char *text = sweep_gen_point_text(s, &g);
    /* FNV-1a: a stable name for the cache folder; args.txt holds the text. */
    uint64_t hash = hash_fnv1a_str(HASH_FNV1A_SEED, text);
    for (size_t i = 0; i < ws->n; i++)
        if (ws->items[i].hash == hash && !strcmp(ws->items[i].text, text)) {
            free(text);
            return i;
        }
    ws->items = or_die(realloc(ws->items, (ws->n + 1) * sizeof *ws->items));
    sweep_workload *w = &ws->items[ws->n];
    memset(w, 0, sizeof *w);
    w->args = sweep_gen_point_args(s, &g);
    w->text = text;
    w->hash = hash;
    char name[32];
    snprintf(name, sizeof name, "workloads/%016" PRIx64, hash);
    w->dir = joined(out_dir, name);
    w->prefix = joined(w->dir, "w");
    w->groups = !strcmp(g.kind, "transformer");
    w->point = point;
    return ws->n++;
}

void sweep_workloads_free(sweep_workloads *ws)
{
    for (size_t i = 0; i < ws->n; i++) {
        sweep_workload *w = &ws->items[i];
        for (size_t a = 0; w->args[a]; a++)
            free(w->args[a]);
        free(w->args);
        free(w->text);
        free(w->dir);
        free(w->prefix);
        free(w->error);
    }
    free(ws->items);
    memset(ws, 0, sizeof *ws);
}

static bool is_executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int sweep_find_vimana_et(char *out, size_t len)
{
    char *exe = realpath("/proc/self/exe", NULL);
    char dir[4096] = "";
    if (exe && strrchr(exe, '/'))
        snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(exe, '/') - exe), exe);
    free(exe);
    size_t n = strlen(dir);
    /* In a build tree the binary is .libs/vimana: the wrapper one folder up
     * sets the library path its vimana-et needs. */
    if (n > 6 && !strcmp(dir + n - 6, "/.libs")) {
        snprintf(out, len, "%.*s/vimana-et", (int)(n - 6), dir);
        if (is_executable(out))
            return 0;
    }
    if (dir[0]) {
        snprintf(out, len, "%s/vimana-et", dir);
        if (is_executable(out))
            return 0;
    }
    snprintf(out, len, "%s/vimana-et", VIMANA_BINDIR);
    return VIMANA_BINDIR[0] && is_executable(out) ? 0 : -1;
}

/* Whether dir holds the workload `text`: vimana-et finished there. */
static bool is_ready(const char *dir, const char *text)
{
    char *path = joined(dir, "args.txt");
    FILE *f = fopen(path, "r");
    free(path);
    if (!f)
        return false;
    size_t n = strlen(text);
    char *buf = or_die(malloc(n + 2));
    size_t got = fread(buf, 1, n + 2, f);
    fclose(f);
    bool same = got == n + 1 && !memcmp(buf, text, n) && buf[n] == '\n';
    free(buf);
    return same;
}

/* A temporary folder holds files only: vimana-et writes them beside its prefix. */
static void remove_folder(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)))
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
                char *path = joined(dir, e->d_name);
                unlink(path);
                free(path);
            }
        closedir(d);
    }
    rmdir(dir);
}

typedef struct gen_run {
    pid_t pid;
    sweep_workload *w;
    char *tmp;
} gen_run;

static void set_error(sweep_workload *w, const char *why)
{
    free(w->error);
    w->error = or_die(strdup(why));
}

static int start(gen_run *r, sweep_workload *w, const char *exe)
{
    /* The host too: Slurm tasks on several nodes may share DIR. */
    char host[64] = "", name[160];
    gethostname(host, sizeof host - 1);
    host[strcspn(host, "/")] = '\0';
    snprintf(name, sizeof name, ".%016" PRIx64 ".%s.%ld.tmp", w->hash, host, (long)getpid());
    char *workloads = or_die(strdup(w->dir));
    *strrchr(workloads, '/') = '\0';
    r->w = w;
    r->tmp = joined(workloads, name);
    free(workloads);
    remove_folder(r->tmp);  /* one left by a killed run of this pid */
    size_t n = 0;
    while (w->args[n])
        n++;
    char **argv = or_die(calloc(n + 5, sizeof *argv));
    argv[0] = "vimana-et";
    argv[1] = "generate";
    memcpy(argv + 2, w->args, n * sizeof *argv);
    char *prefix = joined(r->tmp, "w"), *stderr_path = joined(r->tmp, "stderr.txt");
    argv[n + 2] = "--out";
    argv[n + 3] = prefix;
    int rc = mkdir(r->tmp, 0755) == 0 ? child_run_spawn_exe(exe, argv, NULL, stderr_path, &r->pid) : errno;
    if (rc != 0) {
        char why[4400];
        snprintf(why, sizeof why, "cannot run %s: %s", exe, strerror(rc));
        set_error(w, why);
        remove_folder(r->tmp);
        free(r->tmp);
        r->tmp = NULL;
        r->pid = 0;
    }
    free(prefix);
    free(stderr_path);
    free(argv);
    return rc == 0 ? 0 : -1;
}

/* vimana-et ended: its folder renamed into place, or its error kept. */
static void finish(gen_run *r, int status)
{
    sweep_workload *w = r->w;
    char *stderr_path = joined(r->tmp, "stderr.txt");
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        unlink(stderr_path);
        char *args = joined(r->tmp, "args.txt");
        FILE *f = fopen(args, "w");
        bool ok = f && fprintf(f, "%s\n", w->text) > 0;
        ok = (f && fclose(f) == 0) && ok;
        free(args);
        /* Another worker (a Slurm task) may have renamed the same workload
         * into place first: then it is that one's. */
        int why_not = ok && rename(r->tmp, w->dir) != 0 ? errno : 0;
        if (why_not && !((why_not == EEXIST || why_not == ENOTEMPTY) && is_ready(w->dir, w->text))) {
            char why[4400];
            snprintf(why, sizeof why, "%s: cannot write the generated workload: %s", w->dir, strerror(why_not));
            set_error(w, why);
        } else if (!ok) {
            set_error(w, "cannot write args.txt of the generated workload");
        }
    } else {
        char why[CHILD_RUN_REASON_MAX];
        child_run_reason(stderr_path, status, why, sizeof why);
        set_error(w, why);
    }
    free(stderr_path);
    remove_folder(r->tmp);
    free(r->tmp);
    r->tmp = NULL;
    r->pid = 0;
}

/* Waits for one of the running children. */
static void reap_one(gen_run *runs, unsigned jobs, unsigned *running)
{
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0 && errno == ECHILD) {
        /* Cannot happen while a child runs; never wait for ever. */
        for (unsigned i = 0; i < jobs; i++)
            if (runs[i].pid) {
                set_error(runs[i].w, "vimana-et: lost track of the child process");
                remove_folder(runs[i].tmp);
                free(runs[i].tmp);
                runs[i].tmp = NULL;
                runs[i].pid = 0;
            }
        *running = 0;
        return;
    }
    if (pid <= 0)
        return;
    for (unsigned i = 0; i < jobs; i++)
        if (runs[i].pid == pid) {
            finish(&runs[i], status);
            (*running)--;
        }
}

/* The next "--name" in text after *at: name into buf; false at the end. */
static bool next_option(const char **at, char *buf, size_t len)
{
    for (const char *c = strstr(*at, "--"); c; c = strstr(c + 2, "--")) {
        size_t n = strspn(c + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
        if (n && n < len) {
            snprintf(buf, len, "%.*s", (int)n, c + 2);
            *at = c + 2 + n;
            return true;
        }
    }
    return false;
}

/* A rule between two parameters ("--layers: 4 is not divisible by --pp
 * 3") is blamed on the one the point's axis sets; else on the base entry
 * the error names first. */
void sweep_generate_blame(const sweep_spec *s, const size_t *row, const char *error, size_t *line, char *key,
                          size_t key_len)
{
    char name[64];
    *line = s->generate_line;
    snprintf(key, key_len, "generate");
    for (const char *at = error; next_option(&at, name, sizeof name);)
        for (size_t a = 0; a < s->n_axes; a++)
            if (s->axes[a].kind == SWEEP_GENERATE_KEY && row[a] != SWEEP_BASE && !strcmp(s->axes[a].key, name)) {
                *line = s->axes[a].line;
                snprintf(key, key_len, "generate.%s", name);
                return;
            }
    for (const char *at = error; next_option(&at, name, sizeof name);) {
        const sweep_gen_entry *e = sweep_spec_generate(s, name);
        if (e) {
            *line = e->line;
            snprintf(key, key_len, "generate.%s", name);
            return;
        }
    }
}

static int report_failure(const sweep_workloads *ws, const sweep_spec *s, const size_t *rows, FILE *err)
{
    const sweep_workload *first = NULL;
    for (size_t i = 0; i < ws->n; i++)
        if (ws->items[i].error && (!first || ws->items[i].point < first->point))
            first = &ws->items[i];
    if (!first)
        return 0;
    size_t line;
    char key[80], path[256], why[1024];
    sweep_generate_blame(s, rows + first->point * s->n_axes, first->error, &line, key, sizeof key);
    fprintf(err, "vimana sweep: error: %s:%zu: %s: point %zu: %s\n", msg_escape(s->path, path, sizeof path), line, key,
            first->point, msg_escape(first->error, why, sizeof why));
    return -1;
}

int sweep_workloads_generate(sweep_workloads *ws, const sweep_spec *s, const size_t *rows, unsigned jobs, FILE *err)
{
    size_t todo = 0;
    for (size_t i = 0; i < ws->n; i++)
        todo += !is_ready(ws->items[i].dir, ws->items[i].text);
    if (!todo)
        return 0;
    char exe[4200], path[256];
    if (sweep_find_vimana_et(exe, sizeof exe) != 0) {
        fprintf(err, "vimana sweep: error: %s:%zu: generate: cannot find vimana-et (beside vimana, or %s)\n",
                msg_escape(s->path, path, sizeof path), s->generate_line, exe);
        return -1;
    }
    char *workloads = or_die(strdup(ws->items[0].dir));
    *strrchr(workloads, '/') = '\0';
    if (mkdir(workloads, 0755) != 0 && errno != EEXIST) {
        fprintf(err, "vimana sweep: error: %s: cannot create the folder: %s\n",
                msg_escape(workloads, path, sizeof path), strerror(errno));
        free(workloads);
        return -1;
    }
    free(workloads);
    gen_run *runs = or_die(calloc(jobs, sizeof *runs));
    unsigned running = 0;
    for (size_t next = 0; next < ws->n || running > 0;) {
        while (next < ws->n && running < jobs) {
            sweep_workload *w = &ws->items[next++];
            if (is_ready(w->dir, w->text))
                continue;
            unsigned slot = 0;
            while (runs[slot].pid)
                slot++;
            running += start(&runs[slot], w, exe) == 0;
        }
        if (running > 0)
            reap_one(runs, jobs, &running);
    }
    free(runs);
    return report_failure(ws, s, rows, err);
}
