/*
 * pyfmt.h - the textual forms the reference JSON uses. The corpus'
 * `*.et.json` files come from Python's json.dumps(MessageToDict(msg)), so
 * numbers and strings must be spelled exactly as Python spells them:
 * repr() of floats, ensure_ascii string escapes, standard base64.
 */
#ifndef VIMANA_ETCMD_PYFMT_H
#define VIMANA_ETCMD_PYFMT_H

#include <stddef.h>
#include <stdint.h>

#include "etcmd/sink.h"

/* Large enough for any output of the two formatters below. */
#define PYFMT_NUM_MAX 40

/* Python repr() of a double: the shortest digits that read back as the
 * same double, in fixed notation when 1e-4 <= |v| < 1e16, else with an
 * exponent ("1e-05", "1.5e+16"); integral values end in ".0". NaN and
 * infinities give "nan", "inf", "-inf" (callers map those themselves). */
void pyfmt_double(double v, char out[PYFMT_NUM_MAX]);

/* The value protobuf's MessageToDict gives a float field: the shortest
 * "%.Ng" (N >= 6) that converts back to the same float32, then repr(). */
void pyfmt_float32(float v, char out[PYFMT_NUM_MAX]);

/* Writes `len` bytes of UTF-8 text as a JSON string literal the way
 * json.dumps(ensure_ascii=True) does: \" \\ \n \r \t \b \f, other control
 * characters and DEL as \u00XX, every non-ASCII character as \uXXXX
 * (lowercase hex, surrogate pairs above U+FFFF). Bytes that are not valid
 * UTF-8 are written as lone surrogates \udc80..\udcff (Python's
 * "surrogateescape"), which pyfmt_unescape-aware readers turn back into
 * the same bytes, so no string is lost. */
void pyfmt_json_string(sink *s, const char *p, size_t len);

/* Length (1-4) of the valid UTF-8 sequence at p, or 0 when the bytes
 * there are not valid UTF-8 (overlong forms and surrogates included). */
size_t pyfmt_utf8_seq(const unsigned char *p, size_t avail);

/* Standard base64 with padding, as Python's base64.b64encode. */
void pyfmt_base64(sink *s, const uint8_t *p, size_t len);

/* Decodes standard base64 (padding optional, no whitespace). Writes at
 * most 3 * ceil(len / 4) bytes to `out`. Returns the decoded length, or
 * -1 when the text is not base64. */
long pyfmt_base64_decode(const char *text, size_t len, uint8_t *out);

#endif
