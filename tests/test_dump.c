/* The dump analysis (dump/dump.c): a log as `ghc-events show` prints it,
 * in time order across capabilities, under a selection and a type list;
 * a write error and ev_select_misses (driver/select.c). */
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
#include "evprof/dump.h"
#include "evprof/select.h"
#include "evprof/writer.h"

/* Capability 1's block before capability 0's, whose events are earlier:
 * two user messages on each. */
static uint8_t *make_log(size_t *len)
{
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_type(w, EL_BLOCK_MARKER, 14, "Block marker"), EV_OK);
    assert_int_equal(el_writer_declare_type(w, EL_USER_MSG, -1, "User message"), EV_OK);
    el_writer_begin_block(w, 1, 3000);
    el_writer_user_msg(w, 3000, "c1 first");
    el_writer_user_msg(w, 4000, "c1 second");
    el_writer_end_block(w, 4000);
    el_writer_begin_block(w, 0, 1000);
    el_writer_user_msg(w, 1000, "c0 first");
    el_writer_user_msg(w, 5000, "c0 second");
    el_writer_end_block(w, 5000);
    assert_int_equal(el_writer_finish(w), EV_OK);
    const uint8_t *b = el_writer_borrow_bytes(w, len);
    uint8_t *copy = malloc(*len);
    memcpy(copy, b, *len);
    el_writer_destroy(w);
    return copy;
}

/* The dump of the log under `sel` and the types, as text. */
static char *dump_of(const uint8_t *log, size_t len, const ev_select *sel,
                     const uint16_t *types, size_t ntypes)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    assert_non_null(f);
    ev_dump *dp = ev_dump_create(f, types, ntypes);
    assert_non_null(dp);
    ev_driver_opts o;
    ev_driver_opts_init(&o);
    o.select = sel;
    ev_driver *d = ev_driver_create(&o);
    assert_int_equal(ev_driver_attach(d, ev_dump_analysis(dp), dp), 0);
    assert_int_equal(ev_driver_run_mem(d, log, len)->read.status, EV_END);
    int err = -1;
    assert_int_equal(ev_dump_finish(dp, &err), EV_OK);
    assert_int_equal(err, 0);
    assert_int_equal(ev_dump_status(dp), EV_OK);
    ev_driver_destroy(d);
    ev_dump_destroy(dp);
    fclose(f);
    return buf;
}

static const char types_text[] =
    "Event Types:\n"
    "18: Block marker (size 14)\n"
    "19: User message (size variable)\n"
    "\n"
    "Events:\n";

static void test_time_order(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = make_log(&len);
    char *t = dump_of(log, len, NULL, NULL, 0);
    char want[1024];
    /* by time, ties in file order (the block markers: ghc-events' lines) */
    snprintf(want, sizeof want, "%s%s", types_text,
             "1000: cap 0: event block: cap 0, end time: 5000\n\n"
             "1000: cap 0: c0 first\n"
             "3000: cap 1: event block: cap 1, end time: 4000\n\n"
             "3000: cap 1: c1 first\n"
             "4000: cap 1: c1 second\n"
             "5000: cap 0: c0 second\n"
             "\n");
    assert_string_equal(t, want);
    free(t);
    free(log);
}

static void test_selection_and_types(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = make_log(&len);
    uint16_t only = EL_USER_MSG;
    /* capability 1, type 19 only */
    ev_span all = { 0, UINT64_MAX };
    ev_select *cap1 = ev_select_create(&all, 0, 1);
    char *t = dump_of(log, len, cap1, &only, 1);
    char want[1024];
    snprintf(want, sizeof want, "%s3000: cap 1: c1 first\n4000: cap 1: c1 second\n\n",
             types_text);
    assert_string_equal(t, want);
    free(t);
    ev_select_destroy(cap1);
    /* a window with no events of the type: the header and the end */
    ev_span gap = { 1500, 2500 };
    ev_select *w = ev_select_create(&gap, 1, -1);
    t = dump_of(log, len, w, &only, 1);
    snprintf(want, sizeof want, "%s\n", types_text);
    assert_string_equal(t, want);
    free(t);
    ev_select_destroy(w);
    /* a selection that misses the log: nothing at all */
    ev_span late = { 9000, 10000 };
    w = ev_select_create(&late, 1, -1);
    t = dump_of(log, len, w, NULL, 0);
    assert_string_equal(t, "");
    free(t);
    ev_select_destroy(w);
    ev_select *cap7 = ev_select_create(&all, 0, 7);
    t = dump_of(log, len, cap7, NULL, 0);
    assert_string_equal(t, "");
    free(t);
    ev_select_destroy(cap7);
    free(log);
}

/* A write that fails stops the read and says so, with its errno. */
static void test_write_error(void **state)
{
    (void)state;
    FILE *f = fopen("/dev/full", "w");
    if (!f) {
        print_message("SKIPPED: no /dev/full\n");
        return;
    }
    setvbuf(f, NULL, _IONBF, 0);
    size_t len;
    uint8_t *log = make_log(&len);
    ev_dump *dp = ev_dump_create(f, NULL, 0);
    ev_driver *d = ev_driver_create(NULL);
    assert_int_equal(ev_driver_attach(d, ev_dump_analysis(dp), dp), 0);
    ev_driver_run_mem(d, log, len);
    int err = 0;
    assert_int_equal(ev_dump_finish(dp, &err), EV_ERR_WRITE);
    assert_int_not_equal(err, 0);
    ev_driver_destroy(d);
    ev_dump_destroy(dp);
    fclose(f);
    free(log);
}

static void test_select_misses(void **state)
{
    (void)state;
    el_read_result r;
    memset(&r, 0, sizeof r);
    r.has_time_span = 1;
    r.first_time = 1000;
    r.last_time = 5000;
    r.caps.bits[0] = 1;         /* capability 0 */
    r.caps.max = 1;
    assert_int_equal(ev_select_misses(NULL, &r), 0);
    ev_span in = { 5000, 6000 }, out = { 5001, 6000 }, before = { 0, 1000 };
    ev_select *s = ev_select_create(&in, 1, -1);
    assert_int_equal(ev_select_misses(s, &r), 0);       /* meets the last event */
    ev_select_destroy(s);
    s = ev_select_create(&out, 1, -1);
    assert_int_equal(ev_select_misses(s, &r), 1);
    ev_select_destroy(s);
    s = ev_select_create(&before, 1, -1);
    assert_int_equal(ev_select_misses(s, &r), 1);       /* ends where the first starts */
    ev_select_destroy(s);
    ev_span two[2] = { { 0, 500 }, { 4000, 4500 } };
    s = ev_select_create(two, 2, -1);
    assert_int_equal(ev_select_misses(s, &r), 0);       /* the second window meets it */
    ev_select_destroy(s);
    s = ev_select_create(NULL, 0, 0);
    assert_int_equal(ev_select_misses(s, &r), 0);
    ev_select_destroy(s);
    s = ev_select_create(NULL, 0, 1);
    assert_int_equal(ev_select_misses(s, &r), 1);       /* no block of capability 1 */
    ev_select_destroy(s);
    r.has_time_span = 0;
    s = ev_select_create(&in, 1, -1);
    assert_int_equal(ev_select_misses(s, &r), 1);       /* no events: any window misses */
    ev_select_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_time_order),
        cmocka_unit_test(test_selection_and_types),
        cmocka_unit_test(test_write_error),
        cmocka_unit_test(test_select_misses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
