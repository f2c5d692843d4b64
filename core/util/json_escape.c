/* Decoding JSON string escapes (json_escape.h). */
#include "util/json_escape.h"

int json_hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    char lower = (char)(c | 0x20); /* 'A'..'F' -> 'a'..'f'; no other byte lands there */
    return lower >= 'a' && lower <= 'f' ? lower - 'a' + 10 : -1;
}

long json_hex4(const char *p)
{
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int d = json_hex_digit(p[i]);
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    return v;
}

int json_simple_escape(char letter)
{
    switch (letter) {
    case '"': return '"';
    case '\\': return '\\';
    case '/': return '/';
    case 'b': return '\b';
    case 'f': return '\f';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    default: return -1;
    }
}

size_t json_unicode_escape(const char *p, size_t avail, uint32_t *cp)
{
    long unit = avail >= 6 ? json_hex4(p + 2) : -1;
    if (unit < 0)
        return 0;
    *cp = (uint32_t)unit;
    if (!json_is_high_surrogate(*cp) || avail < 12 || p[6] != '\\' || p[7] != 'u')
        return 6;
    long low = json_hex4(p + 8);
    if (low < 0 || !json_is_low_surrogate((uint32_t)low))
        return 6;
    *cp = json_surrogate_pair(*cp, (uint32_t)low);
    return 12;
}

size_t json_escape_decode(const char *p, size_t avail, uint32_t *cp)
{
    if (avail < 2)
        return 0;
    if (p[1] == 'u')
        return json_unicode_escape(p, avail, cp);
    int c = json_simple_escape(p[1]);
    if (c < 0)
        return 0;
    *cp = (uint32_t)c;
    return 2;
}
