/* `vimana-et json` and `vimana-et from-json`: the lossless JSON form of an
 * ET (json_out.h) and back. Both stream record by record. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/cli.h"
#include "etcmd/cmd_io.h"
#include "etcmd/json_in.h"
#include "etcmd/json_out.h"
#include "etcmd/json_to_et.h"
#include "etcmd/sink.h"
#include "vimana-et/commands.h"
#include "vimana/et.h"

#define JSON_PROG "vimana-et json"
#define FROM_JSON_PROG "vimana-et from-json"

static const char json_usage[] =
    "Usage: vimana-et json FILE.et [-o OUT.json]\n"
    "Print an ET (plain or gzip) as one JSON document: the proto3 JSON mapping with\n"
    "the .proto field names, laid out like the corpus' *.et.json files. Lossless:\n"
    "`vimana-et from-json` turns it back into the same bytes.\n"
    "  -o, --output FILE   write to FILE (gzip when it ends in .gz); default stdout\n";

static const char from_json_usage[] =
    "Usage: vimana-et from-json FILE.json -o OUT.et\n"
    "Write the ET described by the JSON form that `vimana-et json` prints (gzip\n"
    "input accepted; OUT ending in .gz is written gzip-compressed). 64-bit integers\n"
    "may be strings or numbers.\n"
    "  -o, --output FILE   the ET to write (required)\n";

int cmd_json(int argc, char **argv)
{
    const char *input, *output;
    int status = cmd_io_file_args(JSON_PROG, json_usage, "", argc, argv, &input, &output);
    if (status != CMD_IO_RUN)
        return status;
    vet_reader *r;
    sink *s;
    if (cmd_io_open(JSON_PROG, input, output, &r, &s) != 0)
        return 1;
    vet_error err;
    json_out j;
    json_out_begin(&j, s, vet_reader_metadata(r));
    const vet_node *n;
    int rc;
    while ((rc = vet_reader_next(r, &n, &err)) == 1)
        json_out_node(&j, n);
    if (rc == 0)
        json_out_end(&j);
    else
        fprintf(stderr, "%s\n", err.msg);
    vet_reader_close(r);
    if (sink_close(s) != 0 || rc != 0) {
        if (output && strcmp(output, "-") != 0)
            unlink(output);
        return 1;
    }
    return 0;
}

/* ---- from-json ---------------------------------------------------------- */

typedef struct from_json {
    const char *input;
    json_in *in;
    vet_writer *w;
    arena a;             /* the tree and views of one record; reset per node */
    jconv conv;
    int wrote_metadata;
} from_json;

static int syntax_error(const from_json *f)
{
    fprintf(stderr, "%s: %s\n", f->input, json_in_error(f->in));
    return -1;
}

