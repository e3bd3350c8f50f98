/* GHC's +RTS -r ticky file: only its per-counter table is read.
 *
 * Ticky.c prints the header with "%11s%11s%11s  %-23s %s" (Entries, Alloc,
 * Alloc'd, Non-void Arguments, STG Name), an 80-dash rule, and one row per
 * counter with "%11d%11d%11d %3lu %-20.20s %s" (entries, allocs, allocd,
 * arity, argument kinds, name); a blank line ends the table. GHC 9.6's
 * (and later) are "%11s%12s%12s  %-63s %s" and "%11d%12d%12d %3lu
 * %-60.60s %s": the header's Alloc'd column ends at 35, not 33, and says
 * which layout the rows have. A number as wide as its column or wider
 * fills it and touches the column before it ("  70000000011200000000"),
 * so rows are split by the column rules, not by spaces: a column that
 * starts with a space is exactly its width; one that starts with a digit
 * holds that many digits or more, the first not 0. */
#include <errno.h>
#include <sys/types.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "evprof/textout.h"
#include "internal.h"

enum { WANT_HEADER, WANT_RULE, IN_ROWS, DONE };

/* The columns of a table's rows: the three numbers' widths, the kinds' */
typedef struct layout {
    size_t num[3];
    size_t kinds;
    const char *format;         /* for messages */
} layout;

static const layout layout_old = { { 11, 11, 11 }, 20, "%11d%11d%11d %3lu %-20.20s %s" };
static const layout layout_96 = { { 11, 12, 12 }, 60, "%11d%12d%12d %3lu %-60.60s %s" };

typedef struct text_state {
    ticky_set *t;
    const layout *lay;          /* from the header */
    int state;
    uint64_t line;
    uint64_t rows;
    ev_error *err;
    /* the first bytes, to say what a file without a table is */
    char head[EL_SNIFF_BYTES];
    size_t head_len;
} text_state;

