#include "pytorch/pyjson.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

#include "common/json_lex.h"
#include "util/grow.h"
#include "util/hash.h"
#include "util/input_file.h"

/* Python's json module gives up near the interpreter's recursion limit. */
#define PJ_MAX_DEPTH 1000

/* ---- arena ---------------------------------------------------------------- */

struct pj_block {
    pj_block *next;
    size_t used, cap;
    _Alignas(max_align_t) unsigned char data[];
};

static void *arena_alloc(pj_block **blocks, size_t size)
{
    size = (size + 15) & ~(size_t)15;
    pj_block *b = *blocks;
    if (!b || b->cap - b->used < size) {
        size_t cap = size > (1u << 20) ? size : (1u << 20);
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->next = *blocks;
        b->used = 0;
        b->cap = cap;
        *blocks = b;
    }
    void *p = b->data + b->used;
    b->used += size;
    return p;
}

static void arena_free(pj_block *b)
{
    while (b) {
        pj_block *next = b->next;
        free(b);
        b = next;
    }
}

/* ---- parser state ---------------------------------------------------------- */

typedef struct parser {
    const char *name;
    char *text;               /* the (mutable) text; text[len] == '\0' */
    size_t len;
    size_t pos;               /* next byte to read */
    size_t line;              /* line of pos, tracked in white space */
    size_t line_start;
    int depth;
    pj_block **blocks;
    pj_value *vals;           /* scratch stack of array items */
    size_t n_vals, cap_vals;
    pj_member *mems;          /* scratch stack of object members */
    size_t n_mems, cap_mems;
    pt_error *err;
} parser;

static int fail_at(parser *ps, size_t at, const char *what)
{
    size_t column = at - ps->line_start + 1;
    return pt_fail(ps->err, "%s: line %zu, column %zu: invalid JSON: %s", ps->name, ps->line, column, what);
}

static int out_of_memory(parser *ps)
{
    return pt_fail(ps->err, "%s: out of memory", ps->name);
}

/* Lines are counted here, not from the text when a message needs one:
 * white space between tokens is the only place a raw newline can be
 * (strings refuse them), and decoding strings in place writes the
 * newlines of "\n" escapes into the text. */
static void skip_ws(parser *ps)
{
    size_t from = ps->pos;
    ps->pos = json_lex_skip_ws(ps->text, ps->len, from);
    for (size_t i = from; i < ps->pos; i++)
        if (ps->text[i] == '\n') {
            ps->line++;
            ps->line_start = i + 1;
        }
}

/* The byte at the read position ('\0' at the end). */
static char cur(const parser *ps)
{
    return ps->text[ps->pos];
}

static int parse_value(parser *ps, pj_value *out);

/* ---- strings ---------------------------------------------------------------- */

/* The message for a string the lexer refused, and where it points: at the
 * opening quote when the string never ends, else at the offending byte or
 * escape. */
static int string_error(parser *ps, size_t quote, enum json_lex_error e, const json_lex_str *r)
{
    switch (e) {
    case JSON_LEX_UNTERMINATED: return fail_at(ps, quote, "unterminated string");
    case JSON_LEX_CONTROL: return fail_at(ps, r->at, "control character inside a string");
    case JSON_LEX_BAD_HEX: return fail_at(ps, r->at, "invalid \\uXXXX escape");
    case JSON_LEX_NUL_ESCAPE: return fail_at(ps, r->at, "\\u0000 (a NUL character) is not supported");
    case JSON_LEX_LONE_SURROGATE: return fail_at(ps, r->at, "unpaired surrogate escape is not supported");
    case JSON_LEX_BAD_UTF8: return fail_at(ps, r->at, "invalid UTF-8");
    default: return fail_at(ps, r->at, "invalid escape");
    }
}

/* A string starting at the opening quote, checked by Python's rules, then
 * decoded in place (the result is never longer than its source) and
 * NUL-terminated over its closing quote or before. */
