/*
 * jobs_generate.h - the workload of a job given as a generator spec in a
 * jobs file (`generate: {kind: all-to-all, size: 1MiB}`, docs/jobs.md):
 * one collective of that kind and size on every rank, written as the
 * single trace PREFIX.et that `vimana-et generate KIND --npus N --size S
 * --single-file --out PREFIX` writes (the same bytes), so the job runs
 * exactly as with that prefix.
 */
#ifndef VIMANA_CMD_JOBS_JOBS_GENERATE_H
#define VIMANA_CMD_JOBS_JOBS_GENERATE_H

#include <stddef.h>
#include <stdint.h>

/* The collective kinds a spec may name, by the names vimana-et uses. */
typedef enum { GEN_NONE, GEN_ALL_REDUCE, GEN_ALL_GATHER, GEN_REDUCE_SCATTER, GEN_ALL_TO_ALL } gen_kind;

/* "all-reduce" (or "all_reduce") ... -> its kind; GEN_NONE if unknown. */
gen_kind jobs_gen_kind(const char *name);
/* "1048576", "64KiB", "1MiB", "2GiB" -> bytes (at least 1, below 2^62);
 * -1 if the text is no such size. */
int jobs_gen_size(const char *text, uint64_t *bytes);

/* Writes PREFIX.et for `npus` ranks. Returns 0, or -1 with one line in err. */
int jobs_generate(gen_kind kind, uint64_t size, uint32_t npus, const char *prefix, char *err, size_t len);

#endif
