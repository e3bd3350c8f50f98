/* Text written by hand: see util/fmt.h. */
#include "util/fmt.h"

#include <math.h>
#include <stdlib.h>

#include "evprof/textout.h"

const char tx_digit_pairs[200] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                 "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                 "8081828384858687888990919293949596979899";

static const char spaces[256] =
    "                                                                "
    "                                                                "
    "                                                                "
    "                                                                ";

char *tx_put_spaces(char *d, size_t n)
{
    while (n > sizeof spaces) {
        memcpy(d, spaces, sizeof spaces);
        d += sizeof spaces;
        n -= sizeof spaces;
    }
    memcpy(d, spaces, n);
    return d + n;
}

/* The tenths are v * 10 rounded to an integer, the way printf rounds
 * the exact product. x = v * 10 in double is that product correctly
 * rounded, and rounding is monotonic, so x lies on the same side of a
 * half (k + 0.5, a double) as the exact product, or on it: x's fraction
 * then rounds as the product's does. On a half (the exact halves v = m/4,
 * which printf sends to even, and products within an ulp of one) and
 * within a margin of 1e-6 around it, printf itself decides. */
char *tx_put_pct(char *d, double v)
{
    if (v >= 0.0 && v < 999.0 && !signbit(v)) {
        double x = v * 10.0, f = (double)(unsigned)x, frac = x - f;
        if (frac < 0.5 - 1e-6 || frac > 0.5 + 1e-6) {
            unsigned q = (unsigned)f + (frac > 0.5);
            unsigned ip = q / 10;
            d[0] = ip >= 100 ? (char)('0' + ip / 100) : ' ';
            d[1] = ip >= 10 ? (char)('0' + ip / 10 % 10) : ' ';
            d[2] = (char)('0' + ip % 10);
            d[3] = '.';
            d[4] = (char)('0' + q % 10);
            return d + 5;
        }
    }
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "%5.1f", v);
    if (n < 0)
        n = 0;
    if ((size_t)n >= sizeof tmp)
        n = (int)sizeof tmp - 1;        /* never for a percentage */
    memcpy(d, tmp, (size_t)n);
    return d + n;
}

/* As tx_json_str (util/textout.c) escapes: '"' and '\\' with a
 * backslash; \n \t \r \b \f; the other C0 controls, DEL and the C1
 * controls (U+0080..U+009F) as \u00XX; bytes that are not valid UTF-8 as
 * \ufffd; the rest as it is. */
char *tx_put_json_str(char *d, const char *str, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *s = (const unsigned char *)str;
    *d++ = '"';
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            size_t run = i + 1;     /* plain ASCII: copied as a run */
            while (run < len && s[run] >= 0x20 && s[run] < 0x7f && s[run] != '"' &&
                   s[run] != '\\')
                run++;
            memcpy(d, s + i, run - i);
            d += run - i;
            i = run;
            continue;
        }
        uint32_t cp = c;
        size_t n = 1;
        if (c >= 0x80) {
            n = tx_utf8_next(s + i, len - i, &cp);
            if (!n) {
                memcpy(d, "\\ufffd", 6);
                d += 6;
                i++;
                continue;
            }
            if (cp > 0x9f) {
                memcpy(d, s + i, n);
                d += n;
                i += n;
                continue;
            }
        }
        i += n;
        *d++ = '\\';
        switch (cp) {
        case '"': *d++ = '"'; break;
        case '\\': *d++ = '\\'; break;
        case '\n': *d++ = 'n'; break;
        case '\t': *d++ = 't'; break;
        case '\r': *d++ = 'r'; break;
        case '\b': *d++ = 'b'; break;
        case '\f': *d++ = 'f'; break;
        default:
            memcpy(d, "u00", 3);
            d[3] = hex[cp >> 4];
            d[4] = hex[cp & 15];
            d += 5;
            break;
        }
    }
    *d++ = '"';
    return d;
}

/* ---- the output buffer ------------------------------------------------ */

int tx_obuf_open(tx_obuf *o, FILE *out, size_t cap)
{
    o->out = out;
    o->len = 0;
    o->cap = cap ? cap : TX_OBUF_SIZE;
    o->failed = 0;
    o->buf = malloc(o->cap);
    if (!o->buf) {
        o->cap = 0;
        o->failed = 1;
        return -1;
    }
    return 0;
}

int tx_obuf_flush(tx_obuf *o)
{
    if (o->len && !o->failed && fwrite(o->buf, 1, o->len, o->out) != o->len)
        o->failed = 1;
    o->len = 0;
    return o->failed ? -1 : 0;
}

char *tx_obuf_make_room(tx_obuf *o, size_t n)
{
    if (o->failed)
        return NULL;
    if (o->len + n > o->cap && tx_obuf_flush(o) != 0)
        return NULL;
    if (n > o->cap) {
        size_t cap = o->cap ? o->cap : TX_OBUF_SIZE;
        while (cap < n) {
            if (cap > SIZE_MAX / 2) {
                o->failed = 1;
                return NULL;
            }
            cap *= 2;
        }
        char *b = realloc(o->buf, cap);
        if (!b) {
            o->failed = 1;
            return NULL;
        }
        o->buf = b;
        o->cap = cap;
    }
    return o->buf + o->len;
}

void tx_obuf_put(tx_obuf *o, const char *s, size_t n)
{
    while (n && !o->failed) {
        size_t k = n < o->cap ? n : o->cap;
        char *d = tx_obuf_room(o, k);
        if (!d)
            return;
        memcpy(d, s, k);
        o->len += k;
        s += k;
        n -= k;
    }
}

int tx_obuf_close(tx_obuf *o)
{
    int rc = tx_obuf_flush(o);
    free(o->buf);
    o->buf = NULL;
    o->cap = 0;
    return rc;
}
