/* The driver: one read feeds every analysis, type selection, the
 * time-ordered replay, stopping, and the stream facts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evprof/driver.h"
#include "evprof/writer.h"

/* Two capabilities, written block by block: cap 0's block holds times
 * 100..104, cap 1's block 50..54 (earlier, but later in the file), then
 * cap 0 again 200..201. User messages carry their time as text. */
static uint8_t *two_caps(size_t *len)
{
    el_writer *w = el_writer_create_mem();
    char msg[32];

    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EL_WRITER_OK);
    el_writer_begin_block(w, 0, 100);
    for (uint64_t t = 100; t < 105; t++) {
        snprintf(msg, sizeof msg, "c0 %llu", (unsigned long long)t);
        el_writer_user_msg(w, t, msg);
    }
    el_writer_end_block(w, 104);
    el_writer_begin_block(w, 1, 50);
    for (uint64_t t = 50; t < 55; t++) {
        snprintf(msg, sizeof msg, "c1 %llu", (unsigned long long)t);
        el_writer_user_msg(w, t, msg);
        el_writer_gc_start(w, t);
    }
    el_writer_end_block(w, 54);
    el_writer_begin_block(w, 0, 200);
    el_writer_user_msg(w, 200, "c0 200");
    el_writer_user_msg(w, 201, "c0 201");
    el_writer_end_block(w, 201);
    assert_int_equal(el_writer_finish(w), EL_WRITER_OK);
    const uint8_t *b = el_writer_borrow_bytes(w, len);
    uint8_t *copy = malloc(*len);
    memcpy(copy, b, *len);
    el_writer_destroy(w);
    return copy;
}

typedef struct rec {
    uint64_t times[64];
    uint16_t caps[64];
    uint16_t types[64];
    size_t n;
    int ended;
    int stop_after;             /* stop the read after this many events; 0: never */
} rec;

static int rec_event(void *self, const el_event *ev, const ev_stream *s)
{
    rec *r = self;
    (void)s;
    if (ev->type == EL_BLOCK_MARKER)
        return 0;
    if (r->n < 64) {
        r->times[r->n] = ev->time;
        r->caps[r->n] = ev->cap;
        r->types[r->n] = ev->type;
    }
    r->n++;
    return r->stop_after && r->n >= (size_t)r->stop_after;
}

static void rec_end(void *self, const ev_stream *s)
{
    (void)s;
    ((rec *)self)->ended = 1;
}

static const uint16_t msg_types[] = { EL_USER_MSG };
static const ev_analysis_ops msgs_ops = { "msgs", msg_types, 1, 0, rec_event, rec_end, NULL, NULL };
static const ev_analysis_ops all_ops = { "all", NULL, 0, 0, rec_event, rec_end, NULL, NULL };
static const ev_analysis_ops ordered_ops = { "ordered", msg_types, 1, EV_ORDERED, rec_event,
                                             rec_end, NULL, NULL };

/* One read feeds two analyses: each sees exactly its types, in file order. */
static void test_one_read_two_analyses(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = two_caps(&len);
    rec msgs = { 0 }, all = { 0 };
    ev_driver *d = ev_driver_create(NULL);

    assert_int_equal(ev_driver_attach(d, &msgs_ops, &msgs), 0);
    assert_int_equal(ev_driver_attach(d, &all_ops, &all), 0);
    const ev_stream *s = ev_driver_run_mem(d, log, len);
    assert_int_equal(s->read.status, EL_END);
    assert_false(ev_stream_damaged(s));
    assert_int_equal(msgs.n, 12);
    for (size_t i = 0; i < msgs.n; i++)
        assert_int_equal(msgs.types[i], EL_USER_MSG);
    assert_int_equal(msgs.times[0], 100);
    assert_int_equal(msgs.times[5], 50);     /* file order */
    assert_int_equal(msgs.caps[5], 1);
    assert_int_equal(all.n, 17);              /* 12 messages + 5 GC starts */
    assert_true(msgs.ended && all.ended);
    assert_int_equal(s->total_bytes, len);
    assert_true(s->read.has_time_span);
    assert_int_equal(s->read.first_time, 50);
    assert_int_equal(s->read.last_time, 201);
    assert_non_null(s->decoder);
    /* a driver runs once */
    assert_int_equal(ev_driver_attach(d, &all_ops, &all), -1);
    ev_driver_destroy(d);
    free(log);
}

