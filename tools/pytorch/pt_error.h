/*
 * pt_error.h - the one-line error every stage of the PyTorch converter
 * reports: it names the file, the record (node id, JSON path or line) and
 * the cause. The command prints it after its own name and exits 1.
 */
#ifndef VIMANA_PYTORCH_PT_ERROR_H
#define VIMANA_PYTORCH_PT_ERROR_H

typedef struct pt_error {
    char msg[1024];
} pt_error;

/* Formats the message into err (if not NULL) and returns -1, so callers can
 * write `return pt_fail(err, ...);`. */
int pt_fail(pt_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
