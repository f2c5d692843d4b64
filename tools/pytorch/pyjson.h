/*
 * pyjson.h - JSON documents read the way Python's json.load() reads them,
 * into a compact read-only tree.
 *
 * The tree is what the reference converter sees: integers are exact
 * (int64 or uint64; anything wider is refused rather than rounded), NaN,
 * Infinity and -Infinity are floats, a repeated object key keeps its first
 * position and its last value (like a dict), and object members stay in
 * file order. Refused, each with a line and column:
 *   - invalid UTF-8 (Python cannot decode the file),
 *   - raw control characters inside strings (json.load is strict),
 *   - anything outside Python's JSON grammar (trailing commas, "1.", ...),
 *   - integers outside [-2^63, 2^64 - 1],
 *   - \u0000 and unpaired surrogate escapes (C strings and UTF-8 cannot
 *     carry them; no trace producer writes them).
 *
 * Parsing is in place: strings are decoded inside the document's own copy
 * of the text, so a document costs about the size of its text plus 24 bytes
 * per value, and loading is linear in the text.
 */
#ifndef VIMANA_PYTORCH_PYJSON_H
#define VIMANA_PYTORCH_PYJSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pytorch/pt_error.h"

enum pj_type { PJ_NULL, PJ_BOOL, PJ_INT, PJ_FLOAT, PJ_STRING, PJ_ARRAY, PJ_OBJECT };

typedef struct pj_member pj_member;

typedef struct pj_value {
    uint8_t type;           /* enum pj_type */
    bool negative;          /* PJ_INT: the value is v.i (< 0), else v.u */
    bool b;                 /* PJ_BOOL */
    uint32_t n;             /* bytes of a string, items of an array, members of an object */
    union {
        uint64_t u;
        int64_t i;
        double d;
        const char *s;      /* NUL-terminated, valid UTF-8, no NUL inside */
        const struct pj_value *items;
        const pj_member *members;
    } v;
} pj_value;

struct pj_member {
    const char *key;
    uint32_t key_len;
    pj_value value;
};

typedef struct pj_block pj_block;

typedef struct pj_doc {
    char *text;             /* the document's text, decoded in place */
    pj_block *blocks;       /* arena holding arrays and members */
    pj_value root;
} pj_doc;

/* Parses `len` bytes (copied into the document). `name` is used in
 * messages. Returns 0, or -1 with err set and the document empty. */
int pj_parse(pj_doc *doc, const char *name, const char *text, size_t len, pt_error *err);
/* Reads a whole file (plain or gzip, detected by zlib) and parses it. */
int pj_load(pj_doc *doc, const char *path, pt_error *err);
void pj_free(pj_doc *doc);

/* Member `key` of an object (the last one when repeated), or NULL when v
 * is not an object or has no such member. */
const pj_value *pj_get(const pj_value *v, const char *key);
/* Item i of an array, or NULL when out of range or v is not an array. */
const pj_value *pj_at(const pj_value *v, size_t i);
/* Items of an array (0 for anything else). */
size_t pj_len(const pj_value *v);
/* The string, or NULL when v is not a string. */
const char *pj_str(const pj_value *v);
/* Python's type name: "NoneType", "bool", "int", "float", "str", "list", "dict". */
const char *pj_type_name(const pj_value *v);

#endif
