/* The driver: one read feeds every analysis, type selection, the
 * time-ordered replay, stopping, and the stream facts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "driver/spool.h"
#include "evprof/driver.h"
#include "evprof/markers.h"
#include "evprof/writer.h"

/* Two capabilities, written block by block: cap 0's block holds times
 * 100..104, cap 1's block 50..54 (earlier, but later in the file), then
 * cap 0 again 200..201. User messages carry their time as text. */
static uint8_t *two_caps(size_t *len)
{
    el_writer *w = el_writer_create_mem();
    char msg[32];

    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EV_OK);
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
    assert_int_equal(el_writer_finish(w), EV_OK);
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
static const ev_analysis_ops msgs_ops = {
    .name = "msgs",
    .types = msg_types,
    .num_types = 1,
    .event = rec_event,
    .end = rec_end,
};
static const ev_analysis_ops all_ops = {
    .name = "all",
    .event = rec_event,
    .end = rec_end,
};
static const ev_analysis_ops ordered_ops = {
    .name = "ordered",
    .types = msg_types,
    .num_types = 1,
    .flags = EV_ORDERED,
    .event = rec_event,
    .end = rec_end,
};

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
    assert_int_equal(s->read.status, EV_END);
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
    /* the attached analyses, in order */
    const ev_analysis_ops *ops;
    void *self;
    assert_int_equal(ev_driver_analysis(d, 0, &ops, &self), 0);
    assert_ptr_equal(ops, &msgs_ops);
    assert_ptr_equal(self, &msgs);
    assert_int_equal(ev_driver_analysis(d, 1, &ops, &self), 0);
    assert_ptr_equal(ops, &all_ops);
    assert_ptr_equal(self, &all);
    assert_int_equal(ev_driver_analysis(d, 2, &ops, &self), -1);
    assert_int_equal(ev_driver_analysis(NULL, 0, &ops, &self), -1);
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
    assert_int_equal(s->read.status, EV_END);
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
    assert_int_equal(s->read.status, EV_STOPPED);   /* not a clean end */
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
    assert_int_equal(s->read.status, EV_ERR_TRUNCATED);
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

/* ---- the bounded time-ordered replay against a stable sort ------------- */

#define BIG 6000

typedef struct big_rec {
    uint64_t time[BIG];
    uint16_t cap[BIG];
    uint32_t seq[BIG];          /* the message's number, in file order */
    size_t n;
} big_rec;

static int big_event(void *self, const el_event *ev, const ev_stream *s)
{
    big_rec *r = self;
    (void)s;
    if (ev->type != EL_USER_MSG || r->n >= BIG)
        return 0;
    r->time[r->n] = ev->time;
    r->cap[r->n] = ev->cap;
    char num[16] = { 0 };
    memcpy(num, ev->u.text.str.ptr, ev->u.text.str.len < 15 ? ev->u.text.str.len : 15);
    r->seq[r->n] = (uint32_t)strtoul(num, NULL, 10);
    r->n++;
    return 0;
}

static const ev_analysis_ops big_live_ops = {
    .name = "live",
    .types = msg_types,
    .num_types = 1,
    .event = big_event,
};
static const ev_analysis_ops big_ordered_ops = {
    .name = "ordered",
    .types = msg_types,
    .num_types = 1,
    .flags = EV_ORDERED,
    .event = big_event,
};

static uint64_t rnd_state = 88172645463325252ull;
static uint64_t rnd(uint64_t n)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return rnd_state % n;
}

/* Blocks of four capabilities and of the global buffer (cap 0xffff), events
 * outside blocks, ties, times that run backwards inside a block, and GC
 * events with other times between the messages (types the ordered
 * analysis does not read, skipped inside its runs). */
static uint8_t *random_log(size_t *len)
{
    el_writer *w = el_writer_create_mem();
    char msg[32];
    uint32_t seq = 0;
    uint64_t clock[5] = { 0 };

    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EV_OK);
    while (seq < 5000) {
        unsigned k = (unsigned)rnd(6);         /* 0-3 caps, 4 global, 5 no block */
        uint16_t cap = k < 4 ? (uint16_t)k : 0xffff;
        uint64_t *t = &clock[k < 5 ? k : 4];
        if (k < 5)
            el_writer_begin_block(w, cap, *t);
        unsigned n = 1 + (unsigned)rnd(40);
        uint64_t latest = *t;   /* the block's end time: no event is later */
        for (unsigned i = 0; i < n; i++) {
            uint64_t step = rnd(10);
            if (rnd(20) == 0)
                *t = *t > 30 ? *t - rnd(30) : 0;     /* backwards */
            else
                *t += step / 3;                       /* many ties */
            snprintf(msg, sizeof msg, "%u", seq++);
            el_writer_user_msg(w, *t, msg);
            latest = *t > latest ? *t : latest;
            if (rnd(4) == 0) {
                uint64_t gc = rnd(1000);
                el_writer_gc_start(w, gc);
                latest = gc > latest ? gc : latest;
            }
        }
        if (k < 5)
            el_writer_end_block(w, latest);
    }
    assert_int_equal(el_writer_finish(w), EV_OK);
    const uint8_t *b = el_writer_borrow_bytes(w, len);
    uint8_t *copy = malloc(*len);
    memcpy(copy, b, *len);
    el_writer_destroy(w);
    return copy;
}

