/*
 * json_lex.h - the lexical layer of the tools' trace-JSON readers: white
 * space, string literals (escapes, surrogates, UTF-8), number literals,
 * the words true/false/null/NaN/Infinity, and line:column of an offset.
 *
 * Three readers share it, each keeping its own structure and messages:
 * from-json's streaming reader (etcmd/json_in), trace_link's span walker
 * (trace_link/json_scan) and the PyTorch reader's Python tree
 * (pytorch/pyjson). So the lexer never formats a message: a scan returns
 * what went wrong (enum json_lex_error) and the offsets a reader needs to
 * point its own message where it always has.
 *
 * Every function works on a window `buf[0, len)` of which buf[len] is
 * readable and '\0'. The sentinel ends every token (it is no digit, quote
 * or letter), so the inner loops test one byte, not the length as well:
 * trace_link runs them over a gigabyte. A '\0' before len is an ordinary
 * (control) byte. A streaming reader passes the part of its input it holds;
 * a scan that stops at len (json_lex_string's `stop`) tells it to read more
 * and scan again.
 */
#ifndef VIMANA_TOOLS_JSON_LEX_H
#define VIMANA_TOOLS_JSON_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a scan found wrong. */
enum json_lex_error {
    JSON_LEX_OK = 0,
    /* strings */
    JSON_LEX_UNTERMINATED,   /* the window ended before the closing quote */
    JSON_LEX_CONTROL,        /* a raw byte below 0x20 */
    JSON_LEX_BAD_ESCAPE,     /* '\' and a letter JSON has no escape for */
    JSON_LEX_BAD_HEX,        /* "\u" without four hexadecimal digits */
    JSON_LEX_LONE_SURROGATE, /* a surrogate escape the mode refuses alone */
    JSON_LEX_NUL_ESCAPE,     /* "\u0000" where the mode refuses it */
    JSON_LEX_BAD_UTF8,       /* bytes that are not well-formed UTF-8 */
    /* numbers: where a digit must come, something else does */
    JSON_LEX_NO_DIGIT,          /* at the start, or after '-' */
    JSON_LEX_NO_FRACTION_DIGIT, /* after '.' */
    JSON_LEX_NO_EXPONENT_DIGIT  /* after 'e' and its sign */
};

/* How strings are read: each reader's rules for what an escape may stand
 * for and for raw bytes. */
enum json_lex_mode {
    /* trace_link compares strings as UTF-16 code units and never decodes
     * them: "\u" needs four hexadecimal digits, any value goes (a lone
     * surrogate included); raw bytes must be strict UTF-8, as Python
     * decodes its input. */
    JSON_LEX_UNITS,
    /* from-json reads back json_out's form: raw bytes are taken as they
     * are; a high surrogate escape must be followed by an escaped low one
     * (the pair is one character); a lone \udc80..\udcff is the raw byte
     * 0x80..0xff; any other lone low surrogate is refused. */
    JSON_LEX_BYTES,
    /* The PyTorch reader keeps Python's json.load result in C strings:
     * strict UTF-8; a high surrogate followed by an escaped low one is a
     * pair; any other surrogate escape, and "\u0000", are refused. */
    JSON_LEX_PYTHON
};

/* The result of json_lex_string. */
typedef struct json_lex_str {
    size_t end;      /* JSON_LEX_OK: offset of the closing quote */
    bool escaped;    /* JSON_LEX_OK: the content has at least one escape */
    /* An error: `at` is the start of what is wrong (the byte, the '\' of
     * the escape; len when unterminated); `stop` the byte that decided it
     * (a bad hexadecimal digit, the byte where a low surrogate escape was
     * due), len when the window ended first; `unit` the refused surrogate
     * of JSON_LEX_LONE_SURROGATE. */
    size_t at, stop;
    uint32_t unit;
} json_lex_str;

/* JSON's white space: space, tab, newline, carriage return. */
static inline bool json_lex_is_ws(unsigned char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* The offset of the first byte at or after pos that is not white space
 * (len at the end). Inline: it runs before every token. */
static inline size_t json_lex_skip_ws(const char *buf, size_t len, size_t pos)
{
    const unsigned char *b = (const unsigned char *)buf;
    while (pos < len && json_lex_is_ws(b[pos]))
        pos++;
    return pos;
}

/* Bytes that end the plain run inside a string: the quote, an escape, a
 * control byte (the sentinel included) and anything not ASCII. */
static inline bool json_lex_string_special(unsigned char c)
{
    return c < 0x20 || c == '"' || c == '\\' || c >= 0x80;
}

enum json_lex_error json_lex_string_rest(const char *buf, size_t len, size_t pos, enum json_lex_mode mode,
                                         json_lex_str *r);

/* Scans a string literal whose content starts at pos (just after the
 * opening quote) by the rules of `mode`; on success r->end is the offset of
 * the closing quote. Inline for the common string of plain ASCII, which
 * needs one loop; anything else goes on in json_lex_string_rest. */
static inline enum json_lex_error json_lex_string(const char *buf, size_t len, size_t pos, enum json_lex_mode mode,
                                                  json_lex_str *r)
{
    const unsigned char *b = (const unsigned char *)buf;
    size_t p = pos;
    while (!json_lex_string_special(b[p]))
        p++;
    if (b[p] == '"') {
        r->end = p;
        r->escaped = false;
        return JSON_LEX_OK;
    }
    return json_lex_string_rest(buf, len, p, mode, r);
}

/* Decodes the content src[0, n) of a string json_lex_string accepted in the
 * same mode into dst, which may be src itself (the decoded text is never
 * longer). Returns the bytes written; nothing is appended. */
size_t json_lex_decode(const char *src, size_t n, char *dst, enum json_lex_mode mode);

/* The next UTF-16 code unit, or raw byte, of accepted string content at
 * *pos, escapes resolved; *pos moves past it. Comparing strings unit by
 * unit needs no buffer. */
unsigned json_lex_unit(const char *buf, size_t *pos);

/* NaN, Infinity and -Infinity: Python's json reads and writes them. */
enum json_lex_special { JSON_LEX_FINITE, JSON_LEX_NAN, JSON_LEX_INFINITY, JSON_LEX_NEG_INFINITY };

/* The result of json_lex_number. */
typedef struct json_lex_num {
    size_t end;     /* just past the literal */
    size_t int_end; /* just past the integer part (sign and digits) */
    bool integer;   /* no fraction and no exponent */
    enum json_lex_special special;
    size_t at;      /* an error: where a digit was due */
} json_lex_num;

/* Scans the longest number literal of JSON's grammar at pos,
 * -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?, and with `python` also
 * NaN, Infinity and -Infinity. A '.' or an exponent mark must be followed
 * by its digits. What follows the literal is not judged: "01" is the
 * literal "0" followed by '1', for the reader to refuse its own way. */
enum json_lex_error json_lex_number(const char *buf, size_t len, size_t pos, bool python, json_lex_num *n);

/* How many leading bytes of `word` stand at buf[pos...] (strlen(word) when
 * the whole word does). A reader that consumes a wrong word up to the
 * first wrong byte needs the count, not only a yes or no. */
size_t json_lex_word(const char *buf, size_t len, size_t pos, const char *word);

/* Moves a 1-based line and byte column over the n bytes at p. A streaming
 * reader keeps the position of its next byte this way. */
void json_lex_advance(const char *p, size_t n, size_t *line, size_t *col);

/* The 1-based line and byte column of offset off (at most len). */
void json_lex_line_col(const char *buf, size_t len, size_t off, size_t *line, size_t *col);

#endif