static int put_metadata(from_json *f, const vet_metadata *md)
{
    vet_error err;
    if (vet_writer_put_metadata(f->w, md, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    f->wrote_metadata = 1;
    return 0;
}

static int global_metadata(from_json *f)
{
    jv v;
    vet_metadata md;
    if (f->wrote_metadata) {
        fprintf(stderr, "%s: global_metadata: must come before \"nodes\" and only once\n", f->input);
        return -1;
    }
    arena_reset(&f->a);
    if (!json_in_value(f->in, &v, &f->a))
        return syntax_error(f);
    if (!jconv_metadata(&f->conv, "global_metadata", &v, &md)) {
        fprintf(stderr, "%s: %s\n", f->input, f->conv.err);
        return -1;
    }
    return put_metadata(f, &md);
}

static int one_node(from_json *f, unsigned long long index)
{
    jv v;
    vet_node n;
    vet_io in_io, out_io;
    char path[48];
    vet_error err;
    arena_reset(&f->a);
    if (!json_in_value(f->in, &v, &f->a))
        return syntax_error(f);
    snprintf(path, sizeof path, "nodes[%llu]", index);
    if (!jconv_node(&f->conv, path, &v, &n, &in_io, &out_io)) {
        fprintf(stderr, "%s: %s\n", f->input, f->conv.err);
        return -1;
    }
    if (vet_writer_put_node(f->w, &n, &err) != 0) {
        fprintf(stderr, "%s\n", err.msg);
        return -1;
    }
    return 0;
}

static int nodes(from_json *f, int *seen)
{
    if (*seen) {
        fprintf(stderr, "%s: nodes: appears twice\n", f->input);
        return -1;
    }
    *seen = 1;
    if (!f->wrote_metadata) {
        vet_metadata empty = {.version = ""};
        if (put_metadata(f, &empty) != 0)
            return -1;
    }
    if (!json_in_expect(f->in, '[', "'[' (nodes is an array)"))
        return syntax_error(f);
    if (json_in_peek(f->in) == ']')
        return json_in_expect(f->in, ']', "']'") ? 0 : syntax_error(f);
    for (unsigned long long i = 0;; i++) {
        if (one_node(f, i) != 0)
            return -1;
        if (json_in_peek(f->in) == ',') {
            json_in_expect(f->in, ',', "','");
            continue;
        }
        return json_in_expect(f->in, ']', "',' or ']' after a node") ? 0 : syntax_error(f);
    }
}

static int document(from_json *f)
{
    int seen_nodes = 0;
    char key[64];
    if (!json_in_expect(f->in, '{', "'{' (the document is a JSON object)"))
        return syntax_error(f);
    if (json_in_peek(f->in) != '}') {
        for (;;) {
            if (!json_in_key(f->in, key, sizeof key))
                return syntax_error(f);
            int rc;
            if (strcmp(key, "global_metadata") == 0) {
                rc = global_metadata(f);
            } else if (strcmp(key, "nodes") == 0) {
                rc = nodes(f, &seen_nodes);
            } else {
                fprintf(stderr, "%s: unknown key \"%s\" (expected global_metadata and nodes)\n", f->input, key);
                rc = -1;
            }
            if (rc != 0)
                return -1;
            if (json_in_peek(f->in) != ',')
                break;
            json_in_expect(f->in, ',', "','");
        }
    }
    if (!json_in_expect(f->in, '}', "',' or '}' at the end of the document"))
        return syntax_error(f);
    if (!json_in_at_end(f->in)) {
        if (!json_in_failed(f->in))
            json_in_fail(f->in, "unexpected data after the end of the document");
        return syntax_error(f);
    }
    if (!f->wrote_metadata) {
        vet_metadata empty = {.version = ""};
        return put_metadata(f, &empty);
    }
    return 0;
}

int cmd_from_json(int argc, char **argv)
{
    const char *input, *output;
    int status = cmd_io_file_args(FROM_JSON_PROG, from_json_usage, "", argc, argv, &input, &output);
    if (status != CMD_IO_RUN)
        return status;
    if (!output) {
        cli_error(FROM_JSON_PROG, "missing -o OUT.et (see --help)");
        return 2;
    }
    from_json f = {.input = input};
    char msg[300];
    if (strcmp(input, "-") != 0 && cmd_io_check_input(FROM_JSON_PROG, input) != 0)
        return 1;
    f.in = json_in_open(input, msg, sizeof msg);
    if (!f.in) {
        fprintf(stderr, "%s: %s\n", input, msg);
        return 1;
    }
    vet_error err;
    f.w = vet_writer_open(output, &err);
    if (!f.w) {
        fprintf(stderr, "%s\n", err.msg);
        json_in_close(f.in);
        return 1;
    }
    arena_init(&f.a, 64 * 1024);
    f.conv.a = &f.a;
    int rc = document(&f);
    if (vet_writer_close(f.w, &err) != 0 && rc == 0) {
        fprintf(stderr, "%s\n", err.msg);
        rc = -1;
    }
    arena_free(&f.a);
    json_in_close(f.in);
    if (rc != 0) {
        unlink(output); /* never leave a half-written trace behind */
        return 1;
    }
    return 0;
}
