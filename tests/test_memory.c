/* Memory that cannot run away: the budget (include/evprof/budget.h) and
 * the time profile that charges it (a limit reached stops the read, with
 * the counts of what the profile holds; charges from several threads add
 * up exactly), and the aggregate bounded by --max-depth (the same report
 * as from the whole tree). */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evprof/budget.h"
#include "evprof/driver.h"
#include "evprof/gc.h"
#include "evprof/heap.h"
#include "evprof/prof.h"
#include "evprof/ticky.h"
#include "evprof/writer.h"

static void test_charge_and_limit(void **state)
{
    (void)state;
    ev_budget *b = ev_budget_create(1000);
    assert_non_null(b);
    assert_int_equal(ev_budget_limit(b), 1000);
    assert_int_equal(ev_budget_charge(b, 600), 0);
    assert_int_equal(ev_budget_charge(b, 400), 0);      /* exactly the limit: fits */
    assert_int_equal(ev_budget_used(b), 1000);
    assert_false(ev_budget_reached(b));
    assert_int_equal(ev_budget_charge(b, 1), -1);       /* one byte more: refused */
    assert_true(ev_budget_reached(b));
    assert_int_equal(ev_budget_used(b), 1000);          /* nothing charged */
    ev_budget_release(b, 700);
    assert_int_equal(ev_budget_used(b), 300);
    assert_int_equal(ev_budget_peak(b), 1000);
    assert_int_equal(ev_budget_charge(b, 700), 0);
    assert_true(ev_budget_reached(b));                  /* sticky */
    ev_budget_destroy(b);
}

static void test_try_leaves_unmarked(void **state)
{
    (void)state;
    ev_budget *b = ev_budget_create(100);
    assert_int_equal(ev_budget_try(b, 101), -1);
    assert_false(ev_budget_reached(b));
    assert_int_equal(ev_budget_try(b, 100), 0);
    assert_int_equal(ev_budget_used(b), 100);
    ev_budget_destroy(b);
}

static void test_no_budget_no_limit(void **state)
{
    (void)state;
    assert_int_equal(ev_budget_charge(NULL, SIZE_MAX), 0);
    ev_budget_release(NULL, 5);
    assert_false(ev_budget_reached(NULL));
    ev_budget *b = ev_budget_create(0);                 /* 0: no limit */
    assert_int_equal(ev_budget_charge(b, (size_t)1 << 40), 0);
    assert_false(ev_budget_reached(b));
    ev_budget_destroy(b);
    ev_budget_destroy(NULL);
    assert_true(ev_budget_default_limit() > 0);
}

static void test_parse_size(void **state)
{
    (void)state;
    static const struct { const char *text; uint64_t bytes; } good[] = {
        { "1", 1 }, { "1000", 1000 }, { "1K", 1024 }, { "1k", 1024 },
        { "256M", 256ull << 20 }, { "256MiB", 256ull << 20 }, { "256MB", 256ull << 20 },
        { "2G", 2ull << 30 }, { "3g", 3ull << 30 }, { "512B", 512 },
        { "17179869183G", 17179869183ull << 30 },
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        uint64_t v = 0;
        assert_int_equal(ev_budget_parse_size(good[i].text, &v), 0);
        assert_int_equal(v, good[i].bytes);
    }
    static const char *const bad[] = {
        "", "M", "-1", "+1", "1.5M", "0", "0M", " 1", "1 M", "1T", "1MM", "1Mi", "0x10",
        "1e6", "99999999999999999999", "17179869184G", "18446744073709551616",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint64_t v = 42;
        if (ev_budget_parse_size(bad[i], &v) != -1)
            fail_msg("'%s' was taken as a size", bad[i]);
        assert_int_equal(v, 42);
    }
    uint64_t v;
    assert_int_equal(ev_budget_parse_size(NULL, &v), -1);
}

/* Threads charging one budget: exactly `limit` one-byte charges succeed. */
enum { THREADS = 4, TRIES = 200000, LIMIT = 500000 };

struct worker {
    ev_budget *b;
    long ok;
};

