/*
 * et_item_size.h - the size of one element of a vet_list, by its kind: the
 * C types vimana/et.h gives the *_LIST kinds. Private to the ET library
 * and its tests (header-only, so the decoder and the builder inline it);
 * everyone else calls the exported vet_list_item_size().
 */
#ifndef VIMANA_ET_ITEM_SIZE_H
#define VIMANA_ET_ITEM_SIZE_H

#include <stddef.h>
#include <stdint.h>

#include "vimana/et.h"

/* 0 for a kind that is not a list. */
static inline size_t et_list_item_size(enum vet_value_kind kind)
{
    switch (kind) {
    case VET_DOUBLE_LIST: return sizeof(double);
    case VET_FLOAT_LIST: return sizeof(float);
    case VET_INT32_LIST: case VET_SINT32_LIST: case VET_SFIXED32_LIST: return sizeof(int32_t);
    case VET_UINT32_LIST: case VET_FIXED32_LIST: return sizeof(uint32_t);
    case VET_INT64_LIST: case VET_SINT64_LIST: case VET_SFIXED64_LIST: return sizeof(int64_t);
    case VET_UINT64_LIST: case VET_FIXED64_LIST: return sizeof(uint64_t);
    case VET_BOOL_LIST: return sizeof(int);
    case VET_STRING_LIST: return sizeof(const char *);
    case VET_BYTES_LIST: return sizeof(vet_bytes);
    default: return 0;
    }
}

#endif
