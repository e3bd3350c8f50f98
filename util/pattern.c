/* The one matcher of user patterns (include/evprof/pattern.h).
 *
 * Parsing follows glibc's regcomp.c for RE_SYNTAX_POSIX_EXTENDED in the C
 * locale token by token (peek_token, parse_reg_exp, parse_branch,
 * parse_expression, parse_dup_op, fetch_number, parse_bracket_exp), so
 * that a pattern means here what it meant to regcomp, and is refused
 * where regcomp refused it. The code is emitted as it is parsed, with
 * jumps relative to their own step: a fragment (a group, a bracket, a
 * character) never jumps out of itself, so {n,m} copies it as it is and
 * an alternation is laid out by copying its branches once.
 *
 * Matching is a Pike VM without captures: two lists of the steps that
 * take a byte (the threads at this byte and at the next), a stamp per step
 * for the steps a list has seen, an explicit stack for the closure over
 * jumps, splits and assertions, all allocated at compile time. A thread
 * starts at every byte (the search is unanchored), and the first MATCH
 * reached ends the search; while no thread is alive, a pattern that
 * begins with ^ stops, and others skip to a byte that can begin a match. */
#include "evprof/pattern.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "evprof/textout.h"
#include "util/error.h"

/* ---- the program --------------------------------------------------------- */

typedef enum op {
    OP_BYTE,        /* the byte b */
    OP_SET,         /* a byte of set[s] */
    OP_ANY,         /* any byte */
    OP_SPLIT,       /* go on at +x and at +y */
    OP_JMP,         /* go on at +x */
    OP_ASSERT,      /* go on at +1 if the place is a (below) */
    OP_MATCH,
} op;

/* what an OP_ASSERT asks of the place between two bytes */
enum {
    A_BEGIN,        /* ^ and \` : the text's start */
    A_END,          /* $ and \' : the text's end */
    A_WORD_FIRST,   /* \< : a non-word (or the start) before, a word byte after */
    A_WORD_LAST,    /* \> : a word byte before, a non-word (or the end) after */
    A_WORD_EDGE,    /* \b : either */
    A_NOT_EDGE,     /* \B : both sides word, or both not */
};

typedef struct insn {
    uint8_t op;
    uint8_t b;          /* OP_BYTE's byte, OP_ASSERT's kind */
    uint16_t s;         /* OP_SET's set */
    int16_t x, y;       /* relative targets */
} insn;

typedef struct byteset {
    uint32_t w[8];
} byteset;

struct ev_pattern {
    insn *code;
    size_t n;
    byteset *sets;
    size_t nsets;
    /* the VM's scratch: the threads at this byte and at the next (their
     * steps that take a byte), the steps seen while making a list (seen[i]
     * == gen), and the closure's stack */
    uint16_t *list[2];
    size_t count[2];
    uint32_t *seen;
    uint32_t gen;
    uint16_t *stack;
    /* shortcuts while no thread is alive: a match can only start at the
     * text's start (anchored), or at a byte of `first` (skip) */
    int anchored, skip;
    byteset first;
    size_t bytes;
    ev_budget *budget;
};

static int in_set(const byteset *s, unsigned c)
{
    return (s->w[c >> 5] >> (c & 31)) & 1u;
}

static void set_add(byteset *s, unsigned c)
{
    s->w[c >> 5] |= 1u << (c & 31);
}

/* ---- the tokens (glibc's peek_token for ERE) ----------------------------- */

typedef enum tok_type {
    T_CHAR,         /* c */
    T_ANY,          /* . */
    T_STAR, T_PLUS, T_QMARK,
    T_OPEN_DUP,     /* { */
    T_CLOSE_DUP,    /* } */
    T_OPEN, T_CLOSE,
    T_ALT,
    T_BRACKET,      /* [ */
    T_ANCHOR,       /* c: the kind */
    T_BACKREF,
    T_WORD, T_NOTWORD, T_SPACE, T_NOTSPACE,
    T_BACKSLASH,    /* a backslash at the end */
    T_END,
} tok_type;

typedef struct token {
    tok_type type;
    unsigned char c;
    size_t at;          /* where it starts in the pattern */
} token;

typedef struct parser {
    const unsigned char *s;
    size_t len, pos;
    token tok;
    ev_pattern *p;
    size_t cap;         /* of p->code */
    size_t capsets;
    insn *tmp;          /* scratch for copies, EV_PATTERN_MAX_STEPS */
    size_t *starts;     /* the alternations' branches being parsed, a stack */
    size_t nstarts;
    const char *why;    /* the first error, or NULL */
    size_t why_at;
    char why_buf[96];
    int nomem;
} parser;

