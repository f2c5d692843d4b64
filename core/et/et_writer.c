/*
 * ET writer. Records are packed by protobuf-c, whose proto3 rules match the
 * reference Python runtime's bytes: ascending field order, packed numeric
 * lists, defaults omitted, a set oneof member always written.
 */
#include "et/et_pb.h"
#include "et/et_error.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util/grow.h"
#include "util/varint.h"

struct vet_writer {
    FILE *fp;       /* plain output */
    gzFile gz;      /* gzip output, when the name ends in .gz */
    char *path;
    int failed;
    uint64_t records;
    arena scratch;
    uint8_t *buf;
    size_t cap;
};

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

vet_writer *vet_writer_open(const char *path, vet_error *err)
{
    vet_writer *w = calloc(1, sizeof *w);
    if (!w || !(w->path = strdup(path))) {
        free(w);
        et_set_err(err, "%s: out of memory", path);
        return NULL;
    }
    arena_init(&w->scratch, 16384);
    errno = 0;
    if (ends_with(path, ".gz"))
        w->gz = gzopen(path, "wb");
    else
        w->fp = fopen(path, "wb");
    if (!w->fp && !w->gz) {
        et_set_err(err, "%s: cannot create: %s", path, errno ? strerror(errno) : "unknown error");
        arena_free(&w->scratch);
        free(w->path);
        free(w);
        return NULL;
    }
    if (w->fp)
        setvbuf(w->fp, NULL, _IOFBF, 256 * 1024);
    return w;
}

static int write_bytes(vet_writer *w, const uint8_t *p, size_t len)
{
    if (len == 0)
        return 0;
    if (w->fp)
        return fwrite(p, 1, len, w->fp) == len ? 0 : -1;
    return gzwrite(w->gz, p, (unsigned)len) == (int)len ? 0 : -1;
}

static int write_message(vet_writer *w, const ProtobufCMessage *m, vet_error *err)
{
    size_t len = protobuf_c_message_get_packed_size(m);
    if (len > UINT32_MAX) {
        et_set_err(err, "%s: record %llu is larger than 4 GiB", w->path, (unsigned long long)w->records);
        return -1;
    }
    if (grow_array((void **)&w->buf, &w->cap, len + 10, 1, 4096) != 0) {
        et_set_err(err, "%s: out of memory", w->path);
        return -1;
    }
    size_t hdr = varint_put(w->buf, len);
    protobuf_c_message_pack(m, w->buf + hdr);
    if (write_bytes(w, w->buf, hdr + len) != 0) {
        w->failed = 1;
        et_set_err(err, "%s: write failed: %s", w->path, strerror(errno));
        return -1;
    }
    w->records++;
    return 0;
}

int vet_writer_put_metadata(vet_writer *w, const vet_metadata *md, vet_error *err)
{
    ChakraProtoMsg__GlobalMetadata pm;
    arena_reset(&w->scratch);
    if (et_pb_from_metadata(md, &pm, &w->scratch) != 0) {
        et_set_err(err, "%s: metadata: out of memory or invalid attribute kind", w->path);
        return -1;
    }
    return write_message(w, &pm.base, err);
}

int vet_writer_put_node(vet_writer *w, const vet_node *node, vet_error *err)
{
    ChakraProtoMsg__Node pn;
    arena_reset(&w->scratch);
    if (et_pb_from_node(node, &pn, &w->scratch) != 0) {
        et_set_err(err, "%s: node id %llu: out of memory or invalid attribute kind", w->path,
                (unsigned long long)node->id);
        return -1;
    }
    return write_message(w, &pn.base, err);
}

int vet_writer_close(vet_writer *w, vet_error *err)
{
    int rc = w->failed ? -1 : 0;
    if (w->fp && fclose(w->fp) != 0)
        rc = -1;
    if (w->gz && gzclose(w->gz) != Z_OK)
        rc = -1;
    if (rc != 0)
        et_set_err(err, "%s: write failed", w->path);
    arena_free(&w->scratch);
    free(w->buf);
    free(w->path);
    free(w);
    return rc;
}

static int encode(const ProtobufCMessage *m, uint8_t **out, size_t *len)
{
    *len = protobuf_c_message_get_packed_size(m);
    *out = malloc(*len ? *len : 1);
    if (!*out)
        return -1;
    protobuf_c_message_pack(m, *out);
    return 0;
}

int vet_encode_node(const vet_node *node, uint8_t **out, size_t *len)
{
    arena a;
    ChakraProtoMsg__Node pn;
    arena_init(&a, 4096);
    int rc = et_pb_from_node(node, &pn, &a) == 0 ? encode(&pn.base, out, len) : -1;
    arena_free(&a);
    return rc;
}

int vet_encode_metadata(const vet_metadata *md, uint8_t **out, size_t *len)
{
    arena a;
    ChakraProtoMsg__GlobalMetadata pm;
    arena_init(&a, 4096);
    int rc = et_pb_from_metadata(md, &pm, &a) == 0 ? encode(&pm.base, out, len) : -1;
    arena_free(&a);
    return rc;
}
