#include "profiles.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "corpus.h"

const char *const test_time_logs[] = {
    CORPUS_DIR "/ghc-9.0.2/nfib-p.eventlog",
    CORPUS_DIR "/ghc-9.0.2/nfib-pj.eventlog",
    CORPUS_DIR "/ghc-9.0.2/nfib-N2.eventlog",
    CORPUS_DIR "/ghc-events/time-prof.eventlog",
    GHC_DATA "/deep-p.eventlog",
    GHC_DATA "/mutual-p.eventlog",
    GHC_DATA "/odd-p.eventlog",
    GHC_DATA "/chain-p.eventlog",
    GHC_DATA "/par-N2-p.eventlog",
    CORPUS_DIR "/ghc-9.6/sim-p.eventlog",
    CORPUS_DIR "/ghc-9.6/sim-late-pj.eventlog",
    CORPUS_DIR "/ghc-9.6/workers-N2-p.eventlog",
    CORPUS_DIR "/namesakes/Lexer-calls.nt.p.1.eventlog",   /* one name at many places */
};
const size_t test_num_time_logs = sizeof test_time_logs / sizeof test_time_logs[0];

static int feed(void *ctx, const el_event *ev, const el_decoder *d)
{
    (void)d;
    return prof_add_event(ctx, ev);
}

static prof_result *snapshot_of(prof_profile *p)
{
    prof_result *r = prof_snapshot(p);
    assert_non_null(r);
    prof_destroy(p);
    return r;
}

prof_result *test_profile_path(const char *path, const prof_filter *f)
{
    prof_profile *p = prof_create(f);
    assert_non_null(p);
    el_read_result r = el_read_path(path, feed, p, NULL);
    if (r.status != EV_END)
        fail_msg("%s: %s", path, r.error.msg);
    return snapshot_of(p);
}

prof_result *test_profile_mem(const uint8_t *buf, size_t len, const prof_filter *f)
{
    prof_profile *p = prof_create(f);
    assert_non_null(p);
    el_read_result r = el_read_mem(buf, len, feed, p, NULL);
    assert_int_equal(r.status, EV_END);
    return snapshot_of(p);
}

ev_status test_read(const char *path, const uint8_t *buf, size_t len, const ev_select *sel,
                    const ev_analysis_ops *const *ops, void *const *self, size_t n)
{
    ev_driver_opts o;
    ev_driver_opts_init(&o);
    o.select = sel;
    ev_driver *d = ev_driver_create(&o);
    assert_non_null(d);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(ev_driver_attach(d, ops[i], self[i]), 0);
    const ev_stream *s = path ? ev_driver_run_path(d, path) : ev_driver_run_mem(d, buf, len);
    ev_status st = s->read.status;
    ev_driver_destroy(d);
    return st;
}

ev_select *test_window(uint64_t from, uint64_t to, int32_t cap)
{
    ev_span w = { from, to };
    ev_select *s = ev_select_create(&w, 1, cap);
    assert_non_null(s);
    return s;
}

prof_result *test_profile_mem_sel(const uint8_t *buf, size_t len, const prof_filter *f,
                                  const ev_select *sel)
{
    prof_profile *p = prof_create(f);
    assert_non_null(p);
    const ev_analysis_ops *ops = &prof_analysis_ops;
    assert_int_equal(test_read(NULL, buf, len, sel, &ops, (void *const *)&p, 1), EV_END);
    return snapshot_of(p);
}