static void next_token(parser *ps)
{
    token *t = &ps->tok;
    t->at = ps->pos;
    if (ps->pos >= ps->len) {
        t->type = T_END;
        t->c = 0;
        return;
    }
    unsigned char c = ps->s[ps->pos];
    t->c = c;
    if (c == '\\') {
        if (ps->pos + 1 >= ps->len) {
            t->type = T_BACKSLASH;
            ps->pos++;
            return;
        }
        unsigned char c2 = ps->s[ps->pos + 1];
        ps->pos += 2;
        t->c = c2;
        t->type = T_CHAR;
        switch (c2) {
        case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
            t->type = T_BACKREF;
            break;
        case '<': t->type = T_ANCHOR; t->c = A_WORD_FIRST; break;
        case '>': t->type = T_ANCHOR; t->c = A_WORD_LAST; break;
        case 'b': t->type = T_ANCHOR; t->c = A_WORD_EDGE; break;
        case 'B': t->type = T_ANCHOR; t->c = A_NOT_EDGE; break;
        case '`': t->type = T_ANCHOR; t->c = A_BEGIN; break;
        case '\'': t->type = T_ANCHOR; t->c = A_END; break;
        case 'w': t->type = T_WORD; break;
        case 'W': t->type = T_NOTWORD; break;
        case 's': t->type = T_SPACE; break;
        case 'S': t->type = T_NOTSPACE; break;
        default: break;     /* any other escaped byte is itself */
        }
        return;
    }
    ps->pos++;
    switch (c) {
    case '.': t->type = T_ANY; break;
    case '*': t->type = T_STAR; break;
    case '+': t->type = T_PLUS; break;
    case '?': t->type = T_QMARK; break;
    case '{': t->type = T_OPEN_DUP; break;
    case '}': t->type = T_CLOSE_DUP; break;
    case '(': t->type = T_OPEN; break;
    case ')': t->type = T_CLOSE; break;
    case '|': t->type = T_ALT; break;
    case '[': t->type = T_BRACKET; break;
    case '^': t->type = T_ANCHOR; t->c = A_BEGIN; break;
    case '$': t->type = T_ANCHOR; t->c = A_END; break;
    default: t->type = T_CHAR; break;
    }
}

static int fail(parser *ps, size_t at, const char *why)
{
    if (!ps->why) {
        ps->why = why;
        ps->why_at = at;
    }
    return -1;
}

/* ---- emitting ------------------------------------------------------------ */

static int too_big(parser *ps, size_t at)
{
    snprintf(ps->why_buf, sizeof ps->why_buf,
             "more than %d steps once compiled (its repetitions expanded)", EV_PATTERN_MAX_STEPS);
    return fail(ps, at, ps->why_buf);
}

static int room(parser *ps, size_t more)
{
    if (ps->p->n + more > EV_PATTERN_MAX_STEPS)
        return too_big(ps, ps->tok.at);
    if (ps->p->n + more > ps->cap) {
        size_t cap = ps->cap ? ps->cap * 2 : 64;
        while (cap < ps->p->n + more)
            cap *= 2;
        if (cap > EV_PATTERN_MAX_STEPS + 1)
            cap = EV_PATTERN_MAX_STEPS + 1;
        insn *c = realloc(ps->p->code, cap * sizeof *c);
        if (!c) {
            ps->nomem = 1;
            return -1;
        }
        ps->p->code = c;
        ps->cap = cap;
    }
    return 0;
}

static int emit(parser *ps, insn i)
{
    if (room(ps, 1) != 0)
        return -1;
    ps->p->code[ps->p->n++] = i;
    return 0;
}

static int emit_set(parser *ps, const byteset *set)
{
    int count = 0;
    unsigned last = 0;
    for (unsigned c = 0; c < 256; c++)
        if (in_set(set, c)) {
            count++;
            last = c;
        }
    if (count == 1)
        return emit(ps, (insn){ .op = OP_BYTE, .b = (uint8_t)last });
    if (count == 256)
        return emit(ps, (insn){ .op = OP_ANY });
    ev_pattern *p = ps->p;
    if (p->nsets == ps->capsets) {
        size_t cap = ps->capsets ? ps->capsets * 2 : 8;
        byteset *s = realloc(p->sets, cap * sizeof *s);
        if (!s) {
            ps->nomem = 1;
            return -1;
        }
        p->sets = s;
        ps->capsets = cap;
    }
    p->sets[p->nsets] = *set;
    return emit(ps, (insn){ .op = OP_SET, .s = (uint16_t)p->nsets++ });
}

/* ---- bracket expressions (glibc's parse_bracket_exp) --------------------- */

typedef enum btype { B_END, B_CHAR, B_RANGE_OP, B_CLOSE, B_HAT, B_COLL, B_EQUIV, B_CLASS } btype;

