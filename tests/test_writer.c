/* The eventlog writer's GHC headers (el_writer_declare_ghc) are the
 * headers real GHC versions write: every type, description and size, in
 * order, as listed in tests/data/writer/ (taken from real logs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "corpus.h"
#include "evprof/eventlog.h"
#include "evprof/show.h"
#include "evprof/writer.h"

/* The header el_writer_declare_ghc writes, as `ghc-events show` lists it. */
static void header_text(el_ghc_types set, el_textbuf *out)
{
    el_writer *w = el_writer_create_mem();
    assert_non_null(w);
    assert_int_equal(el_writer_declare_ghc(w, set), EV_OK);
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);

    el_decoder *d = el_decoder_create();
    assert_non_null(d);
    el_decoder_feed(d, bytes, len);
    el_event ev;
    assert_int_equal(el_decoder_next(d, &ev), EV_END);
    for (size_t i = 0; i < el_decoder_num_types(d); i++) {
        assert_int_equal(el_show_type(out, el_decoder_type_at(d, i)), EV_OK);
        el_textbuf_append(out, "\n", 1);
    }
    el_decoder_destroy(d);
    el_writer_destroy(w);
}

static void expect_header(el_ghc_types set, const char *path)
{
    size_t want_len;
    uint8_t *want = test_read_file(path, &want_len);
    assert_non_null(want);
    el_textbuf got;
    el_textbuf_init(&got);
    header_text(set, &got);
    if (got.len != want_len || memcmp(got.data, want, want_len) != 0)
        fail_msg("header of set %d differs from %s; it writes:\n%.*s", (int)set, path,
                 (int)got.len, got.data ? got.data : "");
    el_textbuf_free(&got);
    free(want);
}

static void test_ghc_9_0(void **state)
{
    (void)state;
    expect_header(EL_GHC_9_0, "tests/data/writer/ghc-9.0.types");
}

static void test_ghc_9_2(void **state)
{
    (void)state;
    expect_header(EL_GHC_9_2, "tests/data/writer/ghc-9.2.types");
}

static void test_ghc_9_12(void **state)
{
    (void)state;
    expect_header(EL_GHC_9_12, "tests/data/writer/ghc-9.12.types");
}

/* A type declared before el_writer_declare_ghc keeps its declaration. */
static void test_declared_first(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_type(w, EL_HEAP_SIZE, 12, "mine"), EV_OK);
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EV_OK);
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);
    el_decoder *d = el_decoder_create();
    el_decoder_feed(d, bytes, len);
    el_event ev;
    assert_int_equal(el_decoder_next(d, &ev), EV_END);
    assert_int_equal(el_decoder_num_types(d), 69);
    const el_event_type *t = el_decoder_type(d, EL_HEAP_SIZE);
    assert_non_null(t);
    assert_int_equal(t->desc.len, 4);
    assert_memory_equal(t->desc.ptr, "mine", 4);
    assert_int_equal(el_decoder_type_at(d, 0)->id, EL_HEAP_SIZE);
    el_decoder_destroy(d);
    el_writer_destroy(w);
}

static void test_unknown_set(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(w, (el_ghc_types)99), EV_ERR_USAGE);
    assert_string_equal(el_writer_error_msg(w), "unknown GHC type set 99");
    el_writer_destroy(w);
}

/* ---- IPE (169) as GHC writes it (GHC #24287) ------------------------- */

/* A log of two blocks: in the first, IPE records declared one byte long
 * (GHC 9.6.6), one byte short (earlier releases) and right, each followed
 * by a user marker; in the second, a record whose strings run past the
 * block's end (`bad`), then a block after it. Without `bad`, no damage. */