static big_rec *expected_order(const big_rec *live)
{
    /* a stable insertion sort by time: ties keep file order */
    big_rec *e = calloc(1, sizeof *e);
    *e = *live;
    for (size_t i = 1; i < e->n; i++)
        for (size_t j = i; j > 0 && e->time[j - 1] > e->time[j]; j--) {
            uint64_t t = e->time[j]; e->time[j] = e->time[j - 1]; e->time[j - 1] = t;
            uint16_t c = e->cap[j]; e->cap[j] = e->cap[j - 1]; e->cap[j - 1] = c;
            uint32_t q = e->seq[j]; e->seq[j] = e->seq[j - 1]; e->seq[j - 1] = q;
        }
    return e;
}

static void check_replay(const char *path, const uint8_t *log, size_t len)
{
    big_rec *live = calloc(1, sizeof *live), *ord = calloc(1, sizeof *ord);
    ev_driver *d = ev_driver_create(NULL);
    ev_driver_attach(d, &big_live_ops, live);
    ev_driver_attach(d, &big_ordered_ops, ord);
    const ev_stream *s = path ? ev_driver_run_path(d, path) : ev_driver_run_mem(d, log, len);
    assert_int_equal(s->read.status, EV_END);
    assert_false(ev_stream_damaged(s));
    assert_true(live->n >= 5000 && live->n < BIG);
    big_rec *e = expected_order(live);
    assert_int_equal(ord->n, e->n);
    for (size_t i = 0; i < e->n; i++) {
        assert_int_equal(ord->seq[i], e->seq[i]);
        assert_int_equal(ord->time[i], e->time[i]);
        assert_int_equal(ord->cap[i], e->cap[i]);   /* the block's cap, or EL_NO_CAP */
    }
    ev_driver_destroy(d);
    free(e);
    free(live);
    free(ord);
}

/* The ordered delivery is exactly a stable sort by time, from memory and
 * from a file read again by offset (pread). */
static void test_replay_is_stable_sort(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = random_log(&len);
    check_replay(NULL, log, len);

    char path[] = "/tmp/evprof-test-driver-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "wb");
    assert_int_equal(fwrite(log, 1, len, f), len);
    fclose(f);
    check_replay(path, log, len);
    unlink(path);
    free(log);
}

/* ---- the marks (ev_markers) ------------------------------------------ */

static void mark(el_writer *w, uint64_t t, const char *label)
{
    assert_int_equal(el_writer_event(w, EL_USER_MARKER, t, label, strlen(label)),
                     EV_OK);
}

/* Labels by first time, counts, each label's times ascending even when the
 * file holds them out of order (two capabilities), a label not there. */
static void test_markers(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EV_OK);
    el_writer_begin_block(w, 0, 100);
    mark(w, 100, "phase");
    mark(w, 150, "late");
    mark(w, 300, "phase");
    el_writer_end_block(w, 300);
    el_writer_begin_block(w, 1, 50);
    mark(w, 50, "early");
    mark(w, 200, "phase");
    el_writer_user_msg(w, 210, "phase");        /* a message, not a mark */
    el_writer_end_block(w, 210);
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *log = el_writer_borrow_bytes(w, &len);

    ev_markers *m = ev_markers_create();
    ev_driver *d = ev_driver_create(NULL);
    ev_driver_attach(d, &ev_markers_ops, m);
    assert_int_equal(ev_driver_run_mem(d, log, len)->read.status, EV_END);
    assert_int_equal(ev_markers_num_labels(m), 3);
    const ev_marker_label *l = ev_markers_label_at(m, 0);
    assert_string_equal(l->label, "early");
    assert_int_equal(l->first_ns, 50);
    l = ev_markers_label_at(m, 1);
    assert_string_equal(l->label, "phase");
    assert_int_equal(l->count, 3);
    assert_int_equal(l->first_ns, 100);
    assert_string_equal(ev_markers_label_at(m, 2)->label, "late");
    assert_null(ev_markers_label_at(m, 3));
    size_t n;
    const uint64_t *t = ev_markers_times(m, "phase", 5, &n);
    assert_int_equal(n, 3);
    assert_int_equal(t[0], 100);
    assert_int_equal(t[1], 200);
    assert_int_equal(t[2], 300);
    assert_null(ev_markers_times(m, "phas", 4, &n));
    assert_int_equal(n, 0);
    ev_driver_destroy(d);
    ev_markers_destroy(m);
    el_writer_destroy(w);
}