static ev_status fail(text_state *s, ev_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static ev_status fail(text_state *s, ev_status st, const char *fmt, ...)
{
    va_list ap;
    s->err->status = st;
    s->err->offset = EV_NO_OFFSET;
    s->err->type = -1;
    s->err->line = s->line;
    va_start(ap, fmt);
    vsnprintf(s->err->msg, sizeof s->err->msg, fmt, ap);
    va_end(ap);
    return st;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t';
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int blank(const char *l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!is_space(l[i]))
            return 0;
    return 1;
}

/* The header: its words, whatever the spacing. */
static int is_header(const char *l, size_t n)
{
    static const char want[] = "Entries Alloc Alloc'd Non-void Arguments STG Name";
    size_t k = 0, i = 0;
    while (i < n && is_space(l[i]))
        i++;
    while (i < n) {
        if (is_space(l[i])) {
            while (i < n && is_space(l[i]))
                i++;
            if (i == n)
                break;
            if (want[k++] != ' ')
                return 0;
            continue;
        }
        if (want[k] == '\0' || want[k] != l[i])
            return 0;
        k++;
        i++;
    }
    return want[k] == '\0';
}

/* GHC 9.6's header has its Alloc'd column end at 35 ("%11s%12s%12s");
 * earlier GHCs' and evprof's own at 33. */
static const layout *header_layout(const char *l, size_t n)
{
    static const char word[] = "Alloc'd";
    size_t w = sizeof word - 1;
    for (size_t i = 0; i + w <= n; i++)
        if (memcmp(l + i, word, w) == 0)
            return i + w == 35 ? &layout_96 : &layout_old;
    return &layout_old;
}

static int is_rule(const char *l, size_t n)
{
    size_t d = 0;
    for (size_t i = 0; i < n; i++) {
        if (l[i] == '-')
            d++;
        else if (!is_space(l[i]))
            return 0;
    }
    return d >= 10;
}

/* Digits l[a..b) as a number; 0 on overflow. */
static int number(const char *l, size_t a, size_t b, uint64_t *v)
{
    uint64_t x = 0;
    for (size_t i = a; i < b; i++) {
        unsigned d = (unsigned)(l[i] - '0');
        if (x > (UINT64_MAX - d) / 10)
            return 0;
        x = x * 10 + d;
    }
    *v = x;
    return 1;
}

typedef struct row {
    uint64_t v[3];
    uint64_t arity;
    size_t kinds_at;            /* the kinds field (layout.kinds columns), then " name" */
} row;

/* After the three numbers at p: " %3lu %-K.Ks %s" (K the layout's kinds
 * width). Returns 1 when the rest of the line fits that, with the arity
 * and where the kinds start. */
static int tail(const layout *lay, const char *l, size_t n, size_t p, row *r)
{
    if (p >= n || l[p] != ' ')
        return 0;
    size_t a = p + 1, pad = 0;
    while (a < n && l[a] == ' ') {
        a++;
        pad++;
    }
    size_t b = a;
    while (b < n && is_digit(l[b]))
        b++;
    size_t width = b - (p + 1), digits = b - a;
    if (digits == 0 || digits > 9 || (digits <= 3 ? width != 3 : pad != 0))
        return 0;                   /* %3lu: 3 columns, or more digits unpadded */
    if (!number(l, a, b, &r->arity))
        return 0;
    /* the kinds field is K columns, then a space and the name */
    if (b + lay->kinds + 2 > n || l[b] != ' ' || l[b + lay->kinds + 1] != ' ')
        return 0;
    r->kinds_at = b + 1;
    return 1;
}

/* Splits the number columns from p on for column i; counts the ways the
 * line can be read (stops at 2) and keeps the first in *out. */
static void columns(const layout *lay, const char *l, size_t n, size_t p, int i, row *cur,
                    row *out, int *ways)
{
    if (*ways >= 2)
        return;
    if (i == 3) {
        if (tail(lay, l, n, p, cur)) {
            if ((*ways)++ == 0)
                *out = *cur;
        }
        return;
    }
    if (p >= n)
        return;
    size_t w = lay->num[i];
    if (l[p] == ' ') {              /* fewer digits than w: exactly w columns */
        if (p + w > n)
            return;
        size_t d = p;
        while (d < p + w && l[d] == ' ')
            d++;
        if (d == p + w)
            return;
        for (size_t k = d; k < p + w; k++)
            if (!is_digit(l[k]))
                return;
        if (!number(l, d, p + w, &cur->v[i]))
            return;
        columns(lay, l, n, p + w, i + 1, cur, out, ways);
        return;
    }
    if (l[p] < '1' || l[p] > '9')   /* w+ digits, no leading zero */
        return;
    size_t q = p;
    while (q < n && is_digit(l[q]))
        q++;
    for (size_t d = w; d <= 20 && p + d <= q; d++) {
        if (p + d < q && (l[p + d] == '0' || i == 2))
            continue;               /* the next column would start with 0 */
        if (!number(l, p, p + d, &cur->v[i]))
            break;
        columns(lay, l, n, p + d, i + 1, cur, out, ways);
    }
}

/* Columns separated by spaces (evprof's own table widens a column rather
 * than let numbers touch): the fallback when the column rules fail. */
static int spaced(const layout *lay, const char *l, size_t n, row *r)
{
    size_t p = 0;
    for (int i = 0; i < 3; i++) {
        size_t a = p;
        while (a < n && l[a] == ' ')
            a++;
        if (i > 0 && a == p)
            return 0;
        size_t b = a;
        while (b < n && is_digit(l[b]))
            b++;
        if (b == a || b - a > 20 || !number(l, a, b, &r->v[i]))
            return 0;
        p = b;
    }
    return tail(lay, l, n, p, r);
}

static ev_status add_row(text_state *s, const char *l, size_t n)
{
    row cur, r;
    int ways = 0;
    memset(&cur, 0, sizeof cur);
    memset(&r, 0, sizeof r);
    const layout *lay = s->lay;
    columns(lay, l, n, 0, 0, &cur, &r, &ways);
    if (ways == 0 && spaced(lay, l, n, &r))
        ways = 1;
    if (ways == 0) {
        char ex[TX_SHORT_BYTES];    /* the line as messages quote text */
        tx_vis_short(ex, sizeof ex, l, n, TX_SHORT_WIDTH);
        return fail(s, EV_ERR_FORMAT, "not a row of the counter table (%s): \"%s\"",
                    lay->format, ex);
    }
    if (ways > 1)
        return fail(s, EV_ERR_FORMAT,
                    "the Entries, Alloc and Alloc'd columns run together (numbers of 11 "
                    "or more digits) and can be split in more than one way");
    if (r.arity > UINT16_MAX)
        return fail(s, EV_ERR_FORMAT, "arity %llu is out of range",
                    (unsigned long long)r.arity);
    ticky_set *t = s->t;
    tk_counter *c = ticky_counter_get_(t, ++s->rows);
    size_t ke = r.kinds_at + lay->kinds;
    while (ke > r.kinds_at && l[ke - 1] == ' ')
        ke--;
    size_t name_at = r.kinds_at + lay->kinds + 1;
    char *kinds = c ? ticky_strdup_(t, l + r.kinds_at, ke - r.kinds_at) : NULL;
    char *name = kinds ? ticky_strdup_(t, l + name_at, n - name_at) : NULL;
    if (!name)
        return fail(s, EV_ERR_NOMEM, "out of memory");
    ticky_counter *p = &c->pub;
    p->has_id = 0;
    p->name = name;
    p->name_len = (uint32_t)(n - name_at);
    p->kinds = p->args = kinds;
    p->kinds_len = p->args_len = (uint32_t)(ke - r.kinds_at);
    p->arity = (uint16_t)r.arity;
    p->entries = r.v[0];
    p->alloc = r.v[1];
    p->allocd = r.v[2];
    p->defined = 1;
    t->info.defined++;
    return EV_OK;
}

/* One line without its end of line. */
static ev_status text_line(text_state *s, const char *l, size_t n)
{
    s->line++;
    s->t->info.text_lines = s->line;
    if (s->head_len < sizeof s->head) {
        size_t k = n < sizeof s->head - s->head_len ? n : sizeof s->head - s->head_len;
        memcpy(s->head + s->head_len, l, k);
        s->head_len += k;
        if (s->head_len < sizeof s->head)
            s->head[s->head_len++] = '\n';
    }
    if (n && l[n - 1] == '\r')
        n--;
    switch (s->state) {
    case WANT_HEADER:
        if (is_header(l, n)) {
            s->lay = header_layout(l, n);
            s->state = WANT_RULE;
        }
        return EV_OK;
    case WANT_RULE:
        if (!is_rule(l, n))
            return fail(s, EV_ERR_FORMAT,
                        "expected the dashed rule under the counter table's header");
        s->state = IN_ROWS;
        return EV_OK;
    case IN_ROWS:
        /* a blank line ends GHC's table; a rule or stars end evprof's */
        if (blank(l, n) || (n && l[0] == '*') || is_rule(l, n)) {
            s->state = DONE;
            return EV_OK;
        }
        return add_row(s, l, n);
    default:
        return EV_OK;
    }
}

static void text_begin(text_state *s, ticky_set *t, ev_error *err)
{
    memset(s, 0, sizeof *s);
    memset(err, 0, sizeof *err);
    err->offset = EV_NO_OFFSET;
    err->type = -1;
    s->t = t;
    s->err = err;
    s->state = WANT_HEADER;
    t->info.source = TICKY_FROM_TEXT;
}

static ev_status text_end(text_state *s, int unterminated)
{
    if (s->state == WANT_HEADER) {
        s->line = 0;                /* no line to blame */
        /* GHC's other outputs (.prof, .hp, -s) are what people mistake */
        el_file_kind k = el_file_kind_of(s->head, s->head_len);
        const char *what = el_file_kind_name(k);
        if (what && k != EL_FILE_TICKY)
            return fail(s, EV_ERR_FORMAT, "this is %s, neither an eventlog nor a +RTS -r "
                        "file: evprof ticky reads the eventlog of a program built with "
                        "-ticky and run with +RTS -lT (GHC 9.2 and later), or the file "
                        "+RTS -r writes", what);
        return fail(s, EV_ERR_FORMAT,
                    "no ticky counter table: neither an eventlog (no \"hdrb\" magic) nor a "
                    "+RTS -r file (no \"Entries  Alloc  Alloc'd  Non-void Arguments  "
                    "STG Name\" header)");
    }
    if (s->state == WANT_RULE)
        return fail(s, EV_ERR_FORMAT, "the file ends after the counter table's header");
    if (s->state == IN_ROWS && unterminated)
        s->t->info.text_unterminated = 1;
    return EV_OK;
}

ev_status ticky_read_text_mem(ticky_set *t, const char *buf, size_t len,
                                 ev_error *err)
{
    text_state s;
    text_begin(&s, t, err);
    size_t i = 0;
    int unterminated = 0;
    while (i < len && s.state != DONE) {
        const char *nl = memchr(buf + i, '\n', len - i);
        size_t e = nl ? (size_t)(nl - buf) : len;
        unterminated = !nl;
        ev_status st = text_line(&s, buf + i, e - i);
        if (st != EV_OK)
            return st;
        i = nl ? e + 1 : len;
    }
    return text_end(&s, unterminated);
}

ev_status ticky_read_text(ticky_set *t, FILE *in, ev_error *err)
{
    text_state s;
    text_begin(&s, t, err);
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int unterminated = 0;
    ev_status st = EV_OK;
    errno = 0;
    while (s.state != DONE && (got = getline(&line, &cap, in)) >= 0) {
        size_t n = (size_t)got;
        unterminated = !(n && line[n - 1] == '\n');
        if (!unterminated)
            n--;
        if ((st = text_line(&s, line, n)) != EV_OK)
            break;
    }
    int io = st == EV_OK && ferror(in);
    free(line);
    if (st != EV_OK)
        return st;
    if (io)
        return fail(&s, errno == ENOMEM ? EV_ERR_NOMEM : EV_ERR_IO, "cannot read: %s",
                    strerror(errno ? errno : EIO));
    return text_end(&s, unterminated);
}
