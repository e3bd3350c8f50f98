/* The text of events as `ghc-events show` prints it (buildEventInfo,
 * buildEvent and buildEventType in ghc-events' GHC/RTS/Events.hs). The
 * rules that decide between fields and the header description follow its
 * parsers (GHC/RTS/Events/Binary.hs); see evprof/show.h. */
#include "evprof/show.h"
#include "evprof/textout.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "eventlog/bytes.h"
#include "eventlog/types.h"

/* ---- buffer ----------------------------------------------------------- */

void el_textbuf_init(el_textbuf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}

void el_textbuf_free(el_textbuf *b)
{
    if (!b)
        return;
    free(b->data);
    el_textbuf_init(b);
}

void el_textbuf_reset(el_textbuf *b)
{
    b->len = 0;
}

/* Room for `more` bytes, or 0 (and `failed` set). */
static int reserve(el_textbuf *b, size_t more)
{
    if (b->failed)
        return 0;
    if (b->cap - b->len >= more)
        return 1;
    if (more > SIZE_MAX / 2 - b->len) {
        b->failed = 1;
        return 0;
    }
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < more)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->failed = 1;
        return 0;
    }
    b->data = p;
    b->cap = cap;
    return 1;
}

static void put(el_textbuf *b, const void *s, size_t n)
{
    if (n && reserve(b, n)) {
        memcpy(b->data + b->len, s, n);
        b->len += n;
    }
}

void el_textbuf_append(el_textbuf *b, const void *bytes, size_t len)
{
    put(b, bytes, len);
}

static void put_lit(el_textbuf *b, const char *s)
{
    put(b, s, strlen(s));
}

static void put_ch(el_textbuf *b, char c)
{
    if (reserve(b, 1))
        b->data[b->len++] = c;
}

