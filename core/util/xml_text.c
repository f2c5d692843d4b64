#include "util/xml_text.h"

#include <stdint.h>
#include <string.h>

#include "util/utf8.h"

void xml_text(FILE *f, const char *s, size_t max)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = utf8_decode(p + i, len - i, &cp);
        if (i + (n ? n : 1) > max) {
            fputs("\xe2\x80\xa6", f);
            return;
        }
        if (n == 0 || cp < 0x20 || cp == 0x7f)
            fputc('?', f);
        else if (cp == '&')
            fputs("&amp;", f);
        else if (cp == '<')
            fputs("&lt;", f);
        else if (cp == '>')
            fputs("&gt;", f);
        else if (cp == '"')
            fputs("&quot;", f);
        else
            fwrite(p + i, 1, n, f);
        i += n ? n : 1;
    }
}
