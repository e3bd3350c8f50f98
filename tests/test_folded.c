/* Folded stacks: the frame-cleaning rules one by one, then every
 * time-profile log of the corpus and of tests/data/ghc: each line parses
 * for flamegraph.pl and speedscope, the counts add up to the report's
 * total, and each line's count is the individual ticks of the tree paths
 * that print as that line (built here independently from the tree). Then
 * synthetic logs for merging, the cut-stack frame, filters and write
 * errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "corpus.h"
#include "evprof/prof.h"
#include "evprof/writer.h"
#include "profiles.h"

/* ---- building --------------------------------------------------------- */

static char *folded_text(const prof_result *p, prof_frame_format fmt)
{
    prof_folded_opts o;
    prof_folded_opts_init(&o);
    o.frame = fmt;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    assert_int_equal(prof_report_folded(p, &o, out), 0);
    assert_int_equal(fclose(out), 0);
    return text;
}

/* ---- the frame rules -------------------------------------------------- */

static void frame_is(const char *label, const char *module, const char *src,
                     prof_frame_format fmt, const char *want)
{
    prof_cc cc = { 1, label, module, src, 0, 0, 1, 0 };
    char buf[256];
    size_t n = prof_folded_frame(&cc, fmt, buf, sizeof buf);
    assert_int_equal(n, strlen(want));
    assert_string_equal(buf, want);
}

static void test_frame_rules(void **state)
{
    (void)state;
    frame_is("fib", "Main", "a.hs:1:1", PROF_FRAME_NAME, "Main.fib");
    frame_is("fib", "Main", "a.hs:1:1", PROF_FRAME_LABEL, "fib");
    frame_is("fib", "Main", "a.hs:(1,1)-(2,9)", PROF_FRAME_SRC, "Main.fib (a.hs:(1,1)-(2,9))");
    /* built-ins by their label alone, whatever the format */
    frame_is("MAIN", "MAIN", "<built-in>", PROF_FRAME_NAME, "MAIN");
    frame_is("GC", "GC", "<built-in>", PROF_FRAME_SRC, "GC");
    /* ';' separates frames; control characters in their visible form */
    frame_is("semi;colon", "Main", "x", PROF_FRAME_NAME, "Main.semi:colon");
    frame_is("tab\there", "Main", "x", PROF_FRAME_NAME, "Main.tab\\there");
    frame_is("new\nline\r", "A;B", "x", PROF_FRAME_NAME, "A:B.new\\nline\\r");
    frame_is("del\x7f", "M", "x", PROF_FRAME_NAME, "M.del\\x7f");
    frame_is("esc\x1b[31m", "M", "x", PROF_FRAME_NAME, "M.esc\\x1b[31m");
    frame_is("bad\xff;", "M", "x", PROF_FRAME_NAME, "M.bad\xef\xbf\xbd:");
    /* no whitespace at the end or before a trailing number */
    frame_is("trailing_42", "Main", "x", PROF_FRAME_NAME, "Main.trailing_42");
    frame_is("foo 42", "Main", "x", PROF_FRAME_NAME, "Main.foo_42");
    frame_is("foo  1.5", "Main", "x", PROF_FRAME_NAME, "Main.foo__1.5");
    frame_is("x 12.", "M", "x", PROF_FRAME_NAME, "M.x_12.");
    frame_is("foo ", "M", "x", PROF_FRAME_NAME, "M.foo_");
    frame_is("a b", "M", "x", PROF_FRAME_NAME, "M.a b");
    frame_is("v .5", "M", "x", PROF_FRAME_NAME, "M.v .5");     /* ".5" is no number to it */
    frame_is("x 12a", "M", "x", PROF_FRAME_NAME, "M.x 12a");
    frame_is("7", "M", "x", PROF_FRAME_LABEL, "7");
    frame_is("f", "M", "a b 12", PROF_FRAME_SRC, "M.f (a b 12)");
    /* UTF-8 and quotes untouched */
    frame_is("λ-café", "Main", "x", PROF_FRAME_NAME, "Main.λ-café");
    frame_is("quote\"d", "Main", "x", PROF_FRAME_NAME, "Main.quote\"d");

    /* the cut marker (synthetic) by its label */
    prof_cc cut = { 9, "<stack cut at 255 frames>", "<evprof>", "<root frames lost>", 0, 0, 1, 1 };
    char small[8];
    assert_int_equal(prof_folded_frame(&cut, PROF_FRAME_SRC, small, sizeof small),
                     strlen("<stack cut at 255 frames>"));
    assert_string_equal(small, "<stack ");     /* cut to fit, like snprintf */
    assert_int_equal(prof_folded_frame(&cut, PROF_FRAME_NAME, NULL, 0), 25);

    prof_frame_format f;
    assert_int_equal(prof_frame_format_parse("src", &f), 0);
    assert_int_equal(f, PROF_FRAME_SRC);
    assert_int_equal(prof_frame_format_parse("label", &f), 0);
    assert_int_equal(f, PROF_FRAME_LABEL);
    assert_int_equal(prof_frame_format_parse("name", &f), 0);
    assert_int_equal(f, PROF_FRAME_NAME);
    assert_int_equal(prof_frame_format_parse("Name", &f), -1);
}

