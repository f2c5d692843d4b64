/*
 * output_file.h - an output written to PATH.part and renamed to PATH only
 * when complete, so a failed run leaves neither a truncated file nor a
 * clobbered earlier result. "-" writes to stdout.
 */
#ifndef VIMANA_TIMELINE_OUTPUT_FILE_H
#define VIMANA_TIMELINE_OUTPUT_FILE_H

#include <stddef.h>
#include <stdio.h>

typedef struct {
    const char *path;
    char *part_path; /* NULL for stdout */
    FILE *f;
} output_file;

#define OUTPUT_FILE_MSG_MAX 512

/* Returns 0, or -1 with "PATH: cannot create: reason" in err. */
int output_file_open(output_file *o, const char *path, char err[OUTPUT_FILE_MSG_MAX]);

/* Flushes, closes and renames into place. Returns 0, or -1 with a message
 * (the partial file is removed). */
int output_file_commit(output_file *o, char err[OUTPUT_FILE_MSG_MAX]);

/* Closes and removes the partial file. */
void output_file_discard(output_file *o);

#endif