/* The token at the parser's place inside brackets; its length in *n. */
static btype peek_bracket(const parser *ps, unsigned char *c, size_t *n)
{
    *n = 1;
    if (ps->pos >= ps->len)
        return B_END;
    *c = ps->s[ps->pos];
    if (*c == '[') {
        unsigned char c2 = ps->pos + 1 < ps->len ? ps->s[ps->pos + 1] : 0;
        *n = 2;
        switch (c2) {
        case '.': return B_COLL;
        case '=': return B_EQUIV;
        case ':': return B_CLASS;
        default: *n = 1; return B_CHAR;
        }
    }
    switch (*c) {
    case '-': return B_RANGE_OP;
    case ']': return B_CLOSE;
    case '^': return B_HAT;
    default: return B_CHAR;
    }
}

typedef struct belem {
    btype type;             /* B_CHAR, B_COLL, B_EQUIV, B_CLASS */
    unsigned char ch;
    char name[32];
} belem;

/* glibc's parse_bracket_symbol: the name up to ".]", "=]" or ":]". */
static int bracket_symbol(parser *ps, belem *e, unsigned char delim)
{
    size_t i = 0;
    if (ps->pos >= ps->len)
        return fail(ps, ps->pos, "unmatched [");
    for (;; i++) {
        if (i >= sizeof e->name)
            return fail(ps, ps->pos, "unmatched [");
        unsigned char ch = ps->s[ps->pos++];
        if (ps->pos >= ps->len)
            return fail(ps, ps->pos, "unmatched [");
        if (ch == delim && ps->s[ps->pos] == ']')
            break;
        e->name[i] = (char)ch;
    }
    ps->pos++;
    e->name[i] = '\0';
    return 0;
}

/* glibc's parse_bracket_element: the token t of length n at the place. */
static int bracket_element(parser *ps, belem *e, btype t, unsigned char c, size_t n,
                           int accept_hyphen)
{
    ps->pos += n;
    if (t == B_COLL || t == B_EQUIV || t == B_CLASS) {
        e->type = t;
        return bracket_symbol(ps, e, t == B_COLL ? '.' : t == B_EQUIV ? '=' : ':');
    }
    if (t == B_RANGE_OP && !accept_hyphen) {
        unsigned char c2;
        size_t n2;
        if (peek_bracket(ps, &c2, &n2) != B_CLOSE)
            return fail(ps, ps->pos - 1, "a '-' that is not at the end of a range or of the list");
    }
    e->type = B_CHAR;
    e->ch = c;
    return 0;
}

static int class_add(byteset *set, const char *name)
{
    static const char *const names[] = { "alpha", "upper", "lower", "digit", "xdigit", "space",
                                         "print", "punct", "graph", "cntrl", "blank", "alnum" };
    int k = -1;
    for (int i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        if (strcmp(name, names[i]) == 0)
            k = i;
    if (k < 0)
        return -1;
    for (unsigned c = 0; c < 128; c++) {
        int up = c >= 'A' && c <= 'Z', lo = c >= 'a' && c <= 'z', dig = c >= '0' && c <= '9';
        int sp = c == ' ' || (c >= '\t' && c <= '\r'), graph = c > ' ' && c < 0x7f;
        int in = 0;
        switch (k) {
        case 0: in = up || lo; break;
        case 1: in = up; break;
        case 2: in = lo; break;
        case 3: in = dig; break;
        case 4: in = dig || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); break;
        case 5: in = sp; break;
        case 6: in = graph || c == ' '; break;
        case 7: in = graph && !up && !lo && !dig; break;
        case 8: in = graph; break;
        case 9: in = c < ' ' || c == 0x7f; break;
        case 10: in = c == ' ' || c == '\t'; break;
        case 11: in = up || lo || dig; break;
        default: break;
        }
        if (in)
            set_add(set, c);
    }
    return 0;
}

/* The byte a range's end stands for, or -1 (ECOLLATE). */
static int range_byte(const belem *e)
{
    if (e->type == B_CHAR)
        return e->ch;
    return strlen(e->name) == 1 ? (unsigned char)e->name[0] : -1;
}

