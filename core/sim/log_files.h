/*
 * log_files.h - --logging-folder: the run's log kept on disk as well. The
 * folder is created if missing (with its parents); log.log receives every
 * line the run prints (the report on stdout and the messages on stderr, in
 * order), err.log the error lines only - the two files ASTRA-sim writes.
 */
#ifndef VIMANA_SIM_LOG_FILES_H
#define VIMANA_SIM_LOG_FILES_H

#include <stddef.h>
#include <stdio.h>

typedef struct log_files {
    FILE *out, *log;          /* the streams the run writes to: stdout/stderr, or tees of them */
    FILE *all, *errors;       /* log.log and err.log, NULL without a folder */
    FILE *user_out, *user_log;
} log_files;

/* With folder NULL the run writes to out and log unchanged. Otherwise
 * creates the folder and its files; returns -1 with one line in err. */
int log_files_open(log_files *lf, const char *folder, FILE *out, FILE *log, char *err, size_t err_len);

/* Flushes and closes the files (not out and log); -1 if a write failed. */
int log_files_close(log_files *lf);

#endif
