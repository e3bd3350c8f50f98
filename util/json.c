#include "evprof/json.h"

#include <math.h>
#include <string.h>

#include "evprof/textout.h"
#include "util/fmt.h"

/* a level's bits */
enum {
    L_OBJECT = 1,       /* else an array */
    L_BLOCK = 2,
    L_ITEMS = 4,        /* an item was written */
    L_KEYED = 8,        /* an object's key waits for its value */
    L_FLAT = 16,        /* a block whose items are not indented further */
};

/* Bytes gathered in j->buf and written when it fills, before a string
 * and at the end: the time profile's JSON has a million small items. */
static void flush(tx_json *j)
{
    if (j->len)
        fwrite(j->buf, 1, j->len, j->out);
    j->len = 0;
}

static inline void put(tx_json *j, const char *s, size_t len)
{
    if (len <= 4 && j->len + len <= sizeof j->buf) {    /* separators, brackets */
        for (size_t i = 0; i < len; i++)
            j->buf[j->len++] = s[i];
        return;
    }
    if (j->len + len > sizeof j->buf) {
        flush(j);
        if (len > sizeof j->buf) {
            fwrite(s, 1, len, j->out);
            return;
        }
    }
    memcpy(j->buf + j->len, s, len);
    j->len += len;
}

void tx_json_init(tx_json *j, FILE *out, unsigned indent, int compact)
{
    j->out = out;
    j->indent = indent;
    j->compact = compact != 0;
    j->html_safe = 0;
    j->flat = 0;
    j->failed = 0;
    j->done = 0;
    j->depth = 0;
    j->len = 0;
}

void tx_json_set_html_safe(tx_json *j, int on)
{
    j->html_safe = on != 0;
}

/* A new line, indented for an item (or closing bracket) at `depth`: flat
 * containers add no level. */
static void newline_indent(tx_json *j, unsigned depth)
{
    static const char spaces[64] = "                                                                ";
    put(j, "\n", 1);
    for (size_t n = (size_t)(depth - j->flat) * j->indent; n > 0;) {
        size_t k = n < sizeof spaces ? n : sizeof spaces;
        put(j, spaces, k);
        n -= k;
    }
}

/* Before a key, or a value not after a key: the separator. Returns 0, or
 * -1 (and fails the writer) where nothing may come. */
static int item(tx_json *j, int is_key)
{
    if (j->failed)
        return -1;
    if (j->depth == 0) {
        if (j->done || is_key) {
            j->failed = 1;
            return -1;
        }
        return 0;
    }
    unsigned char *l = &j->level[j->depth - 1];
    if (*l & L_OBJECT) {
        if (*l & L_KEYED) {         /* the value of the key just written */
            if (is_key) {
                j->failed = 1;
                return -1;
            }
            *l &= (unsigned char)~L_KEYED;
            return 0;
        }
        if (!is_key) {
            j->failed = 1;
            return -1;
        }
    } else if (is_key) {
        j->failed = 1;
        return -1;
    }
    if (*l & L_ITEMS) {
        put(j, ",", 1);
        if (*l & L_BLOCK)
            newline_indent(j, j->depth);
        else if (!j->compact)
            put(j, " ", 1);
    } else if (*l & L_BLOCK) {
        newline_indent(j, j->depth);
    }
    *l |= L_ITEMS;
    return 0;
}

/* after a scalar value */
static void value_done(tx_json *j)
{
    if (j->depth == 0)
        j->done = 1;
}

static void open_container(tx_json *j, int layout, unsigned char kind, char bracket)
{
    if (item(j, 0) != 0)
        return;
    if (j->depth == TX_JSON_MAX_DEPTH) {
        j->failed = 1;
        return;
    }
    j->level[j->depth++] = (unsigned char)(kind | (layout == TX_JSON_BLOCK ? L_BLOCK : 0) |
                                           (layout == TX_JSON_FLAT ? L_BLOCK | L_FLAT : 0));
    if (layout == TX_JSON_FLAT)
        j->flat++;
    put(j, &bracket, 1);
}

void tx_json_object(tx_json *j, int layout)
{
    open_container(j, layout, L_OBJECT, '{');
}

void tx_json_array(tx_json *j, int layout)
{
    open_container(j, layout, 0, '[');
}

