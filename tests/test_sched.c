/* The scheduler's states (sched/machine.h) on hand-made sequences, and
 * the `threads` analysis (evprof/sched.h) on a hand-made log whose
 * answers are worked out in the comments: a thread's running time is its
 * capabilities' running intervals, so the threads add up to the
 * capabilities, which are the GC summary's mutator time; windows and a
 * capability clip them; partials merged in file order give the
 * sequential result. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evprof/driver.h"
#include "evprof/gc.h"
#include "evprof/sched.h"
#include "evprof/select.h"
#include "evprof/writer.h"
#include "sched/machine.h"

/* ---- the machines ------------------------------------------------------- */

static void check_span(sched_span s, uint8_t state, uint64_t from)
{
    assert_int_equal(s.state, state);
    if (state != SCHED_UNKNOWN)
        assert_int_equal(s.from, from);
}

static void test_cap_machine(void **state)
{
    (void)state;
    sched_cap c = { 0 };
    /* the first event closes nothing */
    check_span(sched_cap_step(&c, EL_RUN_THREAD, 10, 1), SCHED_UNKNOWN, 0);
    assert_int_equal(c.state, SCHED_RUNNING);
    assert_int_equal(c.thread, 1);
    sched_span s = sched_cap_step(&c, EL_STOP_THREAD, 30, 1);
    check_span(s, SCHED_RUNNING, 10);
    assert_int_equal(s.thread, 1);
    check_span(sched_cap_step(&c, EL_GC_START, 40, 0), SCHED_IDLE, 30);
    check_span(sched_cap_step(&c, EL_GC_END, 50, 0), SCHED_GC, 40);
    check_span(sched_cap_step(&c, EL_RUN_THREAD, 55, 7), SCHED_IDLE, 50);
    /* a RUN_THREAD without a STOP_THREAD: the first thread's interval ends */
    s = sched_cap_step(&c, EL_RUN_THREAD, 60, 8);
    check_span(s, SCHED_RUNNING, 55);
    assert_int_equal(s.thread, 7);
    /* a GC_START while running ends the running interval */
    s = sched_cap_step(&c, EL_GC_START, 70, 0);
    check_span(s, SCHED_RUNNING, 60);
    assert_int_equal(s.thread, 8);
    /* an event of another kind moves nothing */
    check_span(sched_cap_step(&c, EL_THREAD_WAKEUP, 75, 3), SCHED_UNKNOWN, 0);
    assert_int_equal(c.state, SCHED_GC);
    assert_int_equal(c.since, 70);
    /* the end closes the open interval; the state stays */
    check_span(sched_cap_close(&c, 90), SCHED_GC, 70);
    assert_int_equal(c.state, SCHED_GC);
    /* time going back: the interval is the caller's to find empty, the
     * state starts at the new time */
    check_span(sched_cap_step(&c, EL_GC_END, 80, 0), SCHED_GC, 90);
    assert_int_equal(c.since, 80);
}

static void test_thread_machine(void **state)
{
    (void)state;
    sched_thread t = { 0 };
    check_span(sched_thread_step(&t, EL_CREATE_THREAD, 5, 0), SCHED_UNKNOWN, 0);
    assert_int_equal(t.state, SCHED_RUNNABLE);
    check_span(sched_thread_step(&t, EL_RUN_THREAD, 10, 0), SCHED_RUNNABLE, 5);
    check_span(sched_thread_step(&t, EL_STOP_THREAD, 30, SCHED_STATUS_STM), SCHED_RUNNING, 10);
    assert_int_equal(t.state, SCHED_BLOCKED);
    check_span(sched_thread_step(&t, EL_THREAD_WAKEUP, 32, 0), SCHED_BLOCKED, 30);
    assert_int_equal(t.state, SCHED_RUNNABLE);
    /* woken while not blocked: nothing moves */
    check_span(sched_thread_step(&t, EL_THREAD_WAKEUP, 33, 0), SCHED_UNKNOWN, 0);
    assert_int_equal(t.since, 32);
    check_span(sched_thread_step(&t, EL_RUN_THREAD, 35, 0), SCHED_RUNNABLE, 32);
    check_span(sched_thread_step(&t, EL_STOP_THREAD, 45, SCHED_STATUS_YIELDING), SCHED_RUNNING,
               35);
    assert_int_equal(t.state, SCHED_RUNNABLE);
    check_span(sched_thread_step(&t, EL_MIGRATE_THREAD, 46, 0), SCHED_UNKNOWN, 0);
    check_span(sched_thread_step(&t, EL_RUN_THREAD, 50, 0), SCHED_RUNNABLE, 45);
    check_span(sched_thread_step(&t, EL_STOP_THREAD, 60, SCHED_STATUS_BLOCKED), SCHED_RUNNING,
               50);
    check_span(sched_thread_step(&t, EL_THREAD_RUNNABLE, 61, 0), SCHED_BLOCKED, 60);
    check_span(sched_thread_step(&t, EL_RUN_THREAD, 62, 0), SCHED_RUNNABLE, 61);
    check_span(sched_thread_step(&t, EL_STOP_THREAD, 70, SCHED_STATUS_FINISHED), SCHED_RUNNING,
               62);
    assert_int_equal(t.state, SCHED_FINISHED);
    check_span(sched_thread_close(&t, 90), SCHED_FINISHED, 70);
}

