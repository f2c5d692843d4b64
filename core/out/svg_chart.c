/* svg_chart.c - shared pieces of the hand-written SVG charts. */
#include "out/svg_chart.h"

#include <math.h>
#include <string.h>

#include "util/utf8.h"

static const char *const colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728",
                                      "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"};

void svg_chart_begin(FILE *f, int width, int height)
{
    fprintf(f,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
            "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n",
            width, height, width, height, width, height);
}

double svg_chart_nice_top(double max)
{
    if (max <= 0)
        return 1;
    double p = pow(10, floor(log10(max)));
    return max <= p ? p : max <= 2 * p ? 2 * p : max <= 5 * p ? 5 * p : 10 * p;
}

const char *svg_chart_colour(size_t i)
{
    return colours[i % (sizeof colours / sizeof colours[0])];
}

size_t svg_chart_text_chars(const char *s, size_t max)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = strlen(s), chars = 0;
    for (size_t i = 0; i < len; chars++) {
        uint32_t cp;
        size_t n = utf8_decode(p + i, len - i, &cp);
        if (i + (n ? n : 1) > max)
            return chars + 1;   /* the ellipsis */
        i += n ? n : 1;     /* a byte that is not UTF-8 shows as one '?' */
    }
    return chars;
}
