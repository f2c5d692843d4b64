/*
 * json_escape.h - the escapes of a JSON string, decoded by one set of
 * rules for every reader (the strict configuration layer, the streaming
 * trace readers, the PyTorch reader): "\n" and the other one-letter
 * escapes, "\uXXXX", and a surrogate pair "\uD83D\uDE00" that stands for
 * one character. What a reader does with a lone surrogate (refuse it, keep
 * it, or read it as a raw byte) is its own rule.
 */
#ifndef VIMANA_UTIL_JSON_ESCAPE_H
#define VIMANA_UTIL_JSON_ESCAPE_H

#include "util/exported_names.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

static inline bool json_is_high_surrogate(uint32_t u)
{
    return u >= 0xD800 && u <= 0xDBFF;
}

static inline bool json_is_low_surrogate(uint32_t u)
{
    return u >= 0xDC00 && u <= 0xDFFF;
}

/* The character a high and a low surrogate stand for together. */
static inline uint32_t json_surrogate_pair(uint32_t high, uint32_t low)
{
    return 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
}

/* The value (0 to 15) of one hexadecimal digit, or -1. */
int json_hex_digit(char c);

/* The value of the four hexadecimal digits at p (four bytes readable), or
 * -1 when one of them is not a hexadecimal digit. */
long json_hex4(const char *p);

/* The byte a one-letter escape stands for ('n' for "\n" gives '\n', '"',
 * '\\', '/', 'b', 'f', 'r', 't' likewise), or -1 for any other letter
 * ('u' included: see json_unicode_escape). */
int json_simple_escape(char letter);

/* Decodes the "\uXXXX" at p (p[0] is '\\', p[1] is 'u'), of which `avail`
 * bytes may be read, into *cp. A high surrogate followed at once by an
 * escaped low one is one character (12 bytes); any other surrogate is
 * returned as it is (6 bytes), for the caller to judge. Returns the bytes
 * taken, or 0 when four hexadecimal digits do not follow "\u". */
size_t json_unicode_escape(const char *p, size_t avail, uint32_t *cp);

/* Decodes the escape at p (p[0] is '\\', `avail` bytes readable) into *cp:
 * a one-letter escape or json_unicode_escape's. Returns the bytes taken, or
 * 0 for an escape JSON does not have. */
size_t json_escape_decode(const char *p, size_t avail, uint32_t *cp);

#endif
