/*
 * Streaming ET reader: one varint-framed record at a time through a growing
 * buffer, decoded straight into the public views (et_decode.h) with strings
 * in a per-record arena. zlib's gzread reads plain files unchanged and
 * inflates gzip ones, which it recognises by their magic bytes.
 */
#include "et/et_decode.h"
#include "et/et_error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util/grow.h"
#include "util/input_file.h"
#include "util/varint.h"

#define READ_CHUNK (256u * 1024u)
#define MAX_VARINT_BYTES 5

struct vet_reader {
    gzFile gz;
    char *path;
    uint8_t *buf;
    size_t cap, start, end;  /* unread bytes are buf[start, end) */
    uint64_t buf_offset;     /* stream offset of buf[0] */
    int eof;
    uint64_t record;         /* index of the last record read */
    uint64_t record_offset;  /* offset of its length prefix */
    uint64_t empty_records;
    bool accept_unknown_types; /* hand out nodes whose type is outside the enum */
    arena md_arena, node_arena;
    et_decoder md_dec, node_dec;
    int have_node;           /* node_arena holds the last node's strings */
    vet_metadata md;
    vet_node node;
};

static void record_err(const vet_reader *r, vet_error *err, const char *what)
{
    et_set_err(err, "%s: record %llu (byte offset %llu): %s", r->path,
            (unsigned long long)r->record, (unsigned long long)r->record_offset, what);
}

/* Makes at least `need` unread bytes available if the stream has them.
 * Returns the number available, or -1 on a read error. The buffer grows
 * only as data actually arrives, never to a length a record merely
 * declares, so a corrupt length near 4 GiB ends in a truncation error at
 * end of file instead of a huge allocation. */
static long fill(vet_reader *r, size_t need, vet_error *err)
{
    while (r->end - r->start < need && !r->eof) {
        if (r->start > 0 && (r->start == r->end || r->cap - r->end < READ_CHUNK)) {
            memmove(r->buf, r->buf + r->start, r->end - r->start);
            r->buf_offset += r->start;
            r->end -= r->start;
            r->start = 0;
        }
        if (grow_array((void **)&r->buf, &r->cap, r->end + READ_CHUNK, 1, 2 * READ_CHUNK) != 0) {
            record_err(r, err, "out of memory");
            return -1;
        }
        size_t room = r->cap - r->end;
        unsigned ask = room > (1u << 30) ? (1u << 30) : (unsigned)room;
        int got = gzread(r->gz, r->buf + r->end, ask);
        if (got < 0) {
            int zerr = 0;
            const char *msg = gzerror(r->gz, &zerr);
            char what[300];
            snprintf(what, sizeof what, "corrupt gzip stream: %s", msg ? msg : "read error");
            record_err(r, err, what);
            return -1;
        }
        if (got == 0)
            r->eof = 1;
        r->end += (size_t)got;
    }
    return (long)(r->end - r->start);
}

/* Reads one length-prefixed record. Returns 1 with the message bytes, 0 at
 * a clean end of file, -1 on error. */
static int next_record(vet_reader *r, const uint8_t **msg, size_t *len, vet_error *err)
{
    long avail = fill(r, MAX_VARINT_BYTES, err);
    if (avail < 0)
        return -1;
    r->record_offset = r->buf_offset + r->start;
    if (avail == 0)
        return 0;
    uint64_t value = 0;
    size_t nbytes = 0;
    for (;;) {
        if (nbytes == (size_t)avail) {
            record_err(r, err, "truncated length varint at end of file");
            return -1;
        }
        if (nbytes == MAX_VARINT_BYTES) {
            record_err(r, err, "over-long length varint (more than 5 bytes)");
            return -1;
        }
        uint8_t byte = r->buf[r->start + nbytes];
        value |= (uint64_t)(byte & 0x7f) << (7 * nbytes);
        nbytes++;
        if (!(byte & 0x80))
            break;
    }
    if (value > UINT32_MAX) {
        record_err(r, err, "length varint exceeds 32 bits");
        return -1;
    }
    avail = fill(r, nbytes + (size_t)value, err);
    if (avail < 0)
        return -1;
    if ((size_t)avail < nbytes + value) {
        char what[160];
        snprintf(what, sizeof what, "truncated record: length says %llu bytes but only %llu remain",
                 (unsigned long long)value, (unsigned long long)((size_t)avail - nbytes));
        record_err(r, err, what);
        return -1;
    }
    *msg = r->buf + r->start + nbytes;
    *len = (size_t)value;
    r->start += nbytes + (size_t)value;
    return 1;
}

/* Scans the top-level fields of a record. Returns 0 when it is well formed
 * protobuf, and reports whether it carries a field of the given number and
 * wire type. */
static int scan_fields(const uint8_t *p, size_t len, int want_field, int want_wt, int *found)
{
    size_t i = 0;
    *found = 0;
    while (i < len) {
        uint64_t key;
        if (!varint_get(p, len, &i, &key))
            return -1;
        int wt = (int)(key & 7);
        uint64_t field = key >> 3;
        if ((int)field == want_field && wt == want_wt)
            *found = 1;
        if (wt == 0) {
            while (i < len && (p[i] & 0x80))
                i++;
            if (i++ >= len)
                return -1;
        } else if (wt == 1) {
            i += 8;
        } else if (wt == 5) {
            i += 4;
        } else if (wt == 2) {
            uint64_t l;
            if (!varint_get(p, len, &i, &l) || l > len - i)
                return -1;
            i += (size_t)l;
        } else {
            return -1;
        }
        if (i > len)
            return -1;
    }
    return 0;
}

