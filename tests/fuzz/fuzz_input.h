/*
 * fuzz_input.h - helpers shared by the fuzz targets in tests/fuzz/.
 *
 * Vimana's parsers read files by path, so each execution writes the fuzzer's
 * bytes into a file in a private scratch directory (created on first use,
 * removed at exit) and hands the parser that path.
 */
#ifndef VIMANA_TESTS_FUZZ_INPUT_H
#define VIMANA_TESTS_FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

#define FUZZ_PATH_MAX 4352

/* Stores in `path` the path of `name` inside the scratch directory and
 * returns it (nothing is written). */
const char *fuzz_path(const char *name, char path[FUZZ_PATH_MAX]);

/* Writes data[0, size) to `name` in the scratch directory (replacing it),
 * stores its path in `path` and returns it. Aborts when the file cannot be
 * written: that is a problem of the machine, not a finding. */
const char *fuzz_write(const char *name, const uint8_t *data, size_t size, char path[FUZZ_PATH_MAX]);

/* Splits the input into two parts: the first 4 bytes (little endian) give
 * the length of part 0, clamped to what is left; part 1 is the rest. Inputs
 * shorter than 4 bytes are all part 1. */
void fuzz_split2(const uint8_t *data, size_t size, const uint8_t **p0, size_t *n0, const uint8_t **p1,
                 size_t *n1);

/* A reader's warning callback that drops the warning: a target checks what
 * is read, not what is said about it. */
void fuzz_ignore_warning(void *ctx, const char *message);

#endif
