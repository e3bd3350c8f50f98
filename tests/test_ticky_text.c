/* GHC's +RTS -r text (ticky/text.c): the counters read from real GHC 9.0.2
 * and 9.6.6 files equal the file's own table, read here a second way by
 * its fixed columns; numbers that overflow their columns; garbled lines
 * named by line number; evprof's own table read back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "corpus.h"
#include "evprof/ticky.h"

#define DATA "tests/data/ticky"
#define NFIB CORPUS_DIR "/ghc-9.0.2/nfib.ticky"

typedef struct fixed_row {
    uint64_t e, a, d;
    unsigned arity;
    char kinds[64];
    char name[512];
} fixed_row;

/* GHC's columns: "%11d%11d%11d %3lu %-20.20s %s" up to 9.4, "%11d%12d%12d
 * %3lu %-60.60s %s" from 9.6 (rts/Ticky.c) */
typedef struct fixed_layout {
    size_t a, d, k;             /* Alloc's and Alloc'd's widths, the kinds' */
} fixed_layout;
static const fixed_layout ghc90 = { 11, 11, 20 }, ghc96 = { 12, 12, 60 };

/* The table by GHC's columns: a reading that knows nothing of
 * ticky/text.c (and needs every number to fit). */
static size_t fixed_columns(const char *path, const fixed_layout *lay, fixed_row *rows,
                            size_t max)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    char line[1024];
    int in = 0;
    size_t n = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        if (!in) {
            if (strstr(line, "Entries") && strstr(line, "STG Name")) {
                assert_non_null(fgets(line, sizeof line, f));
                assert_int_equal(strncmp(line, "-----", 5), 0);
                in = 1;
            }
            continue;
        }
        if (line[0] == '\0')
            break;
        size_t num = 11 + lay->a + lay->d, name_at = num + 5 + lay->k + 1;
        assert_true(n < max && strlen(line) >= name_at);
        fixed_row *r = &rows[n++];
        char col[32];
        memcpy(col, line, 11), col[11] = '\0';
        r->e = strtoull(col, NULL, 10);
        memcpy(col, line + 11, lay->a), col[lay->a] = '\0';
        r->a = strtoull(col, NULL, 10);
        memcpy(col, line + 11 + lay->a, lay->d), col[lay->d] = '\0';
        r->d = strtoull(col, NULL, 10);
        memcpy(col, line + num + 1, 3), col[3] = '\0';
        r->arity = (unsigned)strtoul(col, NULL, 10);
        memcpy(r->kinds, line + num + 5, lay->k);
        size_t k = lay->k;
        while (k > 0 && r->kinds[k - 1] == ' ')
            k--;
        r->kinds[k] = '\0';
        size_t nl = strlen(line + name_at);
        if (nl >= sizeof r->name)
            nl = sizeof r->name - 1;
        memcpy(r->name, line + name_at, nl);
        r->name[nl] = '\0';
    }
    fclose(f);
    assert_true(in);
    return n;
}

static int str_eq(const char *a, size_t an, const char *b)
{
    return an == strlen(b) && memcmp(a, b, an) == 0;
}

static ticky_set *read_path(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    ticky_set *t = ticky_create();
    ev_error err;
    ev_status st = ticky_read_text(t, f, &err);
    if (st != EV_OK)
        fail_msg("%s: line %llu: %s", path, (unsigned long long)err.line, err.msg);
    fclose(f);
    assert_int_equal(ticky_finish(t), 0);
    return t;
}

static ticky_set *read_mem(const char *buf, size_t len, ev_status want,
                           ev_error *err)
{
    ticky_set *t = ticky_create();
    assert_int_equal(ticky_read_text_mem(t, buf, len, err), want);
    assert_int_equal(ticky_finish(t), 0);
    return t;
}

static char *slurp(const char *path, size_t *len)
{
    char *b = (char *)test_read_file(path, len);
    assert_non_null(b);
    return b;
}

