/*
 * json_out.h - ET records as the proto3 JSON mapping with the .proto field
 * names, laid out exactly as Python's json.dumps(obj, indent=1) lays out
 * MessageToDict(msg, preserving_proto_field_name=True): the format of the
 * corpus' `*.et.json` files. Written record by record, so the document is
 * never held in memory:
 *
 *   json_out_begin(s, md);  json_out_node(s, n) ...;  json_out_end(s);
 */
#ifndef VIMANA_ETCMD_JSON_OUT_H
#define VIMANA_ETCMD_JSON_OUT_H

#include "etcmd/sink.h"
#include "vimana/et.h"

typedef struct json_out {
    sink *s;
    unsigned long long nodes;   /* nodes written so far */
} json_out;

void json_out_begin(json_out *j, sink *s, const vet_metadata *md);
void json_out_node(json_out *j, const vet_node *n);
void json_out_end(json_out *j);

#endif
