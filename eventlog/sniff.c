/* What a file that is not an eventlog is: GHC's other outputs, which a
 * run writes beside its eventlog and people give evprof by mistake. Each
 * is told by text GHC writes in its first lines (seen in GHC 9.0.2, 9.6.6
 * and 9.10.3 outputs, tests/data/ghc-9.0.2 and ghc-9.6):
 *
 *   .prof   "Time and Allocation Profiling Report" in its first line, then
 *           the command line ("\t   nfib +RTS -p -l -RTS")
 *   -pj     a JSON object with "program", "rts_arguments", "total_ticks"
 *   .hp     JOB "prog +RTS -hc -l" then DATE, SAMPLE_UNIT, BEGIN_SAMPLE
 *   -s      "bytes allocated in the heap"; -S its table's header "Alloc
 *           Copied  Live"; -t --machine-readable [("bytes allocated", ...;
 *           written to a file, the command line first ('./prog' +RTS ...)
 *   -r      "STACK USAGE:" and "ENTERS:", the command line first; or the
 *           counter table's header (evprof ticky's own text too)
 *
 * evprof report's own text says "Time Profiling Report  (from the
 * eventlog)". The decoder calls el_not_eventlog_message on bad magic, so
 * every command says the same. */
#include "evprof/eventlog.h"

#include <stdio.h>
#include <string.h>

#include "eventlog/bytes.h"

static int has(const char *h, size_t n, const char *s)
{
    size_t m = strlen(s);
    for (size_t i = 0; i + m <= n; i++)
        if (h[i] == s[0] && memcmp(h + i, s, m) == 0)
            return 1;
    return 0;
}

/* The first byte that is not a space, tab, CR or LF. */
static size_t skip_space(const char *h, size_t n, size_t i)
{
    while (i < n && (h[i] == ' ' || h[i] == '\t' || h[i] == '\r' || h[i] == '\n'))
        i++;
    return i;
}

el_file_kind el_file_kind_of(const void *head, size_t len)
{
    const char *h = head;
    if (len > EL_SNIFF_BYTES)
        len = EL_SNIFF_BYTES;
    if (len >= 4 && memcmp(h, "hdrb", 4) == 0)
        return EL_FILE_EVENTLOG;
    size_t first = skip_space(h, len, 0);
    if (has(h, len < 512 ? len : 512, "Time and Allocation Profiling Report"))
        return EL_FILE_PROF;
    if (has(h, len < 512 ? len : 512, "Time Profiling Report  (from the eventlog)"))
        return EL_FILE_EVPROF_REPORT;
    if (first < len && h[first] == '{' && has(h, len, "\"program\"") &&
        (has(h, len, "\"rts_arguments\"") || has(h, len, "\"total_ticks\"")))
        return EL_FILE_PROF_JSON;
    if (len - first >= 5 && memcmp(h + first, "JOB \"", 5) == 0 &&
        (has(h, len, "SAMPLE_UNIT") || has(h, len, "BEGIN_SAMPLE")))
        return EL_FILE_HP;
    if ((has(h, len, "STACK USAGE:") && has(h, len, "ENTERS:")) ||
        (has(h, len, "Non-void Arguments") && has(h, len, "STG Name")))
        return EL_FILE_TICKY;
    if (has(h, len, "bytes allocated in the heap") || has(h, len, "[(\"bytes allocated\"") ||
        has(h, len, "Alloc    Copied     Live"))
        return EL_FILE_RTS_STATS;
    return EL_FILE_UNKNOWN;
}

static const char *const kind_names[EL_FILE_KINDS] = {
    [EL_FILE_UNKNOWN] = NULL,
    [EL_FILE_EVENTLOG] = NULL,
    [EL_FILE_PROF] = "GHC's .prof time-profile report (+RTS -p)",
    [EL_FILE_PROF_JSON] = "GHC's JSON time profile (+RTS -pj)",
    [EL_FILE_HP] = "a .hp heap profile (+RTS -h)",
    [EL_FILE_RTS_STATS] = "GHC's runtime statistics (+RTS -s or -S)",
    [EL_FILE_TICKY] = "GHC's ticky-ticky report (+RTS -r)",
    [EL_FILE_EVPROF_REPORT] = "evprof report's output",
};

const char *el_file_kind_name(el_file_kind k)
{
    return (unsigned)k < EL_FILE_KINDS ? kind_names[k] : NULL;
}

/* ---- the command line the file records ---------------------------------- */