/* The time-ordered replay reads IPE records (169) by their strings too,
 * however the blocks interleave: here a capability's block marker comes
 * between another block's marker and its IPE record in time order, so a
 * replay that bounded the strings by the wrong block lost the record.
 * Every event is wanted, as `dump` wants them: the markers are replayed. */
static const ev_analysis_ops ipe_ordered_ops = {
    .name = "ordered",
    .flags = EV_ORDERED,
    .event = rec_event,
    .end = rec_end,
};

static void test_ordered_ipe_between_blocks(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_2), EV_OK);
    el_ipe_fields f = { 0x40f570, "sat_s3HJ_info", "15", "[(Int, Int)]", "report.scores",
                        "Main", "Sim.hs:46:14-85" };
    assert_int_equal(el_writer_begin_block(w, 0, 100), EV_OK);
    assert_int_equal(el_writer_ipe(w, 300, &f, +1), EV_OK);
    assert_int_equal(el_writer_end_block(w, 300), EV_OK);
    assert_int_equal(el_writer_begin_block(w, 1, 200), EV_OK);
    assert_int_equal(el_writer_gc_start(w, 400), EV_OK);
    assert_int_equal(el_writer_end_block(w, 400), EV_OK);
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *log = el_writer_borrow_bytes(w, &len);
    rec r = { 0 };
    ev_driver *d = ev_driver_create(NULL);
    assert_int_equal(ev_driver_attach(d, &ipe_ordered_ops, &r), 0);
    const ev_stream *st = ev_driver_run_mem(d, log, len);
    assert_int_equal(st->read.status, EV_END);
    assert_null(st->driver_stop);
    assert_false(ev_stream_damaged(st));
    size_t k = 0;
    while (k < r.n && r.types[k] != EL_IPE)
        k++;
    assert_true(k < r.n);
    assert_int_equal(r.times[k], 300);
    assert_int_equal(r.caps[k], 0);
    assert_int_equal(r.types[r.n - 1], EL_GC_START);
    ev_driver_destroy(d);
    el_writer_destroy(w);
}

/* ev_markers_first: the first marks in time order, each with its N, equal
 * to a sort of every mark; bounded whatever the count (labels x marks
 * random, times random, on two capabilities). */
