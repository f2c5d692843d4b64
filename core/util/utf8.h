/*
 * utf8.h - strict UTF-8, as Python's codec does it. The reference tools
 * read their inputs as Python str, so the tools accept, refuse and
 * re-encode text by the same rules: no overlong forms, no encoded
 * surrogates, nothing above U+10FFFF, no truncated sequence. The core uses
 * the same rules for configuration strings and its JSON outputs.
 */
#ifndef VIMANA_UTIL_UTF8_H
#define VIMANA_UTIL_UTF8_H

#include "util/exported_names.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Length (1-4) of the well-formed UTF-8 sequence at p, of which `avail`
 * (at least 1) bytes may be read, with its code point in *cp; 0 when the
 * bytes there are not well-formed UTF-8. Inline: parsers call it for
 * every byte of their input. */
static inline size_t utf8_decode(const unsigned char *p, size_t avail, uint32_t *cp)
{
    unsigned char c = p[0];
    size_t n;
    uint32_t min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    /* Lead bytes 0xc0, 0xc1 and 0xf5..0xf7 are let through here: they can
     * only start an overlong form or a value above U+10FFFF, which the
     * range check below refuses. */
    if ((c & 0xe0) == 0xc0) {
        n = 2, min = 0x80, *cp = c & 0x1fu;
    } else if ((c & 0xf0) == 0xe0) {
        n = 3, min = 0x800, *cp = c & 0x0fu;
    } else if ((c & 0xf8) == 0xf0) {
        n = 4, min = 0x10000, *cp = c & 0x07u;
    } else {
        return 0;
    }
    if (avail < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        *cp = (*cp << 6) | (p[i] & 0x3fu);
    }
    if (*cp < min || *cp > 0x10ffff || (*cp >= 0xd800 && *cp <= 0xdfff))
        return 0;
    return n;
}

/* Whether p[0..len) is well-formed UTF-8 throughout. */
bool utf8_valid(const char *p, size_t len);

/* Writes the UTF-8 encoding of code point cp (at most U+10FFFF) to out;
 * returns its length (1-4). */
size_t utf8_encode(uint32_t cp, char out[4]);

#endif
