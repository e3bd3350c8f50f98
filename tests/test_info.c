/* The info analysis (info/info.c): what a log holds, through the driver,
 * with answers known by construction. */
#define _GNU_SOURCE /* open_memstream, memmem */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evprof/driver.h"
#include "evprof/info.h"
#include "evprof/writer.h"

/* Three capabilities (0, 1 by blocks; 2 only by CAP_CREATE), 6 samples
 * on cap 1, 4 user messages, program "./prog a 'b c'", times 1000..9000 */
static uint8_t *make_log(size_t *len)
{
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EV_OK);
    el_writer_rts_identifier(w, 1000, 0, "GHC-9.0.2 rts_thr_p");
    static const char *const argv[] = { "./prog", "a", "b c" };
    el_writer_program_args(w, 1000, 0, 3, argv);
    el_writer_cap_create(w, 1000, 2);
    el_writer_cost_centre(w, 1000, 1, "MAIN", "MAIN", "<built-in>", 0);
    el_writer_prof_begin(w, 1000, 1000000);
    el_writer_begin_block(w, 0, 2000);
    for (int i = 0; i < 4; i++)
        el_writer_user_msg(w, 2000 + (uint64_t)i, "hello");
    el_writer_end_block(w, 2003);
    el_writer_begin_block(w, 1, 3000);
    static const uint32_t stack[] = { 1 };
    for (int i = 0; i < 6; i++)
        el_writer_prof_sample(w, 3000 + 1000 * (uint64_t)i, 1, (uint64_t)i, 1, stack);
    el_writer_end_block(w, 8000);
    assert_int_equal(el_writer_finish(w), EV_OK);
    const uint8_t *b = el_writer_borrow_bytes(w, len);
    uint8_t *copy = malloc(*len);
    memcpy(copy, b, *len);
    el_writer_destroy(w);
    return copy;
}

static char *text_of(const info_log *in, int json)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    assert_non_null(f);
    assert_int_equal(json ? info_report_json(in, "x.eventlog", f)
                          : info_report_text(in, "x.eventlog", f), 0);
    fclose(f);
    return buf;
}

static void want_line(const char *text, const char *line)
{
    if (!strstr(text, line))
        fail_msg("no line '%s' in:\n%s", line, text);
}

static void test_counts(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = make_log(&len);
    info_log *in = info_create();
    ev_driver *d = ev_driver_create(NULL);
    ev_driver_attach(d, &info_analysis_ops, in);
    const ev_stream *s = ev_driver_run_mem(d, log, len);
    assert_int_equal(s->read.status, EV_END);

    char *t = text_of(in, 0);
    want_line(t, "status:        complete (end marker present)\n");
    want_line(t, "rts:           GHC-9.0.2 rts_thr_p\n");
    want_line(t, "program:       ./prog\narguments:     a 'b c'\n");
    want_line(t, "capabilities:  3 (seen in CAP_CREATE events, event blocks, profiling samples)\n");
    want_line(t, "time span:     0.000007 s (events from 0.000001 s to 0.000008 s after RTS start)\n");
    want_line(t, "   19  USER_MSG");
    want_line(t, "  167  PROF_SAMPLE_COST_CENTRE");
    want_line(t, "time profile     yes: 6 samples, 1 cost centre, tick interval 1.000 ms\n");
    want_line(t, "heap profile     no: ");
    free(t);

    char *j = text_of(in, 1);
    want_line(j, "\"status\": \"complete\"");
    want_line(j, "\"capabilities\": 3");
    want_line(j, "\"arguments\": [\"a\", \"b c\"]");
    want_line(j, "\"first_time_ns\": 1000,\n  \"last_time_ns\": 8000");
    free(j);
    ev_driver_destroy(d);
    info_destroy(in);
    free(log);
}

