/*
 * sweep_slurm.h - `vimana sweep --slurm`: a Slurm job array instead of the
 * local pool. The script DIR/sweep.sbatch runs, in each array task,
 * `vimana sweep SPEC --out DIR --batch I/N`: the points whose index is I
 * modulo N, with their results written to DIR/points as a local sweep
 * writes them; `vimana sweep SPEC --out DIR --collect` then writes the
 * results files. Slurm does the scheduling; nothing here talks to other
 * machines.
 */
#ifndef VIMANA_CMD_SWEEP_SWEEP_SLURM_H
#define VIMANA_CMD_SWEEP_SWEEP_SLURM_H

#include <stddef.h>

#include "cmd/sweep/sweep_spec.h"

/* The array tasks for n_points: the sweep file's `tasks` (at most one per
 * point), else up to 100. */
unsigned sweep_slurm_tasks(const sweep_spec *s, size_t n_points);

/* Writes the sbatch script to `script`; exe, spec and out are absolute
 * paths (the tasks may start elsewhere). Returns 0, or -1 with err. */
int sweep_slurm_write(const sweep_spec *s, size_t n_points, const char *exe, const char *spec, const char *out,
                      const char *script, char *err, size_t len);

/* Runs `sbatch --parsable SCRIPT` (sbatch from PATH) and puts its job id
 * in id. Returns 0, or -1 with err (sbatch missing, failed). */
int sweep_slurm_submit(const char *script, const char *out_dir, char *id, size_t id_len, char *err, size_t len);

#endif
