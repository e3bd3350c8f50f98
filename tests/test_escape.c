/* Log text shown to people (include/evprof/textout.h): the visible form of
 * tx_vis/tx_put/tx_vis_width, the JSON and CSV writers on hostile bytes,
 * and the hostile logs that tests/cli/escape.sh runs every command on.
 *
 * tests/data/escape/ (its two logs) is made by this file (hostile_log,
 * longband_log): `EVPROF_REGEN=1 build/tests/test_escape` (from the project
 * root) writes them again; otherwise the test checks that the files in the
 * repository are what this code makes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evprof/heap.h"
#include "evprof/textout.h"
#include "evprof/writer.h"

#define ESC_DATA "tests/data/escape"

/* ---- the visible form ------------------------------------------------- */

static void vis_is(const char *in, size_t len, const char *want, size_t want_width)
{
    char buf[256];
    size_t n = tx_vis(buf, sizeof buf, in, len);
    assert_int_equal(n, strlen(want));
    assert_string_equal(buf, want);
    assert_int_equal(tx_vis_width(in, len), want_width);

    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    tx_put(out, in, len);
    assert_int_equal(fclose(out), 0);
    assert_int_equal(size, strlen(want));
    assert_memory_equal(text, want, size);
    free(text);
}

#define VIS(lit, want, width) vis_is(lit, sizeof lit - 1, want, width)

static void test_visible_form(void **state)
{
    (void)state;
    VIS("plain name", "plain name", 10);
    VIS("", "", 0);
    /* UTF-8 kept, one column a code point */
    VIS("\xce\xbb-caf\xc3\xa9", "\xce\xbb-caf\xc3\xa9", 6);
    VIS("\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80", 1);
    /* backslash and quotes as they are (GHC's `\\` operator) */
    VIS("Data.List.\\\\ \"q\"", "Data.List.\\\\ \"q\"", 16);
    /* line breaks and tab in C's form, the escape is as wide as it shows */
    VIS("a\nb\rc\td", "a\\nb\\rc\\td", 10);
    /* the other C0 bytes, DEL, NUL: \xNN */
    VIS("\x1b[31mred", "\\x1b[31mred", 11);
    VIS("bell\a", "bell\\x07", 8);
    VIS("\x7f", "\\x7f", 4);
    VIS("a\0b", "a\\x00b", 6);
    /* C1 controls (valid UTF-8 U+0080..U+009F): by their code */
    VIS("\xc2\x9b" "2J", "\\x9b2J", 6);
    VIS("\xc2\x85", "\\x85", 4);
    VIS("\xc2\xa0", "\xc2\xa0", 1);             /* U+00A0 is no control */
    /* bytes that are not UTF-8: one U+FFFD each */
    VIS("\xff", "\xef\xbf\xbd", 1);
    VIS("a\xc3(", "a\xef\xbf\xbd(", 3);           /* cut sequence */
    VIS("\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd", 2);   /* overlong '/' */
    VIS("\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", 3);   /* surrogate */
    VIS("\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", 4);
    /* the visible form of a visible form is itself (nothing to escape) */
    VIS("a\\nb\\x1b\xef\xbf\xbd", "a\\nb\\x1b\xef\xbf\xbd", 9);
}

static void test_vis_cut_like_snprintf(void **state)
{
    (void)state;
    char small[6];
    assert_int_equal(tx_vis(small, sizeof small, "ab\x1b" "cd", 5), 8);
    assert_string_equal(small, "ab\\x1");
    assert_int_equal(tx_vis(NULL, 0, "\n\n", 2), 4);
    char one[1] = { 'x' };
    assert_int_equal(tx_vis(one, 1, "abc", 3), 3);
    assert_int_equal(one[0], '\0');
}

/* Text in messages (tx_vis_short, tx_put_short): at most the width in
 * code points, an ellipsis last when cut, never inside a UTF-8 sequence
 * or an escape. */
