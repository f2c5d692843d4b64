/*
 * pyrepr.h - Python 3 str()/repr() of JSON values, as CPython 3.11 renders
 * the objects json.load() returns. The reference PyTorch converter stores
 * str(node["inputs"]["values"]) etc. in the Chakra IOInfo strings, so these
 * bytes must match Python's exactly (the reference's behaviour, docs/vimana-et.md):
 * lists "[a, b]", dicts "{'k': v}", True/False/None, shortest-round-trip
 * floats ("1e-05", "1e+16", "inf"), and strings quoted and escaped the way
 * unicode_repr() does it.
 *
 * Values come from pyjson.h, which keeps strings valid UTF-8 and integers
 * exact.
 */
#ifndef VIMANA_PYTORCH_PYREPR_H
#define VIMANA_PYTORCH_PYREPR_H

#include <stddef.h>

#include "pytorch/pt_strbuf.h"
#include "pytorch/pyjson.h"

/* repr(value). */
void pt_pyrepr_value(pt_strbuf *sb, const pj_value *value);
/* str(value): repr() except that a string is written as it is. */
void pt_pystr_value(pt_strbuf *sb, const pj_value *value);
/* repr() of a str holding `len` bytes of UTF-8. */
void pt_pyrepr_string(pt_strbuf *sb, const char *s, size_t len);
/* repr() of a float. */
void pt_pyrepr_double(pt_strbuf *sb, double d);

#endif