static const uint8_t *ipe_log(el_writer *w, int bad, size_t *len)
{
    static const int delta[] = { +1, -1, 0, +1 };
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_2), EV_OK);
    assert_int_equal(el_writer_begin_block(w, 0, 100), EV_OK);
    for (int i = 0; i < 4; i++) {
        char table[32], loc[32];
        snprintf(table, sizeof table, "sat_s%d_info", i);
        snprintf(loc, sizeof loc, "Sim.hs:%d:1-20", 10 + i);
        el_ipe_fields f = { 0x40f570u + 16u * (unsigned)i, table, "15", "[(Int, Int)]",
                            i == 3 ? "" : "report.scores", "Main", loc };
        assert_int_equal(el_writer_ipe(w, 110 + (uint64_t)i, &f, delta[i]), EV_OK);
        assert_int_equal(el_writer_event(w, EL_USER_MARKER, 111 + (uint64_t)i, "m", 1),
                         EV_OK);
    }
    assert_int_equal(el_writer_end_block(w, 150), EV_OK);
    assert_int_equal(el_writer_begin_block(w, 0, 200), EV_OK);
    if (bad) {
        /* strings cut by the block's end: the last NUL is missing */
        static const uint8_t cut[] = { 0, 0, 0, 0, 0, 0x41, 0, 0,
                                       'a', 0, 'b', 0, 'c', 0, 'd', 0, 'e', 0, 'f' };
        assert_int_equal(el_writer_event_unchecked(w, EL_IPE, 210, cut, sizeof cut),
                         EV_OK);
    } else {
        assert_int_equal(el_writer_event(w, EL_USER_MARKER, 210, "x", 1), EV_OK);
    }
    assert_int_equal(el_writer_end_block(w, 250), EV_OK);
    assert_int_equal(el_writer_begin_block(w, 0, 300), EV_OK);
    assert_int_equal(el_writer_event(w, EL_USER_MARKER, 310, "z", 1), EV_OK);
    assert_int_equal(el_writer_end_block(w, 350), EV_OK);
    assert_int_equal(el_writer_finish(w), EV_OK);
    return el_writer_borrow_bytes(w, len);
}

/* Every chunk size reads the strings up to their NULs, whatever the
 * declared length: every record whole, the markers after them intact,
 * the declared lengths that disagree counted (3 of 4), no damage; and
 * dump's text of each is ghc-events' ("Info Table: ADDR:DESC:NAME - LOC"). */
static void test_ipe_declared_length(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    size_t len;
    const uint8_t *bytes = ipe_log(w, 0, &len);
    for (size_t chunk = 1; chunk <= len; chunk += chunk < 64 ? 1 : 97) {
        el_decoder *d = el_decoder_create();
        el_decoder_set_resync(d, 1);
        el_decoder_count_types(d, 1);
        el_event ev;
        ev_status st = EV_NEED_INPUT;
        size_t n_ipe = 0, n_mark = 0;
        uint64_t next = 0;
        el_textbuf t;
        el_textbuf_init(&t);
        for (size_t pos = 0; pos < len && st == EV_NEED_INPUT; pos += chunk) {
            el_decoder_feed(d, bytes + pos, chunk < len - pos ? chunk : len - pos);
            while ((st = el_decoder_next(d, &ev)) == EV_OK) {
                if (next)
                    assert_int_equal(ev.offset, next);  /* records tile the data */
                next = ev.offset + ev.size;
                if (ev.type == EL_USER_MARKER)
                    n_mark++;
                if (ev.type != EL_IPE)
                    continue;
                assert_true(ev.decoded);
                assert_int_equal(ev.u.ipe.info, 0x40f570u + 16u * n_ipe);
                assert_int_equal(ev.u.ipe.module.len, 4);
                assert_memory_equal(ev.u.ipe.module.ptr, "Main", 4);
                assert_int_equal(el_decoder_record_size(d, ev.record, ev.size), ev.size);
                if (n_ipe == 0) {
                    el_textbuf_reset(&t);
                    assert_int_equal(el_show_event(&t, &ev), EV_OK);
                    assert_int_equal(t.len, strlen("Info Table: 40f570:15:sat_s0_info - "
                                                   "Sim.hs:10:1-20"));
                    assert_memory_equal(t.data, "Info Table: 40f570:15:sat_s0_info - "
                                        "Sim.hs:10:1-20", t.len);
                }
                n_ipe++;
            }
        }
        if (st == EV_NEED_INPUT)
            st = el_decoder_finish(d);
        assert_int_equal(st, EV_END);
        assert_int_equal(n_ipe, 4);
        assert_int_equal(n_mark, 6);
        assert_int_equal(el_decoder_damage(d)->blocks, 0);
        const el_type_tally *tl = el_decoder_tally(d);
        for (size_t i = 0; i < el_decoder_num_types(d); i++)
            assert_int_equal(tl[i].declared_off,
                             el_decoder_type_at(d, i)->id == EL_IPE ? 3 : 0);
        el_textbuf_free(&t);
        el_decoder_destroy(d);
    }
    el_writer_destroy(w);
}

/* Strings that run past their block's end are damage: that block is
 * skipped, the next one read, at every chunk size. */
