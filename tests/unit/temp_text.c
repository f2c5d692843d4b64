#include "temp_text.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *temp_text_write(const char *prefix, const char *name, const char *text)
{
    char dir[256];
    snprintf(dir, sizeof dir, "/tmp/%s.XXXXXX", prefix);
    assert_non_null(mkdtemp(dir));
    size_t cap = strlen(dir) + strlen(name) + 2;
    char *path = malloc(cap);
    assert_non_null(path);
    snprintf(path, cap, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return path;
}

void temp_text_remove(char *path)
{
    unlink(path);
    *strrchr(path, '/') = '\0';
    rmdir(path);
    free(path);
}
