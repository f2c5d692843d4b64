/*
 * path_msg.h - the "PATH: MESSAGE" / "PATH:LINE: MESSAGE" form of an input
 * file's error.
 *
 * The configuration readers (network YAML, topology files, the custom map,
 * the system JSON), the roles map and calibrate's nccl-tests tables each
 * report a bad file in this one form; they share the formatting here so
 * that the form cannot drift between them.
 */
#ifndef VIMANA_UTIL_PATH_MSG_H
#define VIMANA_UTIL_PATH_MSG_H

#include "util/exported_names.h"

#include <stdarg.h>
#include <stddef.h>

/* The longest MESSAGE (NUL included) a reader may ask path_vmsg to keep. */
#define PATH_MSG_MAX 640

/* Formats MESSAGE from fmt and ap, cut to msg_max - 1 bytes (msg_max from 1
 * to PATH_MSG_MAX: each reader keeps the limit it always had, so a long
 * message is cut where it was), and writes "PATH: MESSAGE", or
 * "PATH:LINE: MESSAGE" when line > 0, into err (err_len > 0 bytes).
 * Returns -1, the readers' failure value, so that a reader's own fail()
 * can end with it. */
int path_vmsg(char *err, size_t err_len, const char *path, size_t line, size_t msg_max, const char *fmt,
              va_list ap) __attribute__((format(printf, 6, 0)));

#endif
