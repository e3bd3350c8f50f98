/* The HTML page's bounded series and its JSON, through the public API:
 * logs made with the eventlog writer, the page written to memory, the
 * JSON's arrays read back by key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evprof/driver.h"
#include "evprof/heap.h"
#include "evprof/html.h"
#include "evprof/writer.h"

#define MS 1000000ull

/* Under AddressSanitizer: the call graph's Graphviz and the font libraries
 * it loads keep memory they never free (as in test_graph.c); evprof's own
 * leaks have evprof frames and stay reported. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libfontconfig.so\n"
           "leak:libgvc.so\n"
           "leak:libgvplugin_\n"
           "leak:libpango\n"
           "leak:libcairo\n"
           "leak:libglib\n"
           "leak:libgobject\n"
           "leak:libharfbuzz\n";
}

static el_writer *new_log(void)
{
    el_writer *w = el_writer_create_mem();
    assert_non_null(w);
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_2), EV_OK);
    return w;
}

/* The page of a log under `o`; the caller frees it. */
static char *page_of(el_writer *w, const html_opts *o, html_contents *c)
{
    size_t len, plen = 0;
    char *page = NULL;
    assert_int_equal(el_writer_finish(w), EV_OK);
    const uint8_t *log = el_writer_borrow_bytes(w, &len);
    html_page *pg = html_page_create(o);
    ev_driver *d = ev_driver_create(NULL);
    assert_non_null(pg);
    assert_non_null(d);
    assert_int_equal(html_page_attach(pg, d), 0);
    const ev_stream *s = ev_driver_run_mem(d, log, len);
    FILE *f = open_memstream(&page, &plen);
    assert_non_null(f);
    ev_error err;
    assert_int_equal(html_page_write(pg, s, f, c, &err), EV_OK);
    assert_int_equal(fclose(f), 0);
    ev_driver_destroy(d);
    html_page_destroy(pg);
    el_writer_destroy(w);
    return page;
}

/* The numbers of the array `"key":[...]` (or of its first array) that
 * follows `after` in the page; returns how many (at most max stored). */
static size_t numbers(const char *page, const char *after, const char *key, uint64_t *v,
                      size_t max)
{
    const char *p = strstr(page, after);
    assert_non_null(p);
    char k[64];
    snprintf(k, sizeof k, "\"%s\":[", key);
    p = strstr(p, k);
    assert_non_null(p);
    p += strlen(k);
    if (*p == '[')      /* an array of arrays: its first */
        p++;
    size_t n = 0;
    while (*p != ']') {
        char *end;
        uint64_t x = strtoull(p, &end, 10);
        assert_true(end > p);
        if (n < max)
            v[n] = x;
        n++;
        p = *end == ',' ? end + 1 : end;
    }
    return n;
}

/* A timeline array `"key":[...]` after `after`: its runs of zeros come as
 * one negative number (-k: k zeros); expanded into v, returns how many. */
static size_t bins_of(const char *page, const char *after, const char *key, uint64_t *v,
                      size_t max)
{
    const char *p = strstr(page, after);
    assert_non_null(p);
    char k[64];
    snprintf(k, sizeof k, "\"%s\":[", key);
    p = strstr(p, k);
    assert_non_null(p);
    p += strlen(k);
    size_t n = 0;
    while (*p != ']') {
        char *end;
        long long x = strtoll(p, &end, 10);
        assert_true(end > p);
        for (long long z = x < 0 ? -x : 1; z > 0; z--, n++)
            if (n < max)
                v[n] = x < 0 ? 0 : (uint64_t)x;
        p = *end == ',' ? end + 1 : end;
    }
    return n;
}