typedef struct cmdline {
    char prog[128];             /* the program's name, "" when unknown */
    char ol[256];               /* -ol's file, "" when none */
    char hflag[16];             /* the -h option, "" when none */
    int had_l;
} cmdline;

/* A name fit for a message: printable ASCII without spaces, not empty. */
static int clean(const char *s, size_t n)
{
    if (n == 0)
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] <= ' ' || (unsigned char)s[i] >= 0x7f)
            return 0;
    return 1;
}

static void copy(char *dst, size_t size, const char *s, size_t n)
{
    if (n >= size || !clean(s, n)) {
        dst[0] = '\0';
        return;
    }
    memcpy(dst, s, n);
    dst[n] = '\0';
}

/* One RTS option of the recorded run. */
static void rts_option(cmdline *c, const char *s, size_t n)
{
    if (n >= 3 && memcmp(s, "-ol", 3) == 0)
        copy(c->ol, sizeof c->ol, s + 3, n - 3);
    else if (n >= 2 && memcmp(s, "-l", 2) == 0)
        c->had_l = 1;
    else if (n >= 2 && memcmp(s, "-h", 2) == 0)
        copy(c->hflag, sizeof c->hflag, s, n);
}

/* The program, the word before any '/' removed. */
static void program(cmdline *c, const char *s, size_t n)
{
    for (size_t i = n; i > 0; i--)
        if (s[i - 1] == '/') {
            s += i;
            n -= i;
            break;
        }
    copy(c->prog, sizeof c->prog, s, n);
}

/* A command line as GHC writes it: words split at spaces, each maybe in
 * single quotes ('./sim-np' +RTS '-ssim-s.stats' '-l'); the first is the
 * program, RTS options are between +RTS and -RTS. */
static void parse_words(cmdline *c, const char *s, size_t n)
{
    size_t i = 0;
    int word = 0, rts = 0;
    while (i < n) {
        i = skip_space(s, n, i);
        if (i >= n)
            break;
        size_t b, e;
        if (s[i] == '\'') {
            b = ++i;
            while (i < n && s[i] != '\'')
                i++;
            e = i;
            if (i < n)
                i++;
        } else {
            b = i;
            while (i < n && s[i] != ' ' && s[i] != '\t')
                i++;
            e = i;
        }
        if (word++ == 0)
            program(c, s + b, e - b);
        else if (e - b == 4 && memcmp(s + b, "+RTS", 4) == 0)
            rts = 1;
        else if (e - b == 4 && memcmp(s + b, "-RTS", 4) == 0)
            rts = 0;
        else if (rts)
            rts_option(c, s + b, e - b);
    }
}

/* The line that starts at or after i: [*b, *e). Returns the next line's start. */
static size_t line_at(const char *h, size_t n, size_t i, size_t *b, size_t *e)
{
    *b = i;
    while (i < n && h[i] != '\n')
        i++;
    *e = i > *b && h[i - 1] == '\r' ? i - 1 : i;
    return i < n ? i + 1 : n;
}

/* The JSON string value of "key" (no escapes: GHC's names have none worth
 * reading here): [*b, *e), or 0. */
static int json_str(const char *h, size_t n, const char *key, size_t from, size_t *b, size_t *e)
{
    size_t m = strlen(key);
    for (size_t i = from; i + m < n; i++) {
        if (memcmp(h + i, key, m) != 0)
            continue;
        size_t j = skip_space(h, n, i + m);
        if (j >= n || h[j] != ':')
            continue;
        j = skip_space(h, n, j + 1);
        if (j >= n || h[j] != '"')
            return 0;
        *b = ++j;
        while (j < n && h[j] != '"' && h[j] != '\\')
            j++;
        if (j >= n || h[j] != '"')
            return 0;
        *e = j;
        return 1;
    }
    return 0;
}

