/*
 * logical_dims.h - ASTRA-sim's ns-3 logical topology file,
 * --logical-topology-configuration=FILE.json (MICRO'24's ns-3 demo):
 *
 *   {"logical-dims": ["16", "8"]}
 *
 * the sizes of the dimensions the system layer sees, as strings or
 * integers. Vimana takes the dimensions from the network configuration, so
 * the file is only checked: its dimensions must multiply to the run's NPU
 * count (upstream checks nothing and runs a wrong file silently). Any other
 * key, a size that is no integer from 1 to 2^31, or a product that differs
 * is one line naming the file.
 */
#ifndef VIMANA_CONFIG_LOGICAL_DIMS_H
#define VIMANA_CONFIG_LOGICAL_DIMS_H

#include <stddef.h>
#include <stdint.h>

/* Checks `path` against a run of n_npus NPUs. Returns 0, or -1 with one
 * line in err. */
int logical_dims_check(const char *path, uint32_t n_npus, char *err, size_t err_len);

#endif