static void test_ipe_past_block(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    size_t len;
    const uint8_t *bytes = ipe_log(w, 1, &len);
    for (size_t chunk = 1; chunk <= len; chunk += chunk < 64 ? 1 : 97) {
        el_decoder *d = el_decoder_create();
        el_decoder_set_resync(d, 1);
        el_event ev;
        ev_status st = EV_NEED_INPUT;
        size_t n_mark = 0, saw_z = 0;
        for (size_t pos = 0; pos < len && st == EV_NEED_INPUT; pos += chunk) {
            el_decoder_feed(d, bytes + pos, chunk < len - pos ? chunk : len - pos);
            while ((st = el_decoder_next(d, &ev)) == EV_OK) {
                n_mark += ev.type == EL_USER_MARKER;
                saw_z += ev.type == EL_USER_MARKER && ev.time == 310;
            }
        }
        if (st == EV_NEED_INPUT)
            st = el_decoder_finish(d);
        assert_int_equal(st, EV_END);
        assert_int_equal(n_mark, 5);
        assert_int_equal(saw_z, 1);
        const el_damage *dm = el_decoder_damage(d);
        assert_int_equal(dm->blocks, 1);
        assert_int_equal(dm->first.type, EL_IPE);
        assert_non_null(strstr(dm->first.msg, "IPE strings not terminated"));
        el_decoder_destroy(d);
    }
    el_writer_destroy(w);
}

/* ---- the numbers of a run (merge): read and moved by the type table ---- */

typedef struct nums {
    uint32_t v[16];
    el_num_kind k[16];
    size_t n;
} nums;

static void collect_num(void *ctx, el_num_kind k, uint32_t v)
{
    nums *x = ctx;
    assert_true(x->n < 16);
    x->k[x->n] = k;
    x->v[x->n++] = v;
}

/* capabilities + 100, capsets + 1000, threads + 10000, cost centres * 2 */
static uint32_t move_num(void *ctx, el_num_kind k, uint32_t v)
{
    (void)ctx;
    return k == EL_NUM_CAP ? v + 100 : k == EL_NUM_CAPSET ? v + 1000
         : k == EL_NUM_THREAD ? v + 10000 : v * 2;
}

typedef struct seen {
    el_event ev[32];
    uint8_t bytes[32][512];
    size_t n;
} seen;

static void read_all(const uint8_t *buf, size_t len, seen *out)
{
    el_decoder *d = el_decoder_create();
    assert_non_null(d);
    el_decoder_feed(d, buf, len);
    el_event ev;
    out->n = 0;
    while (el_decoder_next(d, &ev) == EV_OK) {
        if (ev.type == EL_BLOCK_MARKER)
            continue;
        assert_true(out->n < 32 && ev.size <= 512);
        /* a copy of the record, its event re-pointed at it */
        memcpy(out->bytes[out->n], ev.record, ev.size);
        ev.payload = out->bytes[out->n] + (ev.payload - ev.record);
        ev.record = out->bytes[out->n];
        out->ev[out->n++] = ev;
    }
    el_decoder_destroy(d);
}

/* Each typed event's numbers, as el_event_numbers reads them from the
 * type table, are those the decoder's typed fields hold; moved by
 * el_writer_event_moved, the typed fields read back moved, the rest of
 * the record unchanged. */