static void check_against_columns(const char *path, const fixed_layout *lay, size_t want_rows)
{
    fixed_row *rows = calloc(256, sizeof *rows);
    size_t n = fixed_columns(path, lay, rows, 256);
    assert_int_equal(n, want_rows);
    ticky_set *t = read_path(path);
    const ticky_info *in = ticky_get_info(t);
    assert_int_equal(in->source, TICKY_FROM_TEXT);
    assert_int_equal(ticky_num_counters(t), n);
    assert_int_equal(in->undefined, 0);
    assert_false(in->text_unterminated);
    uint64_t te = 0, ta = 0, td = 0;
    for (size_t i = 0; i < n; i++) {
        const ticky_counter *c = ticky_counter_at(t, i);   /* the file's order */
        assert_int_equal(c->entries, rows[i].e);
        assert_int_equal(c->alloc, rows[i].a);
        assert_int_equal(c->allocd, rows[i].d);
        assert_int_equal(c->arity, rows[i].arity);
        assert_true(str_eq(c->kinds, c->kinds_len, rows[i].kinds));
        assert_true(str_eq(c->args, c->args_len, rows[i].kinds));
        assert_true(str_eq(c->name, c->name_len, rows[i].name));
        assert_false(c->has_id);
        assert_true(c->defined);
        te += rows[i].e;
        ta += rows[i].a;
        td += rows[i].d;
    }
    ticky_view_opts vo;
    ticky_view_opts_init(&vo);
    ticky_view v;
    assert_int_equal(ticky_view_build(t, &vo, &v), 0);
    assert_int_equal(v.entries, te);
    assert_int_equal(v.alloc, ta);
    assert_int_equal(v.allocd, td);
    ticky_view_free(&v);
    ticky_destroy(t);
    free(rows);
}

static void test_nfib(void **state)
{
    (void)state;
    check_against_columns(NFIB, &ghc90, 6);
    /* and a few numbers as the file prints them */
    ticky_set *t = read_path(NFIB);
    const ticky_counter *c = ticky_counter_at(t, 0);
    assert_int_equal(c->entries, 4610425);
    assert_int_equal(c->alloc, 25600000);
    assert_true(str_eq(c->kinds, c->kinds_len, ">i.M"));
    assert_true(str_eq(c->name, c->name_len, "Main.$w$sgo8{v r371} (fun)"));
    c = ticky_counter_at(t, 5);
    assert_true(str_eq(c->name, c->name_len, ":Main.main{v 01D} (fun)"));
    assert_int_equal(c->kinds_len, 0);
    ticky_destroy(t);
}

static void test_own_ghc_runs(void **state)
{
    (void)state;
    check_against_columns(DATA "/collatz.ticky", &ghc90, 11);
    check_against_columns(DATA "/wide.ticky", &ghc90, 18);
    ticky_set *t = read_path(DATA "/collatz.ticky");
    int allocd = 0;
    for (size_t i = 0; i < ticky_num_counters(t); i++)
        allocd += ticky_counter_at(t, i)->allocd != 0;
    assert_int_equal(allocd, 2);            /* -ticky-allocd */
    ticky_destroy(t);
    t = read_path(DATA "/wide.ticky");
    const ticky_counter *c = ticky_counter_at(t, 13);
    assert_int_equal(c->arity, 23);         /* kinds cut at 20 columns, as GHC prints them */
    assert_true(str_eq(c->kinds, c->kinds_len, "idiidiidiidiidiidiid"));
    ticky_destroy(t);
}

/* GHC 9.10.3 writes 9.6's layout: its Collatz table by the columns. */
static void test_ghc910_layout(void **state)
{
    (void)state;
    check_against_columns("tests/data/ghc-9.10/collatz-r.ticky", &ghc96, 10);
    ticky_set *t = read_path("tests/data/ghc-9.10/collatz-r.ticky");
    const ticky_counter *c = ticky_counter_at(t, 0);
    assert_int_equal(c->entries, 108894);
    assert_int_equal(c->alloc, 7712384);
    assert_true(str_eq(c->name, c->name_len, "$wdigits{v r2Te} (Main) (fun)"));
    ticky_destroy(t);
}

/* GHC 9.6's wider table ("%11d%12d%12d %3lu %-60.60s %s"): the names
 * without the kinds' padding, kinds of more than 20 columns whole, a
 * 12-digit number touching the column before. */
