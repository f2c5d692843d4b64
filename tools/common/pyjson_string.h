/*
 * pyjson_string.h - JSON string literals spelled as Python's json.dump /
 * json.dumps write them with ensure_ascii (their default). The reference
 * tools write their JSON that way, so a byte-identical output needs the
 * same escapes: \" \\ \n \r \t \b \f, other control characters and DEL as
 * \u00XX, every non-ASCII character as \uXXXX (lowercase hex, a surrogate
 * pair above U+FFFF), printable ASCII as it is ('/' included).
 */
#ifndef VIMANA_TOOLS_PYJSON_STRING_H
#define VIMANA_TOOLS_PYJSON_STRING_H

#include <stddef.h>

/* Receives the literal in pieces, in order. */
typedef void pyjson_write_fn(void *out, const char *bytes, size_t len);

/* A pyjson_write_fn for a stdio stream: `out` is the FILE *. */
void pyjson_write_to_file(void *out, const char *bytes, size_t len);

/* How the input is read; 0 is plain UTF-8 text. */
enum {
    /* Bytes that are not well-formed UTF-8 (utf8.h) are written one by one
     * as lone surrogates \udc80..\udcff, Python's "surrogateescape": a
     * reader that knows the convention gets every byte back. Without this
     * flag each such byte becomes \ufffd, so the output is valid JSON
     * whatever the input. */
    PYJSON_SURROGATEESCAPE = 1u << 0,
    /* The input is the raw text between the quotes of a string in an
     * already validated JSON document (escapes as written there): what
     * json.dump writes for the string json.load reads from it. A \uXXXX
     * escape stays one UTF-16 unit, as Python, which joins a surrogate pair
     * on reading and splits it again on writing, and keeps a lone one. */
    PYJSON_ESCAPED_INPUT = 1u << 1,
};

/* Writes text[0..len) as a quoted JSON string literal, quotes included,
 * through write(out, ...). `flags` is a combination of the above. */
void pyjson_write_string(pyjson_write_fn *write, void *out, const char *text, size_t len, unsigned flags);

#endif