/* After '[': the set, the place past its ']'. */
static int bracket(parser *ps, byteset *set)
{
    size_t open = ps->pos - 1;
    unsigned char c = 0, c2 = 0;
    size_t n, n2;
    int non_match = 0, first = 1;
    memset(set, 0, sizeof *set);
    btype t = peek_bracket(ps, &c, &n);
    if (t == B_END)
        return fail(ps, open, "unmatched [");
    if (t == B_HAT) {
        non_match = 1;
        ps->pos += n;
        t = peek_bracket(ps, &c, &n);
        if (t == B_END)
            return fail(ps, open, "unmatched [");
    }
    if (t == B_CLOSE)
        t = B_CHAR;         /* a first ']' is itself */
    for (;;) {
        belem start = { 0 }, end = { 0 };
        int is_range = 0;
        if (bracket_element(ps, &start, t, c, n, first) != 0)
            return -1;
        first = 0;
        t = peek_bracket(ps, &c, &n);
        if (start.type != B_CLASS && start.type != B_EQUIV) {
            if (t == B_END)
                return fail(ps, open, "unmatched [");
            if (t == B_RANGE_OP) {
                ps->pos += n;
                btype t2 = peek_bracket(ps, &c2, &n2);
                if (t2 == B_END)
                    return fail(ps, open, "unmatched [");
                if (t2 == B_CLOSE) {
                    ps->pos -= n;   /* a last '-' is itself */
                    t = B_CHAR;
                } else {
                    is_range = 1;
                    if (bracket_element(ps, &end, t2, c2, n2, 1) != 0)
                        return -1;
                    t = peek_bracket(ps, &c, &n);
                }
            }
        }
        if (is_range) {
            if (start.type == B_EQUIV || start.type == B_CLASS || end.type == B_EQUIV ||
                end.type == B_CLASS)
                return fail(ps, ps->pos, "a class at the end of a range");
            int lo = range_byte(&start), hi = range_byte(&end);
            if (lo < 0 || hi < 0)
                return fail(ps, ps->pos, "a collating element of more than one byte");
            if (lo > hi)
                return fail(ps, ps->pos, "a range whose end comes before its start");
            for (int b = lo; b <= hi; b++)
                set_add(set, (unsigned)b);
        } else {
            switch (start.type) {
            case B_CHAR:
                set_add(set, start.ch);
                break;
            case B_COLL:
            case B_EQUIV:
                if (strlen(start.name) != 1)
                    return fail(ps, ps->pos, "a collating element of more than one byte");
                set_add(set, (unsigned char)start.name[0]);
                break;
            case B_CLASS:
                if (class_add(set, start.name) != 0) {
                    snprintf(ps->why_buf, sizeof ps->why_buf, "no character class [:%.32s:]",
                             start.name);
                    return fail(ps, ps->pos, ps->why_buf);
                }
                break;
            case B_END: case B_RANGE_OP: case B_CLOSE: case B_HAT:
                break;
            }
        }
        if (t == B_END)
            return fail(ps, open, "unmatched [");
        if (t == B_CLOSE)
            break;
    }
    ps->pos += n;           /* the ']' */
    if (non_match)
        for (int i = 0; i < 8; i++)
            set->w[i] = ~set->w[i];
    return 0;
}

/* ---- counts (glibc's parse_dup_op, fetch_number) ------------------------- */

/* A number up to '}' or ',' (-1: none, -2: not a number, or the end). */
static long fetch_number(parser *ps)
{
    long num = -1;
    for (;;) {
        next_token(ps);
        if (ps->tok.type == T_END)
            return -2;
        if (ps->tok.type == T_CLOSE_DUP || (ps->tok.type == T_CHAR && ps->tok.c == ','))
            break;
        unsigned char c = ps->tok.c;
        num = ps->tok.type != T_CHAR || c < '0' || c > '9' || num == -2 ? -2
              : num == -1 ? c - '0'
              : (num * 10 + c - '0' > 32768 ? 32768 : num * 10 + c - '0');
    }
    return num;
}

/* The fragment code[from..n) repeated {lo,hi} (hi -1: no bound). */
static int repeat(parser *ps, size_t from, long lo, long hi, size_t at)
{
    ev_pattern *p = ps->p;
    size_t len = p->n - from;
    if (hi == 0 || len == 0) {
        p->n = from;        /* x{0} is nothing, and nothing repeated is nothing */
        return 0;
    }
    uint64_t total = hi < 0 ? (lo == 0 ? len + 2 : (uint64_t)lo * len + 1)
                            : (uint64_t)lo * len + (uint64_t)(hi - lo) * (len + 1);
    if (from + total > EV_PATTERN_MAX_STEPS)
        return too_big(ps, at);
    memcpy(ps->tmp, p->code + from, len * sizeof *ps->tmp);
    p->n = from;
    if (room(ps, (size_t)total) != 0)
        return -1;
    insn *c = p->code;
    if (hi < 0 && lo == 0) {            /* x*: L: split +1, +len+2; x; jmp L */
        c[p->n++] = (insn){ .op = OP_SPLIT, .x = 1, .y = (int16_t)(len + 2) };
        memcpy(c + p->n, ps->tmp, len * sizeof *c);
        p->n += len;
        c[p->n] = (insn){ .op = OP_JMP, .x = (int16_t)-(int)(len + 1) };
        p->n++;
        return 0;
    }
    for (long k = 0; k < lo; k++) {
        memcpy(c + p->n, ps->tmp, len * sizeof *c);
        p->n += len;
    }
    if (hi < 0) {                       /* the last copy again and again: split -len, +1 */
        c[p->n] = (insn){ .op = OP_SPLIT, .x = (int16_t)-(int)len, .y = 1 };
        p->n++;
        return 0;
    }
    size_t end = p->n + (size_t)(hi - lo) * (len + 1);
    for (long k = lo; k < hi; k++) {    /* each optional copy may be the last */
        c[p->n] = (insn){ .op = OP_SPLIT, .x = 1, .y = (int16_t)(end - p->n) };
        p->n++;
        memcpy(c + p->n, ps->tmp, len * sizeof *c);
        p->n += len;
    }
    return 0;
}

