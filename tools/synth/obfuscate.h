/*
 * obfuscate.h - rewrites one ET so that it can be shared: the same graph
 * (ids, types, data and control dependencies), the same durations and the
 * attributes the simulator reads, and nothing else. Node names become
 * "<kind>_<id>", attribute doc strings, inputs/outputs, start times and
 * every other attribute are dropped, the global metadata is reduced to
 * the schema version. Durations may be jittered and sizes rounded up (see
 * obfuscate_options).
 */
#ifndef VIMANA_SYNTH_OBFUSCATE_H
#define VIMANA_SYNTH_OBFUSCATE_H

#include <stddef.h>
#include <stdint.h>

typedef struct obfuscate_options {
    double jitter;        /* F in [0, 1): durations times U[1-F, 1+F]; 0 = none */
    uint64_t seed;        /* seed of the jitter */
    uint64_t round_sizes; /* comm_size / tensor_size rounded up to a multiple; 0 or 1 = none */
} obfuscate_options;

/* State kept across the files of one run: the names given to process
 * groups whose pg_name is not a number, so that one group keeps one name
 * ("g0", "g1", ...) on every rank. */
typedef struct obfuscate_ctx obfuscate_ctx;

obfuscate_ctx *obfuscate_new(const obfuscate_options *opt);
void obfuscate_free(obfuscate_ctx *c);

/* Reads the ET `in` (rank `rank`, the jitter's stream) and writes `out`.
 * Returns 0, or -1 with one line in err (file, record and what is wrong);
 * a partial `out` is removed. */
int obfuscate_file(obfuscate_ctx *c, const char *in, const char *out, uint64_t rank, char *err, size_t err_len);

/* The GlobalMetadata version written (the schema of vimana/et.h's writer). */
#define OBFUSCATE_VERSION "0.0.4"

/* The attributes the simulator reads and obfuscate keeps (NULL-ended). */
extern const char *const obfuscate_kept_attrs[];

#endif