/* A cut log: the events before the cut, status TRUNCATED with its offset. */
static void test_truncated(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = make_log(&len);
    info_log *in = info_create();
    ev_driver *d = ev_driver_create(NULL);
    ev_driver_attach(d, &info_analysis_ops, in);
    const ev_stream *s = ev_driver_run_mem(d, log, len - 7);
    assert_int_equal(s->read.status, EV_ERR_TRUNCATED);
    char *t = text_of(in, 0);
    char want[128];
    snprintf(want, sizeof want, "status:        TRUNCATED at byte %llu",
             (unsigned long long)s->read.error.offset);
    want_line(t, want);
    want_line(t, "time profile     yes: 5 samples");
    free(t);
    char *j = text_of(in, 1);
    want_line(j, "\"status\": \"truncated\"");
    free(j);
    ev_driver_destroy(d);
    info_destroy(in);
    free(log);
}

typedef struct snapper {
    info_log *in;
    uint64_t events;
    int checked;
} snapper;

static int snap_feed(void *ctx, const el_event *ev, const el_decoder *dec)
{
    snapper *x = ctx;
    info_set_header(x->in, dec);
    info_add_event(x->in, ev);
    if (++x->events == 10) {
        info_log *snap = info_snapshot(x->in);
        assert_non_null(snap);
        char *t = text_of(snap, 0);
        want_line(t, "status:        still being read: the figures so far\n");
        want_line(t, "events:        10\n");
        free(t);
        char *j = text_of(snap, 1);
        want_line(j, "\"status\": \"reading\"");
        free(j);
        info_destroy(snap);
        x->checked = 1;
    }
    return 0;
}

/* A snapshot during the read shows the figures so far and changes
 * nothing for the end. */
static void test_snapshot(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = make_log(&len);
    snapper x = { info_create(), 0, 0 };
    el_read_result r = el_read_mem(log, len, snap_feed, &x, NULL);
    assert_true(x.checked);

    info_log *ref = info_create();
    ev_driver *d = ev_driver_create(NULL);
    ev_driver_attach(d, &info_analysis_ops, ref);
    const ev_stream *s = ev_driver_run_mem(d, log, len);
    /* the same end for both */
    info_set_stream(x.in, s);
    assert_int_equal(r.status, EV_END);
    char *a = text_of(x.in, 1), *b = text_of(ref, 1);
    assert_string_equal(a, b);
    free(a);
    free(b);
    ev_driver_destroy(d);
    info_destroy(ref);
    info_destroy(x.in);
    free(log);
}

/* Through the driver, info is called for a few types only; a snapshot
 * during the read still counts every event so far, whatever its type. */
typedef struct probe {
    info_log *in;
    int msgs;
    char *text;                 /* info's snapshot at the third user message */
} probe;

static int probe_event(void *self, const el_event *ev, const ev_stream *s)
{
    probe *p = self;
    (void)ev;
    (void)s;
    if (++p->msgs == 3) {
        info_log *snap = info_snapshot(p->in);
        assert_non_null(snap);
        p->text = text_of(snap, 1);
        info_destroy(snap);
    }
    return 0;
}

typedef struct counter {
    uint64_t events, msgs;
} counter;

static int count_to_third(void *ctx, const el_event *ev, const el_decoder *dec)
{
    counter *c = ctx;
    (void)dec;
    if (c->msgs < 3) {
        c->events++;
        c->msgs += ev->type == EL_USER_MSG;
    }
    return 0;
}

static void test_snapshot_driven(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = make_log(&len);
    counter c = { 0, 0 };
    el_read_mem(log, len, count_to_third, &c, NULL);
    assert_int_equal(c.msgs, 3);

    static const uint16_t msg_type[] = { EL_USER_MSG };
    const ev_analysis_ops probe_ops = {
        .name = "probe",
        .types = msg_type,
        .num_types = 1,
        .event = probe_event,
    };
    probe p = { info_create(), 0, NULL };
    ev_driver *d = ev_driver_create(NULL);
    ev_driver_attach(d, &info_analysis_ops, p.in);
    ev_driver_attach(d, &probe_ops, &p);
    ev_driver_run_mem(d, log, len);
    assert_non_null(p.text);
    char want[64];
    snprintf(want, sizeof want, "\"events\": %llu,", (unsigned long long)c.events);
    want_line(p.text, want);
    want_line(p.text, "\"status\": \"reading\"");
    want_line(p.text, "\"name\": \"USER_MSG\", \"description\": \"User message\", \"count\": 3,");
    want_line(p.text, "\"first_time_ns\": 1000,\n  \"last_time_ns\": 2003");  /* the block's end */
    free(p.text);
    /* and at the end, every event */
    char *t = text_of(p.in, 1);
    want_line(t, "\"count\": 4,");
    free(t);
    ev_driver_destroy(d);
    info_destroy(p.in);
    free(log);
}

