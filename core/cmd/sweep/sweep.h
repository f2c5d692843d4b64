/*
 * sweep.h - `vimana sweep SPEC.yaml --out DIR`: the points of a sweep file
 * (docs/sweep.md), each run by a child vimana in a worker pool, resumable,
 * the results in DIR/results.csv and DIR/results.json.
 */
#ifndef VIMANA_CMD_SWEEP_SWEEP_H
#define VIMANA_CMD_SWEEP_SWEEP_H

#include <stdio.h>

/* argv[0] is "sweep". Returns the exit status: 0 all points ok, 1 a point
 * failed or the sweep was interrupted, 2 a usage or sweep-file error. */
int sweep_main(int argc, char **argv, FILE *out, FILE *err);

#endif
