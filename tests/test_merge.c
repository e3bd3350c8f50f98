/* The merge engine (merge/merge.c): logs merged through the driver, the
 * result read back with answers known by construction: capabilities,
 * threads and capsets numbered after the previous logs', cost centres
 * matched by name (a name defined again dropped, a new one a fresh id,
 * the samples' stacks following), the header the union of the types; a
 * type declared with two sizes, too many capabilities, a write error. */
#define _GNU_SOURCE /* open_memstream */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "evprof/driver.h"
#include "evprof/merge.h"
#include "evprof/writer.h"

typedef struct log {
    uint8_t *buf;
    size_t len;
} log;

static log finished(el_writer *w)
{
    assert_int_equal(el_writer_finish(w), EV_OK);
    log l;
    const uint8_t *b = el_writer_borrow_bytes(w, &l.len);
    l.buf = malloc(l.len);
    memcpy(l.buf, b, l.len);
    el_writer_destroy(w);
    return l;
}

/* Capabilities 0 and 1 (`caps` blocks of the first one's number `cap0`),
 * thread 1 on each, cost centres MAIN (1) and `name` (2), a sample of
 * stack [2] on each capability. */
static log make_log(const char *name, uint16_t cap0)
{
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EV_OK);
    el_writer_cost_centre(w, 100, 1, "MAIN", "MAIN", "<built-in>", 0);
    el_writer_cost_centre(w, 100, 2, name, "Main", "Main.hs:1:1", 0);
    static const uint32_t stack[] = { 2 };
    for (uint16_t c = 0; c < 2; c++) {
        el_writer_begin_block(w, (uint16_t)(cap0 + c), 1000 + c);
        el_writer_create_thread(w, 1000 + c, 1 + c);
        el_writer_prof_sample(w, 1000 + c, cap0 + c, 1, 1, stack);
        el_writer_end_block(w, 1000 + c);
    }
    return finished(w);
}

/* One read of a log into an analysis of the merge. */
static void read_into(ev_merge *m, const ev_analysis_ops *ops, const log *l, size_t i)
{
    ev_merge_begin_log(m, i);
    ev_driver *d = ev_driver_create(NULL);
    assert_int_equal(ev_driver_attach(d, ops, m), 0);
    ev_driver_run_mem(d, l->buf, l->len);
    ev_driver_destroy(d);
}

/* Merges the logs into memory; the merged bytes, or NULL when a step failed
 * (*st: that step's status). */
static char *merge(const log *logs, size_t n, size_t *len, ev_status *st, ev_merge **keep)
{
    ev_merge *m = ev_merge_create(n);
    assert_non_null(m);
    ev_error e;
    char *out = NULL;
    *len = 0;
    *st = EV_OK;
    for (size_t i = 0; i < n && *st == EV_OK; i++) {
        read_into(m, &ev_merge_scan_ops, &logs[i], i);
        if ((*st = ev_merge_status(m, &e)) == EV_OK)
            *st = ev_merge_end_log(m, &e);
    }
    if (*st == EV_OK)
        *st = ev_merge_fits(m, &e);
    FILE *f = *st == EV_OK ? open_memstream(&out, len) : NULL;
    if (f && (*st = ev_merge_start(m, f, &e)) == EV_OK) {
        for (size_t i = 0; i < n && *st == EV_OK; i++) {
            read_into(m, &ev_merge_copy_ops, &logs[i], i);
            if ((*st = ev_merge_status(m, &e)) == EV_OK)
                *st = ev_merge_end_log(m, &e);
        }
        if (*st == EV_OK)
            *st = ev_merge_finish(m, &e);
    }
    if (f)
        fclose(f);
    if (keep)
        *keep = m;
    else
        ev_merge_destroy(m);
    if (*st != EV_OK) {
        free(out);
        return NULL;
    }
    return out;
}

/* What the merged log holds. */
typedef struct seen {
    int caps[8];                /* blocks per capability */
    int threads[16];            /* CREATE_THREAD per thread id */
    char names[8][16];          /* cost centre id -> label */
    int defs;
    int samples_of[8];          /* samples per innermost cost centre */
    int sample_cap_ok;          /* every sample's capability is its block's */
    uint16_t block_cap;
} seen;

static int see(void *ctx, const el_event *ev, const el_decoder *d)
{
    seen *s = ctx;
    (void)d;
    switch (ev->type) {
    case EL_BLOCK_MARKER:
        s->block_cap = ev->u.block.cap;
        if (ev->u.block.cap < 8)
            s->caps[ev->u.block.cap]++;
        break;
    case EL_CREATE_THREAD:
        if (ev->u.thread.thread < 16)
            s->threads[ev->u.thread.thread]++;
        break;
    case EL_HEAP_PROF_COST_CENTRE:
        s->defs++;
        if (ev->u.cost_centre.id < 8)
            snprintf(s->names[ev->u.cost_centre.id], sizeof s->names[0], "%.*s",
                     (int)ev->u.cost_centre.label.len, ev->u.cost_centre.label.ptr);
        break;
    case EL_PROF_SAMPLE_COST_CENTRE:
        if (ev->u.prof_sample.depth && ev->u.prof_sample.stack[0] < 8)
            s->samples_of[ev->u.prof_sample.stack[0]]++;
        if (ev->u.prof_sample.cap != s->block_cap)
            s->sample_cap_ok = 0;
        break;
    default:
        break;
    }
    return 0;
}

