#include "out/json_out.h"

#include <stddef.h>
#include <string.h>

#include "util/utf8.h"

void json_out_string(FILE *f, const char *text)
{
    fputc('"', f);
    const unsigned char *p = (const unsigned char *)text, *end = p + strlen(text);
    while (p < end) {
        if (*p == '"' || *p == '\\') {
            fprintf(f, "\\%c", *p++);
        } else if (*p < 0x20 || *p == 0x7f) {
            fprintf(f, "\\u%04x", *p++);
        } else if (*p < 0x80) {
            fputc(*p++, f);
        } else {
            uint32_t cp;
            size_t n = utf8_decode(p, (size_t)(end - p), &cp);
            if (n == 0) {
                fprintf(f, "\\udc%02x", *p++);
                continue;
            }
            fwrite(p, 1, n, f);
            p += n;
        }
    }
    fputc('"', f);
}

void json_out_micros(FILE *f, uint64_t ticks)
{
    unsigned long long whole = ticks / 1000, frac = ticks % 1000;
    if (frac == 0)
        fprintf(f, "%llu", whole);
    else if (frac % 100 == 0)
        fprintf(f, "%llu.%llu", whole, frac / 100);
    else if (frac % 10 == 0)
        fprintf(f, "%llu.%02llu", whole, frac / 10);
    else
        fprintf(f, "%llu.%03llu", whole, frac);
}
