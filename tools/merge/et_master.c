/* The master trace of an ET set (see the header). */
#include "merge/et_master.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/fail_msg.h"
#include "trace_link/input_file.h"
#include "util/varint.h"
#include "vimana/et.h"

/* ---- reading records ------------------------------------------------------- */

/* The record at *pos: [start, *pos) is its varint and payload. */
static bool next_record(const uint8_t *buf, size_t len, size_t *pos, size_t *payload, size_t *payload_len)
{
    uint64_t n;
    if (!varint_get(buf, len, pos, &n) || n > len - *pos)
        return false;
    *payload = *pos;
    *payload_len = (size_t)n;
    *pos += (size_t)n;
    return true;
}

/* ---- writing records -------------------------------------------------------- */

typedef struct out_buf {
    uint8_t *b;
    size_t n, cap;
    bool oom;
} out_buf;

static void put_bytes(out_buf *o, const void *p, size_t n)
{
    if (o->oom)
        return;
    if (o->n + n > o->cap) {
        size_t cap = o->cap ? o->cap : 256;
        while (cap < o->n + n)
            cap *= 2;
        uint8_t *b = realloc(o->b, cap);
        if (!b) {
            o->oom = true;
            return;
        }
        o->b = b;
        o->cap = cap;
    }
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

static void put_varint(out_buf *o, uint64_t v)
{
    uint8_t b[VARINT_MAX_BYTES];
    put_bytes(o, b, varint_put(b, v));
}

static void put_len_field(out_buf *o, unsigned field, const void *p, size_t n)
{
    put_varint(o, (uint64_t)field << 3 | 2);
    put_varint(o, n);
    put_bytes(o, p, n);
}

static void put_varint_field(out_buf *o, unsigned field, uint64_t v)
{
    put_varint(o, (uint64_t)field << 3);
    put_varint(o, v);
}

/* AttributeProto: name (1) and uint64_val (13) or bytes_val (31). */
static void put_attr_u64(out_buf *o, unsigned field, const char *name, uint64_t v)
{
    out_buf a = {0};
    put_len_field(&a, 1, name, strlen(name));
    put_varint_field(&a, 13, v);
    put_len_field(o, field, a.b, a.n);
    o->oom |= a.oom;
    free(a.b);
}

static void put_attr_bytes(out_buf *o, unsigned field, const char *name, const uint8_t *p, size_t n)
{
    out_buf a = {0};
    put_len_field(&a, 1, name, strlen(name));
    put_len_field(&a, 31, p, n);
    put_len_field(o, field, a.b, a.n);
    o->oom |= a.oom;
    free(a.b);
}

/* A payload, framed by its length. */
static void put_record(out_buf *o, const out_buf *payload)
{
    put_varint(o, payload->n);
    put_bytes(o, payload->b, payload->n);
    o->oom |= payload->oom;
}

/* ---- merge ----------------------------------------------------------------- */

static int write_all(FILE *f, const out_buf *o)
{
    return o->n == 0 || fwrite(o->b, 1, o->n, f) == o->n ? 0 : -1;
}

/* Reads the file at `path` whole (gunzipped when it is gzip) for the
 * command `prog`; a failure's message goes to msg, as this file reports. */
static int load(const char *prog, const char *path, tl_buffer *in, char *msg, size_t len)
{
    tl_diag d;
    tl_diag_init(&d, prog, TL_ERROR);
    if (tl_buffer_load(path, in, &d) != 0)
        return fail_msg(msg, len, "%s", d.msg);
    return 0;
}

/* One rank: its marker, then its node records as they are. */
static int merge_rank(FILE *f, const char *path, uint64_t rank, char *msg, size_t len)
{
    tl_buffer in;
    if (load("vimana-et merge", path, &in, msg, len) != 0)
        return -1;
    const uint8_t *buf = (const uint8_t *)in.data;
    size_t pos = 0, payload, plen, meta_end, nodes = 0;
    int rc = 0;
    if (!next_record(buf, in.len, &pos, &payload, &plen))
        rc = fail_msg(msg, len, "%s: no GlobalMetadata record", path);
    meta_end = pos;
    while (rc == 0 && pos < in.len) {
        if (!next_record(buf, in.len, &pos, &payload, &plen))
            rc = fail_msg(msg, len, "%s: record %zu (byte offset %zu) runs past the end of the file", path, nodes + 1,
                          pos);
        nodes++;
    }
    out_buf marker = {0}, rec = {0};
    if (rc == 0) {
        if (rank)
            put_varint_field(&marker, 1, rank);
        put_len_field(&marker, 2, "vimana.rank", strlen("vimana.rank"));
        put_varint_field(&marker, 3, VET_METADATA_NODE);
        put_attr_u64(&marker, 10, "rank", rank);
        put_attr_u64(&marker, 10, "node_count", nodes);
        put_attr_bytes(&marker, 10, "global_metadata", buf, meta_end);
        put_record(&rec, &marker);
        if (rec.oom)
            rc = fail_msg(msg, len, "out of memory");
    }
    if (rc == 0 && (write_all(f, &rec) != 0 || fwrite(buf + meta_end, 1, in.len - meta_end, f) != in.len - meta_end))
        rc = fail_msg(msg, len, "write failed: %s", strerror(errno));
    free(marker.b);
    free(rec.b);
    tl_buffer_free(&in);
    return rc;
}

int et_master_merge(char *const *paths, size_t n, const char *out, char *msg, size_t len)
{
    FILE *f = fopen(out, "wb");
    if (!f)
        return fail_msg(msg, len, "%s: cannot create: %s", out, strerror(errno));
    out_buf md = {0}, rec = {0};
    put_len_field(&md, 1, ET_MASTER_VERSION, strlen(ET_MASTER_VERSION));
    put_attr_u64(&md, 2, "vimana_master_ranks", n);
    put_record(&rec, &md);
    int rc = rec.oom ? fail_msg(msg, len, "out of memory") : 0;
    if (rc == 0 && write_all(f, &rec) != 0)
        rc = fail_msg(msg, len, "%s: write failed: %s", out, strerror(errno));
    free(md.b);
    free(rec.b);
    for (size_t k = 0; rc == 0 && k < n; k++)
        rc = merge_rank(f, paths[k], k, msg, len);
    if (fclose(f) != 0 && rc == 0)
        rc = fail_msg(msg, len, "%s: write failed", out);
    if (rc != 0)
        remove(out);
    return rc;
}

/* ---- split ----------------------------------------------------------------- */

bool et_master_is(const char *path)
{
    vet_error err;
    vet_reader *r = vet_reader_open(path, &err);
    if (!r)
        return false;
    const vet_metadata *md = vet_reader_metadata(r);
    bool is = md && md->version && strcmp(md->version, ET_MASTER_VERSION) == 0;
    vet_reader_close(r);
    return is;
}

/* The marker's fields: walks an AttributeProto list of the node payload. */
typedef struct marker {
    bool has_rank, has_count, has_meta;
    uint64_t rank, count;
    size_t meta, meta_len;   /* in the buffer */
} marker;

static bool skip_field(const uint8_t *b, size_t end, size_t *pos, unsigned wire)
{
    uint64_t v;
    switch (wire) {
    case 0: return varint_get(b, end, pos, &v);
    case 1: return end - *pos >= 8 && (*pos += 8, true);
    case 5: return end - *pos >= 4 && (*pos += 4, true);
    case 2: return varint_get(b, end, pos, &v) && v <= end - *pos && (*pos += (size_t)v, true);
    default: return false;
    }
}

static bool read_attr(const uint8_t *b, size_t start, size_t end, marker *m)
{
    size_t pos = start, name = 0, name_len = 0, val = 0, val_len = 0;
    uint64_t u = 0;
    bool has_u = false, has_bytes = false;
    while (pos < end) {
        uint64_t key;
        if (!varint_get(b, end, &pos, &key))
            return false;
        unsigned field = (unsigned)(key >> 3), wire = (unsigned)(key & 7);
        if ((field == 1 || field == 31) && wire == 2) {
            uint64_t n;
            if (!varint_get(b, end, &pos, &n) || n > end - pos)
                return false;
            if (field == 1)
                name = pos, name_len = (size_t)n;
            else
                val = pos, val_len = (size_t)n, has_bytes = true;
            pos += (size_t)n;
        } else if (field == 13 && wire == 0) {
            if (!varint_get(b, end, &pos, &u))
                return false;
            has_u = true;
        } else if (!skip_field(b, end, &pos, wire)) {
            return false;
        }
    }
#define NAMED(s) (name_len == strlen(s) && memcmp(b + name, s, name_len) == 0)
    if (NAMED("rank") && has_u)
        m->has_rank = true, m->rank = u;
    else if (NAMED("node_count") && has_u)
        m->has_count = true, m->count = u;
    else if (NAMED("global_metadata") && has_bytes)
        m->has_meta = true, m->meta = val, m->meta_len = val_len;
#undef NAMED
    return true;
}

static bool read_marker(const uint8_t *b, size_t start, size_t end, marker *m)
{
    memset(m, 0, sizeof *m);
    size_t pos = start;
    while (pos < end) {
        uint64_t key, n;
        if (!varint_get(b, end, &pos, &key))
            return false;
        if ((key >> 3) == 10 && (key & 7) == 2) {
            if (!varint_get(b, end, &pos, &n) || n > end - pos || !read_attr(b, pos, pos + (size_t)n, m))
                return false;
            pos += (size_t)n;
        } else if (!skip_field(b, end, &pos, (unsigned)(key & 7))) {
            return false;
        }
    }
    return m->has_rank && m->has_count && m->has_meta;
}

/* Rank `rank`'s file: its metadata record, then `count` records from *pos. */
static int split_rank(const char *path, const uint8_t *buf, size_t len, size_t *pos, const marker *m,
                      const char *prefix, char *msg, size_t msg_len)
{
    size_t first = *pos, payload, plen;
    for (uint64_t i = 0; i < m->count; i++)
        if (!next_record(buf, len, pos, &payload, &plen))
            return fail_msg(msg, msg_len, "%s: rank %llu: its node %llu of %llu runs past the end of the file", path,
                            (unsigned long long)m->rank, (unsigned long long)i + 1, (unsigned long long)m->count);
    char out[4200];
    snprintf(out, sizeof out, "%s.%llu.et", prefix, (unsigned long long)m->rank);
    FILE *f = fopen(out, "wb");
    if (!f)
        return fail_msg(msg, msg_len, "%s: cannot create: %s", out, strerror(errno));
    bool ok = fwrite(buf + m->meta, 1, m->meta_len, f) == m->meta_len &&
              fwrite(buf + first, 1, *pos - first, f) == *pos - first;
    if (fclose(f) != 0 || !ok)
        return fail_msg(msg, msg_len, "%s: write failed", out);
    return 0;
}

int et_master_split(const char *path, const char *prefix, size_t *n, char *msg, size_t len)
{
    *n = 0;
    tl_buffer in;
    if (load("vimana-et split", path, &in, msg, len) != 0)
        return -1;
    const uint8_t *buf = (const uint8_t *)in.data;
    size_t pos = 0, payload, plen;
    int rc = next_record(buf, in.len, &pos, &payload, &plen) ? 0 : fail_msg(msg, len, "%s: no metadata record", path);
    for (uint64_t rank = 0; rc == 0 && pos < in.len; rank++) {
        marker m;
        size_t at = pos;
        if (!next_record(buf, in.len, &pos, &payload, &plen) || !read_marker(buf, payload, payload + plen, &m))
            rc = fail_msg(msg, len, "%s: byte offset %zu: expected the marker of rank %llu (a vimana.rank "
                          "METADATA_NODE with rank, node_count and global_metadata)", path, at,
                          (unsigned long long)rank);
        else if (m.rank != rank)
            rc = fail_msg(msg, len, "%s: byte offset %zu: the marker of rank %llu where rank %llu was expected", path,
                          at, (unsigned long long)m.rank, (unsigned long long)rank);
        else
            rc = split_rank(path, buf, in.len, &pos, &m, prefix, msg, len);
        if (rc == 0)
            *n = (size_t)(rank + 1);
    }
    tl_buffer_free(&in);
    return rc;
}
