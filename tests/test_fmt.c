/* Text written by hand (util/fmt.h) against printf: the writers of the
 * .prof tree, the folded stacks and the JSON outputs must print what
 * printf prints, byte for byte. The percentages are checked on every
 * value a report of up to 3000 ticks can show, around every tie of
 * "%5.1f" and on random ticks of large totals; the numbers at every
 * digit-count edge and at random; JSON strings against tx_json_str on
 * every byte pair and random mixes of the bytes that need care; the
 * output buffer on rows larger than itself and on a write that fails. */
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evprof/textout.h"
#include "util/fmt.h"

/* tx_put_pct(v) and snprintf("%5.1f", v) agree; the count of values
 * checked goes to *n */
static void check_pct(double v, unsigned long *n)
{
    char want[64], got[64];
    int wl = snprintf(want, sizeof want, "%5.1f", v);
    char *e = tx_put_pct(got, v);
    *e = '\0';
    if ((int)(e - got) != wl || memcmp(want, got, (size_t)wl) != 0)
        fail_msg("%%5.1f of %.17g: printf \"%s\", tx_put_pct \"%s\"", v, want, got);
    (*n)++;
}

/* what the report computes: part of total in percent (prof/report.c) */
static double pct(uint64_t part, uint64_t total)
{
    return total == 0 ? 0.0 : (double)part / (double)total * 100.0;
}

/* every percentage of a profile of up to 3000 ticks: every part of
 * every total (a row's individual or inherited ticks, which never
 * exceed the total) */
static void pct_every_small_total(void **state)
{
    (void)state;
    unsigned long n = 0;
    for (uint64_t total = 1; total <= 3000; total++)
        for (uint64_t part = 0; part <= total; part++)
            check_pct(pct(part, total), &n);
    assert_true(n > 4000000);
}

/* The ties: every k/10 + 0.05 below 1000 and the 8 doubles on each
 * side of it (the exact halves m/4 among them, which printf rounds to
 * even) */
static void pct_around_every_tie(void **state)
{
    (void)state;
    unsigned long n = 0;
    for (int k = 0; k < 10000; k++) {
        double mid = (k + 0.5) / 10.0;
        double lo = mid, hi = mid;
        check_pct(mid, &n);
        for (int i = 0; i < 8; i++) {
            lo = nextafter(lo, 0.0);
            hi = nextafter(hi, 2000.0);
            check_pct(lo, &n);
            check_pct(hi, &n);
        }
    }
    /* the exact halves are among them: 0.25 prints 0.2, 0.75 prints 0.8 */
    char b[16];
    *tx_put_pct(b, 0.25) = '\0';
    assert_string_equal(b, "  0.2");
    *tx_put_pct(b, 0.75) = '\0';
    assert_string_equal(b, "  0.8");
    assert_true(n == 10000 * 17);
}

/* xorshift64*: the same values on every run */
static uint64_t rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

/* large profiles (totals up to 2^48 ticks), every double below 1000, and
 * what no percentage is (negative, zero's sign, 1000 and above, not a
 * number): the fallback */
static void pct_random_and_edges(void **state)
{
    (void)state;
    unsigned long n = 0;
    uint64_t s = 88172645463325252ull;
    for (int i = 0; i < 1000000; i++) {
        uint64_t total = 1 + rnd(&s) % (1ull << (1 + rnd(&s) % 48));
        check_pct(pct(rnd(&s) % (total + 1), total), &n);
        check_pct((double)(rnd(&s) >> 11) / 9007199254740992.0 * 1000.0, &n);
    }
    static const double edges[] = { 0.0, -0.0, 100.0, 99.95, 99.949999999999, 999.0,
                                    998.95, 999.94, 999.95, 999.96, 1000.0, 12345.678,
                                    -0.04, -0.05, -1.0, 9.9e24, -9.9e24, 5e-324 };
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++)
        check_pct(edges[i], &n);
    check_pct(INFINITY, &n);
    check_pct(-INFINITY, &n);
    check_pct(NAN, &n);
}

static void check_u64(uint64_t v, int width)
{
    char want[64], got[64];
    int wl = snprintf(want, sizeof want, "%*" PRIu64, width, v);
    char *e = width ? tx_put_u64_right(got, v, width) : tx_put_u64(got, v);
    *e = '\0';
    if ((int)(e - got) != wl || memcmp(want, got, (size_t)wl) != 0)
        fail_msg("%%*%s of %" PRIu64 " width %d: printf \"%s\", got \"%s\"", PRIu64, v, width,
                 want, got);
    assert_int_equal(tx_u64_digits(v), snprintf(NULL, 0, "%" PRIu64, v));
}

static void numbers(void **state)
{
    (void)state;
    for (uint64_t p = 1, k = 0; k < 20; k++, p *= 10)
        for (int d = -2; d <= 2; d++)
            for (int w = 0; w <= 24; w += 3)
                if ((int64_t)p + d >= 0)
                    check_u64(p + (uint64_t)d, w);
    check_u64(UINT64_MAX, 0);
    check_u64(UINT64_MAX, 25);
    check_u64(UINT64_MAX - 1, 0);
    for (uint64_t v = 0; v < 100000; v++)
        check_u64(v, (int)(v % 9));
    uint64_t s = 1;
    for (int i = 0; i < 1000000; i++)
        check_u64(rnd(&s) >> (rnd(&s) % 64), (int)(i % 23));
    /* padding wider than the helper's own block of spaces */
    char *big = malloc(1000);
    assert_non_null(big);
    char *e = tx_put_u64_right(big, 7, 600);
    assert_int_equal(e - big, 600);
    for (int i = 0; i < 599; i++)
        assert_int_equal(big[i], ' ');
    assert_int_equal(big[599], '7');
    free(big);
}