static void test_numbers_moved(void **state)
{
    (void)state;
    log logs[3] = { make_log("f", 0), make_log("g", 0), make_log("f", 0) };
    size_t len;
    ev_status st;
    char *out = merge(logs, 3, &len, &st, NULL);
    assert_int_equal(st, EV_OK);
    assert_non_null(out);
    seen s = { .sample_cap_ok = 1 };
    el_read_result r = el_read_mem(out, len, see, &s, NULL);
    assert_int_equal(r.status, EV_END);
    /* each log's two capabilities after the previous logs' */
    for (int c = 0; c < 6; c++)
        assert_int_equal(s.caps[c], 1);
    assert_int_equal(s.caps[6], 0);
    /* threads 1 and 2 of each log after the previous logs' numbers (0-2):
     * 1-2, 4-5, 7-8 */
    for (int t = 0; t < 16; t++)
        assert_int_equal(s.threads[t], t && t < 9 && t % 3 ? 1 : 0);
    /* MAIN and f kept, g new (3); the third log's MAIN and f dropped */
    assert_int_equal(s.defs, 3);
    assert_string_equal(s.names[1], "MAIN");
    assert_string_equal(s.names[2], "f");
    assert_string_equal(s.names[3], "g");
    /* the stacks follow: f's samples from logs 1 and 3, g's from log 2 */
    assert_int_equal(s.samples_of[2], 4);
    assert_int_equal(s.samples_of[3], 2);
    assert_true(s.sample_cap_ok);
    free(out);
    for (int i = 0; i < 3; i++)
        free(logs[i].buf);
}

/* A type declared by two logs with two sizes: the second log's scan
 * stops, naming the type, both sizes and the first log. */
static void test_type_conflict(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    el_writer_declare_type(w, EL_BLOCK_MARKER, 14, "Block marker");
    el_writer_declare_type(w, EL_STOP_THREAD, 6, "Stop thread");
    el_writer_begin_block(w, 0, 10);
    el_writer_end_block(w, 10);
    log logs[2] = { finished(w), make_log("f", 0) };     /* GHC 9.0: size 10 */
    size_t len;
    ev_status st;
    ev_merge *m;
    assert_null(merge(logs, 2, &len, &st, &m));
    assert_int_equal(st, EV_ERR_FORMAT);
    ev_merge_conflict c;
    assert_int_equal(ev_merge_conflict_of(m, &c), 1);
    assert_int_equal(c.type, EL_STOP_THREAD);
    assert_int_equal(c.first_size, 6);
    assert_int_equal(c.size, 10);
    assert_int_equal(c.first_log, 0);
    ev_merge_destroy(m);
    /* the same logs the other way: the same conflict, from the other side */
    log swapped[2] = { logs[1], logs[0] };
    assert_null(merge(swapped, 2, &len, &st, &m));
    assert_int_equal(ev_merge_conflict_of(m, &c), 1);
    assert_int_equal(c.first_size, 10);
    assert_int_equal(c.size, 6);
    ev_merge_destroy(m);
    free(logs[0].buf);
    free(logs[1].buf);
}

/* More capabilities in all than an eventlog numbers (65534). */
static void test_too_many_caps(void **state)
{
    (void)state;
    log logs[2] = { make_log("f", 40000), make_log("f", 40000) };
    size_t len;
    ev_status st;
    ev_merge *m;
    assert_null(merge(logs, 2, &len, &st, &m));
    assert_int_equal(st, EV_ERR_LIMIT);
    ev_error e;
    assert_int_equal(ev_merge_fits(m, &e), EV_ERR_LIMIT);
    assert_non_null(strstr(e.msg, "80004 capabilities"));
    ev_merge_destroy(m);
    free(logs[0].buf);
    free(logs[1].buf);
}

/* The output cannot be written: the writer's EV_ERR_WRITE, nothing more
 * said (the caller names its output). */
static void test_write_error(void **state)
{
    (void)state;
    FILE *f = fopen("/dev/full", "w");
    if (!f) {
        print_message("SKIPPED: no /dev/full\n");
        return;
    }
    log l = make_log("f", 0);
    ev_merge *m = ev_merge_create(1);
    ev_error e;
    read_into(m, &ev_merge_scan_ops, &l, 0);
    assert_int_equal(ev_merge_end_log(m, &e), EV_OK);
    assert_int_equal(ev_merge_start(m, f, &e), EV_OK);
    read_into(m, &ev_merge_copy_ops, &l, 0);
    ev_status st = ev_merge_status(m, &e);
    if (st == EV_OK)
        st = ev_merge_end_log(m, &e);
    if (st == EV_OK)
        st = ev_merge_finish(m, &e);
    assert_int_equal(st, EV_ERR_WRITE);
    ev_merge_destroy(m);
    fclose(f);
    free(l.buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers_moved),
        cmocka_unit_test(test_type_conflict),
        cmocka_unit_test(test_too_many_caps),
        cmocka_unit_test(test_write_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