/* ---- lines ------------------------------------------------------------ */

typedef struct line {
    char *stack;
    uint64_t count;
} line;

static int cmp_line(const void *a, const void *b)
{
    return strcmp(((const line *)a)->stack, ((const line *)b)->stack);
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Splits folded text into lines, checking the format rules of
 * flamegraph.pl and speedscope on each. */
static line *parse_lines(const char *text, size_t *n)
{
    size_t cap = 16, count = 0;
    line *ls = malloc(cap * sizeof *ls);
    const char *s = text;
    assert_non_null(ls);
    while (*s) {
        const char *nl = strchr(s, '\n');
        if (!nl)
            fail_msg("last line without a newline: '%s'", s);
        size_t len = (size_t)(nl - s);
        /* speedscope: /^(.*) (\d+)$/ -- the count is the digits after the
         * last space, a plain integer */
        const char *sp = NULL;
        for (const char *q = s; q < nl; q++)
            if (*q == ' ')
                sp = q;
        if (!sp || sp == s || sp + 1 == nl)
            fail_msg("no ' COUNT' at the end: '%.*s'", (int)len, s);
        for (const char *q = sp + 1; q < nl; q++)
            if (!is_digit(*q))
                fail_msg("count not an integer: '%.*s'", (int)len, s);
        for (const char *q = s; q < nl; q++)
            if ((unsigned char)*q < 0x20 || *q == 0x7f)
                fail_msg("control character in '%.*s'", (int)len, s);
        /* flamegraph.pl takes a stack that still ends in whitespace and a
         * number for a differential line: the stack must not */
        const char *e = sp;
        while (e > s && is_digit(e[-1]))
            e--;
        if (e > s && e[-1] == '.') {
            const char *k = e - 1;
            while (k > s && is_digit(k[-1]))
                k--;
            if (k < e - 1)
                e = k;
        }
        if (e > s && (e[-1] == ' ' || e[-1] == '\t'))
            fail_msg("stack ends in whitespace (+number): '%.*s'", (int)len, s);
        /* no empty frames */
        if (s[0] == ';' || sp[-1] == ';')
            fail_msg("empty frame: '%.*s'", (int)len, s);
        for (const char *q = s; q + 1 < sp; q++)
            if (q[0] == ';' && q[1] == ';')
                fail_msg("empty frame: '%.*s'", (int)len, s);
        if (count == cap) {
            cap *= 2;
            ls = realloc(ls, cap * sizeof *ls);
            assert_non_null(ls);
        }
        ls[count].stack = strndup(s, (size_t)(sp - s));
        ls[count].count = strtoull(sp + 1, NULL, 10);
        assert_true(ls[count].count > 0);
        count++;
        s = nl + 1;
    }
    *n = count;
    return ls;
}

static void free_lines(line *ls, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(ls[i].stack);
    free(ls);
}

/* Namesakes by a sort of the whole table: cost centres of one module and
 * label at two places or more. */
static const prof_result *sort_p;

static int by_name(const void *a, const void *b)
{
    const prof_cc *x = prof_cc_at(sort_p, *(const uint32_t *)a),
                  *y = prof_cc_at(sort_p, *(const uint32_t *)b);
    int c = strcmp(x->module, y->module);
    return c ? c : strcmp(x->label, y->label);
}

static uint8_t *namesakes_of(const prof_result *p)
{
    size_t n = prof_num_ccs(p);
    uint32_t *ix = malloc((n + 1) * sizeof *ix);
    uint8_t *ns = calloc(n + 1, 1);
    assert_true(ix && ns);
    for (uint32_t i = 0; i < n; i++)
        ix[i] = i;
    sort_p = p;
    qsort(ix, n, sizeof *ix, by_name);
    for (size_t a = 0, b; a < n; a = b) {
        int mixed = 0;
        for (b = a + 1; b < n && by_name(&ix[a], &ix[b]) == 0; b++)
            mixed |= strcmp(prof_cc_at(p, ix[a])->srcloc, prof_cc_at(p, ix[b])->srcloc) != 0;
        for (size_t k = a; k < b; k++)
            ns[ix[k]] = (uint8_t)mixed;
    }
    free(ix);
    return ns;
}

/* What the output must be, built from the tree: every node with ticks,
 * its path's frames from its root (MAIN, or the cut marker without MAIN;
 * a namesake's `name` frame is its `src` one), paths that print alike
 * summed. */
static line *expected_lines(const prof_result *p, prof_frame_format fmt, size_t *n)
{
    size_t nn = prof_num_nodes(p), count = 0;
    line *ls = calloc(nn + 1, sizeof *ls);
    uint8_t *ns = namesakes_of(p);
    assert_non_null(ls);
    for (uint32_t i = 0; i < nn; i++) {
        const prof_node *nd = prof_node_at(p, i);
        if (!nd->ticks)
            continue;
        uint32_t chain[600];
        size_t depth = 0;
        for (uint32_t k = i; k != PROF_NONE; k = prof_node_at(p, k)->parent) {
            assert_true(depth < 600);
            chain[depth++] = k;
            const prof_node *kn = prof_node_at(p, k);
            if (kn->parent == 0 && prof_cc_at(p, kn->cc)->synthetic)
                break;          /* the cut marker is the root */
        }
        size_t len = 0, cap = 256;
        char *s = malloc(cap);
        assert_non_null(s);
        while (depth-- > 0) {
            char frame[1024];
            uint32_t ci = prof_node_at(p, chain[depth])->cc;
            const prof_cc *cc = prof_cc_at(p, ci);
            prof_frame_format ff = fmt == PROF_FRAME_NAME && ns[ci] ? PROF_FRAME_SRC : fmt;
            size_t fl = prof_folded_frame(cc, ff, frame, sizeof frame);
            assert_true(fl < sizeof frame);
            while (len + fl + 2 > cap)
                s = realloc(s, cap *= 2);
            if (len)
                s[len++] = ';';
            memcpy(s + len, frame, fl);
            len += fl;
        }
        s[len] = '\0';
        ls[count].stack = s;
        ls[count].count = nd->ticks;
        count++;
    }
    free(ns);
    qsort(ls, count, sizeof *ls, cmp_line);
    size_t out = 0;
    for (size_t i = 0; i < count; i++) {
        if (out && strcmp(ls[out - 1].stack, ls[i].stack) == 0) {
            ls[out - 1].count += ls[i].count;
            free(ls[i].stack);
            continue;
        }
        ls[out++] = ls[i];
    }
    *n = out;
    return ls;
}

/* The output against the tree; returns the sum of the counts. */
static uint64_t check_against_tree(const prof_result *p, prof_frame_format fmt, const char *what)
{
    char *text = folded_text(p, fmt);
    size_t n, m;
    line *got = parse_lines(text, &n);
    line *want = expected_lines(p, fmt, &m);
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += got[i].count;
    qsort(got, n, sizeof *got, cmp_line);
    for (size_t i = 0; i + 1 < n; i++)
        if (strcmp(got[i].stack, got[i + 1].stack) == 0)
            fail_msg("%s: stack printed twice: %s", what, got[i].stack);
    if (n != m)
        fail_msg("%s: %zu lines, the tree has %zu distinct stacks with ticks", what, n, m);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(got[i].stack, want[i].stack) != 0)
            fail_msg("%s: line '%s', expected '%s'", what, got[i].stack, want[i].stack);
        if (got[i].count != want[i].count)
            fail_msg("%s: %s: %llu, tree %llu", what, got[i].stack,
                     (unsigned long long)got[i].count, (unsigned long long)want[i].count);
    }
    free_lines(got, n);
    free_lines(want, m);
    free(text);
    return sum;
}

