/*
 * json_to_et.h - turns the parsed JSON form of one record (see json_out.h)
 * back into an ET view for the writer. Accepts 64-bit integers as strings
 * or numbers, 32-bit ones as numbers or strings, enums by name or number,
 * NaN/Infinity as strings. Every error names the JSON path of the value,
 * e.g. "nodes[3].attr[1]: unknown value kind \"int65_val\"".
 */
#ifndef VIMANA_ETCMD_JSON_TO_ET_H
#define VIMANA_ETCMD_JSON_TO_ET_H

#include <stdbool.h>

#include "etcmd/json_in.h"
#include "util/arena.h"
#include "vimana/et.h"

typedef struct jconv {
    arena *a;           /* arrays of the views come from here */
    char path[256];     /* JSON path of the value being converted */
    size_t path_len;
    char err[512];      /* "PATH: problem" after a failure */
} jconv;

/* `path` is the JSON path of `v` ("global_metadata", "nodes[3]"). The
 * views' strings point into the JSON tree; arrays are taken from c->a.
 * Return false with c->err set. */
bool jconv_metadata(jconv *c, const char *path, const jv *v, vet_metadata *out);
bool jconv_node(jconv *c, const char *path, const jv *v, vet_node *out, vet_io *in_io, vet_io *out_io);

#endif