/* GHC's statuses: 1-5 StgRun's, 6 a foreign call, 6 + why_blocked */
static void test_statuses(void **state)
{
    (void)state;
    static const struct {
        uint16_t status;
        uint8_t state;
        sched_stop stop;
    } cases[] = {
        { 0, SCHED_RUNNABLE, SCHED_STOP_OTHER },
        { 1, SCHED_RUNNABLE, SCHED_STOP_HEAP },
        { 2, SCHED_RUNNABLE, SCHED_STOP_STACK },
        { 3, SCHED_RUNNABLE, SCHED_STOP_YIELD },
        { 4, SCHED_BLOCKED, SCHED_STOP_OTHER },
        { 5, SCHED_FINISHED, SCHED_STOP_FINISHED },
        { 6, SCHED_BLOCKED, SCHED_STOP_FOREIGN },
        { 7, SCHED_BLOCKED, SCHED_STOP_MVAR },
        { 8, SCHED_BLOCKED, SCHED_STOP_BLACK_HOLE },
        { 9, SCHED_BLOCKED, SCHED_STOP_IO },
        { 10, SCHED_BLOCKED, SCHED_STOP_IO },
        { 11, SCHED_BLOCKED, SCHED_STOP_DELAY },
        { 12, SCHED_BLOCKED, SCHED_STOP_STM },
        { 13, SCHED_BLOCKED, SCHED_STOP_IO },
        { 16, SCHED_BLOCKED, SCHED_STOP_OTHER },
        { 18, SCHED_BLOCKED, SCHED_STOP_THROW_TO },
        { 19, SCHED_BLOCKED, SCHED_STOP_OTHER },
        { 20, SCHED_BLOCKED, SCHED_STOP_MVAR },
        { 999, SCHED_BLOCKED, SCHED_STOP_OTHER },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(sched_stop_state(cases[i].status), cases[i].state);
        assert_int_equal(sched_stop_of(cases[i].status), cases[i].stop);
    }
    for (int k = 0; k < SCHED_STOPS; k++)
        assert_non_null(sched_stop_name((sched_stop)k));
    assert_null(sched_stop_name(SCHED_STOPS));
    assert_string_equal(sched_state_name(SCHED_BLOCKED), "blocked");
}

/* ---- the analysis on a hand-made log -------------------------------------------
 *
 * Three blocks, in this file order (cap 0's events in two of them, so
 * that a partial of the parallel read starts with thread 2 running):
 *   A, cap 0: CREATE 1 @5, LABEL 1 "worker" @6, RUN 1 @10, STOP 1 @30
 *             (STM retry), GC_START @40, GC_END @50, RUN 3 @52, STOP 3 @55
 *             (finished), RUN 2 @60
 *   B, cap 1: CREATE 2 @2, CREATE 3 @3, WAKEUP 1 @32, RUN 1 @35, STOP 1 @45
 *             (yield), MIGRATE 1 to cap 0 @46, RUN 1 @50 (running to the end)
 *   C, cap 0: STOP 2 @80 (finished), GC_START @120, GC_END @130
 * The log ends at 130.
 *   thread 1: running [10,30) cap 0 + [35,45) + [50,130) cap 1 = 110 in 3
 *             runs, 1 STM stop, 1 yield, 1 migration; running at the end
 *   thread 2: running [60,80) = 20 in 1 run, finished at 80
 *   thread 3: running [52,55) = 3, finished at 55 (its CREATE_THREAD,
 *             older, comes after in the file)
 *   cap 0: running 43, GC [40,50) + [120,130) = 20, idle 67, 3 runs
 *   cap 1: running 90, idle 40, 2 runs */