static int parse_string(parser *ps, const char **s, uint32_t *len)
{
    size_t quote = ps->pos, start = quote + 1;
    json_lex_str r;
    enum json_lex_error e = json_lex_string(ps->text, ps->len, start, JSON_LEX_PYTHON, &r);
    if (e != JSON_LEX_OK)
        return string_error(ps, quote, e, &r);
    char *content = ps->text + start;
    size_t n = r.end - start;
    if (r.escaped)
        n = json_lex_decode(content, n, content, JSON_LEX_PYTHON);
    if (n > UINT32_MAX)
        return fail_at(ps, quote, "string longer than 4 GiB");
    content[n] = '\0';
    *s = content;
    *len = (uint32_t)n;
    ps->pos = r.end + 1;
    return 0;
}

/* ---- numbers and literals ---------------------------------------------------- */

/* A byte that would go on a number the grammar has ended. */
static bool continues_number(char c)
{
    return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
}

/* Python's NUMBER_RE, -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?, and NaN,
 * Infinity, -Infinity. Where the regular expression would stop inside
 * what reads as one number ("1.", "01", "1e5e"), the number is refused. */
static int parse_number(parser *ps, pj_value *out)
{
    size_t start = ps->pos;
    const char *text = ps->text;
    json_lex_num num;
    enum json_lex_error e = json_lex_number(text, ps->len, start, true, &num);
    if (e == JSON_LEX_NO_DIGIT)
        return fail_at(ps, start, "expecting a value");
    if (e != JSON_LEX_OK || (num.special == JSON_LEX_FINITE && continues_number(text[num.end])))
        return fail_at(ps, start, "malformed number");
    ps->pos = num.end;
    switch (num.special) {
    case JSON_LEX_NAN: out->type = PJ_FLOAT, out->v.d = __builtin_nan(""); return 0;
    case JSON_LEX_INFINITY: out->type = PJ_FLOAT, out->v.d = __builtin_inf(); return 0;
    case JSON_LEX_NEG_INFINITY: out->type = PJ_FLOAT, out->v.d = -__builtin_inf(); return 0;
    case JSON_LEX_FINITE: break;
    }
    if (!num.integer) {
        out->type = PJ_FLOAT;
        out->v.d = strtod(text + start, NULL); /* the text after the token stops it */
        return 0;
    }
    bool negative = text[start] == '-';
    uint64_t mag = 0;
    for (size_t d = start + negative; d < num.int_end; d++) {
        unsigned digit = (unsigned)(text[d] - '0');
        if (mag > (UINT64_MAX - digit) / 10)
            return fail_at(ps, start, "integer outside the 64-bit range");
        mag = mag * 10 + digit;
    }
    out->type = PJ_INT;
    if (negative && mag > 0) {
        if (mag > (uint64_t)INT64_MAX + 1)
            return fail_at(ps, start, "integer outside the 64-bit range");
        out->negative = true;
        out->v.i = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
    } else {
        out->v.u = mag; /* "-0" is the int 0 */
    }
    return 0;
}

static bool take(parser *ps, const char *word)
{
    size_t n = strlen(word);
    if (json_lex_word(ps->text, ps->len, ps->pos, word) != n)
        return false;
    ps->pos += n;
    return true;
}

/* null, true, false. */
static int parse_literal(parser *ps, pj_value *out)
{
    if (take(ps, "null")) {
        out->type = PJ_NULL;
    } else if (take(ps, "true")) {
        out->type = PJ_BOOL, out->b = true;
    } else if (take(ps, "false")) {
        out->type = PJ_BOOL, out->b = false;
    } else {
        return fail_at(ps, ps->pos, "expecting a value");
    }
    return 0;
}

/* ---- containers --------------------------------------------------------------- */

static int push_val(parser *ps, const pj_value *v)
{
    if (grow_array((void **)&ps->vals, &ps->cap_vals, ps->n_vals + 1, sizeof *ps->vals, 256) != 0)
        return out_of_memory(ps);
    ps->vals[ps->n_vals++] = *v;
    return 0;
}

static int push_member(parser *ps, const char *key, uint32_t key_len)
{
    if (grow_array((void **)&ps->mems, &ps->cap_mems, ps->n_mems + 1, sizeof *ps->mems, 256) != 0)
        return out_of_memory(ps);
    pj_member *m = &ps->mems[ps->n_mems++];
    memset(m, 0, sizeof *m);
    m->key = key;
    m->key_len = key_len;
    return 0;
}

/* The elements of an array or object after its opening bracket, up to
 * and with `close`: none, or one() for each, with commas between;
 * `expected` is the message where neither a comma nor `close` follows. */
