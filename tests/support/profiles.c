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
