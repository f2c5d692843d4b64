/*
 * text_write.h - writes a plan as PREFIX.<npu>.et for every NPU, with the
 * bytes of the reference converter.
 */
#ifndef VIMANA_CONVERT_TEXT_WRITE_H
#define VIMANA_CONVERT_TEXT_WRITE_H

#include <stdint.h>

#include "text_plan.h"
#include "text_workload.h"

/* The `schema` attribute the reference writes into every file's metadata. */
#define TEXT_SCHEMA "1.0.2-chakra.1.0.0"

/* Writes the files of NPUs 0 .. npus-1; NPU k's ids are the plan indices
 * plus k times the plan size. On failure, removes the files it created and
 * returns -1 with `err` set. */
int text_write_npus(const struct plan *p, const char *prefix, uint64_t npus, struct text_error *err);

#endif