static void test_corpus_logs(void **state)
{
    (void)state;
    for (size_t i = 0; i < test_num_time_logs; i++)
        for (int all = 0; all <= 1; all++) {
            prof_filter f;
            prof_filter_init(&f);
            f.all = all;
            prof_result *p = test_profile_path(test_time_logs[i], &f);
            const prof_info *in = prof_get_info(p);
            assert_true(in->total_ticks > 0);
            for (int fmt = PROF_FRAME_NAME; fmt <= PROF_FRAME_SRC; fmt++) {
                uint64_t sum = check_against_tree(p, (prof_frame_format)fmt, test_time_logs[i]);
                if (sum != in->total_ticks)
                    fail_msg("%s (all=%d): folded counts add up to %llu, report says %llu",
                             test_time_logs[i], all, (unsigned long long)sum,
                             (unsigned long long)in->total_ticks);
            }
            prof_result_destroy(p);
        }
}

/* The odd names, and the chain past GHC's 255 frames. */
static void test_odd_names_and_cut(void **state)
{
    (void)state;
    prof_result *p = test_profile_path(GHC_DATA "/odd-p.eventlog", NULL);
    char *text = folded_text(p, PROF_FRAME_NAME);
    assert_non_null(strstr(text, "MAIN;Main.CAF;Main.main;Main.semi:colon;Helpers.churn 43\n"));
    assert_non_null(strstr(text, ";Main.tab\\there;"));
    assert_non_null(strstr(text, ";Main.quote\"d;"));
    assert_non_null(strstr(text, ";Main.back\\slash;"));
    assert_non_null(strstr(text, ";Main.λ-café;"));
    assert_non_null(strstr(text, ";Main.trailing_42;Helpers.churn "));
    free(text);
    prof_result_destroy(p);

    p = test_profile_path(GHC_DATA "/chain-p.eventlog", NULL);
    text = folded_text(p, PROF_FRAME_NAME);
    size_t n;
    line *ls = parse_lines(text, &n);
    size_t cut = 0;
    for (size_t i = 0; i < n; i++) {
        if (strncmp(ls[i].stack, "<stack cut at 255 frames>;", 26) != 0)
            continue;
        cut++;
        size_t frames = 1;
        for (const char *q = ls[i].stack; *q; q++)
            frames += *q == ';';
        assert_int_equal(frames, 256);         /* the marker + GHC's 255 */
        assert_null(strstr(ls[i].stack, "MAIN"));
    }
    assert_true(cut > 0);
    free_lines(ls, n);
    free(text);
    prof_result_destroy(p);
}

