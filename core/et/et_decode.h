/*
 * et_decode.h - a direct decoder from Chakra protobuf records to the views
 * of vimana/et.h, for the reader's hot path. protobuf-c's generic unpacker
 * first builds its own structures (and takes most of the read time); this
 * decoder fills the views in one pass, taking strings and list items from
 * an arena and deps/attributes from arrays it reuses record after record.
 *
 * It accepts exactly the inputs protobuf_c_message_unpack() accepts for
 * the same schema (protobuf-c 1.4), with the same results, including its
 * quirks: a bool field reads any wire type, packed bools are varints, a
 * tag's first byte must carry field bits, a length is at most a 5-byte
 * varint, a oneof keeps its last member, a repeated or
 * sub-message field seen twice concatenates or merges.
 * tests/unit/test_et_decode.c checks all this against protobuf-c.
 */
#ifndef VIMANA_ET_DECODE_H
#define VIMANA_ET_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "vimana/et.h"

typedef struct et_decoder {
    arena *a;                  /* strings, list items (reset by the owner) */
    char *strings;             /* this record's string copies: a record's */
    size_t strings_used;       /* strings never outgrow its length + 1 */
    uint64_t *ctrl, *data;     /* reused from record to record */
    size_t n_ctrl, cap_ctrl, n_data, cap_data;
    vet_attr *attrs;
    size_t n_attrs, cap_attrs;
    vet_io inputs, outputs;
} et_decoder;

enum { ET_DECODE_OK = 0, ET_DECODE_BAD = -1, ET_DECODE_NOMEM = -2 };

void et_decoder_init(et_decoder *d, arena *a);
void et_decoder_free(et_decoder *d);

/* Decode one record. The views live until the next decode with the same
 * decoder or a reset of its arena. Return ET_DECODE_OK, ET_DECODE_BAD
 * when protobuf-c would refuse the bytes, or ET_DECODE_NOMEM. */
int et_decode_node(et_decoder *d, const uint8_t *p, size_t len, vet_node *out);
int et_decode_metadata(et_decoder *d, const uint8_t *p, size_t len, vet_metadata *out);

#endif
