/*
 * json_out.h - the pieces of JSON the simulator's outputs (--timeline,
 * --report) write: strings that stay valid UTF-8 JSON whatever bytes a
 * trace's node names hold, and cycle counts as exact microseconds.
 */
#ifndef VIMANA_OUT_JSON_OUT_H
#define VIMANA_OUT_JSON_OUT_H

#include <stdint.h>
#include <stdio.h>

/* Writes text as a quoted JSON string. Quotes, backslashes and control
 * bytes are escaped; well-formed UTF-8 is copied; every byte that is not
 * part of well-formed UTF-8 is written as \udcXX (XX = the byte), as
 * `vimana-et json` and Python's surrogateescape do, so no byte is lost and
 * the file stays valid UTF-8. */
void json_out_string(FILE *f, const char *text);

/* Writes ticks (1 tick = 1 ns) as microseconds, exactly: the integer part,
 * then '.' and up to three digits with trailing zeros dropped
 * (117780 -> 117.78, 5 -> 0.005, 2000 -> 2). */
void json_out_micros(FILE *f, uint64_t ticks);

#endif