/* ---- synthetic logs --------------------------------------------------- */

static uint8_t *finish_log(el_writer *w, size_t *len)
{
    assert_int_equal(el_writer_finish(w), EV_OK);
    const uint8_t *bytes = el_writer_borrow_bytes(w, len);
    uint8_t *copy = malloc(*len);
    assert_non_null(copy);
    memcpy(copy, bytes, *len);
    el_writer_destroy(w);
    return copy;
}

/* Two SCCs with the same label and module (different places:
 * namesakes), and two labels that cleaning makes alike ("a;b" and
 * "a:b"): the namesakes' frames name their places, so their stacks stay
 * apart (but for `label`); the others' stacks print alike and are one
 * line, whose count is the sum. */
static void test_merged_stacks(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    assert_non_null(w);
    el_writer_declare_ghc(w, EL_GHC_9_0);
    el_writer_cost_centre(w, 0, 1, "MAIN", "MAIN", "<built-in>", 0);
    el_writer_cost_centre(w, 0, 2, "go", "Main", "a.hs:1:1", 0);
    el_writer_cost_centre(w, 0, 3, "go", "Main", "a.hs:9:1", 0);
    el_writer_cost_centre(w, 0, 4, "a;b", "Main", "a.hs:3:1", 0);
    el_writer_cost_centre(w, 0, 5, "a:b", "Main", "a.hs:4:1", 0);
    el_writer_cost_centre(w, 0, 6, "leaf", "Main", "a.hs:5:1", 0);
    el_writer_prof_begin(w, 0, 1000000);
    static const struct { uint8_t depth; uint32_t stack[3]; unsigned times; } samples[] = {
        { 1, { 2 }, 3 },            /* MAIN/go@1 */
        { 1, { 3 }, 4 },            /* MAIN/go@9 */
        { 2, { 6, 2 }, 5 },         /* MAIN/go@1/leaf */
        { 2, { 6, 3 }, 6 },         /* MAIN/go@9/leaf */
        { 1, { 4 }, 7 },            /* MAIN/a;b */
        { 1, { 5 }, 8 },            /* MAIN/a:b */
    };
    uint64_t t = 10;
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++)
        for (unsigned k = 0; k < samples[i].times; k++, t += 1000)
            el_writer_prof_sample(w, t, 0, t, samples[i].depth, samples[i].stack);
    size_t len;
    uint8_t *buf = finish_log(w, &len);
    prof_result *p = test_profile_mem(buf, len, NULL);

    char *text = folded_text(p, PROF_FRAME_NAME);
    /* tree order: go@9 (10 ticks), a:b (8), go@1 (8), a;b (7); the first
     * of each printed stack collects the others */
    assert_string_equal(text, "MAIN;Main.go (a.hs:9:1) 4\n"
                              "MAIN;Main.go (a.hs:9:1);Main.leaf 6\n"
                              "MAIN;Main.a:b 15\n"
                              "MAIN;Main.go (a.hs:1:1) 3\n"
                              "MAIN;Main.go (a.hs:1:1);Main.leaf 5\n");
    free(text);
    check_against_tree(p, PROF_FRAME_NAME, "merged");
    /* by label alone, as asked: the namesakes are one frame */
    text = folded_text(p, PROF_FRAME_LABEL);
    assert_string_equal(text, "MAIN;go 7\n"
                              "MAIN;go;leaf 11\n"
                              "MAIN;a:b 15\n");
    free(text);
    check_against_tree(p, PROF_FRAME_LABEL, "merged, label");
    /* with the source location the stacks differ again */
    check_against_tree(p, PROF_FRAME_SRC, "merged, src");
    text = folded_text(p, PROF_FRAME_SRC);
    assert_non_null(strstr(text, "MAIN;Main.go (a.hs:9:1);Main.leaf (a.hs:5:1) 6\n"));
    assert_non_null(strstr(text, "MAIN;Main.a:b (a.hs:3:1) 7\n"));
    assert_non_null(strstr(text, "MAIN;Main.a:b (a.hs:4:1) 8\n"));
    free(text);
    prof_result_destroy(p);
    free(buf);
}