/* Chakra files written before October 2023 (proto2 schema) have no
 * GlobalMetadata: their first record is a Node whose `type` is field 3 as a
 * varint and whose attributes are field 11. Neither field exists in today's
 * GlobalMetadata, so either one identifies the old layout. */
static int looks_pre_004(const uint8_t *p, size_t len)
{
    int has_type = 0, has_attr = 0;
    if (scan_fields(p, len, 3, 0, &has_type) != 0)
        return 0;
    scan_fields(p, len, 11, 2, &has_attr);
    return has_type || has_attr;
}

static int read_metadata(vet_reader *r, vet_error *err)
{
    const uint8_t *msg;
    size_t len;
    r->record = 0;
    int rc = next_record(r, &msg, &len, err);
    if (rc < 0)
        return -1;
    if (rc == 0) {
        et_set_err(err, "%s: empty file: a Chakra ET starts with a GlobalMetadata record", r->path);
        return -1;
    }
    if (looks_pre_004(msg, len)) {
        record_err(r, err,
                   "pre-0.0.4 Chakra file (schema too old): the first record is a Node, not a "
                   "GlobalMetadata; regenerate it with Chakra 0.0.4 or later");
        return -1;
    }
    rc = et_decode_metadata(&r->md_dec, msg, len, &r->md);
    if (rc == ET_DECODE_BAD) {
        record_err(r, err, "cannot parse GlobalMetadata (corrupt record or not a Chakra ET)");
        return -1;
    }
    if (rc != ET_DECODE_OK) {
        record_err(r, err, "out of memory");
        return -1;
    }
    return 0;
}

vet_reader *vet_reader_open(const char *path, vet_error *err)
{
    /* zlib would report a directory as a corrupt stream and read a device
     * such as /dev/zero for ever: refuse anything but a regular file. */
    char why[128];
    if (input_file_check(path, why, sizeof why) != 0) {
        et_set_err(err, "%s: %s", path, why);
        return NULL;
    }
    vet_reader *r = calloc(1, sizeof *r);
    if (!r) {
        et_set_err(err, "%s: out of memory", path);
        return NULL;
    }
    r->path = strdup(path);
    arena_init(&r->md_arena, 4096);
    arena_init(&r->node_arena, 16384);
    et_decoder_init(&r->md_dec, &r->md_arena);
    et_decoder_init(&r->node_dec, &r->node_arena);
    errno = 0;
    r->gz = gzopen(path, "rb");
    if (!r->path || !r->gz) {
        et_set_err(err, "%s: cannot open: %s", path, errno ? strerror(errno) : "out of memory");
        vet_reader_close(r);
        return NULL;
    }
    gzbuffer(r->gz, 128 * 1024);
    if (read_metadata(r, err) != 0) {
        vet_reader_close(r);
        return NULL;
    }
    return r;
}

const vet_metadata *vet_reader_metadata(const vet_reader *r)
{
    return &r->md;
}

static void explain_node_failure(vet_reader *r, const uint8_t *msg, size_t len, vet_error *err)
{
    int old_attr = 0, old_string6 = 0, old_string7 = 0;
    if (scan_fields(msg, len, 11, 2, &old_attr) == 0) {
        scan_fields(msg, len, 6, 2, &old_string6);
        scan_fields(msg, len, 7, 2, &old_string7);
        if (old_attr || old_string6 || old_string7) {
            record_err(r, err, "pre-0.0.4 Chakra node layout (schema too old): fields 6-11 do "
                               "not match the current schema");
            return;
        }
    }
    record_err(r, err, "cannot parse Node (corrupt record)");
}

int vet_reader_next(vet_reader *r, const vet_node **out, vet_error *err)
{
    const uint8_t *msg;
    size_t len;
    if (r->have_node) {
        r->have_node = 0;
        arena_reset(&r->node_arena);
    }
    r->record++;
    int rc = next_record(r, &msg, &len, err);
    if (rc <= 0) {
        if (rc == 0)
            r->record--;
        return rc;
    }
    if (len == 0)
        r->empty_records++;
    r->have_node = 1;
    rc = et_decode_node(&r->node_dec, msg, len, &r->node);
    if (rc == ET_DECODE_BAD) {
        explain_node_failure(r, msg, len, err);
        return -1;
    }
    if (rc != ET_DECODE_OK) {
        record_err(r, err, "out of memory");
        return -1;
    }
    if (!r->accept_unknown_types && (r->node.type < 0 || r->node.type > (int32_t)VET_NODE_TYPE_MAX)) {
        char what[120];
        snprintf(what, sizeof what, "node id %llu has unknown node type %d",
                 (unsigned long long)r->node.id, (int)r->node.type);
        record_err(r, err, what);
        return -1;
    }
    *out = &r->node;
    return 1;
}

void vet_reader_accept_unknown_types(vet_reader *r, bool accept)
{
    r->accept_unknown_types = accept;
}

uint64_t vet_reader_record(const vet_reader *r)
{
    return r->record;
}

uint64_t vet_reader_offset(const vet_reader *r)
{
    return r->record_offset;
}

uint64_t vet_reader_empty_records(const vet_reader *r)
{
    return r->empty_records;
}

void vet_reader_close(vet_reader *r)
{
    if (!r)
        return;
    if (r->gz)
        gzclose(r->gz);
    et_decoder_free(&r->md_dec);
    et_decoder_free(&r->node_dec);
    arena_free(&r->md_arena);
    arena_free(&r->node_arena);
    free(r->buf);
    free(r->path);
    free(r);
}
