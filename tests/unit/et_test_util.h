/*
 * et_test_util.h - small helpers shared by the ET unit tests: temporary
 * files with given bytes, whole-file reads, gzip-aware reads, and the
 * location of the shared reference data.
 */
#ifndef VIMANA_ET_TEST_UTIL_H
#define VIMANA_ET_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* A fresh temporary path (the file exists, empty). Caller frees and
 * unlinks. */
char *tu_temp_path(const char *suffix);
/* Writes bytes to a new temporary file; returns its path. */
char *tu_temp_file(const void *bytes, size_t len);
/* Reads a whole file (gunzipping it when it is gzip); NULL on failure.
 * *len receives the size. Caller frees. */
uint8_t *tu_read_file(const char *path, size_t *len);
/* Compare two views field by field (floating values bit for bit). Return
 * 1 when equal, else 0 with a description of the first difference. */
#include "vimana/et.h"
int tu_attr_equal(const vet_attr *a, const vet_attr *b, char *why, size_t cap);
int tu_node_equal(const vet_node *a, const vet_node *b, char *why, size_t cap);
int tu_metadata_equal(const vet_metadata *a, const vet_metadata *b, char *why, size_t cap);

/* A test's values for the list attributes, one list per element type (the
 * INT32 list serves INT32, SINT32 and SFIXED32 lists, and so on). */
typedef struct tu_lists {
    vet_list doubles, floats, i32s, u32s, i64s, u64s, bools, strings, bytes;
} tu_lists;
/* When a->kind is a list kind, sets a's value to its list of lists and
 * returns 1; else returns 0 and leaves a alone. */
int tu_set_list(vet_attr *a, const tu_lists *lists);

/* A test's values for the scalar kinds (as vet_attr's: i32 serves INT32
 * and SFIXED32, u32 UINT32 and FIXED32, and so on), SINT32 and SINT64 on
 * their own. */
typedef struct tu_scalars {
    double d;
    float f;
    int32_t i32, sint32;
    int64_t i64, sint64;
    uint32_t u32;
    uint64_t u64;
    bool b;
    const char *s;
    vet_bytes bytes;
} tu_scalars;
/* Two attributes of each kind, DOUBLE to BYTES_LIST: "<kind>" at the
 * test's value (scalars, else lists) with doc_string doc, then
 * "<kind>_default" at the proto3 default (0, false, empty; doc_string
 * ""). Their names are kept in names. Returns how many (60). */
size_t tu_all_kinds(vet_attr *out, char names[][40], const char *doc, const tu_scalars *scalars,
                    const tu_lists *lists);

/* $VIMANA_SHARED when it names a directory holding golden/, else NULL. */
const char *tu_shared(void);
/* The reference data to read: tu_shared() when there, else
 * $VIMANA_SRCDIR/tests/data (the same layout: corpus/, golden/, a subset). */
const char *tu_ref(void);

#endif
