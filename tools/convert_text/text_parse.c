/*
 * Parser for ASTRA-sim 1.0 text workloads. It reads the way the reference
 * converter does (Python universal newlines, str.split() fields, every line
 * after the second is a layer) but reports what it cannot read as
 * "FILE:LINE: expected WHAT in column K, got 'TOKEN'" instead of crashing.
 * Columns are counted from 1, like awk fields.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/utf8.h"
#include "util/grow.h"
#include "util/input_file.h"
#include "text_fields.h"
#include "text_workload.h"

#define LAYER_COLUMNS 12   /* columns every layer line must have */
#define POLICY_COLUMN 13   /* HYBRID_CUSTOMIZED's per-layer policy */
#define TOKEN_SHOWN 60     /* longest token quoted in a message */

int text_fail(struct text_error *err, const char *path, unsigned long line, const char *fmt, ...)
{
    int n = line ? snprintf(err->msg, sizeof err->msg, "%s:%lu: ", path, line)
                 : snprintf(err->msg, sizeof err->msg, "%s: ", path);
    if (n < 0 || (size_t)n >= sizeof err->msg)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* A token as quoted in messages: cut (at a character boundary) when long. */
struct shown_token {
    char s[TOKEN_SHOWN + 4];
};

static struct shown_token show(const struct text_field *f)
{
    struct shown_token out;
    size_t n = f->len;
    if (n > TOKEN_SHOWN) {
        n = TOKEN_SHOWN;
        while (n > 0 && ((unsigned char)f->start[n] & 0xC0) == 0x80)
            n--;
    }
    memcpy(out.s, f->start, n);
    strcpy(out.s + n, f->len > n ? "..." : "");
    return out;
}

/* Python reads text files with universal newlines: CRLF and lone CR become
 * LF. The result is also what the reference stores as `input_file`. */
static char *universal_newlines(const char *data, size_t len, size_t *out_len)
{
    char *t = malloc(len + 1);
    if (!t)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (data[i] == '\r') {
            t[n++] = '\n';
            if (i + 1 < len && data[i + 1] == '\n')
                i++;
        } else {
            t[n++] = data[i];
        }
    }
    t[n] = '\0';
    *out_len = n;
    return t;
}

/* The reference decodes the file as UTF-8 and stores it in a protobuf
 * string, so invalid UTF-8 cannot round-trip; NUL bytes would be cut by C
 * strings. Both are refused up front with their line. */
static int check_encoding(const char *path, const char *t, size_t len, struct text_error *err)
{
    unsigned long line = 1;
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)t[i];
        if (c == '\n')
            line++;
        if (c == '\0')
            return text_fail(err, path, line, "expected text, got a NUL byte");
        uint32_t cp;
        size_t n = utf8_decode((const unsigned char *)t + i, len - i, &cp);
        if (n == 0)
            return text_fail(err, path, line, "expected UTF-8 text, got the byte 0x%02x", c);
        i += n;
    }
    return 0;
}

struct line_cursor {
    char *next;
    char *end;
    unsigned long number; /* of the line last returned */
};

static bool next_line(struct line_cursor *c, char **start, size_t *len)
{
    if (c->next >= c->end)
        return false;
    char *nl = memchr(c->next, '\n', (size_t)(c->end - c->next));
    char *stop = nl ? nl : c->end;
    *start = c->next;
    *len = (size_t)(stop - c->next);
    c->next = nl ? nl + 1 : c->end;
    c->number++;
    return true;
}

/* Turns the first `n` fields of `line` into C strings in place (each field
 * is followed by whitespace, the line's LF or the buffer's final NUL). */
static void terminate_fields(char *line, const struct text_field *f, size_t n)
{
    for (size_t k = 0; k < n; k++)
        line[(f[k].start - line) + f[k].len] = '\0';
}

