/* The memory budget (include/evprof/budget.h) and the time profile that
 * charges it: a limit reached stops the read, with the counts of what the
 * profile holds; charges from several threads add up exactly. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evprof/budget.h"
#include "evprof/driver.h"
#include "evprof/prof.h"
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
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EL_WRITER_OK);
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
    assert_int_equal(el_writer_finish(w), EL_WRITER_OK);
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
    assert_true(prof_failed(p));
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
    assert_int_equal(s->read.status, EL_END);
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
    int rc = 0;
    while (rc == 0 && el_decoder_next(dec, &ev) == EL_OK)
        rc = prof_add_event(p, &ev);
    assert_int_equal(rc, -1);
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
