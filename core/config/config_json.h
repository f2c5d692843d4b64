/*
 * config_json.h - the configuration files' JSON: read with the strict
 * reader of the base utilities (util/json_doc.h) under the limits of a
 * configuration file, and the checks of typed values, every problem
 * reported as one line that names the file and the key.
 */
#ifndef VIMANA_CONFIG_CONFIG_JSON_H
#define VIMANA_CONFIG_CONFIG_JSON_H

#include <json-c/json.h>
#include <stddef.h>
#include <stdint.h>

/* The size limit of a configuration file: far above any real one, low
 * enough that a hostile file cannot exhaust memory. */
#define CONFIG_JSON_MAX_BYTES (64u << 20)

/* Largest integer a configuration key accepts unless the key has a smaller
 * limit of its own: 2^53 - 1, the largest integer every JSON reader keeps
 * exactly (RFC 8259 section 6), and small enough that sums of a few such
 * times still fit the 64-bit tick counter. */
#define CONFIG_JSON_MAX_INT 9007199254740991ull

/* Reads `path`: a regular file of at most CONFIG_JSON_MAX_BYTES holding one
 * JSON object, as json_doc_parse reads it (no repeated key, only finite
 * numbers, nesting at most JSON_DOC_MAX_DEPTH). Returns the tree (release it with
 * json_object_put), or NULL with "PATH: line L, column C: reason" (or
 * "PATH: reason" for a file that cannot be read) in err. */
json_object *config_json_load(const char *path, char *err, size_t err_len);

/* Writes "PATH: " and the formatted reason into err and returns -1, so
 * that a reader ends with `return config_json_fail(path, err, len, ...)`. */
int config_json_fail(const char *path, char *err, size_t err_len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A limit as it appears in a message: "1000000000", "1e-6", "1e18". */
const char *config_json_format_double(double d, char *buf, size_t len);

/* The value as it appears in a message: compact JSON (so control
 * characters are escaped), cut with "..." when long. Returns buf. */
const char *config_json_value_text(json_object *v, char *buf, size_t len);

/* A number in [min, max] (JSON true and false count as 1 and 0, as the
 * reference reads them). Returns 0, or -1 with "PATH: key 'KEY': ..." in err. */
int config_json_number(const char *path, const char *key, json_object *v, double min, double max,
                       double *out, char *err, size_t err_len);

/* An integer in [0, max]. Returns 0, or -1 with "PATH: key 'KEY': ..." in err. */
int config_json_uint(const char *path, const char *key, json_object *v, uint64_t max, uint64_t *out,
                     char *err, size_t err_len);

#endif