static int elements(parser *ps, char close, const char *expected, int (*one)(parser *ps))
{
    skip_ws(ps);
    if (cur(ps) != close) {
        for (;;) {
            if (one(ps) != 0)
                return -1;
            skip_ws(ps);
            if (cur(ps) == ',') {
                ps->pos++;
                skip_ws(ps);
                continue;
            }
            if (cur(ps) == close)
                break;
            return fail_at(ps, ps->pos, expected);
        }
    }
    ps->pos++;
    return 0;
}

/* A finished array's or object's elements: the n of `size` bytes stacked
 * from index `first` of `stack`, copied into the document's blocks where
 * the value keeps them (*out NULL for none). */
static int keep_elements(parser *ps, const void *stack, size_t first, size_t n, size_t size, void **out)
{
    *out = NULL;
    if (n == 0)
        return 0;
    void *kept = arena_alloc(ps->blocks, n * size);
    if (!kept)
        return out_of_memory(ps);
    memcpy(kept, (const char *)stack + first * size, n * size);
    *out = kept;
    return 0;
}

static int array_item(parser *ps)
{
    pj_value item;
    return parse_value(ps, &item) != 0 || push_val(ps, &item) != 0 ? -1 : 0;
}

static int parse_array(parser *ps, pj_value *out)
{
    size_t base = ps->n_vals;
    ps->pos++;
    if (elements(ps, ']', "expecting ',' or ']'", array_item) != 0)
        return -1;
    size_t n = ps->n_vals - base;
    if (n > UINT32_MAX)
        return fail_at(ps, ps->pos, "array with more than 2^32 items");
    out->type = PJ_ARRAY;
    out->n = (uint32_t)n;
    void *items;
    if (keep_elements(ps, ps->vals, base, n, sizeof *ps->vals, &items) != 0)
        return -1;
    out->v.items = items;
    ps->n_vals = base;
    return 0;
}

static bool same_key(const pj_member *a, const pj_member *b)
{
    return a->key_len == b->key_len && memcmp(a->key, b->key, a->key_len) == 0;
}

static uint64_t key_hash(const pj_member *m)
{
    return hash_fnv1a(HASH_FNV1A_SEED, m->key, m->key_len);
}

/* A dict keeps a repeated key at its first position with its last value.
 * Small objects (every node's) compare keys pairwise; big ones hash them.
 * Returns the number of members kept, or SIZE_MAX when out of memory. */
static size_t merge_repeated_keys(pj_member *m, size_t n)
{
    size_t kept = 0;
    if (n <= 32) {
        for (size_t i = 0; i < n; i++) {
            size_t j = 0;
            while (j < kept && !same_key(&m[j], &m[i]))
                j++;
            if (j < kept)
                m[j].value = m[i].value;
            else
                m[kept++] = m[i];
        }
        return kept;
    }
    size_t size = 64;
    while (size < 2 * n)
        size *= 2;
    size_t *slot = malloc(size * sizeof *slot); /* index + 1 of a kept member, 0 = empty */
    if (!slot)
        return SIZE_MAX;
    memset(slot, 0, size * sizeof *slot);
    for (size_t i = 0; i < n; i++) {
        size_t h = (size_t)key_hash(&m[i]) & (size - 1);
        while (slot[h] && !same_key(&m[slot[h] - 1], &m[i]))
            h = (h + 1) & (size - 1);
        if (slot[h]) {
            m[slot[h] - 1].value = m[i].value;
        } else {
            m[kept] = m[i];
            slot[h] = ++kept;
        }
    }
    free(slot);
    return kept;
}

static int object_member(parser *ps)
{
    const char *key;
    uint32_t key_len;
    if (cur(ps) != '"')
        return fail_at(ps, ps->pos, "expecting a property name in double quotes");
    if (parse_string(ps, &key, &key_len) != 0)
        return -1;
    skip_ws(ps);
    if (cur(ps) != ':')
        return fail_at(ps, ps->pos, "expecting ':'");
    ps->pos++;
    skip_ws(ps);
    pj_value value;
    if (parse_value(ps, &value) != 0 || push_member(ps, key, key_len) != 0)
        return -1;
    ps->mems[ps->n_mems - 1].value = value;
    return 0;
}

