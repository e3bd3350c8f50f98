/* The exporters' pieces on synthetic input: GHC's SRC forms split into
 * file, line and column; speedscope's timeline (samples out of order,
 * gaps, two capabilities, a stack cut at 255 frames) against a file worked
 * out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../export/srcloc.h"
#include "evprof/eventlog.h"
#include "evprof/pprof.h"
#include "evprof/prof.h"
#include "evprof/speedscope.h"
#include "evprof/writer.h"

static void parse(const char *src, int want_ok, const char *file, uint32_t line, uint32_t col)
{
    ex_srcloc l;
    int got = export_srcloc_parse(src, &l);
    if (got != want_ok)
        fail_msg("%s: parse %d, want %d", src, got, want_ok);
    if (!want_ok) {
        assert_int_equal(l.file_len, 0);
        return;
    }
    if (l.file_len != strlen(file) || memcmp(l.file, file, l.file_len) != 0)
        fail_msg("%s: file '%.*s', want '%s'", src, (int)l.file_len, l.file, file);
    assert_int_equal(l.line, line);
    assert_int_equal(l.col, col);
}

static void srcloc_forms(void **state)
{
    (void)state;
    parse("Main.hs:12:1-20", 1, "Main.hs", 12, 1);
    parse("Main.hs:12:7", 1, "Main.hs", 12, 7);
    parse("Main.hs:(12,1)-(14,20)", 1, "Main.hs", 12, 1);
    parse("src/Data/X.hs:(3,5)-(3,9)", 1, "src/Data/X.hs", 3, 5);
    parse("C:/work/a:b.hs:4:2-3", 1, "C:/work/a:b.hs", 4, 2);   /* ':' in the file */
    parse("<built-in>", 0, NULL, 0, 0);
    parse("<entire-module>", 0, NULL, 0, 0);
    parse("<no location info>", 0, NULL, 0, 0);
    parse("", 0, NULL, 0, 0);
    parse("Main.hs:12", 0, NULL, 0, 0);
    parse("Main.hs:0:1-2", 0, NULL, 0, 0);
    parse("Main.hs:12:1-", 0, NULL, 0, 0);
    parse("Main.hs:(12,1)-(14,", 0, NULL, 0, 0);
    parse(":12:1", 0, NULL, 0, 0);
    parse("Main.hs:99999999999:1", 0, NULL, 0, 0);
}

typedef struct both {
    prof_profile *p;
    speedscope_timeline *t;
} both;

/* speedscope's file of a log written here, with the given filter */
/* Read through the driver, under the selection sel (NULL: all). */
static char *speedscope_sel(const uint8_t *buf, size_t len, const prof_filter *f,
                            const ev_select *sel)
{
    both b = { prof_create(f), speedscope_timeline_create(f) };
    assert_non_null(b.p);
    assert_non_null(b.t);
    ev_driver_opts o_;
    ev_driver_opts_init(&o_);
    o_.select = sel;
    ev_driver *d = ev_driver_create(&o_);
    assert_int_equal(ev_driver_attach(d, &prof_analysis_ops, b.p), 0);
    assert_int_equal(ev_driver_attach(d, &speedscope_timeline_ops, b.t), 0);
    assert_int_equal(ev_driver_run_mem(d, buf, len)->read.status, EV_END);
    ev_driver_destroy(d);
    prof_result *res = prof_snapshot(b.p);
    assert_non_null(res);
    assert_int_equal(speedscope_timeline_finish(b.t), 0);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    speedscope_opts o = { .name = "t" };
    assert_int_equal(speedscope_write(res, b.t, &o, out), 0);
    fclose(out);
    prof_result_destroy(res);
    prof_destroy(b.p);
    speedscope_timeline_destroy(b.t);
    return text;
}

static char *speedscope_of(const uint8_t *buf, size_t len, const prof_filter *f)
{
    return speedscope_sel(buf, len, f, NULL);
}

static uint8_t *timeline_log(size_t *len, int with_cut)
{
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EV_OK);
    el_writer_cost_centre(w, 0, 1, "MAIN", "MAIN", "<built-in>", 0);
    el_writer_cost_centre(w, 0, 3, "f", "Main", "a.hs:1:1", 0);
    el_writer_cost_centre(w, 0, 4, "g", "Main", "a.hs:(2,3)-(4,5)", 0);
    el_writer_prof_begin(w, 0, 1000000);
    uint32_t gf[2] = { 4, 3 }, f[1] = { 3 };
    /* cap 0 out of order (3, 4, 5 ms come as 5, 3, 4), then a gap to 9 ms;
     * cap 1 one sample of MAIN alone at 2.5 ms */
    el_writer_prof_sample(w, 5000000, 0, 1, 1, f);
    el_writer_prof_sample(w, 3000000, 0, 1, 2, gf);
    el_writer_prof_sample(w, 4000000, 0, 1, 1, f);
    el_writer_prof_sample(w, 2500000, 1, 1, 0, NULL);
    el_writer_prof_sample(w, 9000000, 0, 1, 2, gf);
    if (with_cut) {
        uint32_t deep[EL_MAX_STACK];
        for (int i = 0; i < EL_MAX_STACK; i++)
            deep[i] = i % 2 ? 3 : 4;
        el_writer_prof_sample(w, 10000000, 0, 1, EL_MAX_STACK, deep);
    }
    assert_int_equal(el_writer_finish(w), EV_OK);
    const uint8_t *bytes = el_writer_borrow_bytes(w, len);
    uint8_t *copy = malloc(*len);
    memcpy(copy, bytes, *len);
    el_writer_destroy(w);
    return copy;
}