/* 1000 censuses, 10 kept: evenly spread from the first, the bands whole */
static void test_censuses_thinned_evenly(void **state)
{
    (void)state;
    el_writer *w = new_log();
    el_writer_heap_prof_begin(w, 0, 0, MS, HEAP_BY_CLOSURE_TYPE, NULL);
    for (uint64_t i = 0; i < 1000; i++) {
        uint64_t t = (i + 1) * MS;
        el_writer_heap_sample_begin(w, t, i);
        el_writer_heap_sample_string(w, t + 1, 0, 8 * (i + 1), "growing");
        el_writer_heap_sample_string(w, t + 2, 0, 4000, "flat");
        el_writer_heap_sample_end(w, t + 3, i);
    }
    html_opts o;
    html_opts_init(&o);
    o.max_censuses = 10;
    html_contents c;
    char *page = page_of(w, &o, &c);
    assert_true(c.heap);
    uint64_t t[16], v[16];
    size_t n = numbers(page, "\"heap\":", "times", t, 16);
    assert_true(n <= 10 && n >= 5);
    assert_int_equal(t[0], 1 * MS);
    assert_true(t[n - 1] > 800 * MS);     /* spread over the whole run */
    for (size_t i = 2; i < n; i++)
        assert_int_equal(t[i] - t[i - 1], t[1] - t[0]);
    /* the growing band (largest peak) comes first; its values are exact */
    assert_non_null(strstr(page, "\"bands\":[[\"growing\",8000,"));
    assert_int_equal(numbers(page, "\"values\":", "values", v, 16), n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(v[i], 8 * (t[i] / MS));
    assert_non_null(strstr(page, "\"censuses\":1000,\"kept\":"));
    free(page);
}

/* 5000 heap-size events with one spike, 16 points: the spike survives */
static void test_gc_series_bounded_keeps_peaks(void **state)
{
    (void)state;
    el_writer *w = new_log();
    uint64_t alloc = 0;
    for (uint64_t i = 0; i < 5000; i++) {
        el_writer_heap_size(w, i * MS, 0, i == 2345 ? 1000000000 : 4 * MS);
        el_writer_heap_live(w, i * MS + 1, 0, i == 3000 ? 777777777 : 1000);
        alloc += 100;
        el_writer_heap_allocated(w, i * MS + 2, 0, alloc);
    }
    html_opts o;
    html_opts_init(&o);
    o.max_points = 16;
    html_contents c;
    char *page = page_of(w, &o, &c);
    uint64_t size[32], live[32], al[32], t[32];
    size_t n = numbers(page, "\"series\":{", "t", t, 32);
    assert_true(n <= 16 && n >= 8);
    assert_int_equal(numbers(page, "\"series\":{", "size", size, 32), n);
    assert_int_equal(numbers(page, "\"series\":{", "live", live, 32), n);
    assert_int_equal(numbers(page, "\"series\":{", "alloc", al, 32), n);
    int spike = 0, lspike = 0;
    for (size_t i = 0; i < n; i++) {
        spike += size[i] == 1000000000;
        lspike += live[i] == 777777777;
        if (i)
            assert_true(t[i] > t[i - 1] && al[i] >= al[i - 1]);
    }
    assert_int_equal(spike, 1);
    assert_int_equal(lspike, 1);
    assert_int_equal(al[n - 1], 500000);    /* the last point is the log's end */
    free(page);
}

/* Two capabilities' blocks, each over the whole run, one after the other
 * in the file (as GHC writes them): the series is in time order and its
 * allocation is their sum, one rising line (issue 27, point 12). */
static void test_gc_series_caps_in_time_order(void **state)
{
    (void)state;
    el_writer *w = new_log();
    for (uint16_t cap = 0; cap < 2; cap++) {
        el_writer_begin_block(w, cap, 0);
        for (uint64_t i = 1; i <= 100; i++) {
            el_writer_heap_allocated(w, i * MS + cap, 0, i * (cap ? 50 : 100));
            el_writer_heap_size(w, i * MS + cap + 10, 0, (cap ? 3 : 2) * MS);
        }
        el_writer_end_block(w, 100 * MS + 20);
    }
    html_opts o;
    html_opts_init(&o);
    o.max_points = 64;
    html_contents c;
    char *page = page_of(w, &o, &c);
    uint64_t t[128], al[128];
    size_t n = numbers(page, "\"series\":{", "t", t, 128);
    assert_true(n >= 16 && n <= 64);
    assert_int_equal(numbers(page, "\"series\":{", "alloc", al, 128), n);
    for (size_t i = 1; i < n; i++)
        assert_true(t[i] > t[i - 1] && al[i] >= al[i - 1]);
    assert_int_equal(al[n - 1], 100 * 100 + 100 * 50);     /* both counters' ends */
    assert_true(al[n / 2] > 5000 && al[n / 2] < 10000);    /* both grow together */
    free(page);
}

/* a counter sampled in 1000 batches, 8 points: the sums stay exact */
static void test_ticky_series_sums(void **state)
{
    (void)state;
    el_writer *w = new_log();
    el_writer_ticky_def(w, 1, EL_TICKY_DEF_BASIC, 42, 1, "+", "Main.f", 0, NULL);
    for (uint64_t i = 0; i < 1000; i++) {
        el_writer_ticky_begin(w, (i + 1) * MS);
        el_writer_ticky_sample(w, (i + 1) * MS + 1, 42, i % 7, 16, 0);
    }
    html_opts o;
    html_opts_init(&o);
    o.series_points = 8;
    html_contents c;
    char *page = page_of(w, &o, &c);
    assert_true(c.ticky);
    const char *s = strstr(page, "\"series\":[[[");
    assert_non_null(s);
    uint64_t sum = 0, want = 0;
    /* the second array of the series: entries */
    const char *p = strchr(s + 12, ']');
    assert_non_null(p);
    size_t n = 0;
    for (p += 3; *p != ']'; n++) {
        char *end;
        sum += strtoull(p, &end, 10);
        p = *end == ',' ? end + 1 : end;
    }
    for (uint64_t i = 0; i < 1000; i++)
        want += i % 7;
    assert_true(n <= 8 && n >= 4);
    assert_int_equal(sum, want);
    assert_non_null(strstr(page, "[\"Main.f\",\"+\","));
    free(page);
}

/* log text that could end the data block or a line of script is escaped */
static void test_json_escapes_script_enders(void **state)
{
    (void)state;
    el_writer *w = new_log();
    el_writer_heap_prof_begin(w, 0, 0, MS, HEAP_BY_CLOSURE_TYPE, NULL);
    el_writer_heap_sample_begin(w, MS, 0);
    el_writer_heap_sample_string(w, MS + 1, 0, 64, "</script><!--<script>\xe2\x80\xa8\x01\"\\\xff");
    el_writer_heap_sample_end(w, MS + 2, 0);
    html_contents c;
    char *page = page_of(w, NULL, &c);
    assert_non_null(strstr(page, "[\"\\u003c/script\\u003e\\u003c!--\\u003cscript\\u003e"
                                 "\\u2028\\u0001\\\"\\\\\\ufffd\","));
    /* the page's own two script elements, nothing else */
    size_t opens = 0;
    for (const char *p = page; (p = strstr(p, "<script")); p++)
        opens++;
    assert_int_equal(opens, 2);
    assert_null(strstr(page, "\xe2\x80\xa8"));
    free(page);
}

/* --max-nodes: the heaviest nodes, a tree */
static void test_max_nodes(void **state)
{
    (void)state;
    el_writer *w = new_log();
    el_writer_prof_begin(w, 0, MS);
    el_writer_cost_centre(w, 0, 1, "main", "Main", "Main.hs:1:1", 0);
    el_writer_cost_centre(w, 0, 2, "heavy", "Main", "Main.hs:2:1", 0);
    el_writer_cost_centre(w, 0, 3, "light", "Main", "Main.hs:3:1", 0);
    const uint32_t heavy[] = { 2, 1 }, light[] = { 3, 1 };
    for (uint64_t i = 0; i < 30; i++)
        el_writer_prof_sample(w, (i + 1) * MS, 0, 1, 2, i % 3 ? heavy : light);
    html_opts o;
    html_opts_init(&o);
    o.max_nodes = 3;
    html_contents c;
    char *page = page_of(w, &o, &c);
    assert_true(c.prof);
    assert_int_equal(c.nodes_sent, 3);
    assert_int_equal(c.nodes_all, 4);
    uint64_t inh[8];
    assert_int_equal(numbers(page, "\"prof\":", "inh", inh, 8), 3);
    assert_int_equal(inh[0], 30);
    assert_int_equal(inh[1], 30);
    assert_int_equal(inh[2], 20);
    /* the flat table still has every cost centre with ticks */
    assert_non_null(strstr(page, "\"light\""));
    free(page);
}

/* The timeline stays in at most 1024 bins however long the run: samples
 * and collections from 1 us to 10^15 ns (11 days), times doubling, the
 * bins merged in pairs each time; every tick and collection still in a
 * bin, and the profile's cells still add up to the profile's ticks. */
static void test_timeline_bins_bounded(void **state)
{
    (void)state;
    el_writer *w = new_log();
    el_writer_cost_centre(w, 0, 1, "MAIN", "MAIN", "<built-in>", 0);
    el_writer_cost_centre(w, 0, 2, "f", "M", "m.hs:1:1", 0);
    el_writer_cost_centre(w, 0, 3, "g", "M", "m.hs:2:1", 0);
    el_writer_prof_begin(w, 0, 1000000);
    const uint32_t s1[] = { 2 }, s2[] = { 3, 2 };
    uint64_t n = 0;
    el_gc_stats_fields st = { .capset = 0, .gen = 0, .par_n_threads = 1 };
    for (uint64_t t = 1000; t < 1000000000000000ull; t = t * 2 + 7, n++) {
        el_writer_begin_block(w, 0, t);
        el_writer_prof_sample(w, t, 0, n, 1 + (n & 1), n & 1 ? s2 : s1);
        el_writer_gc_start(w, t + 1);
        el_writer_gc_stats(w, t + 2, &st);
        el_writer_gc_end(w, t + 3);
        el_writer_end_block(w, t + 3);
    }
    html_contents c;
    char *page = page_of(w, NULL, &c);
    assert_true(c.tl_bins <= 1024 && c.tl_bins >= 512);
    assert_true(c.tl_bin_ns * c.tl_bins > 1000000000000000ull / 2);
    assert_string_equal(c.tl_prof_status, "ok");
    static uint64_t v[1100];
    size_t k = bins_of(page, "\"timeline\":", "samples", v, 1100);
    assert_int_equal(k, c.tl_bins);
    uint64_t sum = 0;
    for (size_t i = 0; i < k; i++)
        sum += v[i];
    assert_int_equal(sum, n);
    k = bins_of(page, "\"timeline\":", "gc_count", v, 1100);
    sum = 0;
    for (size_t i = 0; i < k; i++)
        sum += v[i];
    assert_int_equal(sum, n);
    /* the cells: [d node, ticks, ...] per profile bin; their ticks sum */
    const char *p = strstr(page, "\"cells\":[");
    assert_non_null(p);
    p += strlen("\"cells\":[");
    uint64_t ticks = 0, bins = 0;
    int depth = 1, pos = 0;
    while (depth > 0) {
        if (*p == '[') {
            depth++;
            pos = 0;
            bins++;
            p++;
        } else if (*p == ']') {
            depth--;
            p++;
        } else if (*p == ',') {
            p++;
        } else {
            char *e;
            uint64_t x = strtoull(p, &e, 10);
            assert_true(e > p);
            if (pos++ % 2)
                ticks += x;
            p = e;
        }
    }
    assert_int_equal(bins, c.tl_prof_bins);
    assert_int_equal(ticks, n);
    free(page);
}

/* 65 capabilities (one past the timeline's 64), each running a thread
 * and counting sparks, over a run long enough for the bins to merge many
 * times: per capability its sparks' running sums end at its last
 * SPARK_COUNTERS, the pool sent as remaining + 1 where sampled; the 65th
 * is said, not drawn. (Every capability's arrays merge with the others':
 * past 21 capabilities, fewer with labelled threads, they once overran
 * the merge's list.) */
static void test_timeline_spark_caps(void **state)
{
    (void)state;
    enum { CAPS = 65, ROUNDS = 40 };
    el_writer *w = new_log();
    for (uint64_t r = 1; r <= ROUNDS; r++) {
        uint64_t t = r * r * r * 1000 * MS / (ROUNDS * ROUNDS);   /* up to 40 s */
        for (uint16_t cap = 0; cap < CAPS; cap++) {
            /* created, dud, overflowed, converted, gcd, fizzled, remaining */
            const uint64_t v[7] = { r * (cap + 1), r / 8, 0, r * cap / 2, r / 4, r, r % 3 };
            el_writer_begin_block(w, cap, t + cap);
            el_writer_run_thread(w, t + cap, cap + 1);
            el_writer_spark_counters(w, t + cap + 1, v);
            el_writer_stop_thread(w, t + cap + 2, cap + 1, 3, 0);
            el_writer_end_block(w, t + cap + 2);
        }
    }
    html_contents c;
    char *page = page_of(w, NULL, &c);
    assert_true(c.tl_bins <= 1024 && c.tl_bins >= 512);
    assert_non_null(strstr(page, "\"caps_over\":1"));
    const char *sc = strstr(page, "\"spark_caps\":[");
    assert_non_null(sc);
    static uint64_t v[1100];
    for (uint16_t cap = 0; cap < CAPS - 1; cap++) {
        char at[32];
        snprintf(at, sizeof at, "{\"cap\":%u,", cap);
        const char *p = strstr(sc, at);
        assert_non_null(p);
        const char *kinds[] = { "created", "dud", "overflowed", "converted", "gcd", "fizzled" };
        const uint64_t want[] = { ROUNDS * (cap + 1u), ROUNDS / 8, 0, ROUNDS * cap / 2, ROUNDS / 4,
                                  ROUNDS };
        for (int k = 0; k < 6; k++) {
            size_t n = bins_of(p, at, kinds[k], v, 1100);
            assert_int_equal(n, c.tl_bins);
            uint64_t sum = 0;
            for (size_t i = 0; i < n; i++)
                sum += v[i];
            assert_int_equal(sum, want[k]);
        }
        size_t n = bins_of(p, at, "pool", v, 1100);
        while (n > 0 && !v[n - 1])
            n--;
        assert_true(n > 0);
        assert_int_equal(v[n - 1], ROUNDS % 3 + 1);    /* the last bin sampled */
    }
    char at[32];
    snprintf(at, sizeof at, "{\"cap\":%u,", CAPS - 1);
    assert_null(strstr(sc, at));
    free(page);
}

/* a log with nothing to show: a page all the same, saying so */
static void test_empty_log(void **state)
{
    (void)state;
    el_writer *w = new_log();
    el_writer_user_msg(w, 5, "hello");
    html_contents c;
    char *page = page_of(w, NULL, &c);
    assert_false(c.prof || c.heap || c.gc || c.ticky);
    assert_non_null(strstr(page, "\"holds\":{\"prof\":0,\"heap\":0,\"gc\":0,\"ticky\":0}"));
    assert_null(strstr(page, "\"prof\":{"));
    free(page);
}

/* a page that cannot be written: EV_ERR_WRITE and the message the CLI
 * prints, or the status alone */
static void test_write_error(void **state)
{
    (void)state;
    FILE *full = fopen("/dev/full", "w");
    if (!full)
        skip();
    el_writer *w = new_log();
    el_writer_user_msg(w, 5, "hello");
    size_t len;
    assert_int_equal(el_writer_finish(w), EV_OK);
    const uint8_t *log = el_writer_borrow_bytes(w, &len);
    for (int detail = 1; detail >= 0; detail--) {
        html_page *pg = html_page_create(NULL);
        ev_driver *d = ev_driver_create(NULL);
        assert_int_equal(html_page_attach(pg, d), 0);
        const ev_stream *s = ev_driver_run_mem(d, log, len);
        setvbuf(full, NULL, _IONBF, 0);
        ev_error err;
        assert_int_equal(html_page_write(pg, s, full, NULL, detail ? &err : NULL), EV_ERR_WRITE);
        if (detail) {
            assert_int_equal(err.status, EV_ERR_WRITE);
            assert_string_equal(err.msg, "write error");
        }
        clearerr(full);
        ev_driver_destroy(d);
        html_page_destroy(pg);
    }
    fclose(full);
    el_writer_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_censuses_thinned_evenly),
        cmocka_unit_test(test_timeline_bins_bounded),
        cmocka_unit_test(test_timeline_spark_caps),
        cmocka_unit_test(test_gc_series_bounded_keeps_peaks),
        cmocka_unit_test(test_gc_series_caps_in_time_order),
        cmocka_unit_test(test_ticky_series_sums),
        cmocka_unit_test(test_json_escapes_script_enders),
        cmocka_unit_test(test_max_nodes),
        cmocka_unit_test(test_empty_log),
        cmocka_unit_test(test_write_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
