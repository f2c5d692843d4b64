#include "common/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "util/parent_dirs.h"
#include "vimana/et.h"

const char *cli_version(void)
{
    return PACKAGE_VERSION;
}

void cli_error(const char *prog, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s: ", prog);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* Which of the '|'-separated names `arg` (up to `len` chars) equals: its
 * position, or -1 for none. */
static int name_index(const char *arg, size_t len, const char *names)
{
    const char *p = names;
    for (int k = 0; *p; k++) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n == len && strncmp(arg, p, n) == 0)
            return k;
        if (!bar)
            break;
        p = bar + 1;
    }
    return -1;
}

static bool matches(const char *arg, size_t len, const char *names)
{
    return name_index(arg, len, names) >= 0;
}

int cli_word(const char *prog, const char *option, const char *value, const char *words)
{
    int k = name_index(value, strlen(value), words);
    if (k >= 0)
        return k;
    /* "a|b|c" as "a, b or c" */
    char list[256];
    size_t used = 0;
    for (const char *p = words; *p && used < sizeof list - 1; p++) {
        if (*p != '|') {
            list[used++] = *p;
            continue;
        }
        for (const char *sep = strchr(p + 1, '|') ? ", " : " or "; *sep && used < sizeof list - 1; sep++)
            list[used++] = *sep;
    }
    list[used] = '\0';
    cli_error(prog, "%s: expected %s, got '%s'", option, list, value);
    return -1;
}

int cli_word_option(const char *prog, int argc, char **argv, int *i, const char *name, const char *words, int *word)
{
    const char *v;
    int rc = cli_option(prog, argc, argv, i, name, &v);
    if (rc <= 0)
        return rc;
    *word = cli_word(prog, name, v, words);
    return *word < 0 ? -1 : 1;
}

bool cli_flag(const char *arg, const char *names)
{
    return matches(arg, strlen(arg), names);
}

bool cli_help(const char *arg, const char *usage)
{
    if (!cli_flag(arg, "-h|--help"))
        return false;
    fputs(usage, stdout);
    return true;
}

void cli_unexpected(const char *prog, const char *arg, const char *help)
{
    cli_error(prog, "%s '%s' (see %s)", arg[0] == '-' ? "unknown option" : "unexpected argument", arg, help);
}

int cli_positional(const char *prog, const char *arg, const char *what, const char *note, const char **slot)
{
    /* A lone "-" names stdin/stdout, so it is a positional argument. */
    if (arg[0] == '-' && arg[1] != '\0') {
        cli_error(prog, "unknown option '%s' (see --help)", arg);
        return 2;
    }
    if (*slot) {
        cli_error(prog, "more than one %s ('%s' and '%s')%s", what, *slot, arg, note);
        return 2;
    }
    *slot = arg;
    return 0;
}

int cli_option(const char *prog, int argc, char **argv, int *i, const char *names, const char **value)
{
    const char *arg = argv[*i];
    const char *eq = strchr(arg, '=');
    size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
    if (!matches(arg, len, names))
        return 0;
    if (eq) {
        *value = eq + 1;
        return 1;
    }
    if (*i + 1 >= argc) {
        cli_error(prog, "option %s needs a value", arg);
        return -1;
    }
    *value = argv[++*i];
    return 1;
}

int cli_text_options(const char *prog, int argc, char **argv, int *i, const cli_text_option *table)
{
    for (const cli_text_option *o = table; o->names; o++) {
        int rc = cli_option(prog, argc, argv, i, o->names, o->value);
        if (rc != 0)
            return rc;
    }
    return 0;
}

int cli_u64(const char *prog, const char *option, const char *text, uint64_t *out)
{
    char *end;
    errno = 0;
    if (!text[0] || text[0] == '-') {
        cli_error(prog, "%s: expected a non-negative integer, got '%s'", option, text);
        return -1;
    }
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end) {
        cli_error(prog, "%s: expected a non-negative integer, got '%s'", option, text);
        return -1;
    }
    *out = v;
    return 0;
}

int cli_size(const char *prog, const char *option, const char *text, uint64_t *out)
{
    if (vet_parse_size(text, out) != 0) {
        cli_error(prog, "%s: expected a size such as 1048576, 64KiB, 1MiB or 1MB, got '%s'", option, text);
        return -1;
    }
    return 0;
}

int cli_size_option(const char *prog, int argc, char **argv, int *i, const char *name, const char *example,
                    uint64_t *out)
{
    const char *v;
    int rc = cli_option(prog, argc, argv, i, name, &v);
    if (rc <= 0)
        return rc;
    if (cli_size(prog, name, v, out) != 0)
        return -1;
    if (*out == 0) {
        cli_error(prog, "%s: expected a size above 0 (e.g. %s), got '%s'", name, example, v);
        return -1;
    }
    return 1;
}

int cli_make_parent_dirs(const char *prog, const char *prefix)
{
    char err[4200];
    if (parent_dirs_make(prefix, err, sizeof err) != 0) {
        cli_error(prog, "%s", err);
        return -1;
    }
    return 0;
}
