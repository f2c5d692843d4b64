/*
 * unicode_printable.h - Python's str.isprintable() for one code point, as
 * CPython 3.11 (Unicode 14.0.0) answers it. repr() keeps printable
 * characters and escapes the others, so the PyTorch converter needs the
 * same answer to reproduce the reference's IOInfo strings byte for byte.
 */
#ifndef VIMANA_PYTORCH_UNICODE_PRINTABLE_H
#define VIMANA_PYTORCH_UNICODE_PRINTABLE_H

#include <stdbool.h>
#include <stdint.h>

/* False for control, format, surrogate, private-use, unassigned and
 * separator characters other than the ASCII space. */
bool pt_unicode_isprintable(uint32_t cp);

#endif