static void test_ghc96_layout(void **state)
{
    (void)state;
    check_against_columns("tests/data/ghc-9.6/collatz-r.ticky", &ghc96, 10);
    ticky_set *t = read_path("tests/data/ghc-9.6/collatz-r.ticky");
    const ticky_counter *c = ticky_counter_at(t, 0);
    assert_int_equal(c->entries, 108894);
    assert_int_equal(c->alloc, 7712384);
    assert_true(str_eq(c->kinds, c->kinds_len, "i"));
    assert_true(str_eq(c->name, c->name_len, "$wdigits{v r2QA} (Main) (fun)"));
    ticky_destroy(t);

    static const char hdr[] =
        "    Entries       Alloc     Alloc'd  Non-void Arguments"
        "                                              STG Name\n"
        "--------------------------------------------------------------------------------\n";
    char buf[1024];
    ev_error err;
    snprintf(buf, sizeof buf, "%s%11llu%12llu%12llu %3u %-60.60s %s\n", hdr, 5ull,
             123456789012ull, 7ull, 23u, "idiidiidiidiidiidiidiid", "Main.f{v r1} (fun)");
    t = read_mem(buf, strlen(buf), EV_OK, &err);
    c = ticky_counter_at(t, 0);
    assert_int_equal(c->entries, 5);
    assert_int_equal(c->alloc, 123456789012ull);
    assert_int_equal(c->allocd, 7);
    assert_int_equal(c->arity, 23);
    assert_true(str_eq(c->kinds, c->kinds_len, "idiidiidiidiidiidiidiid"));
    assert_true(str_eq(c->name, c->name_len, "Main.f{v r1} (fun)"));
    ticky_destroy(t);
    /* a garbled row names 9.6's format */
    snprintf(buf, sizeof buf, "%sgarbled\n", hdr);
    t = read_mem(buf, strlen(buf), EV_ERR_FORMAT, &err);
    assert_non_null(strstr(err.msg, "%11d%12d%12d %3lu %-60.60s %s"));
    ticky_destroy(t);
}

/* Numbers of 11+ digits fill their column and touch the one before. */
static void test_columns_run_together(void **state)
{
    (void)state;
    ticky_set *t = read_path(DATA "/big.ticky");
    assert_int_equal(ticky_num_counters(t), 5);
    const ticky_counter *mk = ticky_counter_at(t, 0), *loop = ticky_counter_at(t, 1);
    /* names by prefix: GHC's uniques ({v r2zi}) change between builds */
    assert_int_equal(strncmp(mk->name, "$wmk{v ", 7), 0);
    assert_int_equal(mk->entries, 700000000ull);        /* the loop's count */
    assert_int_equal(mk->alloc, 700000000ull * 16);
    assert_int_equal(strncmp(loop->name, "Main.$wloop{v ", 14), 0);
    assert_int_equal(loop->entries, 700000001ull);
    assert_int_equal(loop->alloc, 700000000ull * 24);
    ticky_destroy(t);

    /* every column overflowing, each split by the column rules */
    static const char hdr[] =
        "    Entries      Alloc    Alloc'd  Non-void Arguments      STG Name\n"
        "--------------------------------------------------------------------------------\n";
    char buf[1024];
    ev_error err;
    snprintf(buf, sizeof buf, "%s%11llu%11llu%11llu %3u %-20.20s %s\n", hdr, 98765432101ull,
             12345678901ull, 5ull, 2u, "pp", "a");
    t = read_mem(buf, strlen(buf), EV_OK, &err);
    assert_int_equal(ticky_counter_at(t, 0)->entries, 98765432101ull);
    assert_int_equal(ticky_counter_at(t, 0)->alloc, 12345678901ull);
    assert_int_equal(ticky_counter_at(t, 0)->allocd, 5);
    ticky_destroy(t);
    snprintf(buf, sizeof buf, "%s%11llu%11llu%11llu %3u %-20.20s %s\n", hdr, 7ull,
             12345678901ull, 23456789012ull, 1234u, "", "b c");
    t = read_mem(buf, strlen(buf), EV_OK, &err);
    assert_int_equal(ticky_counter_at(t, 0)->alloc, 12345678901ull);
    assert_int_equal(ticky_counter_at(t, 0)->allocd, 23456789012ull);
    assert_int_equal(ticky_counter_at(t, 0)->arity, 1234);
    assert_true(str_eq(ticky_counter_at(t, 0)->name, 3, "b c"));
    ticky_destroy(t);
    /* 12 + 11 digits or 11 + 12? The file cannot say: an error, not a guess */
    snprintf(buf, sizeof buf, "%s%11llu%11llu%11llu %3u %-20.20s %s\n", hdr, 1ull,
             123456789012ull, 34567890123ull, 0u, "", "amb");
    t = read_mem(buf, strlen(buf), EV_ERR_FORMAT, &err);
    assert_int_equal(err.line, 3);
    assert_non_null(strstr(err.msg, "more than one way"));
    ticky_destroy(t);
}