/* Worked out by hand: the timeline starts one tick (1 ms) before the
 * earliest sample (2.5 ms); cap 0's first sample (3 ms) covers 2-3 ms
 * after an empty 0.5 ms; 4 and 5 ms follow at 1 ms; 9 ms is more than two
 * ticks after 5 ms: an empty 3 ms, then one tick. */
static void speedscope_timeline_by_hand(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = timeline_log(&len, 0);
    prof_filter f;
    prof_filter_init(&f);
    f.all = 1;
    char *text = speedscope_of(log, len, &f);
    const char *want =
        "{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
        "\"exporter\":\"evprof\",\"name\":\"t\",\"activeProfileIndex\":0,"
        "\"shared\":{\"frames\":[{\"name\":\"MAIN\"},"
        "{\"name\":\"Main.f\",\"file\":\"a.hs\",\"line\":1,\"col\":1},"
        "{\"name\":\"Main.g\",\"file\":\"a.hs\",\"line\":2,\"col\":3}]},"
        "\"profiles\":["
        "{\"type\":\"sampled\",\"name\":\"t capability 0\",\"unit\":\"nanoseconds\","
        "\"startValue\":1500000,\"endValue\":9000000,"
        "\"samples\":[[],[0,1,2],[0,1],[0,1],[],[0,1,2]],"
        "\"weights\":[500000,1000000,1000000,1000000,3000000,1000000]},"
        "{\"type\":\"sampled\",\"name\":\"t capability 1\",\"unit\":\"nanoseconds\","
        "\"startValue\":1500000,\"endValue\":9000000,"
        "\"samples\":[[0]],\"weights\":[1000000]}]}\n";
    assert_string_equal(text, want);
    free(text);

    /* the window and the capability of the selection apply */
    ev_select *sel = ev_select_create(&(ev_span){ 3500000, UINT64_MAX }, 1, 0);
    text = speedscope_sel(log, len, &f, sel);
    ev_select_destroy(sel);
    assert_non_null(strstr(text, "\"startValue\":3000000,\"endValue\":9000000,"
                                 "\"samples\":[[0,1],[0,1],[],[0,1,2]],"
                                 "\"weights\":[1000000,1000000,3000000,1000000]}]}"));
    assert_null(strstr(text, "capability 1"));
    free(text);
    free(log);
}

/* A stack of 255 frames starts at the cut marker, not at MAIN. */
static void speedscope_cut_stack(void **state)
{
    (void)state;
    size_t len;
    uint8_t *log = timeline_log(&len, 1);
    prof_filter f;
    prof_filter_init(&f);
    f.all = 1;
    char *text = speedscope_of(log, len, &f);
    /* frames: MAIN, f, g, then the profile's cut marker (index 3) */
    assert_non_null(strstr(text, ",{\"name\":\"<stack cut at 255 frames>\"}]}"));
    /* outermost first: the cut marker, then the last of the 255 (index
     * 254, even: g), f, g, ..., the innermost (index 0: g) */
    assert_non_null(strstr(text, "[0,1,2],[3,2,1,2,1,"));
    assert_non_null(strstr(text, ",1,2]],\"weights\":[500000,1000000,1000000,1000000,"
                                 "3000000,1000000,1000000]}"));
    free(text);
    free(log);
}

/* Capabilities numbered far apart (a damaged cap field, say) cost one
 * entry each and come out in order. */
static void speedscope_sparse_caps(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EV_OK);
    el_writer_cost_centre(w, 0, 3, "f", "Main", "a.hs:1:1", 0);
    el_writer_prof_begin(w, 0, 1000000);
    uint32_t f[1] = { 3 };
    el_writer_prof_sample(w, 5000000, 4000000000u, 1, 1, f);
    el_writer_prof_sample(w, 5000000, 7, 1, 1, f);
    el_writer_prof_sample(w, 6000000, 4000000000u, 1, 1, f);
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);
    prof_filter f0;
    prof_filter_init(&f0);
    f0.all = 1;
    char *text = speedscope_of(bytes, len, &f0);
    char *seven = strstr(text, "\"t capability 7\""), *big = strstr(text, "\"t capability 4000000000\"");
    assert_non_null(seven);
    assert_non_null(big);
    assert_true(seven < big);
    assert_non_null(strstr(big, "\"samples\":[[1,0],[1,0]]"));   /* MAIN is synthetic: frame 1 */
    free(text);
    el_writer_destroy(w);
}