/* The run's facts (info_get_facts), through info_facts_ops, which reads
 * only their few types: first PID and wall clock, capabilities created,
 * program and RTS; no counting of the other events. */
static void test_facts(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EV_OK);
    el_writer_rts_identifier(w, 1000, 0, "GHC-9.0.2 rts_thr_p");
    static const char *const argv[] = { "./prog", "a" };
    el_writer_program_args(w, 1000, 0, 2, argv);
    el_writer_os_pid(w, 1000, 0, 4242);
    el_writer_os_pid(w, 1000, 0, 7);
    el_writer_wall_clock(w, 1500, 0, 1700000000, 250);
    el_writer_wall_clock(w, 1600, 0, 1, 1);
    el_writer_cap_create(w, 1000, 0);
    el_writer_cap_create(w, 1000, 3);
    el_writer_begin_block(w, 0, 2000);
    el_writer_user_msg(w, 2000, "hello");
    el_writer_end_block(w, 2003);
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *log = el_writer_borrow_bytes(w, &len);

    for (int facts_only = 0; facts_only < 2; facts_only++) {
        info_log *in = info_create();
        ev_driver *d = ev_driver_create(NULL);
        ev_driver_attach(d, facts_only ? &info_facts_ops : &info_analysis_ops, in);
        const ev_stream *s = ev_driver_run_mem(d, log, len);
        assert_int_equal(s->read.status, EV_END);
        info_facts f;
        info_get_facts(in, &f);
        assert_int_equal(f.rts_len, strlen("GHC-9.0.2 rts_thr_p"));
        assert_memory_equal(f.rts, "GHC-9.0.2 rts_thr_p", f.rts_len);
        assert_int_equal(f.args_len, sizeof "./prog\0a");
        assert_memory_equal(f.args, "./prog\0a", f.args_len);
        assert_true(f.has_pid);
        assert_int_equal(f.pid, 4242);
        assert_true(f.has_wall);
        assert_int_equal(f.wall_sec, 1700000000);
        assert_int_equal(f.wall_nsec, 250);
        assert_int_equal(f.wall_event_time, 1500);
        assert_int_equal(f.caps_created, 2);
        assert_false(f.has_startup);
        /* neither is called for every event; the driver counts them for
         * info_analysis_ops, the facts only read their few types */
        const ev_analysis_ops *ops = facts_only ? &info_facts_ops : &info_analysis_ops;
        assert_int_equal(ops->flags & EV_ALL_EVENTS, 0);
        assert_int_equal((ops->flags & EV_COUNTS) != 0, !facts_only);
        char *j = text_of(in, 1);
        if (facts_only) {
            /* the read's: RTS, args, PIDs, clocks, caps and the block marker */
            want_line(j, "\"events\": 9,");
            free(j);
            ev_driver_destroy(d);
            info_destroy(in);
            continue;
        }
        want_line(j, "\"events\": 10,");  /* every event written above */
        want_line(j, "{\"id\": 19, \"name\": \"USER_MSG\", \"description\": \"User message\", "
                     "\"count\": 1, \"bytes\": 17}");   /* id, time, length, "hello" */
        free(j);
        ev_driver_destroy(d);
        info_destroy(in);
    }
    el_writer_destroy(w);
}

/* Every mark with its time, the first 50 in time order, then the count:
 * 120 marks of three labels, written out of order on two capabilities. */
