/*
 * pyvalue.h - JSON values read the way the reference's Python code and its
 * protobuf runtime treat the objects json.load() returns: a bool is an
 * integer (0/1), an int64 field refuses values outside its range, and
 * truthiness follows Python (0, 0.0, "", [], {}, null and false are false).
 * A NULL value pointer means "absent" and fails every conversion.
 */
#ifndef VIMANA_PYTORCH_PYVALUE_H
#define VIMANA_PYTORCH_PYVALUE_H

#include <stdbool.h>
#include <stdint.h>

#include "pytorch/pyjson.h"

/* An int (or bool) that fits int64: 0 and *out set, else -1. */
int pt_pyvalue_int64(const pj_value *v, int64_t *out);
/* A non-negative int (or bool): 0 and *out set, else -1. */
int pt_pyvalue_uint64(const pj_value *v, uint64_t *out);
/* A number (int, float or bool) as a double: 0 and *out set, else -1. */
int pt_pyvalue_number(const pj_value *v, double *out);
/* Python's bool(value); false when absent. */
bool pt_pyvalue_truthy(const pj_value *v);

#endif
