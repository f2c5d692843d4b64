/* yaml_file.h - load a YAML file that must hold exactly one document, for
 * the driver's own file formats (jobs files, sweep files). */
#ifndef VIMANA_SIM_YAML_FILE_H
#define VIMANA_SIM_YAML_FILE_H

#include <stdarg.h>
#include <stddef.h>
#include <yaml.h>

/* Reads the document's root; returns 0, or -1 with its own message in the
 * caller's error buffer. */
typedef int (*yaml_file_read_fn)(void *ctx, yaml_document_t *doc, const yaml_node_t *root);

/* Opens `path` (a regular file), loads its first document, hands the root
 * to `read` and refuses a second document. `shown` is the path as messages
 * print it (escaped); `what` names the format in the message about a second
 * document ("a jobs file"). Errors: "SHOWN: why", "SHOWN:LINE: problem". */
int yaml_file_load(const char *path, const char *shown, const char *what, yaml_file_read_fn read, void *ctx,
                   char *err, size_t len);

/* The first document of `path` only (a format that other readers accept
 * with more documents after it): 0 with `doc` to delete, or -1 with the
 * same errors as yaml_file_load. */
int yaml_file_first_document(const char *path, const char *shown, yaml_document_t *doc, char *err, size_t len);

/* A reader's one-line error: "SHOWN:LINE: message" for a node (its line),
 * "SHOWN: message" without one. Returns -1. */
int yaml_file_vfail(char *err, size_t len, const char *shown, const yaml_node_t *at, const char *fmt, va_list ap)
    __attribute__((format(printf, 5, 0)));

#endif
