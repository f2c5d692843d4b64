/*
 * symmetry.h - whether the NPUs of a run are interchangeable (docs/symmetry.md):
 * every NPU runs the same parsed trace, the trace holds only collectives
 * (no SEND/RECV, remote memory or communicator groups), every collective it
 * runs uses an algorithm whose schedule is the same on every NPU (ring,
 * direct, halving-doubling on power-of-two dimensions) and the network is
 * the shipped congestion-unaware analytical model on Ring, FullyConnected
 * and Switch dimensions. Then every NPU's timeline is the same up to
 * relabelling, and one representative NPU would do.
 *
 * When they are and the run allows it (each dimension runs either ring and
 * direct, or halving-doubling; no per-NPU output such as --timeline or
 * trace-enabled, no rendezvous), the driver runs the reduced simulation
 * (sim->reduced, sim->mirror_xor = hd_dims): NPU 0 alone, its sends
 * mirrored as the messages it receives, the other NPUs reported with NPU
 * 0's figures. Otherwise every NPU is simulated, and the
 * line says why.
 */
#ifndef VIMANA_SIM_SYMMETRY_H
#define VIMANA_SIM_SYMMETRY_H

#include <stdbool.h>
#include <stdio.h>

#include "system/relabel.h"
#include "workload/workload.h"

enum symmetry_mode {
    SYMMETRY_OFF,           /* --no-symmetry: not even checked */
    SYMMETRY_NOT_ELIGIBLE,  /* why: the first condition that does not hold */
    SYMMETRY_ELIGIBLE,      /* interchangeable, but simulated in full: full_why */
    SYMMETRY_ON,            /* the reduced simulation */
};

typedef struct symmetry {
    enum symmetry_mode mode;
    uint32_t n_npus;
    char why[400];
    char full_why[160];     /* ELIGIBLE: what the reduced simulation does not cover */
    uint32_t hd_dims;       /* bit d: some collective runs halving-doubling on dimension d */
    uint32_t rotation_dims; /* bit d: some collective runs ring or direct on dimension d */
    bool relabelled;        /* the NPUs' traces are equal but for their node ids */
    /* Over roles (sim/symmetry_roles.h): the classes of NPUs, when the
     * NPUs are not all alike but fall into classes; the driver sets
     * sim->roles to it. */
    bool over_roles;
    npu_relabel roles;
} symmetry;

/* Decides for the loaded run `r`; `shipped_analytical`: the backend is the
 * shipped analytical module (backend_is_shipped). The caller sets
 * s->reduced when the mode is SYMMETRY_ON. */
void symmetry_check(const sim *s, const wl_run *r, bool shipped_analytical, symmetry *out);

/* Releases what symmetry_check kept (the classes over roles). */
void symmetry_free(symmetry *sym);

/* An eligible or reduced run that must be simulated in full after all:
 * `why` says what the reduced simulation does not cover. */
void symmetry_refuse(symmetry *sym, const char *why);

/* The one line that says which mode the run used and why. */
void symmetry_print(const symmetry *sym, FILE *log);

#endif
