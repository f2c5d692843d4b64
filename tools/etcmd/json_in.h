/*
 * json_in.h - a small JSON reader for from-json. The top level of a large
 * document is walked piece by piece (json_in_peek / json_in_expect /
 * json_in_key), and each value inside it (one node) is parsed into a tree
 * kept in an arena that the caller resets after each value. Memory stays
 * bounded by the largest single value, not the document.
 *
 * Numbers keep their source text so 64-bit integers are read exactly.
 * Strings are decoded to UTF-8 with their length; a lone surrogate escape
 * \udc80..\udcff stands for the raw byte 0x80..0xff (the form json_out
 * writes for bytes that are not UTF-8), so such strings round-trip.
 * Input may be gzip-compressed (detected by its magic bytes).
 */
#ifndef VIMANA_ETCMD_JSON_IN_H
#define VIMANA_ETCMD_JSON_IN_H

#include <stdbool.h>
#include <stddef.h>

#include "util/arena.h"

enum jv_kind { JV_NULL, JV_BOOL, JV_NUMBER, JV_STRING, JV_ARRAY, JV_OBJECT };

typedef struct jv jv;
typedef struct jmember jmember;

struct jv {
    enum jv_kind kind;
    bool b;             /* JV_BOOL */
    size_t len;         /* bytes of text (NUMBER, STRING) or number of items */
    union {
        const char *text;        /* NUMBER: source text; STRING: decoded, NUL-terminated */
        const jv *items;         /* ARRAY */
        const jmember *members;  /* OBJECT, in document order */
    } u;
};

struct jmember {
    const char *key;
    size_t key_len;
    jv value;
};

typedef struct json_in json_in;

/* Opens `path` ("-" = stdin). Returns NULL with a message in err. */
json_in *json_in_open(const char *path, char *err, size_t errlen);
void json_in_close(json_in *in);

/* Skips white space and returns the next character without consuming it
 * ('\0' at end of input, also when the input failed: see json_in_failed). */
char json_in_peek(json_in *in);
/* Consumes `c` after white space; false (with an error set) otherwise. */
bool json_in_expect(json_in *in, char c, const char *what);
/* Reads an object key and its ':' into `buf` (NUL-terminated, truncated to
 * `cap`). */
bool json_in_key(json_in *in, char *buf, size_t cap);
/* Parses one whole value into `a`. */
bool json_in_value(json_in *in, jv *out, arena *a);
/* True once the end of the input (after white space) is reached. */
bool json_in_at_end(json_in *in);

/* Sets the error: "line L, column C: MESSAGE". Only the first is kept. */
void json_in_fail(json_in *in, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool json_in_failed(const json_in *in);
const char *json_in_error(const json_in *in);

/* Looks up a member; NULL when absent. */
const jv *jv_get(const jv *obj, const char *key);
const char *jv_kind_name(enum jv_kind kind);

#endif
