/*
 * et_error.h - filling a caller's vet_error (vimana/et.h), for the ET
 * reader and writer.
 */
#ifndef VIMANA_ET_ERROR_H
#define VIMANA_ET_ERROR_H

#include "vimana/et.h"

/* Formats the message into err->msg (cut to its size); a NULL err, which
 * callers may pass when they do not want the message, is left alone. */
void et_set_err(vet_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
