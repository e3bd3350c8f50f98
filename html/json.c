/* JSON for a <script type="application/json"> block, and text for HTML
 * markup: see html/internal.h for the rules. */
#include <math.h>

#include "html/internal.h"

/* The length of the valid UTF-8 sequence at s (1..4), or 0 when the bytes
 * there are not one (overlong, surrogate, beyond U+10FFFF, cut short). */
static size_t utf8_len(const unsigned char *s, size_t left)
{
    unsigned c = s[0];
    size_t n;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        min = 0x10000;
    } else {
        return 0;
    }
    if (left < n)
        return 0;
    unsigned cp = c & (0xffu >> (n + 1));
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

void html_json_str(FILE *f, const char *str, size_t len)
{
    const unsigned char *s = (const unsigned char *)str;
    putc('"', f);
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        if (c >= 0x80) {
            size_t n = utf8_len(s + i, len - i);
            if (n == 0) {
                fputs("\\ufffd", f);
                i++;
            } else if (n == 3 && c == 0xe2 && s[i + 1] == 0x80 &&
                       (s[i + 2] == 0xa8 || s[i + 2] == 0xa9)) {
                fputs(s[i + 2] == 0xa8 ? "\\u2028" : "\\u2029", f);
                i += 3;
            } else {
                fwrite(s + i, 1, n, f);
                i += n;
            }
            continue;
        }
        switch (c) {
        case '"': fputs("\\\"", f); break;
        case '\\': fputs("\\\\", f); break;
        case '\n': fputs("\\n", f); break;
        case '\t': fputs("\\t", f); break;
        case '<': fputs("\\u003c", f); break;
        case '>': fputs("\\u003e", f); break;
        case '&': fputs("\\u0026", f); break;
        default:
            if (c < 0x20 || c == 0x7f)
                fprintf(f, "\\u%04x", c);
            else
                putc((int)c, f);
        }
        i++;
    }
    putc('"', f);
}

void html_json_cstr(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    size_t n = 0;
    while (s[n])
        n++;
    html_json_str(f, s, n);
}

void html_json_u64(FILE *f, uint64_t v)
{
    /* beyond 2^53 a JavaScript number rounds; the value stays a number */
    fprintf(f, "%llu", (unsigned long long)v);
}

void html_json_num(FILE *f, double v)
{
    if (!isfinite(v))
        fputs("null", f);
    else
        fprintf(f, "%.6g", v);
}

void html_text(FILE *f, const char *str, size_t len)
{
    const unsigned char *s = (const unsigned char *)str;
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        if (c >= 0x80) {
            size_t n = utf8_len(s + i, len - i);
            if (n == 0) {
                fputs("\xef\xbf\xbd", f);
                i++;
            } else {
                fwrite(s + i, 1, n, f);
                i += n;
            }
            continue;
        }
        switch (c) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            if (c >= 0x20 && c != 0x7f)
                putc((int)c, f);
            else if (c == '\t')
                putc(' ', f);
        }
        i++;
    }
}