void tx_json_end(tx_json *j)
{
    if (j->failed)
        return;
    if (j->depth == 0 || (j->level[j->depth - 1] & L_KEYED)) {
        j->failed = 1;
        return;
    }
    unsigned char l = j->level[--j->depth];
    if (l & L_FLAT)
        j->flat--;
    if ((l & L_BLOCK) && (l & L_ITEMS))
        newline_indent(j, j->depth);
    put(j, l & L_OBJECT ? "}" : "]", 1);
    value_done(j);
}

/* A key that needs no escape, copied into the buffer with its quotes and
 * colon; 0 (nothing added) for another key or when it does not fit. The
 * time profile's JSON has millions of keys: a short one is checked and
 * copied in one pass, by a table. */
/* per byte: 0 needs an escape in a key, 1 never, 2 only when html_safe */
static const unsigned char key_byte[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 0, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 2, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static int plain_key(tx_json *j, const char *key)
{
    const unsigned bad = j->html_safe ? 2 : 0;  /* key_byte values that need an escape */
    size_t n = j->len;
    if (n + 4 + 32 <= sizeof j->buf) {
        /* room for a short key: copied while it is checked */
        char *b = j->buf + n;
        size_t len = 0;
        b[0] = '"';
        for (;; len++) {
            unsigned char c = (unsigned char)key[len];
            if (!c)
                break;
            unsigned k = key_byte[c];
            if (k == 0 || k == bad)
                return 0;
            if (len == 32)
                goto long_key;
            b[1 + len] = (char)c;
        }
        b[1 + len] = '"';
        b[2 + len] = ':';
        n += len + 3;
        if (!j->compact)
            j->buf[n++] = ' ';
        j->len = n;
        return 1;
    }
long_key:;
    size_t len = 0;
    for (; key[len]; len++) {
        unsigned k = key_byte[(unsigned char)key[len]];
        if (k == 0 || k == bad)
            return 0;
    }
    if (n + len + 4 > sizeof j->buf)
        return 0;
    char *b = j->buf;
    b[n++] = '"';
    memcpy(b + n, key, len);
    n += len;
    b[n++] = '"';
    b[n++] = ':';
    if (!j->compact)
        b[n++] = ' ';
    j->len = n;
    return 1;
}

/* As tx_json_str (evprof/textout.h), and also < > & U+2028 U+2029 as
 * \\u escapes. */
/* ASCII that html_safe_str writes as is */
static int html_plain(unsigned c)
{
    return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&';
}

static void html_safe_str(FILE *out, const char *str, size_t len)
{
    const unsigned char *s = (const unsigned char *)str;
    putc('"', out);
    for (size_t i = 0; i < len;) {
        unsigned c = s[i];
        if (html_plain(c)) {
            size_t run = i + 1;        /* plain ASCII: written as a run */
            while (run < len && html_plain(s[run]))
                run++;
            fwrite(s + i, 1, run - i, out);
            i = run;
            continue;
        }
        uint32_t cp = c;
        size_t n = c < 0x80 ? 1 : tx_utf8_next(s + i, len - i, &cp);
        if (n == 0) {
            fputs("\\ufffd", out);
            i++;
            continue;
        }
        if (c == '"' || c == '\\') {
            putc('\\', out);
            putc((int)c, out);
        } else if (c == '\n') {
            fputs("\\n", out);
        } else if (c == '\t') {
            fputs("\\t", out);
        } else if (c == '\r') {
            fputs("\\r", out);
        } else if (c == '\b') {
            fputs("\\b", out);
        } else if (c == '\f') {
            fputs("\\f", out);
        } else if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || cp == '<' || cp == '>' ||
                   cp == '&' || cp == 0x2028 || cp == 0x2029) {
            fprintf(out, "\\u%04x", (unsigned)cp);
        } else {
            fwrite(s + i, 1, n, out);
        }
        i += n;
    }
    putc('"', out);
}

static void write_str(tx_json *j, const char *s, size_t len)
{
    /* a string that fits the buffer even escaped is escaped into it
     * (util/fmt.h: the same bytes as tx_json_str): a million names would
     * otherwise be a million flushes and a few stdio calls each */
    if (!j->html_safe && len <= (sizeof j->buf - 2) / 6) {
        if (j->len + 6 * len + 2 > sizeof j->buf)
            flush(j);
        j->len = (size_t)(tx_put_json_str(j->buf + j->len, s, len) - j->buf);
        return;
    }
    flush(j);
    if (j->html_safe)
        html_safe_str(j->out, s, len);
    else
        tx_json_str(j->out, s, len);
}