static int parse_mode_line(struct text_workload *w, struct line_cursor *cur, struct text_error *err)
{
    char *line;
    size_t len;
    if (!next_line(cur, &line, &len))
        return text_fail(err, w->path, 1, "expected a parallelism mode (%s) in column 1, got an empty file",
                         text_mode_converted_list());
    struct text_field f[2];
    size_t n = text_split_fields(line, len, f, 2);
    if (n == 0)
        return text_fail(err, w->path, 1, "expected a parallelism mode (%s) in column 1, got a blank line",
                         text_mode_converted_list());
    const struct text_mode_info *mode = text_mode_find(f[0].start, f[0].len);
    if (!mode)
        return text_fail(err, w->path, 1, "expected a parallelism mode (%s) in column 1, got '%s'",
                         text_mode_converted_list(), show(&f[0]).s);
    if (mode->refusal)
        return text_fail(err, w->path, 1, "mode %s is not supported: %s", mode->keyword, mode->refusal);
    w->mode = mode->mode;
    if (n > 1) {
        w->params = f[1].start;
        w->params_len = (size_t)(line + len - f[1].start);
    }
    if (w->mode != TEXT_MODE_HYBRID_DLRM && w->mode != TEXT_MODE_HYBRID_DLRM_ENHANCED)
        return 0;
    if (n < 2)
        return text_fail(err, w->path, 1,
                         "expected the index of the last bottom-MLP layer (an integer) in column 2, got end of line");
    if (text_parse_i64(f[1].start, f[1].len, &w->last_bottom_layer) != TEXT_INT_OK)
        return text_fail(err, w->path, 1,
                         "expected the index of the last bottom-MLP layer (an integer) in column 2, got '%s'",
                         show(&f[1]).s);
    return 0;
}

static int parse_count_line(struct text_workload *w, struct line_cursor *cur, struct text_error *err)
{
    static const char what[] = "the number of layers (an integer) in column 1";
    char *line;
    size_t len;
    if (!next_line(cur, &line, &len))
        return text_fail(err, w->path, 2, "expected %s, got end of file", what);
    struct text_field f[2];
    size_t n = text_split_fields(line, len, f, 2);
    if (n == 0)
        return text_fail(err, w->path, 2, "expected %s, got a blank line", what);
    if (text_parse_i64(f[0].start, f[0].len, &w->header_count) != TEXT_INT_OK)
        return text_fail(err, w->path, 2, "expected %s, got '%s'", what, show(&f[0]).s);
    if (n > 1)
        return text_fail(err, w->path, 2, "expected nothing after the number of layers in column 2, got '%s'",
                         show(&f[1]).s);
    return 0;
}

/* ---- layer lines ---------------------------------------------------------- */

enum column_kind { COL_NAME, COL_ANY, COL_TIME, COL_COMM_TYPE, COL_COMM_SIZE, COL_POLICY };

struct column {
    enum column_kind kind;
    enum text_phase phase;
    const char *what;
};

#define COMM_TYPES "(ALLREDUCE, ALLTOALL, ALLGATHER, REDUCESCATTER or NONE)"
#define NON_NEGATIVE "(a non-negative integer)"

static const struct column columns[POLICY_COLUMN] = {
    {COL_NAME, TEXT_FWD, "a layer name"},
    {COL_ANY, TEXT_FWD, "the reserved dependency column"},
    {COL_TIME, TEXT_FWD, "the forward compute time " NON_NEGATIVE},
    {COL_COMM_TYPE, TEXT_FWD, "the forward comm type " COMM_TYPES},
    {COL_COMM_SIZE, TEXT_FWD, "the forward comm size " NON_NEGATIVE},
    {COL_TIME, TEXT_IG, "the input-gradient compute time " NON_NEGATIVE},
    {COL_COMM_TYPE, TEXT_IG, "the input-gradient comm type " COMM_TYPES},
    {COL_COMM_SIZE, TEXT_IG, "the input-gradient comm size " NON_NEGATIVE},
    {COL_TIME, TEXT_WG, "the weight-gradient compute time " NON_NEGATIVE},
    {COL_COMM_TYPE, TEXT_WG, "the weight-gradient comm type " COMM_TYPES},
    {COL_COMM_SIZE, TEXT_WG, "the weight-gradient comm size " NON_NEGATIVE},
    {COL_ANY, TEXT_FWD, "the weight update time"},
    {COL_POLICY, TEXT_FWD, "the per-layer policy (DATA, MODEL, HYBRID_DATA_MODEL or HYBRID_MODEL_DATA)"},
};