/* The repetition operator at ps->tok applied to code[from..n) (empty
 * when the expression was x{0}). Leaves the token after it. */
static int dup_op(parser *ps, size_t from)
{
    long lo, hi;
    size_t at = ps->tok.at;
    if (ps->tok.type == T_OPEN_DUP) {
        lo = fetch_number(ps);
        if (lo == -1) {
            if (ps->tok.type == T_CHAR && ps->tok.c == ',')
                lo = 0;     /* {,m} is {0,m} */
            else
                return fail(ps, at, "an empty count {}");
        }
        hi = 0;
        if (lo != -2)
            hi = ps->tok.type == T_CLOSE_DUP ? lo
                 : ps->tok.type == T_CHAR && ps->tok.c == ',' ? fetch_number(ps) : -2;
        if (lo == -2 || hi == -2)
            return fail(ps, at, ps->tok.type == T_END ? "unmatched {" : "a count that is not a number");
        if ((hi != -1 && lo > hi) || ps->tok.type != T_CLOSE_DUP)
            return fail(ps, at, "a bad count: {n}, {n,}, {,m} or {n,m} with n <= m");
        if ((hi == -1 ? lo : hi) > EV_PATTERN_MAX_COUNT) {
            snprintf(ps->why_buf, sizeof ps->why_buf, "a count above %d", EV_PATTERN_MAX_COUNT);
            return fail(ps, at, ps->why_buf);
        }
    } else {
        lo = ps->tok.type == T_PLUS ? 1 : 0;
        hi = ps->tok.type == T_QMARK ? 1 : -1;
    }
    next_token(ps);
    return repeat(ps, from, lo, hi, at);
}

/* ---- the grammar (glibc's parse_reg_exp, parse_branch, parse_expression) - */

static int reg_exp(parser *ps, int nest);

static int word_class(parser *ps, int space, int negate)
{
    byteset set;
    memset(&set, 0, sizeof set);
    if (space) {
        class_add(&set, "space");
    } else {
        class_add(&set, "alnum");
        set_add(&set, '_');
    }
    if (negate)
        for (int i = 0; i < 8; i++)
            set.w[i] = ~set.w[i];
    return emit_set(ps, &set);
}

/* One expression: an atom and its repetitions. The token is its first;
 * leaves the token after it. */
static int expression(parser *ps, int nest)
{
    size_t from = ps->p->n;
    token t = ps->tok;
    switch (t.type) {
    case T_CHAR:
        if (emit(ps, (insn){ .op = OP_BYTE, .b = t.c }) != 0)
            return -1;
        break;
    case T_ANY:
        if (emit(ps, (insn){ .op = OP_ANY }) != 0)
            return -1;
        break;
    case T_OPEN:
        if (nest + 1 > EV_PATTERN_MAX_DEPTH) {
            snprintf(ps->why_buf, sizeof ps->why_buf, "groups nested deeper than %d",
                     EV_PATTERN_MAX_DEPTH);
            return fail(ps, t.at, ps->why_buf);
        }
        next_token(ps);
        if (ps->tok.type != T_CLOSE) {
            if (reg_exp(ps, nest + 1) != 0)
                return -1;
            if (ps->tok.type != T_CLOSE)
                return fail(ps, t.at, "unmatched (");
        }
        break;
    case T_BRACKET: {
        byteset set;
        if (bracket(ps, &set) != 0 || emit_set(ps, &set) != 0)
            return -1;
        break;
    }
    case T_BACKREF:
        return fail(ps, t.at, "a back-reference (\\1 to \\9): not taken, no matcher with a time "
                    "bound has them");
    case T_OPEN_DUP: case T_STAR: case T_PLUS: case T_QMARK:
        return fail(ps, t.at, "nothing before the repetition operator");
    case T_CLOSE:           /* an unmatched ')' at the top is itself (nest 0 only here) */
    case T_CLOSE_DUP:
        if (emit(ps, (insn){ .op = OP_BYTE, .b = t.c }) != 0)
            return -1;
        break;
    case T_ANCHOR:
        /* no repetition after an anchor: "^*" is an error, as in glibc */
        if (emit(ps, (insn){ .op = OP_ASSERT, .b = t.c }) != 0)
            return -1;
        next_token(ps);
        return 0;
    case T_WORD: case T_NOTWORD: case T_SPACE: case T_NOTSPACE:
        if (word_class(ps, t.type == T_SPACE || t.type == T_NOTSPACE,
                       t.type == T_NOTWORD || t.type == T_NOTSPACE) != 0)
            return -1;
        break;
    case T_ALT: case T_END:
        return 0;           /* an empty branch */
    case T_BACKSLASH:
        return fail(ps, t.at, "a backslash at the end");
    }
    next_token(ps);
    while (ps->tok.type == T_STAR || ps->tok.type == T_PLUS || ps->tok.type == T_QMARK ||
           ps->tok.type == T_OPEN_DUP)
        if (dup_op(ps, from) != 0)
            return -1;
    return 0;
}