static void test_numbers_moved(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EV_OK);
    el_writer_begin_block(w, 1, 1);
    el_writer_create_thread(w, 2, 7);
    el_writer_stop_thread(w, 3, 7, 14, 9);
    el_writer_stop_thread(w, 4, 8, 1, 0);           /* no blocker: 0 stays */
    el_writer_cap_create(w, 5, 3);
    el_writer_capset_assign_cap(w, 6, 2, 3);
    el_writer_heap_allocated(w, 7, 2, 4096);
    el_writer_cost_centre(w, 8, 21, "f", "Main", "a.hs:1:1", 0);
    uint32_t st[2] = { 21, 5 };
    el_writer_prof_sample(w, 9, 3, 1, 2, st);
    el_writer_heap_sample_cc(w, 10, 0, 64, 2, st);
    el_writer_end_block(w, 11);
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *b = el_writer_borrow_bytes(w, &len);
    seen *in = calloc(1, sizeof *in), *out = calloc(1, sizeof *out);
    assert_non_null(in);
    assert_non_null(out);
    read_all(b, len, in);
    assert_int_equal(in->n, 9);

    /* read: what the decoder's typed fields say */
    nums x = { 0 };
    el_event_numbers(&in->ev[0], collect_num, &x);
    assert_int_equal(x.n, 1);
    assert_int_equal(x.k[0], EL_NUM_THREAD);
    assert_int_equal(x.v[0], in->ev[0].u.thread.thread);
    x.n = 0;
    el_event_numbers(&in->ev[1], collect_num, &x);
    assert_int_equal(x.n, 2);
    assert_int_equal(x.v[0], in->ev[1].u.stop_thread.thread);
    assert_int_equal(x.v[1], in->ev[1].u.stop_thread.blocker);
    x.n = 0;
    el_event_numbers(&in->ev[2], collect_num, &x);
    assert_int_equal(x.n, 1);                       /* the 0 blocker names nothing */
    x.n = 0;
    el_event_numbers(&in->ev[4], collect_num, &x);
    assert_int_equal(x.n, 2);
    assert_int_equal(x.k[0], EL_NUM_CAPSET);
    assert_int_equal(x.v[0], in->ev[4].u.capset_cap.capset);
    assert_int_equal(x.k[1], EL_NUM_CAP);
    assert_int_equal(x.v[1], in->ev[4].u.capset_cap.cap);
    x.n = 0;
    el_event_numbers(&in->ev[7], collect_num, &x);  /* the sample: cap, then frames */
    assert_int_equal(x.n, 3);
    assert_int_equal(x.v[0], in->ev[7].u.prof_sample.cap);
    assert_int_equal(x.v[1], 21);
    assert_int_equal(x.v[2], 5);

    /* moved */
    el_writer *m = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(m, EL_GHC_9_0), EV_OK);
    for (size_t i = 0; i < in->n; i++)
        assert_int_equal(el_writer_event_moved(m, &in->ev[i], move_num, NULL), EV_OK);
    assert_int_equal(el_writer_finish(m), EV_OK);
    const uint8_t *mb = el_writer_borrow_bytes(m, &len);
    read_all(mb, len, out);
    assert_int_equal(out->n, in->n);
    assert_int_equal(out->ev[0].u.thread.thread, 10007);
    assert_int_equal(out->ev[1].u.stop_thread.thread, 10007);
    assert_int_equal(out->ev[1].u.stop_thread.blocker, 10009);
    assert_int_equal(out->ev[1].u.stop_thread.status, 14);
    assert_int_equal(out->ev[2].u.stop_thread.blocker, 0);
    assert_int_equal(out->ev[3].u.cap.cap, 103);
    assert_int_equal(out->ev[4].u.capset_cap.capset, 1002);
    assert_int_equal(out->ev[4].u.capset_cap.cap, 103);
    assert_int_equal(out->ev[5].u.heap.capset, 1002);
    assert_int_equal(out->ev[5].u.heap.bytes, 4096);
    assert_int_equal(out->ev[6].u.cost_centre.id, 42);
    assert_int_equal(out->ev[6].u.cost_centre.label.len, 1);
    assert_int_equal(out->ev[7].u.prof_sample.cap, 103);
    x.n = 0;        /* the frames (the decoded stacks went with their decoder) */
    el_event_numbers(&out->ev[7], collect_num, &x);
    assert_int_equal(x.n, 3);
    assert_int_equal(x.v[1], 42);
    assert_int_equal(x.v[2], 10);
    x.n = 0;
    el_event_numbers(&out->ev[8], collect_num, &x);
    assert_int_equal(x.n, 2);
    assert_int_equal(x.v[0], 42);
    assert_int_equal(out->ev[8].u.heap_sample_data.residency, 64);
    for (size_t i = 0; i < in->n; i++) {
        assert_int_equal(out->ev[i].time, in->ev[i].time);
        assert_int_equal(out->ev[i].payload_len, in->ev[i].payload_len);
    }
    free(in);
    free(out);
    el_writer_destroy(m);
    el_writer_destroy(w);
}

/* A block left open at finish ends at the latest time in it (GHC writes
 * a block's end time after its last event): a reader takes an event past
 * its block's end time for damage (issue 35). */
static int block_end_of(void *ctx, const el_event *ev, const el_decoder *d)
{
    (void)d;
    if (ev->type == EL_BLOCK_MARKER)
        *(uint64_t *)ctx = ev->u.block.end_time;
    return 0;
}

static void test_open_block_ends_at_its_latest(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_2), EV_OK);
    assert_int_equal(el_writer_begin_block(w, 0, 100), EV_OK);
    assert_int_equal(el_writer_event(w, EL_USER_MARKER, 250, "a", 1), EV_OK);
    assert_int_equal(el_writer_event(w, EL_USER_MARKER, 200, "b", 1), EV_OK);
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *b = el_writer_borrow_bytes(w, &len);
    uint64_t end = 0;
    el_read_result r = el_read_mem(b, len, block_end_of, &end, NULL);
    assert_int_equal(r.status, EV_END);
    assert_int_equal(r.damage.blocks, 0);
    assert_int_equal(r.events, 3);
    assert_int_equal(end, 250);
    el_writer_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ghc_9_0),
        cmocka_unit_test(test_ghc_9_2),
        cmocka_unit_test(test_ghc_9_12),
        cmocka_unit_test(test_declared_first),
        cmocka_unit_test(test_unknown_set),
        cmocka_unit_test(test_ipe_declared_length),
        cmocka_unit_test(test_ipe_past_block),
        cmocka_unit_test(test_numbers_moved),
        cmocka_unit_test(test_open_block_ends_at_its_latest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