/* tx_put_json_str(s) and tx_json_str (evprof/textout.h) write the same
 * bytes, within 6 * len + 2 */
static void check_json_str(const char *s, size_t len)
{
    char *want = NULL;
    size_t want_len = 0;
    FILE *m = open_memstream(&want, &want_len);
    assert_non_null(m);
    tx_json_str(m, s, len);
    assert_int_equal(fclose(m), 0);
    char *got = malloc(6 * len + 2);
    assert_non_null(got);
    size_t got_len = (size_t)(tx_put_json_str(got, s, len) - got);
    assert_true(got_len <= 6 * len + 2);
    if (got_len != want_len || memcmp(got, want, want_len) != 0)
        fail_msg("JSON string of %zu bytes: tx_json_str %.*s, tx_put_json_str %.*s", len,
                 (int)want_len, want, (int)got_len, got);
    free(got);
    free(want);
}

/* every byte alone, every pair, and random strings drawn from bytes that
 * need care (controls, quotes, DEL, UTF-8 leads and continuations, C1 as
 * UTF-8, bytes that never start one) */
static void json_strings(void **state)
{
    (void)state;
    unsigned char b[64];
    for (unsigned c = 0; c < 256; c++) {
        b[0] = (unsigned char)c;
        check_json_str((const char *)b, 1);
        for (unsigned d = 0; d < 256; d++) {
            b[1] = (unsigned char)d;
            check_json_str((const char *)b, 2);
        }
    }
    static const unsigned char pool[] = { 'a', 'Z', ' ', '"', '\\', '/', 0, 1, '\n', '\t', '\r',
                                          '\b', '\f', 0x1f, 0x7f, 0x80, 0x9f, 0xbf, 0xc2, 0xc3,
                                          0xe2, 0x80, 0xa8, 0xef, 0xbf, 0xbd, 0xf0, 0x9f, 0x98,
                                          0x80, 0xf4, 0x90, 0xed, 0xa0, 0xc0, 0xff, 0xfe };
    uint64_t r = 12345;
    for (int i = 0; i < 200000; i++) {
        size_t len = rnd(&r) % sizeof b;
        for (size_t k = 0; k < len; k++)
            b[k] = pool[rnd(&r) % sizeof pool];
        check_json_str((const char *)b, len);
    }
    check_json_str("", 0);
}

/* rows of every size, some larger than the buffer: the bytes arrive in
 * order and whole */
static void obuf_rows(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    assert_non_null(m);
    tx_obuf o;
    assert_int_equal(tx_obuf_open(&o, m, 64), 0);
    size_t want = 0;
    for (size_t row = 0; row < 300; row++) {
        size_t n = row % 7 == 0 ? 3 * row : row % 40;
        char *d = tx_obuf_room(&o, n + 1);
        assert_non_null(d);
        for (size_t i = 0; i < n; i++)
            *d++ = (char)('a' + (row + i) % 26);
        *d++ = '\n';
        tx_obuf_done(&o, d);
        want += n + 1;
    }
    tx_obuf_put(&o, "tail", 4);
    want += 4;
    assert_int_equal(tx_obuf_close(&o), 0);
    assert_int_equal(fclose(m), 0);
    assert_int_equal(len, want);
    size_t at = 0;
    for (size_t row = 0; row < 300; row++) {
        size_t n = row % 7 == 0 ? 3 * row : row % 40;
        for (size_t i = 0; i < n; i++)
            assert_int_equal(text[at + i], 'a' + (row + i) % 26);
        assert_int_equal(text[at + n], '\n');
        at += n + 1;
    }
    assert_memory_equal(text + at, "tail", 4);
    free(text);
}

/* a write that fails (a full device) makes the buffer failed: room is
 * NULL from then on and close says -1 */
static void obuf_write_error(void **state)
{
    (void)state;
    FILE *full = fopen("/dev/full", "w");
    if (!full) {
        print_message("SKIPPED: no /dev/full\n");
        skip();
    }
    setvbuf(full, NULL, _IONBF, 0);
    tx_obuf o;
    assert_int_equal(tx_obuf_open(&o, full, 4096), 0);
    int saw_null = 0;
    for (int i = 0; i < 10000; i++) {
        char *d = tx_obuf_room(&o, 100);
        if (!d) {
            saw_null = 1;
            break;
        }
        memset(d, 'x', 100);
        tx_obuf_done(&o, d + 100);
    }
    assert_true(saw_null);
    assert_true(o.failed);
    assert_int_equal(tx_obuf_close(&o), -1);
    fclose(full);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pct_every_small_total),
        cmocka_unit_test(pct_around_every_tie),
        cmocka_unit_test(pct_random_and_edges),
        cmocka_unit_test(numbers),
        cmocka_unit_test(json_strings),
        cmocka_unit_test(obuf_rows),
        cmocka_unit_test(obuf_write_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
