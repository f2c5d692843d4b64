/*
 * calibrate.h - `vimana calibrate NCCL_TESTS_OUTPUT... --topology FILE
 * -o DIR`: fits the NCCL-aware model (docs/nccl.md) to nccl-tests
 * measurements and writes a preset (docs/calibrate.md).
 */
#ifndef VIMANA_CMD_CALIBRATE_CALIBRATE_H
#define VIMANA_CMD_CALIBRATE_CALIBRATE_H

#include <stdio.h>

/* argv[0] is "calibrate". Returns the exit status: 0, 1 (bad input) or
 * 2 (bad command line). */
int calibrate_main(int argc, char **argv, FILE *out, FILE *err);

#endif