/* TB.decimal */
static void put_u64(el_textbuf *b, uint64_t v)
{
    char tmp[20];
    size_t n = sizeof tmp;

    do {
        tmp[--n] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put(b, tmp + n, sizeof tmp - n);
}

static void put_i64(el_textbuf *b, int64_t v)
{
    if (v < 0) {
        put_ch(b, '-');
        put_u64(b, (uint64_t)0 - (uint64_t)v);
    } else {
        put_u64(b, (uint64_t)v);
    }
}

/* TB.hexadecimal: lowercase, no padding, no prefix */
static void put_hex(el_textbuf *b, uint64_t v)
{
    char tmp[16];
    size_t n = sizeof tmp;

    do {
        tmp[--n] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    put(b, tmp + n, sizeof tmp - n);
}

/* ---- UTF-8 ------------------------------------------------------------ */

static void put_utf8(el_textbuf *b, uint32_t cp)
{
    char u[4];

    if (cp < 0x80) {
        put_ch(b, (char)cp);
    } else if (cp < 0x800) {
        u[0] = (char)(0xc0 | cp >> 6);
        u[1] = (char)(0x80 | (cp & 0x3f));
        put(b, u, 2);
    } else if (cp < 0x10000) {
        u[0] = (char)(0xe0 | cp >> 12);
        u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        u[2] = (char)(0x80 | (cp & 0x3f));
        put(b, u, 3);
    } else {
        u[0] = (char)(0xf0 | cp >> 18);
        u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
        u[2] = (char)(0x80 | (cp >> 6 & 0x3f));
        u[3] = (char)(0x80 | (cp & 0x3f));
        put(b, u, 4);
    }
}

#define REPLACEMENT_CHAR 0xfffdu

/* The visible form (tx_vis, util/textout.c) of one unit that is not
 * printable text: a control byte or character as \n, \r, \t or \xNN, a
 * byte that starts no UTF-8 sequence as U+FFFD. */
static void put_vis(el_textbuf *b, const uint8_t *s, size_t n)
{
    char v[8];
    size_t m = tx_vis(v, sizeof v, (const char *)s, n);
    put(b, v, m < sizeof v ? m : sizeof v - 1);
}

/* TB.fromText: printable UTF-8 verbatim. What ghc-events would write raw
 * but a terminal would obey (C0 controls, NUL, DEL, the C1 controls)
 * takes the visible form of every other text output, as does each byte
 * that is not UTF-8 (where ghc-events would reject the log). */
static void put_text(el_textbuf *b, const char *str, size_t len)
{
    const uint8_t *s = (const uint8_t *)str;
    size_t i = 0;

    while (i < len) {
        size_t run = i;
        while (run < len && s[run] >= 0x20 && s[run] < 0x7f)
            run++;
        put(b, s + i, run - i);
        i = run;
        if (i == len)
            break;
        uint32_t cp = s[i];
        size_t n = s[i] < 0x80 ? 1 : tx_utf8_next(s + i, len - i, &cp);
        if (n && cp > 0x9f) {
            put(b, s + i, n);
            i += n;
        } else {
            put_vis(b, s + i, n ? n : 1);
            i += n ? n : 1;
        }
    }
}

static void put_str(el_textbuf *b, el_str s)
{
    put_text(b, s.ptr, s.len);
}

/* TB.fromString of a string read byte per character (getString): each
 * byte is the Latin-1 character, written as UTF-8; the control characters
 * among them (C0, DEL, C1) in their visible form, as in put_text. */
static void put_latin1(el_textbuf *b, el_str str)
{
    const uint8_t *s = (const uint8_t *)str.ptr;

    for (uint32_t i = 0; i < str.len; i++) {
        if (s[i] < 0x20 || (s[i] >= 0x7f && s[i] <= 0x9f)) {
            char u[2] = { (char)(0xc0 | s[i] >> 6), (char)(0x80 | (s[i] & 0x3f)) };
            put_vis(b, s[i] < 0x80 ? s + i : (const uint8_t *)u, s[i] < 0x80 ? 1 : 2);
        } else {
            put_utf8(b, s[i]);
        }
    }
}

/* ---- Haskell show of [Text] -------------------------------------------- */

static const char *const ascii_names[32] = {
    "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL",
    "BS", "HT", "LF", "VT", "FF", "CR", "SO", "SI",
    "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB",
    "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US",
};

/* showLitString for one character; `next` is the following character of
 * the same string, or -1 at its end (the \& rules look at it). */
static void put_lit_char(el_textbuf *b, uint32_t c, int64_t next)
{
    if (c > 0x7f) {
        put_ch(b, '\\');
        put_u64(b, c);
        if (next >= '0' && next <= '9')
            put_lit(b, "\\&");
        return;
    }
    switch (c) {
    case 0x7f: put_lit(b, "\\DEL"); return;
    case '\\': put_lit(b, "\\\\"); return;
    case '"': put_lit(b, "\\\""); return;
    case '\a': put_lit(b, "\\a"); return;
    case '\b': put_lit(b, "\\b"); return;
    case '\f': put_lit(b, "\\f"); return;
    case '\n': put_lit(b, "\\n"); return;
    case '\r': put_lit(b, "\\r"); return;
    case '\t': put_lit(b, "\\t"); return;
    case '\v': put_lit(b, "\\v"); return;
    case 14:
        put_lit(b, "\\SO");
        if (next == 'H')
            put_lit(b, "\\&");
        return;
    default:
        break;
    }
    if (c >= ' ') {
        put_ch(b, (char)c);
    } else {
        put_ch(b, '\\');
        put_lit(b, ascii_names[c]);
    }
}

/* Next code point of s[*i .. len); invalid bytes decode as U+FFFD. */
static uint32_t next_cp(const uint8_t *s, size_t len, size_t *i)
{
    uint32_t cp;
    size_t n = tx_utf8_next(s + *i, len - *i, &cp);

    if (!n) {
        cp = REPLACEMENT_CHAR;
        n = 1;
    }
    *i += n;
    return cp;
}

/* `show` of one string: quoted, with showLitString escapes. */
static void put_show_string(el_textbuf *b, const uint8_t *s, size_t len)
{
    size_t i = 0;

    put_ch(b, '"');
    if (i < len) {
        uint32_t c = next_cp(s, len, &i);
        for (;;) {
            int64_t next = -1;
            uint32_t nc = 0;
            if (i < len) {
                nc = next_cp(s, len, &i);
                next = nc;
            }
            put_lit_char(b, c, next);
            if (next < 0)
                break;
            c = nc;
        }
    }
    put_ch(b, '"');
}

/* ProgramArgs/ProgramEnv: the NUL-separated strings, trailing NULs
 * dropped (T.splitOn "\0" . T.dropWhileEnd (== '\0')), shown as a list. */
static void put_show_list(el_textbuf *b, el_str str)
{
    const uint8_t *s = (const uint8_t *)str.ptr;
    size_t len = str.len;

    while (len && s[len - 1] == 0)
        len--;
    put_ch(b, '[');
    size_t start = 0;
    for (;;) {
        const uint8_t *nul = memchr(s + start, 0, len - start);
        size_t end = nul ? (size_t)(nul - s) : len;
        put_show_string(b, s + start, end - start);
        if (!nul)
            break;
        put_ch(b, ',');
        start = end + 1;
    }
    put_ch(b, ']');
}

/* ---- binary messages -------------------------------------------------- */

/* Code points above Latin-1 that Haskell's isPrint rejects: Cf, Zl, Zp,
 * Cs, Co, noncharacters and the unassigned ranges of at least 256 code
 * points (Unicode 14). Smaller unassigned gaps count as printable. */
static const uint32_t nonprint_ranges[][2] = {
    { 0x0600, 0x0605 }, { 0x061c, 0x061c }, { 0x06dd, 0x06dd }, { 0x070f, 0x070f },
    { 0x0890, 0x0891 }, { 0x08e2, 0x08e2 }, { 0x180e, 0x180e }, { 0x200b, 0x200f },
    { 0x2028, 0x202e }, { 0x2060, 0x2064 }, { 0x2066, 0x206f }, { 0xd800, 0xf8ff },
    { 0xfdd0, 0xfdef }, { 0xfeff, 0xfeff }, { 0xfff9, 0xfffb }, { 0xfffe, 0xffff },
    { 0x10d3a, 0x10e5f }, { 0x110bd, 0x110bd }, { 0x110cd, 0x110cd }, { 0x11af9, 0x11bff },
    { 0x11daa, 0x11edf }, { 0x12544, 0x12f8f }, { 0x13430, 0x143ff }, { 0x14647, 0x167ff },
    { 0x16b90, 0x16e3f }, { 0x18d09, 0x1afef }, { 0x1b2fc, 0x1bbff }, { 0x1bca0, 0x1ceff },
    { 0x1d173, 0x1d17a }, { 0x1dab0, 0x1deff }, { 0x1e150, 0x1e28f }, { 0x1e300, 0x1e7df },
    { 0x1e960, 0x1ec70 }, { 0x1eef2, 0x1efff }, { 0x1fbfa, 0x1ffff }, { 0x2ebe1, 0x2f7ff },
    { 0x2fa1e, 0x2ffff }, { 0x3134b, 0xe0001 }, { 0xe0020, 0xe007f }, { 0xe01f0, 0x10ffff },
};

/* Data.Char.isPrint: exact for ASCII and Latin-1, approximate above. */
static int is_print(uint32_t c)
{
    if (c < 0x100)
        return (c >= 0x20 && c < 0x7f) || (c >= 0xa0 && c != 0xad);
    size_t lo = 0, hi = sizeof nonprint_ranges / sizeof nonprint_ranges[0];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (c < nonprint_ranges[mid][0])
            hi = mid;
        else if (c > nonprint_ranges[mid][1])
            lo = mid + 1;
        else
            return 0;
    }
    return 1;
}

/* replaceUnprintableWith '.': UTF-8 with each invalid byte as '.', then
 * each non-printable character as '.'. */
static void put_binary(el_textbuf *b, el_str str)
{
    const uint8_t *s = (const uint8_t *)str.ptr;
    size_t len = str.len;

    for (size_t i = 0; i < len;) {
        uint32_t cp;
        size_t n = tx_utf8_next(s + i, len - i, &cp);
        if (n && is_print(cp))
            put(b, s + i, n);
        else
            put_ch(b, '.');
        i += n ? n : 1;
    }
}

/* ---- what ghc-events can parse --------------------------------------- */

/* Would ghc-events parse this event's type as declared in the header?
 * Its parser (el_type_table: ge_kind, ge_min) must match fixed or
 * variable, and a fixed layout must fit the declared size; otherwise the
 * event is UnknownEvent, printed as the header's description. */
static int ghc_events_parses(const el_event *ev)
{
    if (ev->type >= EL_NUM_TYPE_IDS || !ev->et)
        return 0;
    const el_type_info *t = &el_type_table[ev->type];
    switch (t->ge_kind) {
    case EL_GE_FIXED:
        return ev->et->size != EL_VARIABLE_SIZE && ev->et->size >= t->ge_min
            && ev->payload_len >= t->ge_min;
    case EL_GE_VARIABLE:
        return ev->et->size == EL_VARIABLE_SIZE;
    default:
        return 0;
    }
}

/* ---- event text ------------------------------------------------------- */

ev_status el_show_type(el_textbuf *out, const el_event_type *et)
{
    put_u64(out, et->id);
    put_lit(out, ": ");
    put_str(out, et->desc);
    put_lit(out, " (size ");
    if (et->size == EL_VARIABLE_SIZE)
        put_lit(out, "variable");
    else
        put_u64(out, (uint32_t)et->size);
    put_ch(out, ')');
    return out->failed ? EV_ERR_NOMEM : EV_OK;
}

/* showThreadStopStatus . mkStopStatus; 0 for a status mkStopStatus
 * rejects. */
static int put_stop_status(el_textbuf *b, uint16_t status, uint32_t info)
{
    static const char *const names[] = {
        [0] = "No stop thread status",
        [1] = "heap overflow",
        [3] = "thread yielding",
        [5] = "thread finished",
        [6] = "making a foreign call",
        [7] = "blocked on an MVar",
        [9] = "blocked on I/O read",
        [10] = "blocked on I/O write",
        [11] = "blocked on threadDelay",
        [12] = "blocked in STM retry",
        [13] = "blocked on asyncDoProc",
        [18] = "blocked in throwTo",
        [19] = "No stop thread status",
        [20] = "blocked reading an MVar",
    };

    if (status == 2) {
        put_lit(b, "stack overflow, size ");
        put_u64(b, info);
    } else if (status == 8) {
        put_lit(b, "blocked on black hole owned by thread ");
        put_u64(b, info);
    } else if (status < sizeof names / sizeof names[0] && names[status]) {
        put_lit(b, names[status]);
    } else {
        return 0;
    }
    return 1;
}

static const char *const breakdown_names[] = {
    [1] = "cost centre",
    [2] = "module",
    [3] = "closure description",
    [4] = "type description",
    [5] = "retainer",
    [6] = "biography",
    [7] = "closure type",
    [8] = "info table",
    [9] = "era",
};

/* Eden message tags, from 0x50 (MessageTag in ghc-events' EventTypes.hs) */
static const char *const msg_tags[] = {
    "Ready", "NewPE", "PETIDS", "Finish", "FailPE", "RFork", "Connect",
    "DataMes", "Head", "Constr", "Part", "Terminate", "Packet",
};
#define MSG_TAG_BASE 0x50u
#define N_MSG_TAGS (sizeof msg_tags / sizeof msg_tags[0])

static int put_msg_tag(el_textbuf *b, uint8_t tag)
{
    if (tag < MSG_TAG_BASE || tag - MSG_TAG_BASE >= N_MSG_TAGS)
        return 0;
    put_lit(b, msg_tags[tag - MSG_TAG_BASE]);
    return 1;
}

static void put_stack(el_textbuf *b, const uint32_t *stack, unsigned depth)
{
    for (unsigned i = 0; i < depth; i++) {
        if (i)
            put_lit(b, ", ");
        put_u64(b, stack[i]);
    }
}

/* Data.Text.Read.decimal :: Int of the leading digits (wrapping like Int),
 * or 0 when there are none (ghc-events fails then). */
static int leading_decimal(el_str s, int64_t *out)
{
    uint64_t v = 0;
    uint32_t i = 0;

    while (i < s.len && s.ptr[i] >= '0' && s.ptr[i] <= '9')
        v = v * 10 + (uint64_t)(s.ptr[i++] - '0');
    if (i == 0)
        return 0;
    *out = (int64_t)v;
    return 1;
}

/* A number field of a layout, from the decoded event (a caller may fill
 * el_event.u by hand: the payload is not read). */
static uint64_t field_num(const el_event *ev, const el_field *f)
{
    const char *q = (const char *)ev + f->at;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;

    switch (f->size) {
    case 1: memcpy(&u8, q, 1); return u8;
    case 2: memcpy(&u16, q, 2); return u16;
    case 4: memcpy(&u32, q, 4); return u32;
    case 8: memcpy(&u64, q, 8); return u64;
    default: return 0;
    }
}

/* A string field of a layout, likewise. */
static el_str field_str(const el_event *ev, const el_field *f)
{
    el_str s;
    memcpy(&s, (const char *)ev + f->at, sizeof s);
    return s;
}

/* The text of a regular layout (layouts.h: literal bytes and %cN). 0
 * where ghc-events would fail (an unknown message tag). */
static int put_layout(el_textbuf *b, const el_event *ev, const el_layout *l)
{
    const char *s = l->text;

    for (;;) {
        const char *pct = strchr(s, '%');
        if (!pct) {
            put_lit(b, s);
            return 1;
        }
        put(b, s, (size_t)(pct - s));
        const el_field *f = &l->fields[pct[2] - '0'];
        switch (pct[1]) {
        case 'd': put_u64(b, field_num(ev, f)); break;
        case 'x': put_hex(b, field_num(ev, f)); break;
        case 's': put_str(b, field_str(ev, f)); break;
        case 'l': put_latin1(b, field_str(ev, f)); break;
        case 'L': put_show_list(b, field_str(ev, f)); break;
        case 'b': put_binary(b, field_str(ev, f)); break;
        case 't':
            if (!put_msg_tag(b, (uint8_t)field_num(ev, f)))
                return 0;
            break;
        default: break;
        }
        s = pct + 3;
    }
}

/* The irregular texts of the profiling events (heap, time, ticky, IPE):
 * as put_fields. */
static int put_profile_fields(el_textbuf *b, const el_event *ev)
{
    switch (ev->type) {
    case EL_HEAP_PROF_BEGIN: {
        uint32_t bd = ev->u.heap_prof_begin.breakdown;
        if (bd >= sizeof breakdown_names / sizeof breakdown_names[0] || !breakdown_names[bd])
            return 0;
        put_lit(b, "start heap profiling ");
        put_u64(b, ev->u.heap_prof_begin.id);
        put_lit(b, " at sampling period ");
        put_u64(b, ev->u.heap_prof_begin.period);
        put_lit(b, " broken down by ");
        put_lit(b, breakdown_names[bd]);
        int any = 0;
        for (int i = 0; i < 7; i++) {
            el_str f = ev->u.heap_prof_begin.filter[i];
            if (!f.len)
                continue;
            if (!any)
                put_lit(b, " filtered by ");
            any = 1;
            put_str(b, f);
            put_lit(b, ", ");
        }
        break;
    }
    case EL_HEAP_PROF_COST_CENTRE:
        put_lit(b, "cost centre ");
        put_u64(b, ev->u.cost_centre.id);
        put_ch(b, ' ');
        put_str(b, ev->u.cost_centre.label);
        put_lit(b, " in ");
        put_str(b, ev->u.cost_centre.module);
        put_lit(b, " at ");
        put_str(b, ev->u.cost_centre.srcloc);
        if (ev->u.cost_centre.flags & 1)
            put_lit(b, " CAF");
        break;
    case EL_IPE: {
        int64_t desc;
        if (!leading_decimal(ev->u.ipe.closure_desc, &desc))
            return 0;
        put_lit(b, "Info Table: ");
        put_hex(b, ev->u.ipe.info);
        put_ch(b, ':');
        put_i64(b, desc);
        put_ch(b, ':');
        put_str(b, ev->u.ipe.table_name);
        put_lit(b, " - ");
        put_str(b, ev->u.ipe.srcloc);
        break;
    }
    case EL_HEAP_PROF_SAMPLE_COST_CENTRE:
        put_lit(b, "heap prof sample ");
        put_u64(b, ev->u.heap_sample_data.id);
        put_lit(b, ", residency ");
        put_u64(b, ev->u.heap_sample_data.residency);
        put_lit(b, ", cost centre stack ");
        put_stack(b, ev->u.heap_sample_data.stack, ev->u.heap_sample_data.depth);
        break;
    case EL_HEAP_PROF_SAMPLE_STRING:
        put_lit(b, "heap prof sample ");
        put_u64(b, ev->u.heap_sample_data.id);
        put_lit(b, ", residency ");
        put_u64(b, ev->u.heap_sample_data.residency);
        put_lit(b, ", label ");
        put_str(b, ev->u.heap_sample_data.label);
        break;
    case EL_PROF_SAMPLE_COST_CENTRE:
        /* ghc-events narrows the Int32 capability to a Word16 */
        put_lit(b, "cap no ");
        put_u64(b, (uint16_t)ev->u.prof_sample.cap);
        put_lit(b, ", prof sample ");
        put_u64(b, ev->u.prof_sample.ticks);
        put_lit(b, ", cost centre stack ");
        put_stack(b, ev->u.prof_sample.stack, ev->u.prof_sample.depth);
        break;
    case EL_NONMOVING_HEAP_CENSUS:
        /* a Word16: 2^n of the old log2 encoding wraps to 0 from n = 16 */
        put_lit(b, "nonmoving heap census ");
        put_u64(b, (uint16_t)ev->u.nonmoving_census.blk_size);
        put_lit(b, ": ");
        put_u64(b, ev->u.nonmoving_census.active_segs);
        put_lit(b, " active segments, ");
        put_u64(b, ev->u.nonmoving_census.filled_segs);
        put_lit(b, " filled segments, ");
        put_u64(b, ev->u.nonmoving_census.live_blocks);
        put_lit(b, " live blocks");
        break;
    case EL_TICKY_COUNTER_DEF:
        put_lit(b, "ticky counter definition ");
        put_u64(b, ev->u.ticky_def.id);
        put_lit(b, ", arity: ");
        put_u64(b, ev->u.ticky_def.arity);
        put_lit(b, ", def kinds: ");
        put_str(b, ev->u.ticky_def.kinds);
        put_lit(b, ", name: ");
        put_str(b, ev->u.ticky_def.name);
        put_lit(b, ", itbl: ");
        put_hex(b, ev->u.ticky_def.has_info_tbl ? ev->u.ticky_def.info_tbl : 0);
        break;
    default:
        return 0;
    }
    return 1;
}

/* The fields of a decoded event ghc-events can parse: the layout's text,
 * or for the irregular ones (text NULL or not in layouts.h) the small
 * cases below. Returns 0 when the values are ones ghc-events would abort
 * on (the caller then prints the description); the partial text is
 * discarded by the caller. */
static int put_fields(el_textbuf *b, const el_event *ev)
{
    const el_layout *l = &el_layout_table[ev->type];

    if (l->text)
        return put_layout(b, ev, l);
    switch (ev->type) {
    case EL_STOP_THREAD:
        put_lit(b, "stopping thread ");
        put_u64(b, ev->u.stop_thread.thread);
        put_lit(b, " (");
        if (!put_stop_status(b, ev->u.stop_thread.status, ev->u.stop_thread.blocker))
            return 0;
        put_ch(b, ')');
        break;
    case EL_GC_STATS_GHC:
        put_lit(b, "GC stats for heap capset ");
        put_u64(b, ev->u.gc_stats.capset);
        put_lit(b, ": generation ");
        put_u64(b, ev->u.gc_stats.gen);
        put_lit(b, ", ");
        put_u64(b, ev->u.gc_stats.copied);
        put_lit(b, " bytes copied, ");
        put_u64(b, ev->u.gc_stats.slop);
        put_lit(b, " bytes slop, ");
        put_u64(b, ev->u.gc_stats.frag);
        put_lit(b, " bytes fragmentation, ");
        put_u64(b, ev->u.gc_stats.par_n_threads);
        put_lit(b, " par threads, ");
        put_u64(b, ev->u.gc_stats.par_max_copied);
        put_lit(b, " bytes max par copied, ");
        put_u64(b, ev->u.gc_stats.par_tot_copied);
        put_lit(b, " bytes total par copied");
        /* ghc-events reads the balanced field when the declared size
         * holds it (its 58-byte layout) */
        if (ev->et->size >= 58 && ev->u.gc_stats.has_balanced) {
            put_lit(b, ", ");
            put_u64(b, ev->u.gc_stats.par_balanced_copied);
            put_lit(b, " bytes balanced par copied");
        }
        break;
    case EL_CAPSET_CREATE: {
        static const char *const types[] = {
            "CapsetUnknown", "CapsetCustom", "CapsetOsProcess", "CapsetClockDomain",
        };
        uint16_t t = ev->u.capset_create.type;
        put_lit(b, "created capset ");
        put_u64(b, ev->u.capset_create.capset);
        put_lit(b, " of type ");
        put_lit(b, types[t < 4 ? t : 0]);
        break;
    }
    case EL_PERF_COUNTER:
        put_lit(b, "perf event counter ");
        put_u64(b, ev->u.perf.perf_num);
        put_lit(b, " incremented by ");
        put_u64(b, ev->u.perf.period + 1);
        put_lit(b, " in OS thread ");
        put_u64(b, ev->u.perf.tid);
        break;
    default:
        return put_profile_fields(b, ev);
    }
    return 1;
}

ev_status el_show_event(el_textbuf *out, const el_event *ev)
{
    size_t start = out->len;

    if (!(ev->decoded && ghc_events_parses(ev) && put_fields(out, ev))) {
        out->len = start;
        if (ev->et)
            put_str(out, ev->et->desc);
    }
    return out->failed ? EV_ERR_NOMEM : EV_OK;
}

ev_status el_show_line(el_textbuf *out, const el_event *ev)
{
    put_u64(out, ev->time);
    put_lit(out, ": ");
    if (ev->cap != EL_NO_CAP) {
        put_lit(out, "cap ");
        put_u64(out, ev->cap);
        put_lit(out, ": ");
    }
    el_show_event(out, ev);
    put_ch(out, '\n');
    return out->failed ? EV_ERR_NOMEM : EV_OK;
}