static int branch(parser *ps, int nest)
{
    if (expression(ps, nest) != 0)
        return -1;
    while (ps->tok.type != T_ALT && ps->tok.type != T_END && (nest == 0 || ps->tok.type != T_CLOSE))
        if (expression(ps, nest) != 0)
            return -1;
    return 0;
}

/* Branches b1|b2|...|bk, laid out as
 *   split +1, L2; b1; jmp END; L2: split +1, L3; b2; jmp END; ... bk; END: */
static int reg_exp(parser *ps, int nest)
{
    ev_pattern *p = ps->p;
    size_t from = p->n;
    size_t *starts = ps->starts + ps->nstarts;     /* a '|' is a byte of the pattern */
    size_t k = 0;
    starts[k++] = from;
    ps->nstarts++;
    if (branch(ps, nest) != 0)
        return -1;
    while (ps->tok.type == T_ALT) {
        size_t at = ps->tok.at;
        next_token(ps);
        starts[k++] = p->n;
        ps->nstarts++;
        if (ps->tok.type != T_ALT && ps->tok.type != T_END && (nest == 0 || ps->tok.type != T_CLOSE))
            if (branch(ps, nest) != 0)
                return -1;
        if (p->n + 2 * (k - 1) > EV_PATTERN_MAX_STEPS)
            return too_big(ps, at);
    }
    ps->nstarts -= k;
    if (k == 1)
        return 0;
    size_t len = p->n - from, total = len + 2 * (k - 1);
    if (len)                /* "|": no code yet */
        memcpy(ps->tmp, p->code + from, len * sizeof *ps->tmp);
    p->n = from;
    if (room(ps, total) != 0)
        return -1;
    size_t end = from + total;
    insn *c = p->code;
    for (size_t i = 0; i < k; i++) {
        size_t blen = (i + 1 < k ? starts[i + 1] : from + len) - starts[i];
        if (i + 1 < k) {
            c[p->n] = (insn){ .op = OP_SPLIT, .x = 1, .y = (int16_t)(blen + 2) };
            p->n++;
        }
        memcpy(c + p->n, ps->tmp + (starts[i] - from), blen * sizeof *c);
        p->n += blen;
        if (i + 1 < k) {
            c[p->n] = (insn){ .op = OP_JMP, .x = (int16_t)(end - p->n) };
            p->n++;
        }
    }
    return 0;
}

/* ---- compile ------------------------------------------------------------- */

void ev_pattern_destroy(ev_pattern *p)
{
    if (!p)
        return;
    ev_budget_release(p->budget, p->bytes);
    free(p->code);
    free(p->sets);
    free(p->list[0]);
    free(p->list[1]);
    free(p->seen);
    free(p->stack);
    free(p);
}

size_t ev_pattern_bytes(const ev_pattern *p)
{
    return p->bytes;
}

static void starts_of(ev_pattern *p);

static ev_status refuse(ev_error *err, const char *src, size_t len, size_t at, const char *why)
{
    char shown[TX_SHORT_BYTES];
    tx_vis_short(shown, sizeof shown, src, len, TX_SHORT_WIDTH);
    if (at < len)
        return ev_error_set(err, EV_ERR_PATTERN, "'%s': %s (at byte %zu)", shown, why, at);
    return ev_error_set(err, EV_ERR_PATTERN, "'%s': %s", shown, why);
}