/* The index of the frame named `name` in the file's frames */
static long frame_index(const char *text, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "{\"name\":\"%s\"", name);
    const char *frames = strstr(text, "\"frames\":["), *at = strstr(text, key);
    assert_non_null(frames);
    assert_non_null(at);
    long n = 0;
    for (const char *c = frames; c < at; c++)
        n += *c == '{';
    return n;
}

/* More cost centres than the writer keeps frame texts for (2^16), with
 * ids dense (a table by id) or far apart (the sorted pairs), and an id
 * no cost centre has: each sample names the frames of its stack. */
static void speedscope_many_frames(void **state)
{
    (void)state;
    enum { N = 70000 };
    for (uint32_t step = 1; step <= 50000; step += 49999) {
        el_writer *w = el_writer_create_mem();
        assert_int_equal(el_writer_declare_ghc(w, EL_GHC_9_0), EV_OK);
        el_writer_cost_centre(w, 0, 1, "MAIN", "MAIN", "<built-in>", 0);
        char label[16];
        for (uint32_t k = 1; k <= N; k++) {
            snprintf(label, sizeof label, "c%u", k);
            el_writer_cost_centre(w, 0, 1 + k * step, label, "M", "a.hs:1:1", 0);
        }
        el_writer_prof_begin(w, 0, 1000000);
        uint32_t s1[2] = { 1 + N * step, 1 + 5 * step }, s2[1] = { 3 }, s3[3] = { 1 + 70 * step,
            1 + 66000 * step, 1 + 65536 * step };
        el_writer_prof_sample(w, 1000000, 0, 1, 2, s1);
        el_writer_prof_sample(w, 2000000, 0, 1, 1, s2);     /* 3: undefined */
        el_writer_prof_sample(w, 3000000, 0, 1, 3, s3);
        assert_int_equal(el_writer_finish(w), EV_OK);
        size_t len;
        const uint8_t *bytes = el_writer_borrow_bytes(w, &len);
        prof_filter f;
        prof_filter_init(&f);
        f.all = 1;
        char *text = speedscope_of(bytes, len, &f);
        char want[256];
        snprintf(want, sizeof want, "\"samples\":[[%ld,%ld,%ld],[%ld,%ld],[%ld,%ld,%ld,%ld]]",
                 frame_index(text, "MAIN"), frame_index(text, "M.c5"),
                 frame_index(text, "M.c70000"), frame_index(text, "MAIN"),
                 frame_index(text, step == 1 ? "M.c2" : "<unknown>.<undefined cc 3>"),
                 frame_index(text, "MAIN"), frame_index(text, "M.c65536"),
                 frame_index(text, "M.c66000"), frame_index(text, "M.c70"));
        assert_true(frame_index(text, "M.c70000") > 65536);
        if (!strstr(text, want))
            fail_msg("step %u: no %s", step, want);
        free(text);
        el_writer_destroy(w);
    }
}

/* --push's URL refused: EV_ERR_USAGE with the reason, before any request
 * (no server here); the detail may be left out */
static void push_url_statuses(void **state)
{
    (void)state;
    ev_error err;
    assert_int_equal(pprof_push_url_check("http://127.0.0.1:4040/", &err), EV_OK);
    assert_int_equal(err.status, EV_OK);
    assert_string_equal(err.msg, "");
    assert_int_equal(pprof_push_url_check("ftp://x/", &err), EV_ERR_USAGE);
    assert_int_equal(err.status, EV_ERR_USAGE);
    assert_string_equal(err.msg, "not an http:// or https:// URL (the scheme is ftp)");
    assert_int_equal(pprof_push_url_check("http://x/#f", NULL), EV_ERR_USAGE);
    uint8_t byte = 0;
    pprof_buf b = { &byte, 1 };
    assert_int_equal(pprof_push("http://x/?name=a", "app", 0, 1, &b, &err), EV_ERR_USAGE);
    assert_string_equal(err.msg,
                        "the query sets 'name', which evprof sets for Pyroscope (give --app)");
    assert_int_equal(pprof_push_timed("https://x/#f", "app", 0, 1, 1.0, &b, NULL), EV_ERR_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(srcloc_forms),
        cmocka_unit_test(speedscope_timeline_by_hand),
        cmocka_unit_test(speedscope_cut_stack),
        cmocka_unit_test(speedscope_sparse_caps),
        cmocka_unit_test(speedscope_many_frames),
        cmocka_unit_test(push_url_statuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