static int parse_object(parser *ps, pj_value *out)
{
    size_t base = ps->n_mems;
    ps->pos++;
    if (elements(ps, '}', "expecting ',' or '}'", object_member) != 0)
        return -1;
    /* `{}` before any member was ever read: mems is still NULL, and NULL + 0
     * is undefined behaviour. */
    size_t n = ps->n_mems > base ? merge_repeated_keys(ps->mems + base, ps->n_mems - base) : 0;
    if (n == SIZE_MAX)
        return out_of_memory(ps);
    if (n > UINT32_MAX)
        return fail_at(ps, ps->pos, "object with more than 2^32 members");
    out->type = PJ_OBJECT;
    out->n = (uint32_t)n;
    void *members;
    if (keep_elements(ps, ps->mems, base, n, sizeof *ps->mems, &members) != 0)
        return -1;
    out->v.members = members;
    ps->n_mems = base;
    return 0;
}

static int parse_value(parser *ps, pj_value *out)
{
    memset(out, 0, sizeof *out);
    char c = cur(ps);
    if (ps->pos >= ps->len)
        return fail_at(ps, ps->pos, "expecting a value");
    if (c == '"') {
        out->type = PJ_STRING;
        return parse_string(ps, &out->v.s, &out->n);
    }
    if (c == '{' || c == '[') {
        if (++ps->depth > PJ_MAX_DEPTH)
            return fail_at(ps, ps->pos, "nested deeper than 1000 levels");
        int rc = c == '{' ? parse_object(ps, out) : parse_array(ps, out);
        ps->depth--;
        return rc;
    }
    if (c == '-' || (c >= '0' && c <= '9') || c == 'N' || c == 'I')
        return parse_number(ps, out);
    return parse_literal(ps, out);
}

/* ---- documents ------------------------------------------------------------------ */

void pj_free(pj_doc *doc)
{
    free(doc->text);
    arena_free(doc->blocks);
    memset(doc, 0, sizeof *doc);
}

/* Takes ownership of text (len bytes plus a NUL at text[len]). */
static int parse_owned(pj_doc *doc, const char *name, char *text, size_t len, pt_error *err)
{
    memset(doc, 0, sizeof *doc);
    doc->text = text;
    parser ps = {.name = name, .text = text, .len = len, .line = 1, .blocks = &doc->blocks, .err = err};
    int rc = 0;
    const char *nul = memchr(text, '\0', len);
    if (nul)
        rc = fail_at(&ps, (size_t)(nul - text), "NUL byte in the text");
    if (rc == 0) {
        skip_ws(&ps);
        rc = parse_value(&ps, &doc->root);
    }
    if (rc == 0) {
        skip_ws(&ps);
        if (ps.pos < ps.len)
            rc = fail_at(&ps, ps.pos, "extra data after the JSON document");
    }
    free(ps.vals);
    free(ps.mems);
    if (rc != 0)
        pj_free(doc);
    return rc;
}

