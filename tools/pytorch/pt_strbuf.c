#include "pytorch/pt_strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

void pt_sb_init(pt_strbuf *sb)
{
    sb->data = NULL;
    sb->len = sb->cap = 0;
    sb->failed = false;
}

void pt_sb_free(pt_strbuf *sb)
{
    free(sb->data);
    pt_sb_init(sb);
}

void pt_sb_reset(pt_strbuf *sb)
{
    sb->len = 0;
    sb->failed = false;
    if (sb->data)
        sb->data[0] = '\0';
}

/* Makes room for `extra` more bytes plus the terminating NUL. */
static bool reserve(pt_strbuf *sb, size_t extra)
{
    if (sb->failed)
        return false;
    if (extra >= (size_t)-1 / 2 - sb->len) {
        sb->failed = true;
        return false;
    }
    if (grow_array((void **)&sb->data, &sb->cap, sb->len + extra + 1, 1, 64) != 0) {
        sb->failed = true;
        return false;
    }
    return true;
}

void pt_sb_putc(pt_strbuf *sb, char c)
{
    if (!reserve(sb, 1))
        return;
    sb->data[sb->len++] = c;
    sb->data[sb->len] = '\0';
}

void pt_sb_put(pt_strbuf *sb, const char *s, size_t n)
{
    if (n == 0 || !reserve(sb, n))
        return;
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void pt_sb_puts(pt_strbuf *sb, const char *s)
{
    pt_sb_put(sb, s, strlen(s));
}

void pt_sb_printf(pt_strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !reserve(sb, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}

const char *pt_sb_cstr(pt_strbuf *sb)
{
    return sb->data && !sb->failed ? sb->data : "";
}
