/* yaml_file.h - load a YAML file that must hold exactly one document, for
 * the driver's own file formats (jobs files, sweep files). */
#ifndef VIMANA_CONFIG_YAML_FILE_H
#define VIMANA_CONFIG_YAML_FILE_H

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

/* What every reader of one of these formats holds: the document and where
 * its one-line error goes. A format's reader embeds it as its member `y`. */
typedef struct yaml_reader {
    yaml_document_t *doc;
    char path[512];     /* the file, escaped for messages */
    char *err;
    size_t err_len;
} yaml_reader;

/* The reader's one-line error: "SHOWN:LINE: message" for a node (its line),
 * "SHOWN: message" without one. Returns -1. */
int yaml_reader_fail(yaml_reader *r, const yaml_node_t *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The same for a line number (1-based; 0: none) kept from a node. */
int yaml_reader_fail_line(yaml_reader *r, size_t line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The node of id `id` in the reader's document (NULL for none). */
const yaml_node_t *yaml_reader_node(const yaml_reader *r, int id);

/* A scalar node's text; NULL for any other node or none. */
const char *yaml_scalar(const yaml_node_t *n);

#endif