ev_status ev_pattern_compile(ev_pattern **out, const char *src, ev_budget *budget, ev_error *err)
{
    *out = NULL;
    ev_error_clear(err);
    size_t len = strlen(src);
    if (len > EV_PATTERN_MAX_BYTES) {
        char why[64];
        snprintf(why, sizeof why, "longer than %d bytes", EV_PATTERN_MAX_BYTES);
        return refuse(err, src, len, len, why);
    }
    ev_pattern *p = calloc(1, sizeof *p);
    parser *ps = calloc(1, sizeof *ps);
    insn *tmp = malloc(EV_PATTERN_MAX_STEPS * sizeof *tmp);
    size_t *starts = malloc((len + 2) * sizeof *starts);
    if (!p || !ps || !tmp || !starts) {
        free(p);
        free(ps);
        free(tmp);
        free(starts);
        return ev_error_set(err, EV_ERR_NOMEM, "out of memory");
    }
    ps->s = (const unsigned char *)src;
    ps->len = len;
    ps->p = p;
    ps->tmp = tmp;
    ps->starts = starts;
    next_token(ps);
    int rc = reg_exp(ps, 0);
    if (rc == 0)
        rc = emit(ps, (insn){ .op = OP_MATCH });
    ev_status st = EV_OK;
    if (rc != 0) {
        if (ps->nomem)
            st = ev_error_set(err, EV_ERR_NOMEM, "out of memory");
        else
            st = refuse(err, src, len, ps->why_at, ps->why);
    }
    free(tmp);
    free(starts);
    free(ps);
    if (st != EV_OK) {
        ev_pattern_destroy(p);
        return st;
    }
    /* the VM's memory, fixed from here on */
    size_t n = p->n;
    p->list[0] = malloc(n * sizeof *p->list[0]);
    p->list[1] = malloc(n * sizeof *p->list[1]);
    p->seen = calloc(n, sizeof *p->seen);
    p->stack = malloc((2 * n + 2) * sizeof *p->stack);
    if (!p->list[0] || !p->list[1] || !p->seen || !p->stack) {
        ev_pattern_destroy(p);
        return ev_error_set(err, EV_ERR_NOMEM, "out of memory");
    }
    p->bytes = sizeof *p + n * (sizeof *p->code + 2 * sizeof(uint16_t) + sizeof *p->seen) +
               (2 * n + 2) * sizeof *p->stack + p->nsets * sizeof *p->sets;
    if (ev_budget_charge(budget, p->bytes) != 0) {
        p->bytes = 0;
        ev_pattern_destroy(p);
        return ev_error_set(err, EV_ERR_LIMIT, "the memory limit is reached");
    }
    p->budget = budget;
    starts_of(p);
    *out = p;
    return EV_OK;
}

/* ---- match --------------------------------------------------------------- */

static int is_word(int c)
{
    return c >= 0 && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_');
}

/* prev, next: the bytes around the place, -1 at the text's start or end */
static int holds(unsigned kind, int prev, int next)
{
    int pw = is_word(prev), nw = is_word(next);
    switch (kind) {
    case A_BEGIN: return prev < 0;
    case A_END: return next < 0;
    case A_WORD_FIRST: return !pw && nw;
    case A_WORD_LAST: return pw && !nw;
    case A_WORD_EDGE: return pw != nw;
    default: return pw == nw;
    }
}

/* Adds pc and what it reaches without a byte to list l (made in the
 * generation p->gen). Returns 1 when that reaches MATCH. */
static int add(ev_pattern *p, int l, size_t pc, int prev, int next)
{
    uint32_t *seen = p->seen, gen = p->gen;
    uint16_t *stack = p->stack, *list = p->list[l];
    size_t sp = 0;
    if (seen[pc] == gen)
        return 0;
    seen[pc] = gen;
    stack[sp++] = (uint16_t)pc;
    while (sp) {
        size_t i = stack[--sp];
        const insn *in = &p->code[i];
        size_t to[2];
        int nto = 0;
        switch ((op)in->op) {
        case OP_MATCH:
            return 1;
        case OP_JMP:
            to[nto++] = (size_t)((ptrdiff_t)i + in->x);
            break;
        case OP_SPLIT:
            to[nto++] = (size_t)((ptrdiff_t)i + in->x);
            to[nto++] = (size_t)((ptrdiff_t)i + in->y);
            break;
        case OP_ASSERT:
            if (holds(in->b, prev, next))
                to[nto++] = i + 1;
            break;
        case OP_BYTE: case OP_SET: case OP_ANY:
            list[p->count[l]++] = (uint16_t)i;
            break;
        }
        for (int k = 0; k < nto; k++)
            if (seen[to[k]] != gen) {
                seen[to[k]] = gen;
                stack[sp++] = (uint16_t)to[k];
            }
    }
    return 0;
}