/* A garbled row: its line number; the rows before it stay. */
static void test_garbled_line(void **state)
{
    (void)state;
    size_t len;
    char *b = slurp(NFIB, &len);
    char *row = strstr(b, "    400000    6400008");
    assert_non_null(row);
    uint64_t line = 1;
    for (char *p = b; p < row; p++)
        line += *p == '\n';
    row[14] = 'x';
    ev_error err;
    ticky_set *t = read_mem(b, len, EV_ERR_FORMAT, &err);
    assert_int_equal(err.status, EV_ERR_FORMAT);
    assert_int_equal(err.line, line);
    assert_non_null(strstr(err.msg, "not a row of the counter table"));
    assert_non_null(strstr(err.msg, "    x400008"));
    assert_int_equal(ticky_num_counters(t), 1);
    assert_int_equal(ticky_counter_at(t, 0)->entries, 4610425);
    ticky_destroy(t);
    /* the line is quoted as messages quote text: control bytes escaped,
     * 72 code points, an ellipsis; never cut inside a UTF-8 sequence */
    memcpy(row, "\x1b\xc3\xa9", 3);
    t = read_mem(b, len, EV_ERR_FORMAT, &err);
    assert_non_null(strstr(err.msg, ": \" \\x1b\xc3\xa9 400000    x400008"));
    assert_non_null(strstr(err.msg, "\xe2\x80\xa6\""));
    ticky_destroy(t);

    /* a row cut short, a missing arity, a bad arity width */
    static const char *const bad[] = {
        "          1          2",
        "          1          2          3     kinds                name",
        "          1          2          3 2   k                    name",
        "          1          2          3   2 k                   name",
        "         -1          2          3   2 k                    name",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char buf[512];
        snprintf(buf, sizeof buf,
                 "junk before\n    Entries      Alloc    Alloc'd  Non-void Arguments      "
                 "STG Name\n-------------\n          1          0          0   0 %-20s ok\n"
                 "%s\n\n", "", bad[i]);
        t = read_mem(buf, strlen(buf), EV_ERR_FORMAT, &err);
        assert_int_equal(err.line, 5);
        assert_int_equal(ticky_num_counters(t), 1);
        ticky_destroy(t);
    }
    free(b);
}

static void test_structure(void **state)
{
    (void)state;
    ev_error err;
    /* no table at all: no line to blame */
    static const char none[] = "STACK USAGE:\n\nENTERS: 5\n";
    ticky_set *t = read_mem(none, strlen(none), EV_ERR_FORMAT, &err);
    assert_int_equal(err.line, 0);
    assert_non_null(strstr(err.msg, "no ticky counter table"));
    ticky_destroy(t);
    t = read_mem("", 0, EV_ERR_FORMAT, &err);
    ticky_destroy(t);
    /* the header without its rule */
    static const char norule[] =
        "x\n    Entries      Alloc    Alloc'd  Non-void Arguments      STG Name\n"
        "          1          0          0   0                      a\n";
    t = read_mem(norule, strlen(norule), EV_ERR_FORMAT, &err);
    assert_int_equal(err.line, 3);
    assert_non_null(strstr(err.msg, "rule"));
    ticky_destroy(t);
    /* an empty table is a table */
    static const char empty[] =
        "    Entries      Alloc    Alloc'd  Non-void Arguments      STG Name\n"
        "--------------------------------------------------------------------------------\n"
        "\n**********\n      5 ALLOC_HEAP_ctr\n";
    t = read_mem(empty, strlen(empty), EV_OK, &err);
    assert_int_equal(ticky_num_counters(t), 0);
    ticky_destroy(t);
    /* a file cut inside the table: the rows read, and a flag */
    static const char cut[] =
        "    Entries      Alloc    Alloc'd  Non-void Arguments      STG Name\n"
        "--------------------------------------------------------------------------------\n"
        "          1          0          0   0                      a";
    t = read_mem(cut, strlen(cut), EV_OK, &err);
    assert_int_equal(ticky_num_counters(t), 1);
    assert_true(ticky_get_info(t)->text_unterminated);
    ticky_destroy(t);
}