void tx_json_key(tx_json *j, const char *key)
{
    if (item(j, 1) != 0)
        return;
    if (!plain_key(j, key)) {
        write_str(j, key, strlen(key));
        put(j, j->compact ? ":" : ": ", j->compact ? 1 : 2);
    }
    j->level[j->depth - 1] |= L_KEYED;
}

FILE *tx_json_raw_begin(tx_json *j)
{
    if (item(j, 0) != 0)
        return NULL;
    flush(j);
    return j->out;
}

void tx_json_raw_end(tx_json *j)
{
    if (!j->failed)
        value_done(j);
}

void tx_json_string(tx_json *j, const char *s, size_t len)
{
    if (item(j, 0) != 0)
        return;
    write_str(j, s, len);
    value_done(j);
}

void tx_json_cstr(tx_json *j, const char *s)
{
    if (s)
        tx_json_string(j, s, strlen(s));
    else
        tx_json_null(j);
}

static void literal(tx_json *j, const char *s, size_t len)
{
    if (item(j, 0) != 0)
        return;
    put(j, s, len);
    value_done(j);
}

/* the decimal digits of v, ending at end; returns where they start */
static char *put_digits(char *end, uint64_t v)
{
    do {
        *--end = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    return end;
}

void tx_json_uint(tx_json *j, uint64_t v)
{
    char b[20], *s = put_digits(b + sizeof b, v);
    literal(j, s, (size_t)(b + sizeof b - s));
}

void tx_json_int(tx_json *j, int64_t v)
{
    char b[21], *s = put_digits(b + sizeof b, v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
    if (v < 0)
        *--s = '-';
    literal(j, s, (size_t)(b + sizeof b - s));
}

void tx_json_bool(tx_json *j, int v)
{
    if (v)
        literal(j, "true", 4);
    else
        literal(j, "false", 5);
}

void tx_json_null(tx_json *j)
{
    literal(j, "null", 4);
}

void tx_json_double(tx_json *j, double v, int digits)
{
    if (!isfinite(v)) {
        tx_json_null(j);
        return;
    }
    char b[64];
    int n = snprintf(b, sizeof b, "%.*g", digits < 1 ? 1 : digits > 17 ? 17 : digits, v);
    literal(j, b, (size_t)n);
}

void tx_json_fixed(tx_json *j, double v, int width, int decimals)
{
    if (!isfinite(v)) {
        tx_json_null(j);
        return;
    }
    if (decimals < 0)
        decimals = 0;
    if (decimals > 30)
        decimals = 30;
    if (width < 0 || width > 64)
        width = 0;
    char b[512];        /* DBL_MAX has 309 digits before the point */
    int n = snprintf(b, sizeof b, "%*.*f", width, decimals, v);
    if (n < 0 || (size_t)n >= sizeof b) {
        j->failed = 1;
        return;
    }
    literal(j, b, (size_t)n);
}

void tx_json_decimal(tx_json *j, uint64_t units, unsigned decimals)
{
    if (decimals == 0) {
        tx_json_uint(j, units);
        return;
    }
    if (decimals > 19) {
        j->failed = 1;
        return;
    }
    uint64_t scale = 1;
    for (unsigned i = 0; i < decimals; i++)
        scale *= 10;
    char b[42], *end = b + sizeof b, *s = put_digits(end, units % scale);
    while ((size_t)(end - s) < decimals)
        *--s = '0';
    *--s = '.';
    s = put_digits(s, units / scale);
    literal(j, s, (size_t)(end - s));
}

void tx_json_space(tx_json *j, const char *ws)
{
    if (j->failed)
        return;
    if (strspn(ws, " \n\t\r") != strlen(ws)) {
        j->failed = 1;
        return;
    }
    put(j, ws, strlen(ws));
}

void tx_json_flush(tx_json *j)
{
    flush(j);
}

int tx_json_finish(tx_json *j)
{
    flush(j);
    return j->failed || j->depth != 0 || !j->done || ferror(j->out) ? -1 : 0;
}