/* A new generation of seen[]: a list is being made. */
static void next_gen(ev_pattern *p)
{
    if (++p->gen == 0) {
        memset(p->seen, 0, p->n * sizeof *p->seen);
        p->gen = 1;
    }
}

/* The shortcuts: anchored when the program begins with ^; `first`, the
 * bytes a match can begin with (every assertion taken as true), when no
 * match is empty and some bytes cannot begin one. */
static void starts_of(ev_pattern *p)
{
    p->anchored = p->code[0].op == OP_ASSERT && p->code[0].b == A_BEGIN;
    memset(&p->first, 0, sizeof p->first);
    uint16_t *stack = p->stack;
    size_t sp = 0;
    int empty = 0;
    next_gen(p);
    p->seen[0] = p->gen;
    stack[sp++] = 0;
    while (sp) {
        size_t i = stack[--sp];
        const insn *in = &p->code[i];
        size_t to[2];
        int nto = 0;
        switch ((op)in->op) {
        case OP_MATCH: empty = 1; break;
        case OP_BYTE: set_add(&p->first, in->b); break;
        case OP_SET:
            for (int w = 0; w < 8; w++)
                p->first.w[w] |= p->sets[in->s].w[w];
            break;
        case OP_ANY: memset(&p->first, 0xff, sizeof p->first); break;
        case OP_JMP: to[nto++] = (size_t)((ptrdiff_t)i + in->x); break;
        case OP_SPLIT:
            to[nto++] = (size_t)((ptrdiff_t)i + in->x);
            to[nto++] = (size_t)((ptrdiff_t)i + in->y);
            break;
        case OP_ASSERT: to[nto++] = i + 1; break;
        }
        for (int k = 0; k < nto; k++)
            if (p->seen[to[k]] != p->gen) {
                p->seen[to[k]] = p->gen;
                stack[sp++] = (uint16_t)to[k];
            }
    }
    int all = 1;
    for (int w = 0; w < 8; w++)
        all &= p->first.w[w] == UINT32_MAX;
    p->skip = !empty && !all;
}

/* The text's bytes one by one: part k, byte j. */
typedef struct cursor {
    const char *const *parts;
    const size_t *lens;
    size_t n, k, j;
} cursor;

/* The byte at the place, or -1 at the end. */
static int cursor_byte(const cursor *c)
{
    return c->k < c->n ? (unsigned char)c->parts[c->k][c->j] : -1;
}

/* One byte on (not past the end); returns the byte there, or -1. */
static int cursor_next(cursor *c)
{
    if (++c->j >= c->lens[c->k]) {
        c->j = 0;
        do
            c->k++;
        while (c->k < c->n && c->lens[c->k] == 0);
    }
    return cursor_byte(c);
}

int ev_pattern_match_parts(ev_pattern *p, const char *const *parts, const size_t *lens, size_t n)
{
    cursor c = { parts, lens, n, 0, 0 };
    while (c.k < n && lens[c.k] == 0)
        c.k++;
    int cur = cursor_byte(&c), prev = -1;
    int l = 0;
    p->count[0] = 0;
    next_gen(p);
    for (;;) {
        if (p->count[l] == 0) {
            /* no thread alive: only a new one can match */
            if (p->anchored && prev >= 0)
                return 0;
            if (p->skip && cur >= 0 && !in_set(&p->first, (unsigned)cur)) {
                /* a match must take a byte of `first` where it starts */
                do {
                    prev = cur;
                    cur = cursor_next(&c);
                } while (cur >= 0 && !in_set(&p->first, (unsigned)cur));
                if (cur < 0)
                    return 0;
                next_gen(p);            /* another place: another closure */
            }
        }
        if (!(p->anchored && prev >= 0) && add(p, l, 0, prev, cur))
            return 1;
        if (cur < 0)
            return 0;
        int next = cursor_next(&c);
        int nl = l ^ 1;
        p->count[nl] = 0;
        next_gen(p);
        const uint16_t *list = p->list[l];
        for (size_t t = 0, m = p->count[l]; t < m; t++) {
            size_t i = list[t];
            const insn *in = &p->code[i];
            int take = in->op == OP_ANY || (in->op == OP_BYTE ? in->b == cur
                                                              : in_set(&p->sets[in->s], (unsigned)cur));
            if (take && add(p, nl, i + 1, cur, next))
                return 1;
        }
        l = nl;
        prev = cur;
        cur = next;
    }
}

int ev_pattern_match(ev_pattern *p, const char *s, size_t len)
{
    return ev_pattern_match_parts(p, &s, &len, 1);
}