/* Frame texts are made for the cost centres in the tree only, into a
 * block that grows: a label longer than the block first made (20 000
 * bytes), a cost centre never sampled whose name one in the tree has
 * (it merges nothing, but makes that one a namesake: which cost centres
 * are is the log's, not the window's), and a thousand never sampled. */
static void test_long_and_unused_frames(void **state)
{
    (void)state;
    enum { LONG = 20000 };
    el_writer *w = el_writer_create_mem();
    assert_non_null(w);
    el_writer_declare_ghc(w, EL_GHC_9_0);
    el_writer_cost_centre(w, 0, 1, "MAIN", "MAIN", "<built-in>", 0);
    el_writer_cost_centre(w, 0, 2, "go", "Main", "a.hs:1:1", 0);
    el_writer_cost_centre(w, 0, 3, "go", "Main", "a.hs:9:1", 0);      /* never sampled */
    char *label = malloc(LONG + 1);
    assert_non_null(label);
    for (size_t i = 0; i < LONG; i++)
        label[i] = (char)('a' + i % 26);
    label[LONG] = '\0';
    el_writer_cost_centre(w, 0, 4, label, "Main", "a.hs:2:1", 0);
    char name[16];
    for (uint32_t i = 0; i < 1000; i++) {
        snprintf(name, sizeof name, "unused%u", i);
        el_writer_cost_centre(w, 0, 100 + i, name, "Main", "a.hs:3:1", 0);
    }
    el_writer_prof_begin(w, 0, 1000000);
    uint32_t go[1] = { 2 }, deep[2] = { 4, 2 };
    uint64_t t = 10;
    for (unsigned k = 0; k < 3; k++, t += 1000)
        el_writer_prof_sample(w, t, 0, t, 1, go);
    for (unsigned k = 0; k < 2; k++, t += 1000)
        el_writer_prof_sample(w, t, 0, t, 2, deep);
    size_t len;
    uint8_t *buf = finish_log(w, &len);
    prof_result *p = test_profile_mem(buf, len, NULL);
    char *text = folded_text(p, PROF_FRAME_NAME);
    const char *go_at1 = "MAIN;Main.go (a.hs:1:1)";
    size_t want_len = 2 * strlen(go_at1) + strlen(" 3\n;Main.") + LONG + strlen(" 2\n");
    char *want = malloc(want_len + 1);
    assert_non_null(want);
    snprintf(want, want_len + 1, "%s 3\n%s;Main.%s 2\n", go_at1, go_at1, label);
    assert_string_equal(text, want);
    free(want);
    free(text);
    prof_result_destroy(p);
    free(buf);
    free(label);
}