static const struct {
    const char *token;
    enum text_comm_kind kind;
} comm_tokens[] = {
    {"ALLREDUCE", TEXT_COMM_ALLREDUCE},
    {"ALLTOALL", TEXT_COMM_ALLTOALL},
    {"ALLGATHER", TEXT_COMM_ALLGATHER},
    {"REDUCESCATTER", TEXT_COMM_REDUCESCATTER},
    {"NONE", TEXT_COMM_NONE},
    {"ALLREDUCEALLTOALL", TEXT_COMM_ALLREDUCEALLTOALL},
};

/* State shared by the layer lines of one file. */
struct layer_parse {
    struct text_workload *w;
    FILE *warnings;
    bool warned_combined; /* ALLREDUCEALLTOALL is reported once per file */
    struct text_error *err;
};

static int bad_column(struct layer_parse *lp, unsigned long line, size_t k, const struct text_field *f,
                      const char *note)
{
    return text_fail(lp->err, lp->w->path, line, "expected %s in column %zu, got '%s'%s", columns[k].what, k + 1,
                     show(f).s, note);
}

static int read_number(struct layer_parse *lp, unsigned long line, size_t k, const struct text_field *f,
                       uint64_t max, uint64_t *out)
{
    switch (text_parse_u64(f->start, f->len, max, out)) {
    case TEXT_INT_OK:
        return 0;
    case TEXT_INT_OUT_OF_RANGE:
        return bad_column(lp, line, k, f, " (too large)");
    default:
        return bad_column(lp, line, k, f, "");
    }
}

static int read_comm_type(struct layer_parse *lp, unsigned long line, size_t k, const struct text_field *f,
                          struct text_comm *out)
{
    for (size_t i = 0; i < sizeof comm_tokens / sizeof comm_tokens[0]; i++) {
        if (strlen(comm_tokens[i].token) != f->len || memcmp(comm_tokens[i].token, f->start, f->len) != 0)
            continue;
        out->token = f->start;
        out->kind = comm_tokens[i].kind;
        if (out->kind == TEXT_COMM_ALLREDUCEALLTOALL && lp->warnings && !lp->warned_combined) {
            lp->warned_combined = true;
            fprintf(lp->warnings,
                    "%s:%lu: warning: ALLREDUCEALLTOALL in column %zu is converted to an ALL_REDUCE, as the "
                    "reference converter does (Chakra has no combined collective)\n",
                    lp->w->path, line, k + 1);
        }
        return 0;
    }
    return bad_column(lp, line, k, f, "");
}

static int read_policy(struct layer_parse *lp, unsigned long line, size_t k, const struct text_field *f,
                       enum text_mode *out)
{
    const struct text_mode_info *m = text_mode_find(f->start, f->len);
    if (!m || !m->layer_policy)
        return bad_column(lp, line, k, f, "");
    *out = m->mode;
    return 0;
}

static int read_column(struct layer_parse *lp, unsigned long line, size_t k, const struct text_field *f,
                       struct text_layer *layer)
{
    const struct column *c = &columns[k];
    uint64_t v;
    switch (c->kind) {
    case COL_NAME:
        layer->name = f->start;
        return 0;
    case COL_ANY:
        return 0;
    case COL_TIME:
        return read_number(lp, line, k, f, UINT64_MAX, &layer->compute[c->phase]);
    case COL_COMM_TYPE:
        return read_comm_type(lp, line, k, f, &layer->comm[c->phase]);
    case COL_COMM_SIZE:
        /* comm_size is an int64 attribute */
        if (read_number(lp, line, k, f, INT64_MAX, &v) != 0)
            return -1;
        layer->comm[c->phase].size = (int64_t)v;
        return 0;
    case COL_POLICY:
        return read_policy(lp, line, k, f, &layer->policy);
    }
    return 0;
}

static int parse_layer(struct layer_parse *lp, char *line, unsigned long number, struct text_layer *layer)
{
    size_t needed = lp->w->mode == TEXT_MODE_HYBRID_CUSTOMIZED ? POLICY_COLUMN : LAYER_COLUMNS;
    struct text_field f[POLICY_COLUMN];
    size_t n = text_split_fields(line, strlen(line), f, POLICY_COLUMN);
    size_t kept = n < needed ? n : needed;
    terminate_fields(line, f, kept);
    memset(layer, 0, sizeof *layer);
    layer->line = number;
    layer->policy = lp->w->mode;
    for (size_t k = 0; k < kept; k++)
        if (read_column(lp, number, k, &f[k], layer) != 0)
            return -1;
    if (n < needed)
        return text_fail(lp->err, lp->w->path, number, "expected %s in column %zu, got end of line", columns[n].what,
                         n + 1);
    return 0;
}

