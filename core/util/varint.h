/*
 * util/varint.h - protobuf's base-128 varint, for the writers that encode
 * ET records directly (the ET writer, the generators, the master merge)
 * and the readers that walk a record's fields (the ET reader's check of
 * the old layout, the master merge) instead of going through protobuf-c.
 */
#ifndef VIMANA_UTIL_VARINT_H
#define VIMANA_UTIL_VARINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Longest encoding of a 64-bit value. */
#define VARINT_MAX_BYTES 10

/* Bytes that varint_put writes for v. */
static inline size_t varint_len(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

/* Writes v at p (room for VARINT_MAX_BYTES) and returns the bytes written:
 * seven bits a byte, low first, the top bit set on all but the last. */
static inline size_t varint_put(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

/* Reads the varint at buf[*pos, end) into *v and moves *pos past it; false
 * when it runs past end or past VARINT_MAX_BYTES bytes (bits above the 64th
 * are dropped, as protobuf-c drops them). */
static inline bool varint_get(const uint8_t *buf, size_t end, size_t *pos, uint64_t *v)
{
    *v = 0;
    for (unsigned shift = 0; shift < 7 * VARINT_MAX_BYTES && *pos < end; shift += 7) {
        uint8_t b = buf[(*pos)++];
        *v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return true;
    }
    return false;
}

#endif