/* A stack of exactly 255 frames (GHC's cap) starts at the marker. */
static void test_cut_marker_synthetic(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    assert_non_null(w);
    el_writer_declare_ghc(w, EL_GHC_9_0);
    el_writer_cost_centre(w, 0, 1, "MAIN", "MAIN", "<built-in>", 0);
    char label[16];
    for (uint32_t id = 2; id <= 300; id++) {
        snprintf(label, sizeof label, "c%u", id);
        el_writer_cost_centre(w, 0, id, label, "Chain", "c.hs:1:1", 0);
    }
    uint32_t stack[255];
    for (int i = 0; i < 255; i++)
        stack[i] = (uint32_t)(300 - i);         /* innermost first: c300 ... c46 */
    el_writer_prof_sample(w, 10, 0, 1, 255, stack);
    el_writer_prof_sample(w, 20, 0, 2, 255, stack);
    el_writer_prof_sample(w, 30, 0, 3, 2, stack + 253);     /* c47, c46 under MAIN */
    size_t len;
    uint8_t *buf = finish_log(w, &len);
    prof_result *p = test_profile_mem(buf, len, NULL);
    char *text = folded_text(p, PROF_FRAME_NAME);
    assert_true(strncmp(text, "<stack cut at 255 frames>;Chain.c46;Chain.c47;", 46) == 0);
    assert_non_null(strstr(text, ";Chain.c299;Chain.c300 2\nMAIN;Chain.c46;Chain.c47 1\n"));
    check_against_tree(p, PROF_FRAME_NAME, "cut");
    free(text);
    prof_result_destroy(p);
    free(buf);
}

