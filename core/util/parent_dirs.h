/*
 * util/parent_dirs.h - creates the folders above an output file, as
 * `mkdir -p "$(dirname PATH)"` would: every command that writes a file
 * (traces, reports, timelines, pictures) creates the folder it names;
 * and a folder with its parents, as `mkdir -p DIR` would (the simulator's
 * --logging-folder), by the same walk.
 */
#ifndef VIMANA_UTIL_PARENT_DIRS_H
#define VIMANA_UTIL_PARENT_DIRS_H

#include <stddef.h>

#include "util/exported_names.h"

/* Creates each missing folder of `path` up to its last '/' (none for a
 * bare file name). 0 on success; -1 with `err` = "FOLDER: cannot create
 * directory: REASON" (or "PATH: path too long"). */
int parent_dirs_make(const char *path, char *err, size_t err_len);

/* Creates `dir` and each missing folder above it, top down (a folder's
 * parent exists before it is made); an existing folder is no error. 0 on
 * success; -1 with errno set and `dir` cut at the folder that could not be
 * made (a '\0' written over the '/' after it), so that the caller's message
 * names that folder. */
int dirs_make(char *dir);

#endif