/* CRLF line ends read the same. */
static void test_crlf(void **state)
{
    (void)state;
    size_t len;
    char *b = slurp(NFIB, &len);
    char *crlf = malloc(2 * len + 1);
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        if (b[i] == '\n')
            crlf[n++] = '\r';
        crlf[n++] = b[i];
    }
    ev_error err;
    ticky_set *a = read_mem(b, len, EV_OK, &err);
    ticky_set *c = read_mem(crlf, n, EV_OK, &err);
    assert_int_equal(ticky_num_counters(a), ticky_num_counters(c));
    for (size_t i = 0; i < ticky_num_counters(a); i++) {
        const ticky_counter *x = ticky_counter_at(a, i), *y = ticky_counter_at(c, i);
        assert_int_equal(x->entries, y->entries);
        assert_int_equal(x->alloc, y->alloc);
        assert_int_equal(x->name_len, y->name_len);
        assert_memory_equal(x->name, y->name, x->name_len);
    }
    ticky_destroy(a);
    ticky_destroy(c);
    free(crlf);
    free(b);
}

/* evprof's own table (columns widened when a number would fill one) reads
 * back to the same counters. */
static void test_round_trip(void **state)
{
    (void)state;
    static const char *const files[] = { NFIB, DATA "/collatz.ticky", DATA "/wide.ticky",
                                         DATA "/big.ticky",
                                         "tests/data/ghc-9.6/collatz-r.ticky",
                                         "tests/data/ghc-9.10/collatz-r.ticky" };
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        ticky_set *t = read_path(files[f]);
        ticky_view_opts vo;
        ticky_view_opts_init(&vo);
        vo.sort = TICKY_SORT_INPUT;
        ticky_view v;
        ticky_view_build(t, &vo, &v);
        char *out = NULL;
        size_t n = 0;
        FILE *m = open_memstream(&out, &n);
        assert_int_equal(ticky_write_table(t, &v, TICKY_TEXT, m), 0);
        fclose(m);
        ev_error err;
        ticky_set *u = read_mem(out, n, EV_OK, &err);
        assert_int_equal(ticky_num_counters(u), ticky_num_counters(t));
        for (size_t i = 0; i < ticky_num_counters(t); i++) {
            const ticky_counter *x = ticky_counter_at(t, i), *y = ticky_counter_at(u, i);
            assert_int_equal(x->entries, y->entries);
            assert_int_equal(x->alloc, y->alloc);
            assert_int_equal(x->allocd, y->allocd);
            assert_int_equal(x->arity, y->arity);
            assert_true(x->name_len == y->name_len && !memcmp(x->name, y->name, x->name_len));
            assert_true(x->kinds_len == y->kinds_len &&
                        !memcmp(x->kinds, y->kinds, x->kinds_len));
        }
        free(out);
        ticky_view_free(&v);
        ticky_destroy(u);
        ticky_destroy(t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nfib),
        cmocka_unit_test(test_own_ghc_runs),
        cmocka_unit_test(test_ghc96_layout),
        cmocka_unit_test(test_ghc910_layout),
        cmocka_unit_test(test_columns_run_together),
        cmocka_unit_test(test_garbled_line),
        cmocka_unit_test(test_structure),
        cmocka_unit_test(test_crlf),
        cmocka_unit_test(test_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
