/*
 * text_workload.h - an ASTRA-sim 1.0 text workload, parsed and checked.
 *
 * Line 1 names the parallelism mode (plus mode parameters), line 2 the
 * number of layers, and every further line is one layer of at least 12
 * whitespace-separated columns (docs/convert-text.md has the column table).
 * Loading validates everything the graph builders rely on, so a loaded
 * workload always converts.
 */
#ifndef VIMANA_CONVERT_TEXT_WORKLOAD_H
#define VIMANA_CONVERT_TEXT_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Every keyword ASTRA-sim 1.0 knows. */
enum text_mode {
    TEXT_MODE_MICRO,
    TEXT_MODE_DATA,
    TEXT_MODE_DATA_REORDER,
    TEXT_MODE_MODEL,
    TEXT_MODE_HYBRID_DATA_MODEL,
    TEXT_MODE_HYBRID_MODEL_DATA,
    TEXT_MODE_HYBRID_CUSTOMIZED,
    TEXT_MODE_HYBRID_DLRM,
    TEXT_MODE_HYBRID_DLRM_ENHANCED,
    TEXT_MODE_DISTRIBUTED_INFERENCE,
    TEXT_MODE_HYBRID_TRANSFORMER,
    TEXT_MODE_HYBRID_TRANSFORMER_FWD_IN_BCKWD,
};

struct text_mode_info {
    enum text_mode mode;
    const char *keyword;
    /* Why the mode is not converted, or NULL when it is. */
    const char *refusal;
    /* Accepted by a HYBRID_CUSTOMIZED layer as its per-layer policy. */
    bool layer_policy;
    /* Whether the policy's collectives use any network dimension in each
     * phase (ASTRA-sim 1.0's involved-dimension rules), by enum text_phase. */
    bool phase_has_dims[3];
};

/* The mode spelled s[0, len), or NULL when ASTRA-sim 1.0 has no such mode. */
const struct text_mode_info *text_mode_find(const char *s, size_t len);
const struct text_mode_info *text_mode_get(enum text_mode mode);
/* "MICRO, DATA, ... or DISTRIBUTED_INFERENCE": the modes that convert. */
const char *text_mode_converted_list(void);

/* The phases of one layer; also the index of per-phase arrays. */
enum text_phase {
    TEXT_FWD = 0, /* forward pass */
    TEXT_IG = 1,  /* backward pass, input gradient */
    TEXT_WG = 2,  /* backward pass, weight gradient */
};

enum text_comm_kind {
    TEXT_COMM_ALLREDUCE,
    TEXT_COMM_ALLTOALL,
    TEXT_COMM_ALLGATHER,
    TEXT_COMM_REDUCESCATTER,
    TEXT_COMM_NONE,
    TEXT_COMM_ALLREDUCEALLTOALL, /* ASTRA-sim 1.0 only; Chakra has no such collective */
};

struct text_comm {
    const char *token; /* as written; it becomes part of the node name */
    enum text_comm_kind kind;
    int64_t size;      /* bytes */
};

struct text_layer {
    const char *name;
    unsigned long line;        /* 1-based line number in the input */
    uint64_t compute[3];       /* compute time per phase, copied to duration_micros */
    struct text_comm comm[3];  /* collective per phase */
    enum text_mode policy;     /* HYBRID_CUSTOMIZED only: column 13 */
    /* HYBRID_TRANSFORMER_FWD_IN_BCKWD (line 1): the layer's activations are
     * kept (a checkpoint); the layer's input-gradient step first re-runs the
     * forward pass from the nearest checkpoint below it. */
    bool checkpoint, initiates;
};

struct text_workload {
    const char *path;          /* as given, for messages */
    char *text;                /* the input with CRLF and CR turned into LF */
    size_t text_len;
    char *fields;              /* a copy of `text` cut into NUL-terminated fields */
    enum text_mode mode;
    int64_t header_count;      /* line 2 */
    int64_t last_bottom_layer; /* HYBRID_DLRM*: column 2 of line 1 */
    const char *params;        /* line 1 after the keyword (inside `fields`) */
    size_t params_len;
    size_t n_layers;
    struct text_layer *layers;
    /* HYBRID_TRANSFORMER: the NPU split the user chose (not in the file):
     * model-parallel group size (--model-parallel-npu-group) and NPU count;
     * 0 when not set. text_groups.h places the groups. */
    uint64_t mp_group, npus;
};

/* One line: "FILE:LINE: what went wrong". */
struct text_error {
    char msg[1024];
};

/* Sets `err` to "PATH:LINE: " (just "PATH: " for line 0) and the formatted
 * text; returns -1 so callers can `return text_fail(...)`. */
int text_fail(struct text_error *err, const char *path, unsigned long line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Parses `len` bytes of workload text (named `path` in messages) and checks
 * the mode's rules. Warnings (one line each) go to `warnings` unless it is
 * NULL. Returns 0, or -1 with `err` set and nothing left to free. */
int text_workload_parse(const char *path, const char *data, size_t len, struct text_workload *w,
                        FILE *warnings, struct text_error *err);
/* Reads the file at `path`, then text_workload_parse(). */
int text_workload_load(const char *path, struct text_workload *w, FILE *warnings, struct text_error *err);
void text_workload_free(struct text_workload *w);

/* Mode rules the syntax cannot express (HYBRID_DLRM's last bottom layer,
 * the header count); called by text_workload_parse(). */
int text_workload_check(struct text_workload *w, FILE *warnings, struct text_error *err);

/* HYBRID_TRANSFORMER_FWD_IN_BCKWD: reads `checkpoints: K l1 .. lK` and
 * `checkpoint_initiates: K l1 .. lK` from line 1 into the layers' flags and
 * checks that every re-run is well defined. Returns 0, or -1 with `err`. */
int text_checkpoints_mark(struct text_workload *w, struct text_error *err);
/* The checkpoint an initiating layer re-runs the forward pass from. */
size_t text_checkpoint_below(const struct text_workload *w, size_t layer);

/* Backward position (0 = last layer) whose input-gradient collective is
 * left out, or -1 when every layer gets one (see docs/convert-text.md). */
int64_t text_skipped_ig_position(const struct text_workload *w);

#endif