static void *charge_many(void *arg)
{
    struct worker *w = arg;
    for (int i = 0; i < TRIES; i++) {
        if (ev_budget_charge(w->b, 1) == 0) {
            w->ok++;
            if (i % 7 == 0) {           /* give some back and take it again */
                ev_budget_release(w->b, 1);
                w->ok--;
            }
        }
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    ev_budget *b = ev_budget_create(LIMIT);
    pthread_t t[THREADS];
    struct worker w[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (struct worker){ b, 0 };
        assert_int_equal(pthread_create(&t[i], NULL, charge_many, &w[i]), 0);
    }
    long ok = 0;
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        ok += w[i].ok;
    }
    assert_int_equal(ev_budget_used(b), (uint64_t)ok);
    assert_true(ok <= LIMIT);
    assert_true(ev_budget_peak(b) <= LIMIT);
    assert_int_equal(ok, LIMIT);        /* 4 x 200000 tries: the limit is reached */
    assert_true(ev_budget_reached(b));
    ev_budget_destroy(b);
}

/* A log of `stacks` distinct stacks of depth 8 over `ccs` cost centres. */
static uint8_t *make_log(uint32_t ccs, uint32_t stacks, size_t *len)
{
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EV_OK);
    char label[32];
    el_writer_cost_centre(w, 0, 1, "MAIN", "MAIN", "<built-in>", 0);
    for (uint32_t id = 2; id < ccs + 2; id++) {
        snprintf(label, sizeof label, "f%u", id);
        el_writer_cost_centre(w, 0, id, label, "Main", "a.hs:1:1", 0);
    }
    el_writer_prof_begin(w, 0, 1000000);
    for (uint32_t i = 0; i < stacks; i++) {
        uint32_t s[8];
        for (int k = 0; k < 8; k++)     /* distinct: frames 0 and 1 spell i */
            s[k] = 2 + (k == 0 ? i % ccs : k == 1 ? i / ccs % ccs
                        : (i * 7919u + (uint32_t)k * 104729u) % ccs);
        el_writer_prof_sample(w, 1000 + i, 0, i, 8, s);
    }
    assert_int_equal(el_writer_finish(w), EV_OK);
    const uint8_t *bytes = el_writer_borrow_bytes(w, len);
    uint8_t *copy = malloc(*len);
    memcpy(copy, bytes, *len);
    el_writer_destroy(w);
    return copy;
}

/* Through the driver: the read stops at the limit, the stream says by
 * whom and where, the profile's counts say what it holds. */
static void test_profile_stops_at_limit(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = make_log(500, 40000, &len);
    ev_budget *b = ev_budget_create(2u << 20);
    ev_driver_opts o;
    ev_driver_opts_init(&o);
    o.budget = b;
    ev_driver *d = ev_driver_create(&o);
    prof_profile *p = prof_create(NULL);
    assert_int_equal(ev_driver_attach(d, &prof_analysis_ops, p), 0);
    const ev_stream *s = ev_driver_run_mem(d, log, len);
    assert_true(s->stopped);
    assert_string_equal(s->stopped_by, prof_analysis_ops.name);
    assert_null(s->driver_stop);
    assert_true(s->stop_offset > 0 && s->stop_offset < len);
    assert_true(ev_budget_reached(b));
    assert_true(ev_budget_used(b) <= 2u << 20);

    prof_counts c;
    prof_count(p, &c);
    assert_true(c.over_budget);
    assert_int_equal(c.ccs, 501);
    assert_true(c.stacks > 1000 && c.stacks < 40000);
    assert_true(c.nodes > c.stacks);
    assert_true(c.bytes > (1u << 20) && c.bytes <= (2u << 20));
    assert_int_equal(c.bytes, ev_budget_used(b));       /* the only analysis */
    assert_int_equal(prof_status(p), EV_ERR_LIMIT);
    assert_null(prof_snapshot(p));                      /* no half profile */
    ev_driver_destroy(d);
    prof_destroy(p);
    assert_int_equal(ev_budget_used(b), 0);             /* all given back */
    ev_budget_destroy(b);

    /* a budget large enough: the same profile as without one */
    b = ev_budget_create(64u << 20);
    ev_driver_opts_init(&o);
    o.budget = b;
    d = ev_driver_create(&o);
    p = prof_create(NULL);
    ev_driver_attach(d, &prof_analysis_ops, p);
    s = ev_driver_run_mem(d, log, len);
    assert_false(s->stopped);
    assert_int_equal(s->read.status, EV_END);
    prof_count(p, &c);
    assert_false(c.over_budget);
    assert_int_equal(c.stacks, 40000);
    assert_true(ev_budget_used(b) == c.bytes);
    prof_result *r = prof_snapshot_take(p, 0);
    assert_non_null(r);
    assert_int_equal(prof_get_info(r)->total_ticks, 40000);
    assert_int_equal(prof_num_ccs(r), 501);
    prof_result_destroy(r);
    ev_driver_destroy(d);
    prof_destroy(p);
    assert_int_equal(ev_budget_used(b), 0);
    ev_budget_destroy(b);
    free(log);
}

