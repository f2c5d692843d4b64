/*
 * sweep_spec.h - the sweep file of `vimana sweep` (YAML, docs/sweep.md):
 * the base run (workload, system, network, remote memory, backend, extra
 * options), the axes with their values, or an explicit list of points,
 * and the settings of the sweep itself (jobs, plot). Only the file's form
 * is checked here; whether an axis' key exists in the base configuration
 * is cmd/sweep/sweep_config.h's business.
 */
#ifndef VIMANA_CMD_SWEEP_SWEEP_SPEC_H
#define VIMANA_CMD_SWEEP_SWEEP_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A point that leaves an axis at the base configuration. */
#define SWEEP_BASE SIZE_MAX

/* One value of an axis: a scalar, or a list of scalars (a per-dimension
 * network value, an algorithm per dimension). */
typedef struct sweep_value {
    char *text;         /* as shown in results and plots: "50", "[50, 100]" */
    bool is_list;
    size_t n_items;     /* a scalar is one item */
    char **items;
    bool *quoted;       /* the item was quoted in the file: it is a string */
} sweep_value;

typedef enum {
    SWEEP_SYSTEM_KEY,   /* system.KEY: a top-level key of the system JSON */
    SWEEP_NETWORK_KEY,  /* network.KEY: a key of the network YAML */
    SWEEP_SYSTEM_FILE,  /* system: whole system JSON files */
    SWEEP_NETWORK_FILE, /* network: whole network files */
    SWEEP_BACKEND,      /* backend: backend names or paths */
    SWEEP_WORKLOAD,     /* workload: ET prefixes */
    SWEEP_JOBS_FILE,    /* jobs-file: `vimana --jobs` files (docs/jobs.md) */
    SWEEP_GENERATE_KEY  /* generate.KEY: a parameter of the workload generator (generate.kind: the kind) */
} sweep_axis_kind;

typedef struct sweep_axis {
    char *name;         /* as written: "network.bandwidth" */
    const char *key;    /* the part after "system." / "network." / "generate.", else NULL */
    sweep_axis_kind kind;
    sweep_value *values;
    size_t n_values;
    size_t line;        /* where the axis is named, 1-based */
} sweep_axis;

/* What each task of a Slurm job array gets (`slurm:` in the sweep file);
 * the texts are checked to be plain words, as they go into a script. */
typedef struct sweep_slurm {
    unsigned tasks;         /* array tasks; 0: not set */
    unsigned concurrent;    /* tasks at once (%limit); 0: no limit */
    unsigned cpus;          /* --cpus-per-task, and the points each task runs at once; 0: 1 */
    char *time;             /* --time, or NULL */
    char *memory;           /* --mem, or NULL */
    char *partition;        /* --partition, or NULL */
    size_t line;
} sweep_slurm;

/* One entry of the base `generate:` mapping (`kind` is one of them). */
typedef struct sweep_gen_entry {
    char *key;
    char *value;
    size_t line;
} sweep_gen_entry;

typedef struct sweep_spec {
    char *path;         /* the sweep file, as given */
    char *dir;          /* its folder: relative paths in it start there */
    char *workload, *system, *network, *memory, *backend; /* as written; memory may be NULL */
    sweep_gen_entry *generate;  /* the workload generator instead of `workload`, in file order */
    size_t n_generate;          /* 0: no generator */
    size_t generate_line;
    char **options;     /* extra vimana options, each "--name=value" */
    size_t n_options;
    size_t options_line;
    sweep_axis *axes;
    size_t n_axes;
    bool explicit_points;   /* points: given; else the grid of the axes */
    size_t *points;         /* explicit: n_points rows of n_axes value indices */
    size_t n_points;
    char *plot;             /* METRIC:AXIS, or NULL */
    size_t plot_line;
    unsigned jobs;          /* 0: not set */
    sweep_slurm slurm;      /* the slurm: mapping (for --slurm) */
} sweep_spec;

/* Reads the sweep file. Returns 0, or -1 with "FILE:LINE: what is wrong"
 * (or "FILE: ...") in err. */
int sweep_spec_load(const char *path, sweep_spec *s, char *err, size_t len);

void sweep_spec_free(sweep_spec *s);

/* A path of the sweep file made usable from the current directory: an
 * absolute path as it is, a relative one after the file's folder. The
 * caller frees it. */
char *sweep_spec_path(const sweep_spec *s, const char *path);

/* The value of the base generator's `key`, or NULL. */
const sweep_gen_entry *sweep_spec_generate(const sweep_spec *s, const char *key);

/* The axis named `name`, or NULL. */
const sweep_axis *sweep_spec_axis(const sweep_spec *s, const char *name, size_t *index);

#endif