int pj_parse(pj_doc *doc, const char *name, const char *text, size_t len, pt_error *err)
{
    char *copy = len < SIZE_MAX ? malloc(len + 1) : NULL;
    if (!copy) {
        memset(doc, 0, sizeof *doc);
        return pt_fail(err, "%s: out of memory", name);
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    return parse_owned(doc, name, copy, len, err);
}

/* Reads a gzip file through zlib, growing the buffer as it goes. */
static int read_gzip(const char *path, char **out, size_t *out_len, pt_error *err)
{
    errno = 0;
    gzFile gz = gzopen(path, "rb");
    if (!gz)
        return pt_fail(err, "%s: cannot open: %s", path, errno ? strerror(errno) : "out of memory");
    gzbuffer(gz, 1u << 20);
    size_t cap = 1u << 22, len = 0;
    char *buf = malloc(cap + 1);
    int rc = buf ? 0 : pt_fail(err, "%s: out of memory", path);
    while (rc == 0) {
        if (cap - len < (1u << 20)) {
            char *nb = cap < SIZE_MAX / 4 ? realloc(buf, cap * 2 + 1) : NULL;
            if (!nb) {
                rc = pt_fail(err, "%s: out of memory", path);
                break;
            }
            buf = nb;
            cap *= 2;
        }
        int got = gzread(gz, buf + len, 1u << 20);
        int zerr;
        const char *msg = gzerror(gz, &zerr);
        if (got < 0 || (got == 0 && zerr != Z_OK)) {
            size_t plen = strlen(path); /* zlib prefixes its message with "path: " */
            if (strncmp(msg, path, plen) == 0 && strncmp(msg + plen, ": ", 2) == 0)
                msg += plen + 2;
            rc = pt_fail(err, "%s: read failed: %s", path, zerr == Z_ERRNO ? strerror(errno) : msg);
            break;
        }
        if (got == 0)
            break;
        len += (size_t)got;
    }
    gzclose(gz);
    if (rc != 0) {
        free(buf);
        return rc;
    }
    *out = buf;
    *out_len = len;
    return 0;
}

/* Reads a whole file into a buffer with room for a NUL: a plain regular
 * file directly, anything else (gzip, pipes) through zlib, which passes
 * plain data through. */
static int read_all(const char *path, char **out, size_t *out_len, pt_error *err)
{
    /* A pipe ends and is read through zlib below; a directory or a device
     * such as /dev/zero (which would be read for ever) is refused. */
    struct stat pst;
    char why[96];
    bool pipe = stat(path, &pst) == 0 && S_ISFIFO(pst.st_mode);
    if (!pipe && input_file_check(path, why, sizeof why) != 0)
        return pt_fail(err, "%s: %s", path, why);
    errno = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return pt_fail(err, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || S_ISDIR(st.st_mode)) {
        int e = S_ISDIR(st.st_mode) ? EISDIR : errno;
        fclose(f);
        return pt_fail(err, "%s: cannot read: %s", path, strerror(e));
    }
    unsigned char magic[2] = {0, 0};
    /* pipes must not be read here: what is read is gone for zlib */
    bool stream = !S_ISREG(st.st_mode) || (uintmax_t)st.st_size >= SIZE_MAX;
    if (stream || (fread(magic, 1, 2, f) == 2 && magic[0] == 0x1f && magic[1] == 0x8b)) {
        fclose(f);
        return read_gzip(path, out, out_len, err);
    }
    size_t size = (size_t)st.st_size;
    char *buf = malloc(size + 1);
    int rc = 0;
    if (!buf)
        rc = pt_fail(err, "%s: out of memory", path);
    else if (fseek(f, 0, SEEK_SET) != 0 || fread(buf, 1, size, f) != size)
        rc = pt_fail(err, "%s: read failed: %s", path, ferror(f) ? strerror(errno) : "file changed size");
    fclose(f);
    if (rc != 0) {
        free(buf);
        return rc;
    }
    *out = buf;
    *out_len = size;
    return 0;
}

int pj_load(pj_doc *doc, const char *path, pt_error *err)
{
    char *text = NULL;
    size_t len = 0;
    memset(doc, 0, sizeof *doc);
    if (read_all(path, &text, &len, err) != 0)
        return -1;
    text[len] = '\0';
    return parse_owned(doc, path, text, len, err);
}

/* ---- access ------------------------------------------------------------------------ */

const pj_value *pj_get(const pj_value *v, const char *key)
{
    if (!v || v->type != PJ_OBJECT)
        return NULL;
    size_t len = strlen(key);
    for (uint32_t k = 0; k < v->n; k++)
        if (v->v.members[k].key_len == len && memcmp(v->v.members[k].key, key, len) == 0)
            return &v->v.members[k].value;
    return NULL;
}

const pj_value *pj_at(const pj_value *v, size_t i)
{
    return v && v->type == PJ_ARRAY && i < v->n ? &v->v.items[i] : NULL;
}

size_t pj_len(const pj_value *v)
{
    return v && v->type == PJ_ARRAY ? v->n : 0;
}

const char *pj_str(const pj_value *v)
{
    return v && v->type == PJ_STRING ? v->v.s : NULL;
}

const char *pj_type_name(const pj_value *v)
{
    if (!v)
        return "nothing";
    switch (v->type) {
    case PJ_NULL: return "NoneType";
    case PJ_BOOL: return "bool";
    case PJ_INT: return "int";
    case PJ_FLOAT: return "float";
    case PJ_STRING: return "str";
    case PJ_ARRAY: return "list";
    case PJ_OBJECT: return "dict";
    }
    return "?";
}