/* Many cost centres and no samples: the cost-centre table and its strings
 * are charged too. */
static void test_cost_centres_charged(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = make_log(60000, 1, &len);
    ev_budget *b = ev_budget_create(1u << 20);
    prof_profile *p = prof_create(NULL);
    prof_set_budget(p, b);
    el_decoder *dec = el_decoder_create();
    el_decoder_feed(dec, log, len);
    el_event ev;
    ev_status rc = EV_OK;
    while (rc == 0 && el_decoder_next(dec, &ev) == EV_OK)
        rc = prof_add_event(p, &ev);
    assert_int_equal(rc, EV_ERR_LIMIT);
    prof_counts c;
    prof_count(p, &c);
    assert_true(c.over_budget);
    assert_true(c.ccs > 1000 && c.ccs < 60000);
    assert_true(ev_budget_used(b) <= 1u << 20);
    el_decoder_destroy(dec);
    prof_destroy(p);
    assert_int_equal(ev_budget_used(b), 0);
    ev_budget_destroy(b);
    free(log);
}


/* ---- --max-depth bounds the aggregate ------------------------------------ */

static uint32_t rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return (uint32_t)(*x >> 11);
}

/* Random stacks of depth 0..40 and some of 255 (cut by GHC), over 12 cost
 * centres (so that recursion and coinciding shortened stacks are common),
 * one undefined id never used deep, several capabilities. */
static uint8_t *deep_log(size_t *len)
{
    el_writer *w = el_writer_create_mem();
    el_writer_declare_ghc(w, EL_GHC_9_0);
    el_writer_cost_centre(w, 0, 1, "MAIN", "MAIN", "<built-in>", 0);
    el_writer_cost_centre(w, 0, 2, "GC", "GC", "<built-in>", 0);
    char label[16];
    for (uint32_t id = 3; id < 15; id++) {
        snprintf(label, sizeof label, "f%u", id);
        el_writer_cost_centre(w, 0, id, label, id % 2 ? "A" : "B", "x.hs:1:1", 0);
    }
    el_writer_prof_begin(w, 0, 1000000);
    uint64_t x = 88172645463325252ull;
    uint32_t s[255];
    for (uint32_t i = 0; i < 8000; i++) {
        unsigned depth = rnd(&x) % 50 == 0 ? 255 : rnd(&x) % 41;
        for (unsigned k = 0; k < depth; k++)
            s[k] = 3 + rnd(&x) % (k < 3 ? 12 : 4);      /* outer frames vary less */
        if (depth == 1 && rnd(&x) % 4 == 0)
            s[0] = 2;                                   /* MAIN/GC, dropped by -p */
        el_writer_prof_sample(w, 1000 + i, i % 3, i, depth, s);
    }
    assert_int_equal(el_writer_finish(w), EV_OK);
    const uint8_t *bytes = el_writer_borrow_bytes(w, len);
    uint8_t *copy = malloc(*len);
    memcpy(copy, bytes, *len);
    el_writer_destroy(w);
    return copy;
}

static char *report_of(const uint8_t *log, size_t len, uint32_t agg_depth, int json, int all,
                       double threshold, uint32_t max_depth, size_t *nodes)
{
    prof_filter f;
    prof_filter_init(&f);
    f.all = all;
    f.max_depth = agg_depth;
    ev_driver *d = ev_driver_create(NULL);
    prof_profile *p = prof_create(&f);
    ev_driver_attach(d, &prof_analysis_ops, p);
    assert_int_equal(ev_driver_run_mem(d, log, len)->read.status, EV_END);
    prof_result *r = prof_snapshot_take(p, all);
    assert_non_null(r);
    *nodes = prof_num_nodes(r);
    prof_report_opts o;
    prof_report_opts_init(&o);
    o.max_depth = max_depth;
    o.threshold_pct = threshold;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_int_equal(json ? prof_report_json(r, &o, out) : prof_report_text(r, &o, out), 0);
    fclose(out);
    prof_result_destroy(r);
    prof_destroy(p);
    ev_driver_destroy(d);
    return text;
}