static void test_short_for_messages(void **state)
{
    (void)state;
    char buf[TX_SHORT_BYTES];
    /* short enough: the visible form, whole */
    assert_int_equal(tx_vis_short(buf, sizeof buf, "ab\x1b" "c", 4, 8), 7);
    assert_string_equal(buf, "ab\\x1bc");
    assert_int_equal(tx_vis_short(buf, sizeof buf, "abcdefgh", 8, 8), 8);
    assert_string_equal(buf, "abcdefgh");
    /* one more: 7 of them and the ellipsis */
    assert_int_equal(tx_vis_short(buf, sizeof buf, "abcdefghi", 9, 8), 10);
    assert_string_equal(buf, "abcdefg\xe2\x80\xa6");
    /* an escape (4 code points) is not cut: it goes whole or not at all */
    tx_vis_short(buf, sizeof buf, "abcde\x1b" "fgh", 9, 8);
    assert_string_equal(buf, "abcde\xe2\x80\xa6");
    /* nor a UTF-8 sequence (one code point): e-acute stays whole */
    tx_vis_short(buf, sizeof buf, "abcdef\xc3\xa9gh", 10, 8);
    assert_string_equal(buf, "abcdef\xc3\xa9\xe2\x80\xa6");
    /* a 30 KB label in messages: TX_SHORT_WIDTH code points */
    size_t n = 30000;
    char *label = malloc(n);
    assert_non_null(label);
    for (size_t i = 0; i < n; i++)
        label[i] = (char)(i % 7 == 3 ? '\n' : 'a' + i % 26);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    tx_put_short(out, label, n);
    assert_int_equal(fclose(out), 0);
    assert_int_equal(tx_vis_width(text, size), TX_SHORT_WIDTH);
    assert_true(size <= TX_SHORT_BYTES);
    assert_non_null(strstr(text, "\xe2\x80\xa6"));
    assert_null(strchr(text, '\n'));
    free(text);
    free(label);
}

static char *capture_pad(const char *s, size_t width)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    tx_pad(out, s, width);
    assert_int_equal(fclose(out), 0);
    return text;
}

static void test_pad_by_visible_width(void **state)
{
    (void)state;
    assert_int_equal(tx_width("tab\there"), 9);
    char *t = capture_pad("tab\there", 12);
    assert_string_equal(t, "tab\\there   ");
    free(t);
    t = capture_pad("\xce\xbb\xff", 4);
    assert_string_equal(t, "\xce\xbb\xef\xbf\xbd  ");
    free(t);
    t = capture_pad("longer than", 3);
    assert_string_equal(t, "longer than");
    free(t);
}

/* ---- JSON and CSV ----------------------------------------------------- */

static char *capture_json(const char *s, size_t len)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    tx_json_str(out, s, len);
    assert_int_equal(fclose(out), 0);
    return text;
}

static char *capture_csv(const char *s, size_t len)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    tx_csv_str(out, s, len);
    assert_int_equal(fclose(out), 0);
    return text;
}

static void test_json_and_csv(void **state)
{
    (void)state;
    static const char hostile[] = "a\x1b[2J\r\n\t\a\x7f\xc2\x9b\"\\</script>\xff\xce\xbb";
    char *j = capture_json(hostile, sizeof hostile - 1);
    assert_string_equal(j, "\"a\\u001b[2J\\r\\n\\t\\u0007\\u007f\\u009b\\\"\\\\</script>"
                           "\\ufffd\xce\xbb\"");
    free(j);
    /* CSV: the visible form, quoted for a comma or a quote: one record a line */
    char *c = capture_csv(hostile, sizeof hostile - 1);
    assert_string_equal(c, "\"a\\x1b[2J\\r\\n\\t\\x07\\x7f\\x9b\"\"\\</script>\xef\xbf\xbd"
                           "\xce\xbb\"");
    free(c);
    c = capture_csv("x\ny", 3);
    assert_string_equal(c, "x\\ny");
    free(c);
    c = capture_csv("a,b", 3);
    assert_string_equal(c, "\"a,b\"");
    free(c);
}

/* ---- the hostile logs --------------------------------------------------- */

#define MS 1000000ull

/* Strings that try everything: terminal escapes, line breaks, BEL, tab,
 * markup, quotes, bytes that are not UTF-8, C1 controls. */
static const char *const nasty[] = {
    "esc\x1b[31mred\x1b[0m",
    "new\nline",
    "car\rriage",
    "bell\a",
    "tab\there",
    "</script><b>\"q\"&'",
    "bad\xff\xfe utf8",
    "cut\xce",
    "c1\xc2\x9b" "2J",
    "del\x7f;semi",
};
#define N_NASTY (sizeof nasty / sizeof nasty[0])

static void write_or_check(const char *path, const uint8_t *bytes, size_t len)
{
    if (getenv("EVPROF_REGEN")) {
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(bytes, 1, len, f), len);
        assert_int_equal(fclose(f), 0);
        return;
    }
    FILE *f = fopen(path, "rb");
    if (!f)
        fail_msg("%s: missing (EVPROF_REGEN=1 build/tests/test_escape writes it)", path);
    uint8_t *have = malloc(len + 1);
    assert_non_null(have);
    size_t n = fread(have, 1, len + 1, f);
    fclose(f);
    if (n != len || memcmp(have, bytes, len) != 0)
        fail_msg("%s: not what tests/test_escape.c makes (EVPROF_REGEN=1 to write it)", path);
    free(have);
}

/* A -p -hd -l run with ticky counters whose every string is hostile:
 * program name and arguments, RTS identifier, cost-centre labels, modules
 * and source locations, heap band strings, ticky names and kinds. */
