/*
 * et_pb.h - conversion between the public views of vimana/et.h and the
 * protobuf-c structures generated from proto/et_def.proto. Internal to the
 * ET library: nothing outside core/et sees protobuf-c types.
 */
#ifndef VIMANA_ET_PB_H
#define VIMANA_ET_PB_H

#include "et_def.pb-c.h"
#include "util/arena.h"
#include "vimana/et.h"

/* protobuf-c -> view. Arrays the view needs are taken from `a`; strings and
 * lists point into the protobuf-c message, which must outlive the view.
 * Return 0, or -1 when out of memory. */
int et_pb_to_node(const ChakraProtoMsg__Node *pn, vet_node *out, vet_io *in_io, vet_io *out_io, arena *a);
int et_pb_to_metadata(const ChakraProtoMsg__GlobalMetadata *pm, vet_metadata *out, arena *a);

/* view -> protobuf-c, for packing. Structures are taken from `a`; strings
 * and lists point into the view. */
int et_pb_from_node(const vet_node *n, ChakraProtoMsg__Node *pn, arena *a);
int et_pb_from_metadata(const vet_metadata *m, ChakraProtoMsg__GlobalMetadata *pm, arena *a);

#endif