static void test_marks_listed(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    el_writer_declare_ghc(w, EL_GHC_9_0);
    static const char *const labels[] = { "parse", "solve", "print" };
    for (int cap = 1; cap >= 0; cap--) {
        el_writer_begin_block(w, (uint16_t)cap, 0);
        for (int i = cap; i < 120; i += 2) {
            const char *l = labels[i % 3];
            el_writer_event(w, EL_USER_MARKER, 1000 + 1000 * (uint64_t)i, l, strlen(l));
        }
        el_writer_end_block(w, 200000);
    }
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *log = el_writer_borrow_bytes(w, &len);
    info_log *in = info_create();
    ev_driver *d = ev_driver_create(NULL);
    ev_driver_attach(d, &info_analysis_ops, in);
    assert_int_equal(ev_driver_run_mem(d, log, len)->read.status, EV_END);
    char *t = text_of(in, 0);
    want_line(t, "        0.000001  parse #1\n        0.000002  solve #1\n"
                 "        0.000003  print #1\n        0.000004  parse #2\n");
    want_line(t, "        0.000050  solve #17\n  (the first 50 of 120 marks: the counts per "
                 "label are above)\n");
    assert_null(strstr(t, "0.000051"));
    free(t);
    char *j = text_of(in, 1);
    want_line(j, "\"marks_total\": 120");
    want_line(j, "{\"label\": \"solve\", \"n\": 17, \"time_ns\": 50000}\n  ]");
    free(j);
    ev_driver_destroy(d);
    info_destroy(in);
    el_writer_destroy(w);
}

/* info_holds_ops: a flag per kind, whatever else is in the log; a forked
 * partial merges into the whole as the parallel read merges it. */
static void test_holds(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_2), EV_OK);
    el_writer_heap_prof_begin(w, 1000, 1, 100000000, 2, NULL);
    el_writer_begin_block(w, 0, 2000);
    el_writer_gc_start(w, 2000);
    el_writer_gc_end(w, 2100);
    el_writer_end_block(w, 2100);
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *log = el_writer_borrow_bytes(w, &len);
    info_holds k = { 0, 0, 0, 0 };
    ev_driver *d = ev_driver_create(NULL);
    assert_int_equal(ev_driver_attach(d, &info_holds_ops, &k), 0);
    assert_int_equal(ev_driver_run_mem(d, log, len)->read.status, EV_END);
    /* a HEAP_PROF_BEGIN without censuses, GC events, no ticky */
    assert_int_equal(k.heap_begin, 1);
    assert_int_equal(k.heap, 0);
    assert_int_equal(k.ticky, 0);
    assert_int_equal(k.gc, 1);
    ev_driver_destroy(d);
    el_writer_destroy(w);

    /* a partial that saw ticky and a census, merged: the union */
    info_holds *part = info_holds_ops.fork(&k);
    assert_non_null(part);
    assert_int_equal(part->gc + part->heap + part->heap_begin + part->ticky, 0);
    el_event ev;
    memset(&ev, 0, sizeof ev);
    ev.type = EL_TICKY_COUNTER_SAMPLE;
    assert_int_equal(info_holds_ops.event(part, &ev, NULL), 0);
    ev.type = EL_HEAP_BIO_PROF_SAMPLE_BEGIN;
    assert_int_equal(info_holds_ops.event(part, &ev, NULL), 0);
    assert_int_equal(info_holds_ops.merge(&k, part), 0);
    info_holds_ops.drop(part);
    assert_int_equal(k.heap_begin + k.heap + k.ticky + k.gc, 4);
}

/* info_analysis_for: the selected counts only under a selection */
static void test_analysis_for(void **state)
{
    (void)state;
    assert_ptr_equal(info_analysis_for(NULL), &info_analysis_ops);
    ev_span one = { 0, 1000 };
    ev_select *sel = ev_select_create(&one, 1, -1);
    assert_non_null(sel);
    assert_ptr_equal(info_analysis_for(sel), &info_selected_ops);
    ev_select_destroy(sel);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_snapshot),
        cmocka_unit_test(test_snapshot_driven),
        cmocka_unit_test(test_facts),
        cmocka_unit_test(test_marks_listed),
        cmocka_unit_test(test_holds),
        cmocka_unit_test(test_analysis_for),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
