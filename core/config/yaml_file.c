/* yaml_file.c - one YAML document from a file, with line-numbered errors. */
#include "config/yaml_file.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "util/input_file.h"
#include "util/path_msg.h"

static int parse_error(const yaml_parser_t *p, const char *shown, char *err, size_t len)
{
    snprintf(err, len, "%s:%zu: %s", shown, p->problem_mark.line + 1, p->problem ? p->problem : "YAML error");
    return -1;
}

/* A second document would be ignored silently: refuse it. */
static int only_document(yaml_parser_t *p, const char *shown, const char *what, char *err, size_t len)
{
    yaml_document_t next;
    if (!yaml_parser_load(p, &next))
        return parse_error(p, shown, err, len);
    bool more = yaml_document_get_root_node(&next) != NULL;
    size_t line = next.start_mark.line + 1;
    yaml_document_delete(&next);
    if (more) {
        snprintf(err, len, "%s:%zu: a second YAML document (%s is one)", shown, line, what);
        return -1;
    }
    return 0;
}

static FILE *open_checked(const char *path, const char *shown, char *err, size_t len)
{
    char why[128];
    if (input_file_check(path, why, sizeof why) != 0) {
        snprintf(err, len, "%s: %s", shown, why);
        return NULL;
    }
    FILE *fp = fopen(path, "rb");
    if (!fp)
        snprintf(err, len, "%s: cannot open: %s", shown, strerror(errno));
    return fp;
}

int yaml_file_first_document(const char *path, const char *shown, yaml_document_t *doc, char *err, size_t len)
{
    FILE *fp = open_checked(path, shown, err, len);
    if (!fp)
        return -1;
    yaml_parser_t p;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_file(&p, fp);
    int rc = yaml_parser_load(&p, doc) ? 0 : parse_error(&p, shown, err, len);
    yaml_parser_delete(&p);
    fclose(fp);
    return rc;
}

int yaml_file_load(const char *path, const char *shown, const char *what, yaml_file_read_fn read, void *ctx,
                   char *err, size_t len)
{
    FILE *fp = open_checked(path, shown, err, len);
    if (!fp)
        return -1;
    yaml_parser_t p;
    yaml_document_t doc;
    yaml_parser_initialize(&p);
    yaml_parser_set_input_file(&p, fp);
    int rc;
    if (!yaml_parser_load(&p, &doc)) {
        rc = parse_error(&p, shown, err, len);
    } else {
        rc = read(ctx, &doc, yaml_document_get_root_node(&doc));
        yaml_document_delete(&doc);
        rc = rc == 0 ? only_document(&p, shown, what, err, len) : rc;
    }
    yaml_parser_delete(&p);
    fclose(fp);
    return rc;
}

/* line 0: none. */
static int reader_vfail(yaml_reader *r, size_t line, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
static int reader_vfail(yaml_reader *r, size_t line, const char *fmt, va_list ap)
{
    return path_vmsg(r->err, r->err_len, r->path, line, 400, fmt, ap);
}

int yaml_reader_fail(yaml_reader *r, const yaml_node_t *at, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    reader_vfail(r, at ? at->start_mark.line + 1 : 0, fmt, ap);
    va_end(ap);
    return -1;
}

int yaml_reader_fail_line(yaml_reader *r, size_t line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    reader_vfail(r, line, fmt, ap);
    va_end(ap);
    return -1;
}

const yaml_node_t *yaml_reader_node(const yaml_reader *r, int id)
{
    return yaml_document_get_node(r->doc, id);
}

const char *yaml_scalar(const yaml_node_t *n)
{
    return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}