static void test_markers_first(void **state)
{
    (void)state;
    uint64_t rng = 99;
    for (int round = 0; round < 20; round++) {
        el_writer *w = el_writer_create_mem();
        el_writer_declare_ghc(w, EL_GHC_9_0);
        enum { N = 400 };
        struct { uint64_t t; int label; } all[N];
        int nmarks = 1 + (int)((rng = rng * 6364136223846793005ull + 1) >> 40) % N;
        int nlabels = 1 + round % 7;
        for (int cap = 0; cap < 2; cap++) {
            el_writer_begin_block(w, (uint16_t)cap, 0);
            for (int i = cap; i < nmarks; i += 2) {
                rng = rng * 6364136223846793005ull + 1442695040888963407ull;
                /* times increase within a block; few distinct ones (ties) */
                all[i].t = (uint64_t)i * 10 + (rng >> 60) * 3;
                all[i].label = (int)((rng >> 33) % (uint64_t)nlabels);
                char lab[8];
                snprintf(lab, sizeof lab, "L%d", all[i].label);
                mark(w, all[i].t, lab);
            }
            el_writer_end_block(w, (uint64_t)nmarks * 10 + 50);
        }
        assert_int_equal(el_writer_finish(w), EV_OK);
        size_t len;
        const uint8_t *log = el_writer_borrow_bytes(w, &len);
        ev_markers *m = ev_markers_create();
        ev_driver *d = ev_driver_create(NULL);
        ev_driver_attach(d, &ev_markers_ops, m);
        assert_int_equal(ev_driver_run_mem(d, log, len)->read.status, EV_END);
        assert_int_equal(ev_markers_total(m), nmarks);
        ev_mark got[60];
        size_t want = nmarks < 50 ? (size_t)nmarks : 50;
        assert_int_equal(ev_markers_first(m, 50, got), want);
        for (size_t k = 0; k < want; k++) {
            /* the k-th smallest time, and the mark's N counts its label's
             * marks at or before it */
            if (k)
                assert_true(got[k - 1].time_ns <= got[k].time_ns);
            size_t below = 0, same_label_before = 0;
            for (int i = 0; i < nmarks; i++) {
                below += all[i].t < got[k].time_ns;
                char lab[8];
                snprintf(lab, sizeof lab, "L%d", all[i].label);
                if (strcmp(lab, got[k].label) == 0 && all[i].t < got[k].time_ns)
                    same_label_before++;
            }
            assert_true(below <= k);
            assert_true(got[k].nth >= same_label_before + 1);
            size_t n;
            const uint64_t *t = ev_markers_times(m, got[k].label, got[k].len, &n);
            assert_true(got[k].nth >= 1 && got[k].nth <= n);
            assert_int_equal(t[got[k].nth - 1], got[k].time_ns);
        }
        /* the 50 first times are the 50 smallest */
        uint64_t times[N];
        for (int i = 0; i < nmarks; i++)
            times[i] = all[i].t;
        for (int i = 1; i < nmarks; i++)
            for (int j = i; j > 0 && times[j - 1] > times[j]; j--) {
                uint64_t x = times[j];
                times[j] = times[j - 1];
                times[j - 1] = x;
            }
        for (size_t k = 0; k < want; k++)
            assert_int_equal(got[k].time_ns, times[k]);
        ev_driver_destroy(d);
        ev_markers_destroy(m);
        el_writer_destroy(w);
    }
}

/* The spool (driver/spool.h), in memory and in a file: its bytes read
 * back by offset, as a stream, and through the driver as the log. */
static void check_spool(const ev_spool *sp, const uint8_t *log, size_t len)
{
    uint8_t head[8];
    assert_int_equal(ev_spool_pread(sp, head, sizeof head, 0), (int64_t)sizeof head);
    assert_memory_equal(head, log, sizeof head);
    assert_int_equal(ev_spool_pread(sp, head, sizeof head, len - 3), 3);
    assert_int_equal(ev_spool_pread(sp, head, sizeof head, len + 10), 0);
    FILE *f = ev_spool_fopen(sp);
    assert_non_null(f);
    uint8_t *back = malloc(len + 1);
    assert_int_equal(fread(back, 1, len + 1, f), len);
    assert_memory_equal(back, log, len);
    fclose(f);
    free(back);
    for (int twice = 0; twice < 2; twice++) {
        rec msgs = { 0 };
        ev_driver *d = ev_driver_create(NULL);
        ev_driver_attach(d, &msgs_ops, &msgs);
        const ev_stream *s = ev_driver_run_spool(d, sp, "copy");
        assert_int_equal(s->read.status, EV_END);
        assert_int_equal(s->read.bytes, len);
        assert_int_equal(msgs.n, 12);
        ev_driver_destroy(d);
    }
}

static void test_spool(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = two_caps(&len);
    ev_spool sp;
    ev_spool_init_pipe(&sp, "the test's log");
    /* in pieces, appended */
    for (size_t at = 0; at < len; at += 7) {
        size_t n = len - at < 7 ? len - at : 7;
        assert_int_equal(ev_spool_put(&sp, sp.size, log + at, (uint32_t)n), 0);
    }
    assert_int_equal(ev_spool_flush(&sp), 0);
    assert_int_equal(sp.size, len);
    check_spool(&sp, log, len);
    ev_spool_free(&sp);

    char tmp[] = "/tmp/evprof-test-spoolXXXXXX";
    int fd = mkstemp(tmp);
    assert_true(fd >= 0);
    unlink(tmp);
    assert_int_equal(write(fd, log, len), (ssize_t)len);
    ev_spool_init_fd(&sp, fd, 1);
    sp.size = len;
    check_spool(&sp, log, len);
    ev_spool_free(&sp);
    free(log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_markers_first),
        cmocka_unit_test(test_one_read_two_analyses),
        cmocka_unit_test(test_ordered_ipe_between_blocks),
        cmocka_unit_test(test_time_order),
        cmocka_unit_test(test_replay_is_stable_sort),
        cmocka_unit_test(test_markers),
        cmocka_unit_test(test_stop),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_progress),
        cmocka_unit_test(test_spool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
