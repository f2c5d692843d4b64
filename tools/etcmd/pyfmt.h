/*
 * pyfmt.h - the textual forms the reference JSON uses beyond Python's own
 * float and string spellings (common/pyfloat.h, common/pyjson_string.h).
 * The corpus' `*.et.json` files come from Python's
 * json.dumps(MessageToDict(msg)), so float32 fields and bytes must be
 * spelled exactly as protobuf spells them: shortest float32 digits,
 * standard base64.
 */
#ifndef VIMANA_ETCMD_PYFMT_H
#define VIMANA_ETCMD_PYFMT_H

#include <stddef.h>
#include <stdint.h>

#include "common/pyfloat.h"
#include "etcmd/sink.h"

/* The value protobuf's MessageToDict gives a float field: the shortest
 * "%.Ng" (N >= 6) that converts back to the same float32, then repr()
 * (common/pyfloat.h, which also spells the double fields). NaN and
 * infinities give "nan", "inf", "-inf" (callers map those themselves). */
void pyfmt_float32(float v, char out[PYFLOAT_MAX]);

/* Standard base64 with padding, as Python's base64.b64encode. */
void pyfmt_base64(sink *s, const uint8_t *p, size_t len);

/* Decodes standard base64 (padding optional, no whitespace). Writes at
 * most 3 * ceil(len / 4) bytes to `out`. Returns the decoded length, or
 * -1 when the text is not base64. */
long pyfmt_base64_decode(const char *text, size_t len, uint8_t *out);

#endif