static void test_max_depth_bounds_aggregate(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = deep_log(&len);
    static const uint32_t depths[] = { 1, 2, 3, 5, 20, 39, 40, 41, 253, 254, 255 };
    size_t whole_nodes = 0;
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
        for (int v = 0; v < 4; v++) {
            int json = v & 1, all = v >> 1;
            double th = v == 2 ? 2.0 : 0.0;
            size_t n1, n2;
            char *whole = report_of(log, len, 0, json, all, th, depths[i], &n1);
            char *bounded = report_of(log, len, depths[i], json, all, th, depths[i], &n2);
            if (strcmp(whole, bounded) != 0)
                fail_msg("--max-depth %u (json %d, all %d): the bounded aggregate reports "
                         "otherwise", depths[i], json, all);
            assert_true(n2 <= n1);
            whole_nodes = n1;
            if (depths[i] <= 5)
                assert_true(n2 * 4 < n1);       /* and it is smaller */
            free(whole);
            free(bounded);
        }
    }
    assert_true(whole_nodes > 50000);
    free(log);
}

/* ---- the heap profile charges too ----------------------------------------- */

/* A -hy-like log of `censuses` censuses, each with `bands` new band names
 * (164 samples): the band table grows with the log. */
static uint8_t *heap_log(uint32_t censuses, uint32_t bands, size_t *len)
{
    el_writer *w = el_writer_create_mem();
    el_writer_declare_ghc(w, EL_GHC_9_0);
    el_writer_heap_prof_begin(w, 0, 0, 100000000, 5 /* -hy */, NULL);
    char name[48];
    uint64_t t = 1000;
    for (uint32_t c = 0; c < censuses; c++) {
        el_writer_heap_sample_begin(w, t++, c);
        for (uint32_t b = 0; b < bands; b++) {
            snprintf(name, sizeof name, "Type_%u_of_census_%u", b, c);
            el_writer_heap_sample_string(w, t++, 0, 1024 + b, name);
        }
        el_writer_heap_sample_end(w, t++, c);
    }
    assert_int_equal(el_writer_finish(w), EV_OK);
    const uint8_t *bytes = el_writer_borrow_bytes(w, len);
    uint8_t *copy = malloc(*len);
    memcpy(copy, bytes, *len);
    el_writer_destroy(w);
    return copy;
}

static void test_heap_stops_at_limit(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = heap_log(100, 1000, &len);       /* 100 000 bands */
    for (int limited = 1; limited >= 0; limited--) {
        ev_budget *b = ev_budget_create(limited ? 1u << 20 : 256u << 20);
        ev_driver_opts o;
        ev_driver_opts_init(&o);
        o.budget = b;
        ev_driver *d = ev_driver_create(&o);
        heap_opts ho;
        heap_opts_init(&ho);
        heap_profile *h = heap_create(&ho, NULL, NULL);
        assert_int_equal(ev_driver_attach(d, &heap_analysis_ops, h), 0);
        const ev_stream *s = ev_driver_run_mem(d, log, len);
        heap_counts c;
        heap_count(h, &c);
        if (limited) {
            assert_true(s->stopped);
            assert_string_equal(s->stopped_by, heap_analysis_ops.name);
            assert_true(c.over_budget);
            assert_true(c.bands > 1000 && c.bands < 100000);
            assert_true(c.bytes <= 1u << 20 && c.bytes > (1u << 20) / 2);
        } else {
            assert_false(s->stopped);
            assert_false(c.over_budget);
            assert_int_equal(c.bands, 100000);
            assert_int_equal(c.censuses, 100);
            assert_int_equal(c.bytes, ev_budget_used(b));
        }
        ev_driver_destroy(d);
        heap_destroy(h);
        assert_int_equal(ev_budget_used(b), 0);
        ev_budget_destroy(b);
    }
    free(log);
}

