/*
 * calibrate_input.h - the measurements `vimana calibrate` fits: the tables
 * nccl-tests' *_perf programs print (docs/calibrate.md). Each row becomes
 * one point: the collective (from a "<name>_perf" in a comment line, else
 * from the file's name), nccl-tests' size, the Chakra comm_size it stands
 * for, and the measured time (the faster of out-of-place and in-place).
 */
#ifndef VIMANA_CMD_CALIBRATE_CALIBRATE_INPUT_H
#define VIMANA_CMD_CALIBRATE_CALIBRATE_INPUT_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include "config/system_config.h"

typedef struct calib_point {
    enum coll_kind coll;
    uint64_t tests_bytes;    /* nccl-tests' "size" column */
    uint64_t comm_size;      /* Chakra's comm_size: all-gather's is each rank's input */
    uint32_t npus;           /* ranks: the file's "#  Rank N ..." lines, else the topology's */
    double measured_ns;
    const char *file;        /* as given on the command line */
    uint32_t line;
    bool hierarchical;       /* over several dimensions: one nccl phase per dimension (localBWAware),
                              * else NCCL's flat ring over all of them (oneNccl) */
} calib_point;

typedef struct calib_data {
    calib_point *pts;
    size_t n, cap;
    /* The highest `nvlink-efficiency` the fit may reach (0: 1): NCCL's
     * ring over NVLink moves data at most at its own NVLink rate
     * (calibrate's --nvlink-busbw), below the links' nominal one. */
    double nvlink_efficiency_max;
} calib_data;

/* Appends the rows of nccl-tests output `path`, measured on as many ranks
 * as its header lists ("#  Rank  0 Group  0 Pid ..."), or `npus` when it
 * lists none.
 * Returns 0, or -1 with one line "PATH:LINE: reason" (or "PATH: reason")
 * in err. */
int calib_read_file(const char *path, uint32_t npus, calib_data *d, char *err, size_t err_len);
void calib_data_free(calib_data *d);
/* nccl-tests' program name of a collective: "all_reduce", ... */
const char *calib_coll_tests_name(enum coll_kind k);

#endif