/* The shared filters reach the folded output (window, capability,
 * built-ins), and a failing stream is reported. */
static void test_filters_and_errors(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    assert_non_null(w);
    el_writer_declare_ghc(w, EL_GHC_9_0);
    el_writer_cost_centre(w, 0, 1, "MAIN", "MAIN", "<built-in>", 0);
    el_writer_cost_centre(w, 0, 2, "GC", "GC", "<built-in>", 0);
    el_writer_cost_centre(w, 0, 3, "f", "Main", "a.hs:1:1", 0);
    el_writer_cost_centre(w, 0, 4, "g", "Main", "a.hs:2:1", 0);
    el_writer_prof_begin(w, 0, 1000000);
    const uint32_t f[] = { 3 }, gf[] = { 4, 3 }, gc[] = { 2 };
    for (uint64_t t = 0; t < 100; t++) {
        uint64_t ns = 1000000 * (t + 1);
        el_writer_prof_sample(w, ns, 0, t, t < 50 ? 1 : 2, t < 50 ? f : gf);
        el_writer_prof_sample(w, ns, 1, t, 1, t % 10 == 0 ? gc : f);
    }
    size_t len;
    uint8_t *buf = finish_log(w, &len);

    prof_filter fl;
    prof_filter_init(&fl);
    prof_result *p = test_profile_mem(buf, len, &fl);
    char *text = folded_text(p, PROF_FRAME_NAME);
    assert_string_equal(text, "MAIN;Main.f 140\nMAIN;Main.f;Main.g 50\n");
    free(text);
    prof_result_destroy(p);

    fl.all = 1;
    p = test_profile_mem(buf, len, &fl);
    text = folded_text(p, PROF_FRAME_NAME);
    assert_string_equal(text, "MAIN;Main.f 140\nMAIN;Main.f;Main.g 50\nMAIN;GC 10\n");
    free(text);
    prof_result_destroy(p);

    prof_filter_init(&fl);
    /* samples at 41..60 ms: t = 40..59 */
    ev_select *sel = test_window(41 * 1000000ull, 61 * 1000000ull, 0);
    p = test_profile_mem_sel(buf, len, &fl, sel);
    ev_select_destroy(sel);
    text = folded_text(p, PROF_FRAME_NAME);
    assert_string_equal(text, "MAIN;Main.f 10\nMAIN;Main.f;Main.g 10\n");
    free(text);

    /* an unbuffered stream that fails: -1 */
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        setvbuf(full, NULL, _IONBF, 0);
        assert_int_equal(prof_report_folded(p, NULL, full), -1);
        fclose(full);
    }
    prof_result_destroy(p);

    /* an empty window: no lines at all */
    prof_filter_init(&fl);
    sel = test_window(1000 * 1000000000ull, UINT64_MAX, -1);
    p = test_profile_mem_sel(buf, len, &fl, sel);
    ev_select_destroy(sel);
    text = folded_text(p, PROF_FRAME_NAME);
    assert_string_equal(text, "");
    free(text);
    prof_result_destroy(p);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frame_rules),
        cmocka_unit_test(test_corpus_logs),
        cmocka_unit_test(test_odd_names_and_cut),
        cmocka_unit_test(test_merged_stacks),
        cmocka_unit_test(test_long_and_unused_frames),
        cmocka_unit_test(test_cut_marker_synthetic),
        cmocka_unit_test(test_filters_and_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
