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
        } else if (c < 0x80) {         /* plain ASCII: written as a run */
            size_t run = i + 1;
            while (run < len && s[run] >= 0x20 && s[run] < 0x7f && s[run] != '"' &&
                   s[run] != '\\')
                run++;
            fwrite(s + i, 1, run - i, out);
            i = run;
        } else {
            uint32_t cp;
            size_t n = tx_utf8_next(s + i, len - i, &cp);
            if (n && cp <= 0x9f) {
                fprintf(out, "\\u%04x", (unsigned)cp);  /* C1 control */
                i += n;
            } else if (n) {
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

/* The visible form of the unit at s[0..n) (one byte, or one UTF-8
 * sequence) into v (4 bytes at most); its length in *vlen. Returns the
 * bytes of s it stands for. */
static size_t vis_unit(const unsigned char *s, size_t n, char v[4], size_t *vlen)
{
    static const char hex[] = "0123456789abcdef";
    uint32_t c = s[0];
    size_t used = 1;

    if (c >= 0x80) {
        used = tx_utf8_next(s, n, &c);
        if (!used) {
            memcpy(v, "\xef\xbf\xbd", 3);           /* U+FFFD */
            *vlen = 3;
            return 1;
        }
    }
    if (c == '\n' || c == '\r' || c == '\t') {
        v[0] = '\\';
        v[1] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
        *vlen = 2;
    } else if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
        v[0] = '\\';
        v[1] = 'x';
        v[2] = hex[c >> 4];
        v[3] = hex[c & 15];
        *vlen = 4;
    } else {
        memcpy(v, s, used);
        *vlen = used;
    }
    return used;
}

/* code points in the visible form of a unit of vlen bytes */
static size_t vis_cols(const char *v, size_t vlen)
{
    return v[0] == '\\' ? vlen : 1;
}

size_t tx_vis(char *buf, size_t size, const char *str, size_t len)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t total = 0;
    char v[4];
    size_t vlen;

    for (size_t i = 0; i < len;) {
        if (s[i] >= 0x20 && s[i] < 0x7f) {     /* plain ASCII: itself */
            if (total + 1 < size)
                buf[total] = (char)s[i];
            total++;
            i++;
            continue;
        }
        i += vis_unit(s + i, len - i, v, &vlen);
        for (size_t k = 0; k < vlen; k++, total++)
            if (total + 1 < size)
                buf[total] = v[k];
    }
    if (size)
        buf[total < size ? total : size - 1] = '\0';
    return total;
}

size_t tx_vis_short(char *buf, size_t size, const char *str, size_t len, size_t width)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t total = 0, w = 0;
    char v[4];
    size_t vlen;
    int cut = tx_vis_width(str, len) > width;

    for (size_t i = 0; i < len;) {
        size_t used = vis_unit(s + i, len - i, v, &vlen);
        size_t cols = vis_cols(v, vlen);
        if (cut && w + cols > width - 1)
            break;
        for (size_t k = 0; k < vlen; k++, total++)
            if (total + 1 < size)
                buf[total] = v[k];
        w += cols;
        i += used;
    }
    if (cut && width > 0)
        for (size_t k = 0; k < 3; k++, total++)
            if (total + 1 < size)
                buf[total] = "\xe2\x80\xa6"[k];      /* U+2026 */
    if (size)
        buf[total < size ? total : size - 1] = '\0';
    return total;
}

void tx_put_short(FILE *out, const char *s, size_t len)
{
    char buf[TX_SHORT_BYTES];
    size_t n = tx_vis_short(buf, sizeof buf, s, len, TX_SHORT_WIDTH);
    fwrite(buf, 1, n < sizeof buf ? n : sizeof buf - 1, out);
}

void tx_put(FILE *out, const char *str, size_t len)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t i = 0;
    char v[4];
    size_t vlen;

    while (i < len) {
        size_t run = i;                 /* plain ASCII is written as a run */
        while (run < len && s[run] >= 0x20 && s[run] < 0x7f)
            run++;
        if (run > i) {
            fwrite(s + i, 1, run - i, out);
            i = run;
            continue;
        }
        i += vis_unit(s + i, len - i, v, &vlen);
        fwrite(v, 1, vlen, out);
    }
}

size_t tx_vis_width(const char *str, size_t len)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t w = 0;
    char v[4];
    size_t vlen;

    for (size_t i = 0; i < len;) {
        if (s[i] >= 0x20 && s[i] < 0x7f) {
            w++;
            i++;
            continue;
        }
        i += vis_unit(s + i, len - i, v, &vlen);
        w += vis_cols(v, vlen);
    }
    return w;
}

void tx_csv_str(FILE *out, const char *s, size_t n)
{
    int quote = 0;
    for (size_t i = 0; i < n && !quote; i++)
        quote = s[i] == ',' || s[i] == '"';
    if (!quote) {
        tx_put(out, s, n);
        return;
    }
    putc('"', out);
    for (size_t i = 0, from = 0; i <= n; i++)
        if (i == n || s[i] == '"') {
            tx_put(out, s + from, i - from);
            if (i < n)
                fputs("\"\"", out);
            from = i + 1;
        }
    putc('"', out);
}

size_t tx_width(const char *s)
{
    return tx_vis_width(s, strlen(s));
}

void tx_pad(FILE *out, const char *s, size_t width)
{
    static const char spaces[64] = "                                                                ";
    size_t len = strlen(s), w = tx_vis_width(s, len);
    tx_put(out, s, len);
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