static void put_thread_cap(el_writer *w, uint16_t type, uint64_t t, uint32_t th, uint16_t cap)
{
    uint8_t p[6] = { (uint8_t)(th >> 24), (uint8_t)(th >> 16), (uint8_t)(th >> 8), (uint8_t)th,
                     (uint8_t)(cap >> 8), (uint8_t)cap };
    assert_int_equal(el_writer_event(w, type, t, p, sizeof p), EV_OK);
}

static uint8_t *hand_log(size_t *len)
{
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EV_OK);
    el_writer_begin_block(w, 0, 5);
    el_writer_create_thread(w, 5, 1);
    el_payload p;
    el_payload_init(&p);
    el_payload_u32(&p, 1);
    el_payload_text(&p, "worker");
    assert_int_equal(el_writer_event_payload(w, EL_THREAD_LABEL, 6, &p), EV_OK);
    el_payload_free(&p);
    el_writer_run_thread(w, 10, 1);
    el_writer_stop_thread(w, 30, 1, SCHED_STATUS_STM, 0);
    el_writer_gc_start(w, 40);
    el_writer_gc_end(w, 50);
    el_writer_run_thread(w, 52, 3);
    el_writer_stop_thread(w, 55, 3, SCHED_STATUS_FINISHED, 0);
    el_writer_run_thread(w, 60, 2);
    el_writer_end_block(w, 60);
    el_writer_begin_block(w, 1, 2);
    el_writer_create_thread(w, 2, 2);
    el_writer_create_thread(w, 3, 3);
    put_thread_cap(w, EL_THREAD_WAKEUP, 32, 1, 1);
    el_writer_run_thread(w, 35, 1);
    el_writer_stop_thread(w, 45, 1, SCHED_STATUS_YIELDING, 0);
    put_thread_cap(w, EL_MIGRATE_THREAD, 46, 1, 0);
    el_writer_run_thread(w, 50, 1);
    el_writer_end_block(w, 50);
    el_writer_begin_block(w, 0, 80);
    el_writer_stop_thread(w, 80, 2, SCHED_STATUS_FINISHED, 0);
    el_writer_gc_start(w, 120);
    el_writer_gc_end(w, 130);
    el_writer_end_block(w, 130);
    assert_int_equal(el_writer_finish(w), EV_OK);
    const uint8_t *bytes = el_writer_borrow_bytes(w, len);
    uint8_t *copy = malloc(*len);
    memcpy(copy, bytes, *len);
    el_writer_destroy(w);
    return copy;
}

/* The log read by a driver under `sel`, with the GC summary beside. */
static sched_result *read_log(const uint8_t *buf, size_t len, const ev_select *sel,
                              gc_summary **gc_out)
{
    ev_driver_opts o;
    ev_driver_opts_init(&o);
    o.select = sel;
    ev_driver *d = ev_driver_create(&o);
    sched_summary *s = sched_create();
    gc_summary *g = gc_create();
    assert_non_null(d);
    assert_non_null(s);
    assert_non_null(g);
    assert_int_equal(ev_driver_attach(d, &sched_analysis_ops, s), 0);
    assert_int_equal(ev_driver_attach(d, &gc_analysis_ops, g), 0);
    const ev_stream *st = ev_driver_run_mem(d, buf, len);
    assert_int_equal(st->read.status, EV_END);
    sched_result *r = sched_snapshot(s);
    assert_non_null(r);
    *gc_out = gc_snapshot(g);
    assert_non_null(*gc_out);
    ev_driver_destroy(d);
    sched_destroy(s);
    gc_destroy(g);
    return r;
}

static const sched_thread_row *thread_of(const sched_result *r, uint32_t id)
{
    for (size_t i = 0; i < r->n_threads; i++)
        if (r->threads[i].id == id)
            return &r->threads[i];
    return NULL;
}

/* Every capability's running time is the GC summary's mutator time, and
 * the threads add up to it. */
static void check_sums(const sched_result *r, const gc_summary *g)
{
    const gc_result *gr = gc_get_result(g);
    assert_non_null(gr);
    assert_int_equal(gr->n_caps, r->n_caps);
    uint64_t threads = 0, caps = 0;
    for (uint32_t i = 0; i < r->n_caps; i++) {
        assert_int_equal(r->caps[i].cap, gr->caps[i].cap);
        assert_int_equal(r->caps[i].running_ns, gr->caps[i].mutator_ns);
        caps += r->caps[i].running_ns;
    }
    for (size_t i = 0; i < r->n_threads; i++)
        threads += r->threads[i].running_ns;
    assert_int_equal(threads, caps);
    assert_int_equal(caps, r->running_ns);
}

