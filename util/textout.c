#include "evprof/textout.h"

#include <stdint.h>
#include <string.h>
#include <time.h>

size_t tx_utf8_next(const unsigned char *s, size_t n, uint32_t *cp)
{
    uint32_t c = s[0], min;
    size_t len;

    if (c < 0x80) {
        if (cp)
            *cp = c;
        return 1;
    }
    if (c >= 0xc2 && c <= 0xdf) { len = 2; min = 0x80; }
    else if (c >= 0xe0 && c <= 0xef) { len = 3; min = 0x800; }
    else if (c >= 0xf0 && c <= 0xf4) { len = 4; min = 0x10000; }
    else return 0;
    if (n < len)
        return 0;
    c &= 0x7fu >> len;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = c << 6 | (s[i] & 0x3fu);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    if (cp)
        *cp = c;
    return len;
}

void tx_json_str(FILE *out, const char *str, size_t len)
{
    const unsigned char *s = (const unsigned char *)str;

    putc('"', out);
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        if (c == '"' || c == '\\') {
            putc('\\', out);
            putc((int)c, out);
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            switch (c) {
            case '\n': fputs("\\n", out); break;
            case '\t': fputs("\\t", out); break;
            case '\r': fputs("\\r", out); break;
            case '\b': fputs("\\b", out); break;
            case '\f': fputs("\\f", out); break;
            default: fprintf(out, "\\u%04x", c); break;
            }
            i++;
        } else if (c < 0x80) {
            putc((int)c, out);
            i++;
        } else {
            size_t n = tx_utf8_next(s + i, len - i, NULL);
            if (n) {
                fwrite(s + i, 1, n, out);
                i += n;
            } else {
                fputs("\\ufffd", out);
                i++;
            }
        }
    }
    putc('"', out);
}

void tx_csv_str(FILE *out, const char *s, size_t n)
{
    int quote = 0;
    for (size_t i = 0; i < n && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
    if (!quote) {
        fwrite(s, 1, n, out);
        return;
    }
    putc('"', out);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            putc('"', out);
        putc(s[i], out);
    }
    putc('"', out);
}

size_t tx_width(const char *s)
{
    size_t n = 0;
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x80 || c > 0xbf)
            n++;
    }
    return n;
}

void tx_pad(FILE *out, const char *s, size_t width)
{
    static const char spaces[64] = "                                                                ";
    size_t w = 0, len = 0;
    for (; s[len]; len++)
        w += ((unsigned char)s[len] & 0xc0) != 0x80;
    fwrite(s, 1, len, out);
    while (w < width) {
        size_t n = width - w < sizeof spaces ? width - w : sizeof spaces;
        fwrite(spaces, 1, n, out);
        w += n;
    }
}

void tx_date(char *buf, size_t size, long long epoch_sec)
{
    time_t t = (time_t)epoch_sec;
    struct tm tm;

    if (!localtime_r(&t, &tm) || !strftime(buf, size, "%a %b %e %H:%M %Y", &tm))
        snprintf(buf, size, "?");
}