static int add_layer(struct text_workload *w, size_t *cap, struct text_error *err)
{
    if (grow_array((void **)&w->layers, cap, w->n_layers + 1, sizeof *w->layers, 64) != 0)
        return text_fail(err, w->path, 0, "out of memory");
    return 0;
}

/* Every line after the second is a layer. Blank lines at the end are
 * skipped (the reference crashes on them); a blank line with layers after
 * it is an error, since it most likely marks a damaged file. */
static int parse_layers(struct text_workload *w, struct line_cursor *cur, FILE *warnings, struct text_error *err)
{
    struct layer_parse lp = {.w = w, .warnings = warnings, .err = err};
    unsigned long blank_line = 0;
    size_t cap = 0;
    char *line;
    size_t len;
    while (next_line(cur, &line, &len)) {
        struct text_field first;
        if (text_split_fields(line, len, &first, 1) == 0) {
            if (!blank_line)
                blank_line = cur->number;
            continue;
        }
        if (blank_line)
            return text_fail(err, w->path, blank_line,
                             "expected a layer line, got a blank line (blank lines are allowed only at the end "
                             "of the file)");
        if (add_layer(w, &cap, err) != 0)
            return -1;
        line[len] = '\0'; /* the LF, or the buffer's final NUL */
        if (parse_layer(&lp, line, cur->number, &w->layers[w->n_layers]) != 0)
            return -1;
        w->n_layers++;
    }
    return 0;
}

int text_workload_parse(const char *path, const char *data, size_t len, struct text_workload *w,
                        FILE *warnings, struct text_error *err)
{
    memset(w, 0, sizeof *w);
    w->path = path;
    w->text = universal_newlines(data, len, &w->text_len);
    w->fields = w->text ? malloc(w->text_len + 1) : NULL;
    if (!w->fields) {
        text_workload_free(w);
        return text_fail(err, path, 0, "out of memory");
    }
    memcpy(w->fields, w->text, w->text_len + 1);
    struct line_cursor cur = {.next = w->fields, .end = w->fields + w->text_len};
    if (check_encoding(path, w->text, w->text_len, err) != 0 || parse_mode_line(w, &cur, err) != 0 ||
        parse_count_line(w, &cur, err) != 0 || parse_layers(w, &cur, warnings, err) != 0 ||
        text_workload_check(w, warnings, err) != 0) {
        text_workload_free(w);
        return -1;
    }
    return 0;
}

int text_workload_load(const char *path, struct text_workload *w, FILE *warnings, struct text_error *err)
{
    memset(w, 0, sizeof *w);
    /* A pipe ends; a directory or a device such as /dev/zero (which would be
     * read for ever) is refused before reading. */
    struct stat st;
    char why[96];
    bool pipe = stat(path, &st) == 0 && S_ISFIFO(st.st_mode);
    if (!pipe && input_file_check(path, why, sizeof why) != 0)
        return text_fail(err, path, 0, "%s", why);
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return text_fail(err, path, 0, "cannot open: %s", strerror(errno));
    size_t len = 0;
    char *data = input_file_read(fp, SIZE_MAX, &len);
    if (!data) {
        fclose(fp);
        return text_fail(err, path, 0, "out of memory");
    }
    int read_failed = ferror(fp);
    int read_errno = errno;
    fclose(fp);
    if (read_failed) {
        free(data);
        return text_fail(err, path, 0, "cannot read: %s", read_errno ? strerror(read_errno) : "read error");
    }
    int rc = text_workload_parse(path, data, len, w, warnings, err);
    free(data);
    return rc;
}

void text_workload_free(struct text_workload *w)
{
    free(w->text);
    free(w->fields);
    free(w->layers);
    w->text = w->fields = NULL;
    w->layers = NULL;
    w->n_layers = 0;
}