/* An ordered analysis sees every event in time order with its own cap,
 * while a live one beside it sees file order. */
static void test_time_order(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = two_caps(&len);
    rec ord = { 0 }, live = { 0 };
    ev_driver *d = ev_driver_create(NULL);

    ev_driver_attach(d, &ordered_ops, &ord);
    ev_driver_attach(d, &msgs_ops, &live);
    const ev_stream *s = ev_driver_run_mem(d, log, len);
    assert_int_equal(s->read.status, EL_END);
    assert_int_equal(ord.n, 12);
    for (size_t i = 1; i < ord.n; i++)
        assert_true(ord.times[i - 1] <= ord.times[i]);
    assert_int_equal(ord.times[0], 50);
    assert_int_equal(ord.caps[0], 1);
    assert_int_equal(ord.times[5], 100);
    assert_int_equal(ord.caps[5], 0);
    assert_int_equal(live.times[0], 100);
    ev_driver_destroy(d);
    free(log);
}

/* An analysis that stops the read: the stream says so and by whom, and
 * nobody gets more events. */
static void test_stop(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = two_caps(&len);
    rec a = { .stop_after = 3 }, b = { 0 };
    ev_driver *d = ev_driver_create(NULL);

    ev_driver_attach(d, &msgs_ops, &a);
    ev_driver_attach(d, &msgs_ops, &b);
    const ev_stream *s = ev_driver_run_mem(d, log, len);
    assert_true(s->stopped);
    assert_int_equal(s->read.status, EL_STOPPED);   /* not a clean end */
    assert_string_equal(s->stopped_by, "msgs");
    assert_true(ev_stream_damaged(s));
    assert_int_equal(a.n, 3);
    assert_int_equal(b.n, 2);   /* the stop came before b saw the third */
    ev_driver_destroy(d);
    free(log);
}

/* A truncated log: every event before the cut, then the error. */
static void test_truncated(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = two_caps(&len);
    rec a = { 0 };
    ev_driver *d = ev_driver_create(NULL);

    ev_driver_attach(d, &all_ops, &a);
    const ev_stream *s = ev_driver_run_mem(d, log, len - 21);   /* mid-event */
    assert_int_equal(s->read.status, EL_ERR_TRUNCATED);
    assert_true(ev_stream_damaged(s));
    assert_true(a.n > 0 && a.n < 17);
    assert_true(a.ended);
    /* the CLI's one-line form of the error */
    char line[256], want[256];
    el_error_format(line, sizeof line, &s->read.error);
    snprintf(want, sizeof want, " (event type %d USER_MSG)", EL_USER_MSG);
    assert_non_null(strstr(line, "byte"));
    assert_non_null(strstr(line, want));
    /* cut short, it stays a C string */
    char tiny[8];
    size_t n = el_error_format(tiny, sizeof tiny, &s->read.error);
    assert_int_equal(n, strlen(line));
    assert_int_equal(strlen(tiny), sizeof tiny - 1);
    ev_driver_destroy(d);
    free(log);
}

static int progress_calls;
static void on_progress(void *ctx, const ev_stream *s)
{
    (void)ctx;
    (void)s;
    progress_calls++;
}

static void test_progress(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = two_caps(&len);
    rec a = { 0 };
    ev_driver_opts o;
    ev_driver_opts_init(&o);
    o.progress = on_progress;
    ev_driver *d = ev_driver_create(&o);

    ev_driver_attach(d, &all_ops, &a);
    progress_calls = 0;
    ev_driver_run_mem(d, log, len);
    assert_true(progress_calls >= 2);   /* the first event and the end */
    ev_driver_destroy(d);
    free(log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_read_two_analyses),
        cmocka_unit_test(test_time_order),
        cmocka_unit_test(test_stop),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_progress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