static void test_hostile_log(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    assert_non_null(w);
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_2), EV_OK);
    const char *argv[] = { "/bin/pr\x1bog\n", "arg\x1b]0;title\a", "two words\r", "\xff",
                           "+RTS", "-p", "-hd", "-l", "-RTS" };
    el_writer_rts_identifier(w, 1, 0, "GHC-9.2.8 rts_p\x1b[2J\n");
    el_writer_program_args(w, 2, 0, (int)(sizeof argv / sizeof argv[0]), argv);
    el_writer_wall_clock(w, 3, 0, 1700000000, 0);
    el_writer_cap_create(w, 4, 0);
    el_writer_prof_begin(w, 5, 20 * MS);
    el_writer_heap_prof_begin(w, 6, 0, 100 * MS, HEAP_BY_CLOSURE_DESCR, NULL);
    el_writer_cost_centre(w, 7, 1, "MAIN", "MAIN", "<built-in>", 0);
    el_writer_cost_centre(w, 7, 2, "main", "Main", "Main.hs:1:1", 0);
    for (uint32_t i = 0; i < N_NASTY; i++)
        el_writer_cost_centre(w, 8, 10 + i, nasty[i], nasty[(i + 1) % N_NASTY],
                              nasty[(i + 2) % N_NASTY], 0);

    el_writer_ticky_begin(w, 9);
    uint64_t t = 10 * MS;
    for (int round = 0; round < 3; round++) {
        /* time samples: MAIN/main/nasty[i], and one deeper stack */
        for (uint32_t i = 0; i < N_NASTY; i++) {
            uint32_t stack[] = { 10 + i, 2, 1 };
            el_writer_prof_sample(w, t, 0, 1 + i, 3, stack);
            t += MS;
        }
        uint32_t deep[] = { 10, 11, 12, 2, 1 };
        el_writer_prof_sample(w, t++, 0, 5, 5, deep);
        /* a heap census of hostile strings */
        el_writer_heap_sample_begin(w, t++, (uint64_t)round);
        for (uint32_t i = 0; i < N_NASTY; i++)
            el_writer_heap_sample_string(w, t++, 0, 1000 * (i + 1), nasty[i]);
        el_writer_heap_sample_end(w, t++, (uint64_t)round);
        /* ticky samples */
        for (uint32_t i = 0; i < N_NASTY; i++)
            el_writer_ticky_sample(w, t++, 100 + i, 10 + i, 100 * (i + 1), 8 * i);
        t += 50 * MS;
    }
    for (uint32_t i = 0; i < N_NASTY; i++)
        el_writer_ticky_def(w, t++, EL_TICKY_DEF_BASIC, 100 + i, 2, nasty[(i + 3) % N_NASTY],
                            nasty[i], 0, NULL);
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);
    write_or_check(ESC_DATA "/hostile.eventlog", bytes, len);
    el_writer_destroy(w);
}

/* A -hc run whose cost-centre stacks are far longer than GHC's default -L
 * of 25 bytes: the heap summary must show them whole. */
static void test_longband_log(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    assert_non_null(w);
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_2), EV_OK);
    const char *argv[] = { "longband", "+RTS", "-hc", "-l", "-RTS" };
    el_writer_program_args(w, 1, 0, 5, argv);
    el_writer_heap_prof_begin(w, 2, 0, 100 * MS, HEAP_BY_COST_CENTRE, NULL);
    el_writer_cost_centre(w, 3, 1, "main", "Main", "Main.hs:1:1", 0);
    el_writer_cost_centre(w, 3, 2, "a_label_of_forty_bytes_for_the_summary__", "Main", "x", 0);
    el_writer_cost_centre(w, 3, 3, "short", "Main", "x", 0);
    for (uint64_t c = 0; c < 3; c++) {
        uint64_t t = (c + 1) * 100 * MS;
        static const uint32_t s_long[] = { 2, 1 }, s_short[] = { 3, 1 };
        el_writer_heap_sample_begin(w, t, c);
        el_writer_heap_sample_cc(w, t + 1, 0, 4000 + c, 2, s_long);
        el_writer_heap_sample_cc(w, t + 2, 0, 2000, 2, s_short);
        el_writer_heap_sample_end(w, t + 3, c);
    }
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);
    write_or_check(ESC_DATA "/longband.eventlog", bytes, len);
    el_writer_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_visible_form),
        cmocka_unit_test(test_vis_cut_like_snprintf),
        cmocka_unit_test(test_short_for_messages),
        cmocka_unit_test(test_pad_by_visible_width),
        cmocka_unit_test(test_json_and_csv),
        cmocka_unit_test(test_hostile_log),
        cmocka_unit_test(test_longband_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
