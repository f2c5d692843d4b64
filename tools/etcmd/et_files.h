/*
 * et_files.h - the files a PREFIX_OR_FILE argument names: the file itself
 * when it exists, else PREFIX.0.et, PREFIX.1.et, ... up to the first
 * missing rank (PREFIX.k.et.gz is used where PREFIX.k.et is absent).
 */
#ifndef VIMANA_ETCMD_ET_FILES_H
#define VIMANA_ETCMD_ET_FILES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct et_files {
    char **paths;
    size_t n;
    bool is_prefix;   /* paths[k] is rank k's file */
} et_files;

/* Returns 0, or -1 after printing "PROG: ARG: ..." when nothing matches,
 * or "PROG: error: PATH: ..." when ARG or a rank's file exists but is not a
 * regular file (a directory, a device). */
int et_files_resolve(const char *prog, const char *arg, et_files *out);
void et_files_free(et_files *f);

#endif
