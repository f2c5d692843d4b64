/* Parsing one in-memory JSON document with positioned errors (json_doc.h). */
#include "util/json_doc.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "util/input_file.h"
#include "util/json_dup_keys.h"

static int fail(char *msg, size_t msg_len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *msg, size_t msg_len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, msg_len, fmt, ap);
    va_end(ap);
    return -1;
}

/* Line and column (from 1) of byte `offset`. */
static void position(const char *text, size_t offset, unsigned long *line, unsigned long *column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < offset; i++) {
        if (text[i] == '\n')
            ++*line, *column = 1;
        else
            ++*column;
    }
}

/* Only JSON's blanks: a NUL byte inside the text counts as text. */
static bool only_blanks(const char *p, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (p[i] != ' ' && p[i] != '\t' && p[i] != '\n' && p[i] != '\r')
            return false;
    return true;
}

/* json-c keeps the last of two equal keys: a value given twice is refused
 * here instead of one of them being dropped without a word. */
static int refuse_duplicate_keys(const char *path, const char *text, size_t len, char *msg, size_t msg_len)
{
    struct json_dup_key dup;
    int found = json_dup_keys_find(text, len, &dup);
    if (found < 0)
        return fail(msg, msg_len, "%s: out of memory", path);
    if (!found)
        return 0;
    unsigned long line, column, first_line, first_column;
    char key[96];
    position(text, dup.offset, &line, &column);
    position(text, dup.first_offset, &first_line, &first_column);
    return fail(msg, msg_len, "%s: duplicate key \"%s\" at line %lu, column %lu (first given at line %lu, column %lu)",
                path, json_dup_key_text(text, len, dup.offset, key, sizeof key), line, column, first_line,
                first_column);
}

int json_doc_parse(const char *path, const char *text, size_t len, json_object **root, char *msg, size_t msg_len)
{
    *root = NULL;
    if (len > INT32_MAX)
        return fail(msg, msg_len, "%s: larger than 2 GiB, not a JSON document this tool reads", path);
    json_tokener *tok = json_tokener_new();
    if (!tok)
        return fail(msg, msg_len, "%s: out of memory", path);
    json_object *doc = json_tokener_parse_ex(tok, text, (int)len);
    enum json_tokener_error e = json_tokener_get_error(tok);
    size_t end = json_tokener_get_parse_end(tok);
    json_tokener_free(tok);
    unsigned long line, column;
    if (!doc || e != json_tokener_success) {
        json_object_put(doc);
        if (e == json_tokener_continue || e == json_tokener_success)
            return fail(msg, msg_len, "%s: malformed JSON: unexpected end of input", path);
        position(text, end, &line, &column);
        return fail(msg, msg_len, "%s: malformed JSON at line %lu, column %lu: %s", path, line, column,
                    json_tokener_error_desc(e));
    }
    if (!only_blanks(text + end, len - end)) {
        json_object_put(doc);
        position(text, end, &line, &column);
        return fail(msg, msg_len, "%s: malformed JSON at line %lu, column %lu: text after the document", path, line,
                    column);
    }
    int rc = refuse_duplicate_keys(path, text, end, msg, msg_len);
    if (rc != 0) {
        json_object_put(doc);
        return rc;
    }
    *root = doc;
    return 0;
}

int json_doc_load(const char *path, const char *shown, size_t max_bytes, const char *too_big, json_object **root,
                  char *msg, size_t msg_len)
{
    *root = NULL;
    FILE *f = input_file_open(path, shown, "rb", msg, msg_len);
    if (!f)
        return -1;
    char *text = malloc(max_bytes + 1);
    if (!text) {
        fclose(f);
        return fail(msg, msg_len, "%s: out of memory", shown);
    }
    size_t n = fread(text, 1, max_bytes + 1, f);
    int bad = ferror(f);
    fclose(f);
    int rc = bad ? fail(msg, msg_len, "%s: read failed", shown)
             : n > max_bytes ? fail(msg, msg_len, "%s: larger than %s", shown, too_big)
                             : json_doc_parse(shown, text, n, root, msg, msg_len);
    free(text);
    return rc;
}