static void test_hand_log(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = hand_log(&len);
    gc_summary *g;
    sched_result *r = read_log(buf, len, NULL, &g);
    check_sums(r, g);
    assert_true(r->has_events);
    assert_false(r->selected);
    assert_int_equal(r->total_ns, 130);
    assert_int_equal(r->n_threads, 3);
    const sched_thread_row *t1 = thread_of(r, 1), *t2 = thread_of(r, 2), *t3 = thread_of(r, 3);
    assert_non_null(t1);
    assert_non_null(t2);
    assert_non_null(t3);
    assert_string_equal(t1->label, "worker");
    assert_int_equal(t1->caps, 3);
    assert_int_equal(t1->created_ns, 5);
    assert_true(t1->finished_ns == SCHED_NO_TIME);
    assert_int_equal(t1->running_ns, 110);
    assert_int_equal(t1->runs, 3);
    assert_int_equal(t1->stops[SCHED_STOP_STM], 1);
    assert_int_equal(t1->stops[SCHED_STOP_YIELD], 1);
    assert_int_equal(t1->migrations, 1);
    assert_int_equal(t1->state, SCHED_RUNNING);
    assert_null(t2->label);
    assert_int_equal(t2->caps, 1);
    assert_int_equal(t2->created_ns, 2);
    assert_int_equal(t2->finished_ns, 80);
    assert_int_equal(t2->running_ns, 20);
    assert_int_equal(t2->runs, 1);
    assert_int_equal(t2->stops[SCHED_STOP_FINISHED], 1);
    /* its CREATE_THREAD (2, cap 1) comes after its RUN_THREAD (60, cap 0)
     * in the file: the state is that of its latest event */
    assert_int_equal(t2->state, SCHED_FINISHED);
    assert_int_equal(t3->running_ns, 3);
    assert_int_equal(t3->created_ns, 3);
    assert_int_equal(t3->finished_ns, 55);
    assert_int_equal(t3->state, SCHED_FINISHED);
    assert_int_equal(r->n_caps, 2);
    assert_int_equal(r->caps[0].running_ns, 43);
    assert_int_equal(r->caps[0].gc_ns, 20);
    assert_int_equal(r->caps[0].idle_ns, 67);
    assert_int_equal(r->caps[0].runs, 3);
    assert_int_equal(r->caps[0].state, SCHED_IDLE);
    assert_int_equal(r->caps[1].running_ns, 90);
    assert_int_equal(r->caps[1].gc_ns, 0);
    assert_int_equal(r->caps[1].idle_ns, 40);
    assert_int_equal(r->caps[1].state, SCHED_RUNNING);
    assert_int_equal(r->caps[1].thread, 1);
    assert_int_equal(r->stops[SCHED_STOP_STM], 1);
    sched_result_destroy(r);
    gc_destroy(g);
    free(buf);
}

/* The window [20, 60): thread 1 runs [20,30) + [35,45) + [50,60) = 30, in
 * 2 runs (35, 50), its STM stop (30), yield (45) and migration (46)
 * inside; thread 3 runs [52,55); thread 2 has no event inside and does
 * not run there. Capability 1 alone: thread 1's 10 + 80 there; threads 2
 * and 3 are created there. */
static void test_hand_log_selected(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = hand_log(&len);
    ev_span w = { 20, 60 };
    ev_select *sel = ev_select_create(&w, 1, -1);
    gc_summary *g;
    sched_result *r = read_log(buf, len, sel, &g);
    check_sums(r, g);
    assert_true(r->selected);
    assert_int_equal(r->total_ns, 40);
    assert_int_equal(r->n_threads, 2);
    assert_int_equal(r->threads_seen, 3);
    assert_null(thread_of(r, 2));
    assert_int_equal(thread_of(r, 3)->running_ns, 3);
    const sched_thread_row *t1 = thread_of(r, 1);
    assert_non_null(t1);
    assert_int_equal(t1->running_ns, 30);
    assert_int_equal(t1->runs, 2);
    assert_int_equal(t1->stops[SCHED_STOP_STM], 1);
    assert_int_equal(t1->stops[SCHED_STOP_YIELD], 1);
    assert_int_equal(t1->migrations, 1);
    sched_result_destroy(r);
    gc_destroy(g);
    ev_select_destroy(sel);

    ev_span all = { 0, UINT64_MAX };
    sel = ev_select_create(&all, 1, 1);
    r = read_log(buf, len, sel, &g);
    assert_int_equal(r->n_caps, 1);
    assert_int_equal(r->caps[0].cap, 1);
    assert_int_equal(r->running_ns, 90);
    assert_int_equal(r->n_threads, 3);
    assert_int_equal(thread_of(r, 1)->running_ns, 90);
    assert_int_equal(thread_of(r, 1)->caps, 2);
    assert_int_equal(thread_of(r, 2)->running_ns, 0);
    sched_result_destroy(r);
    gc_destroy(g);
    ev_select_destroy(sel);
    free(buf);
}