/* ---- ticky counters charge too --------------------------------------------- */

static void test_ticky_stops_at_limit(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    el_writer_declare_ghc(w, EL_GHC_9_2);
    char name[48];
    for (uint64_t id = 1; id <= 50000; id++) {
        snprintf(name, sizeof name, "f_%llu{v r123} (Main)", (unsigned long long)id);
        el_writer_ticky_def(w, id, EL_TICKY_DEF_BASIC, id, 2, "pi", name, 0, NULL);
    }
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *log = el_writer_borrow_bytes(w, &len);
    for (int limited = 1; limited >= 0; limited--) {
        ev_budget *b = ev_budget_create(limited ? 1u << 20 : 256u << 20);
        ev_driver_opts o;
        ev_driver_opts_init(&o);
        o.budget = b;
        ev_driver *d = ev_driver_create(&o);
        ticky_set *t = ticky_create();
        assert_int_equal(ev_driver_attach(d, &ticky_analysis_ops, t), 0);
        const ev_stream *s = ev_driver_run_mem(d, log, len);
        ticky_counts c;
        ticky_count(t, &c);
        if (limited) {
            assert_true(s->stopped);
            assert_true(c.over_budget);
            assert_true(c.counters > 1000 && c.counters < 50000);
            assert_true(c.bytes <= 1u << 20);
            assert_int_equal(ticky_status(t), EV_ERR_LIMIT);
        } else {
            assert_false(s->stopped);
            assert_false(c.over_budget);
            assert_int_equal(ticky_status(t), EV_OK);
            assert_int_equal(c.counters, 50000);
            assert_int_equal(c.bytes, ev_budget_used(b));
        }
        ev_driver_destroy(d);
        ticky_destroy(t);
        assert_int_equal(ev_budget_used(b), 0);
        ev_budget_destroy(b);
    }
    el_writer_destroy(w);
}

/* ---- the GC summary's series is charged ----------------------------------- */

static void test_gc_series_charged(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    el_writer_declare_ghc(w, EL_GHC_9_0);
    el_writer_begin_block(w, 0, 0);
    for (uint64_t t = 1; t <= 100; t++) {
        el_writer_heap_allocated(w, t * 1000000, 0, t * 4096);
        el_writer_heap_size(w, t * 1000000 + 1, 0, (t % 7) << 20);
    }
    el_writer_end_block(w, 200000000);
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *log = el_writer_borrow_bytes(w, &len);
    for (int limited = 1; limited >= 0; limited--) {
        ev_budget *b = ev_budget_create(limited ? 1024 : 256u << 20);
        ev_driver_opts o;
        ev_driver_opts_init(&o);
        o.budget = b;
        ev_driver *d = ev_driver_create(&o);
        gc_summary *g = gc_create();
        assert_int_equal(gc_keep_series(g, 1000), 0);
        assert_int_equal(ev_driver_attach(d, &gc_analysis_ops, g), 0);
        const ev_stream *s = ev_driver_run_mem(d, log, len);
        if (limited) {
            assert_true(s->stopped);                /* 1000 buckets do not fit in 1 KiB */
        } else {
            assert_false(s->stopped);
            assert_true(ev_budget_used(b) >= 1000 * 4 * sizeof(uint64_t));
            gc_summary *snap = gc_snapshot(g);
            const gc_result *r = gc_get_result(snap);
            assert_int_equal(r->n_points, 100);     /* one bucket per millisecond's pair */
            assert_int_equal(r->points[99].allocated_bytes, 100 * 4096);
            gc_destroy(snap);
        }
        ev_driver_destroy(d);
        gc_destroy(g);
        assert_int_equal(ev_budget_used(b), 0);
        ev_budget_destroy(b);
    }
    el_writer_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_charge_and_limit),
        cmocka_unit_test(test_try_leaves_unmarked),
        cmocka_unit_test(test_no_budget_no_limit),
        cmocka_unit_test(test_parse_size),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_profile_stops_at_limit),
        cmocka_unit_test(test_cost_centres_charged),
        cmocka_unit_test(test_max_depth_bounds_aggregate),
        cmocka_unit_test(test_heap_stops_at_limit),
        cmocka_unit_test(test_ticky_stops_at_limit),
        cmocka_unit_test(test_gc_series_charged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
