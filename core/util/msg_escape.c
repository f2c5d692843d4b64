/*
 * msg_escape.c - see msg_escape.h.
 */
#include "util/msg_escape.h"

#include <stdio.h>
#include <string.h>

/* Writes the escape of byte c into out (room for 5 bytes with the NUL);
 * returns its length. */
static size_t escape_byte(unsigned char c, char out[5])
{
    switch (c) {
    case '\n': memcpy(out, "\\n", 3); return 2;
    case '\t': memcpy(out, "\\t", 3); return 2;
    case '\r': memcpy(out, "\\r", 3); return 2;
    case '\\': memcpy(out, "\\\\", 3); return 2;
    default: break;
    }
    if (c < 0x20 || c == 0x7f)
        return (size_t)snprintf(out, 5, "\\x%02x", c);
    out[0] = (char)c;
    out[1] = '\0';
    return 1;
}

const char *msg_escape_n(const char *s, size_t len, char *buf, size_t buf_len)
{
    static const char ellipsis[] = "...";
    char esc[5];
    size_t total = 0;
    for (size_t i = 0; i < len; i++)
        total += escape_byte((unsigned char)s[i], esc);
    /* Everything fits, or only what leaves room for the ellipsis does. */
    size_t limit = total < buf_len ? total : (buf_len >= sizeof ellipsis ? buf_len - sizeof ellipsis : 0);
    size_t used = 0;
    for (size_t i = 0; i < len; i++) {
        size_t n = escape_byte((unsigned char)s[i], esc);
        if (used + n > limit)
            break;
        memcpy(buf + used, esc, n);
        used += n;
    }
    if (total >= buf_len && buf_len >= sizeof ellipsis) {
        memcpy(buf + used, ellipsis, sizeof ellipsis);
        return buf;
    }
    if (buf_len > 0)
        buf[used < buf_len ? used : buf_len - 1] = '\0';
    return buf;
}

const char *msg_escape(const char *s, char *buf, size_t buf_len)
{
    return msg_escape_n(s, strlen(s), buf, buf_len);
}

const char *msg_one_line(const char *s, char *buf, size_t buf_len)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if (*p < 0x20 || *p == 0x7f)
            return msg_escape(s, buf, buf_len);
    static const char ellipsis[] = "...";
    size_t len = strlen(s);
    if (len < buf_len) {
        memcpy(buf, s, len + 1);
    } else if (buf_len >= sizeof ellipsis) {
        memcpy(buf, s, buf_len - sizeof ellipsis);
        memcpy(buf + buf_len - sizeof ellipsis, ellipsis, sizeof ellipsis);
    } else if (buf_len > 0) {
        buf[0] = '\0';
    }
    return buf;
}