/* ---- partials ------------------------------------------------------------------ */

typedef struct split {
    void *part[3];
    int block;
    uint16_t cap;
} split;

/* one partial per block, as the parallel read makes one per range */
static int to_block(void *ctx, const el_event *ev, const el_decoder *d)
{
    (void)d;
    split *s = ctx;
    if (ev->type == EL_BLOCK_MARKER) {
        s->block++;
        return 0;
    }
    ev_stream st;
    memset(&st, 0, sizeof st);
    return sched_analysis_ops.event(s->part[s->block], ev, &st);
}

static void test_partials(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = hand_log(&len);
    gc_summary *g;
    sched_result *seq = read_log(buf, len, NULL, &g);
    gc_destroy(g);

    sched_summary *whole = sched_create();
    split s = { .block = -1 };
    for (int i = 0; i < 3; i++)
        assert_non_null(s.part[i] = sched_analysis_ops.fork(whole));
    el_read_result rr = el_read_mem(buf, len, to_block, &s, NULL);
    assert_int_equal(rr.status, EV_END);
    assert_int_equal(s.block, 2);
    for (int i = 0; i < 3; i++) {
        assert_int_equal(sched_analysis_ops.merge(whole, s.part[i]), 0);
        sched_analysis_ops.drop(s.part[i]);
    }
    ev_stream st;
    memset(&st, 0, sizeof st);
    st.read = rr;
    sched_analysis_ops.end(whole, &st);
    sched_result *par = sched_snapshot(whole);
    assert_non_null(par);
    assert_int_equal(par->n_threads, seq->n_threads);
    assert_int_equal(par->n_caps, seq->n_caps);
    for (size_t i = 0; i < seq->n_threads; i++) {
        const sched_thread_row *a = &seq->threads[i], *b = &par->threads[i];
        assert_int_equal(a->id, b->id);
        assert_int_equal(a->running_ns, b->running_ns);
        assert_int_equal(a->runs, b->runs);
        assert_int_equal(a->created_ns, b->created_ns);
        assert_int_equal(a->finished_ns, b->finished_ns);
        assert_int_equal(a->caps, b->caps);
        assert_int_equal(a->state, b->state);
        assert_memory_equal(a->stops, b->stops, sizeof a->stops);
        assert_true((a->label == NULL) == (b->label == NULL));
    }
    for (uint32_t i = 0; i < seq->n_caps; i++)
        assert_memory_equal(&seq->caps[i], &par->caps[i], sizeof seq->caps[i]);
    sched_result_destroy(par);
    sched_result_destroy(seq);
    sched_destroy(whole);
    free(buf);
}

/* The table and the JSON of a result: every thread, the sums line. */
static void test_reports(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = hand_log(&len);
    gc_summary *g;
    sched_result *r = read_log(buf, len, NULL, &g);
    char *text = NULL;
    size_t tlen = 0;
    FILE *m = open_memstream(&text, &tlen);
    assert_int_equal(sched_report_text(r, m), 0);
    assert_int_equal(sched_report_json(r, "x.eventlog", m), 0);
    assert_int_equal(fclose(m), 0);
    assert_non_null(strstr(text, "  Thread  Label   Caps  Created (s)  Finished (s)  Running (s)"
                                 "  Runs  yield  stm\n"
                                 "       1  worker  0,1      0.000000             -     0.000000"
                                 "     3      1    1\n"));
    assert_non_null(strstr(text, "Running time: the threads' 0.000000 s, the capabilities' "
                                 "0.000000 s"));
    assert_non_null(strstr(text, "Allocation per thread: n/a"));
    assert_non_null(strstr(text, "{\"id\": 1, \"label\": \"worker\", \"caps\": [0, 1], "
                                 "\"caps_over\": false, \"created_ns\": 5, \"finished_ns\": null, "
                                 "\"running_ns\": 110, \"runs\": 3"));
    assert_non_null(strstr(text, "\"allocated_bytes\": null"));
    free(text);
    sched_result_destroy(r);
    gc_destroy(g);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cap_machine),
        cmocka_unit_test(test_thread_machine),
        cmocka_unit_test(test_statuses),
        cmocka_unit_test(test_hand_log),
        cmocka_unit_test(test_hand_log_selected),
        cmocka_unit_test(test_partials),
        cmocka_unit_test(test_reports),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