static int read_cmdline(el_file_kind k, const char *h, size_t n, cmdline *c)
{
    size_t b, e, i = 0;
    memset(c, 0, sizeof *c);
    switch (k) {
    case EL_FILE_PROF:
        /* the header line, then the first line with words */
        i = line_at(h, n, 0, &b, &e);
        while (i < n) {
            i = line_at(h, n, i, &b, &e);
            if (skip_space(h, e, b) < e) {
                parse_words(c, h + b, e - b);
                break;
            }
        }
        break;
    case EL_FILE_PROF_JSON: {
        if (json_str(h, n, "\"program\"", 0, &b, &e))
            program(c, h + b, e - b);
        const char *key = "\"rts_arguments\"";
        for (size_t j = 0; j + strlen(key) < n; j++) {
            if (memcmp(h + j, key, strlen(key)) != 0)
                continue;
            size_t a = skip_space(h, n, j + strlen(key));
            if (a < n && h[a] == ':')
                a = skip_space(h, n, a + 1);
            if (a >= n || h[a] != '[')
                break;
            while (++a < n && h[a] != ']') {
                if (h[a] != '"')
                    continue;
                size_t sb = a + 1, se = sb;
                while (se < n && h[se] != '"' && h[se] != '\\')
                    se++;
                if (se >= n || h[se] != '"')
                    break;
                rts_option(c, h + sb, se - sb);
                a = se;
            }
            break;
        }
        break;
    }
    case EL_FILE_HP:
        i = skip_space(h, n, 0) + 5;        /* JOB " */
        for (b = e = i; e < n && h[e] != '"' && h[e] != '\n'; e++)
            ;
        if (e < n && h[e] == '"')
            parse_words(c, h + b, e - b);
        break;
    case EL_FILE_RTS_STATS:
    case EL_FILE_TICKY:
        /* written to a file: the command line first, the program quoted */
        line_at(h, n, 0, &b, &e);
        if (e > b && h[b] == '\'')
            parse_words(c, h + b, e - b);
        break;
    case EL_FILE_UNKNOWN:
    case EL_FILE_EVENTLOG:
    case EL_FILE_EVPROF_REPORT:
    case EL_FILE_KINDS:
    default:
        break;
    }
    return c->prog[0] != '\0';
}

int el_file_eventlog_name(const void *head, size_t len, char *buf, size_t size, int *had_l)
{
    cmdline c;
    if (len > EL_SNIFF_BYTES)
        len = EL_SNIFF_BYTES;
    *had_l = 0;
    if (!read_cmdline(el_file_kind_of(head, len), head, len, &c))
        return 0;
    *had_l = c.had_l;
    if (c.ol[0])
        snprintf(buf, size, "%s", c.ol);
    else
        snprintf(buf, size, "%s.eventlog", c.prog);
    return 1;
}

int el_not_eventlog_message(char *buf, size_t size, const void *head, size_t len)
{
    const char *h = head;
    if (len > EL_SNIFF_BYTES)
        len = EL_SNIFF_BYTES;
    el_file_kind k = el_file_kind_of(h, len);
    const char *what = el_file_kind_name(k);
    if (!what)
        return snprintf(buf, size, "not a GHC eventlog: bad magic 0x%08x (expected \"hdrb\")",
                        len >= 4 ? be32((const uint8_t *)h) : 0u);
    cmdline c;
    char log[300] = "PROG.eventlog";
    if (read_cmdline(k, h, len, &c))
        snprintf(log, sizeof log, "%s%s", c.ol[0] ? c.ol : c.prog,
                 c.ol[0] ? "" : ".eventlog");
    char advice[400];
    const char *flags = k == EL_FILE_PROF || k == EL_FILE_PROF_JSON ? "-p -l" :
                        k == EL_FILE_HP ? NULL : "-l";
    if (k == EL_FILE_EVPROF_REPORT)
        snprintf(advice, sizeof advice, "give evprof the eventlog it was made from");
    else if (c.had_l)
        snprintf(advice, sizeof advice, "the same run wrote its eventlog (its +RTS options "
                 "have -l): give evprof %s%s", log,
                 k == EL_FILE_TICKY ? " (evprof ticky and diff --ticky read this file too)" :
                 "");
    else if (k == EL_FILE_TICKY)
        snprintf(advice, sizeof advice, "evprof ticky and evprof diff --ticky read it; the "
                 "other commands want an eventlog: run the program with +RTS -l (-lT adds "
                 "the ticky counters, GHC 9.2 and later) and give evprof %s", log);
    else if (k == EL_FILE_HP && c.hflag[0])
        snprintf(advice, sizeof advice, "run the program with +RTS %s -l and give evprof "
                 "the eventlog it writes, %s", c.hflag, log);
    else if (k == EL_FILE_HP)
        snprintf(advice, sizeof advice, "run the program with +RTS -l and the -h option "
                 "it ran with, and give evprof the eventlog it writes, %s", log);
    else
        snprintf(advice, sizeof advice, "run the program with +RTS %s and give evprof the "
                 "eventlog it writes, %s%s", flags, log,
                 k == EL_FILE_RTS_STATS ? " ('evprof gc' makes this summary from it)" : "");
    return snprintf(buf, size, "this is %s, not an eventlog (no \"hdrb\" magic at byte 0): %s",
                    what, advice);
}
