/* Live sources of the driver (driver/live.c) and the per-interval model of
 * `evprof top` (live/top.c): events delivered as the data comes, ticks on
 * wall time while waiting, the interrupt flag, a followed file that grows,
 * and frames whose interval figures add up to the batch totals. */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "evprof/driver.h"
#include "evprof/live.h"
#include "evprof/prof.h"

#define LOG "tests/data/ghc-9.0.2/nfib-N2.eventlog"

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(*len);
    assert_int_equal(fread(b, 1, *len, f), *len);
    fclose(f);
    return b;
}

static void write_all(int fd, const uint8_t *b, size_t n)
{
    while (n > 0) {
        ssize_t k = write(fd, b, n);
        if (k <= 0)
            _exit(3);
        b += k;
        n -= (size_t)k;
    }
}

/* A child that writes buf[0, cut) to fd, sleeps pause_ms, then the rest
 * (or nothing more when rest is 0, keeping fd open for hold_ms). */
static pid_t writer(int fd, const uint8_t *buf, size_t len, size_t cut, int pause_ms, int rest,
                    int hold_ms)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        write_all(fd, buf, cut);
        usleep((useconds_t)pause_ms * 1000);
        if (rest)
            write_all(fd, buf + cut, len - cut);
        else
            usleep((useconds_t)hold_ms * 1000);
        _exit(0);
    }
    return pid;
}

typedef struct tick_rec {
    unsigned calls;
    uint64_t events_at[256];
    int set_flag_after_events;      /* > 0: raise *flag once events are read */
    volatile sig_atomic_t *flag;
    live_top *top;
    uint64_t frame_ticks[256];
    uint64_t frame_interval[256];
    unsigned frames;
} tick_rec;

static void on_tick(void *ctx, const ev_stream *s)
{
    tick_rec *t = ctx;
    if (t->calls < 256)
        t->events_at[t->calls] = s->read.events;
    t->calls++;
    if (t->flag && t->set_flag_after_events && s->read.events > 0)
        *t->flag = 1;
    if (t->top && t->frames < 256) {
        const live_frame *f = live_top_frame(t->top, s);
        assert_non_null(f);
        t->frame_ticks[t->frames] = f->ticks;
        t->frame_interval[t->frames] = f->ticks_interval;
        t->frames++;
    }
}

/* The batch figures of the log. */
static uint64_t batch_events, batch_ticks;

static void batch(void)
{
    ev_driver *d = ev_driver_create(NULL);
    prof_profile *p = prof_create(NULL);
    ev_driver_attach(d, &prof_analysis_ops, p);
    const ev_stream *s = ev_driver_run_path(d, LOG);
    assert_int_equal(s->read.status, EV_END);
    batch_events = s->read.events;
    prof_result *r = prof_snapshot(p);
    batch_ticks = prof_get_info(r)->total_ticks;
    assert_true(batch_ticks > 0);
    prof_result_destroy(r);
    prof_destroy(p);
    ev_driver_destroy(d);
}

/* A pipe: the first half is delivered before the second is written, ticks
 * come while waiting, the end is the writer's close. */
static void test_pipe_as_it_comes(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = slurp(LOG, &len);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = writer(fds[1], buf, len, len / 2, 400, 1, 0);
    close(fds[1]);

    tick_rec t;
    memset(&t, 0, sizeof t);
    ev_driver_opts o;
    ev_driver_opts_init(&o);
    o.tick_interval = 0.05;
    o.on_tick = on_tick;
    o.tick_ctx = &t;
    ev_driver *d = ev_driver_create(&o);
    prof_profile *p = prof_create(NULL);
    ev_driver_attach(d, &prof_analysis_ops, p);
    const ev_stream *s = ev_driver_run_fd(d, fds[0], "pipe");
    waitpid(pid, NULL, 0);
    close(fds[0]);

    assert_int_equal(s->read.status, EV_END);
    assert_int_equal(s->read.events, batch_events);
    assert_true(s->done);
    assert_false(s->interrupted);
    /* during the 400 ms pause: several ticks with the first half read */
    unsigned mid = 0;
    for (unsigned i = 0; i < t.calls && i < 256; i++)
        if (t.events_at[i] > 0 && t.events_at[i] < batch_events)
            mid++;
    assert_true(mid >= 3);
    assert_int_equal(t.events_at[(t.calls < 256 ? t.calls : 256) - 1], batch_events);
    prof_result *r = prof_snapshot(p);
    assert_int_equal(prof_get_info(r)->total_ticks, batch_ticks);
    prof_result_destroy(r);
    prof_destroy(p);
    ev_driver_destroy(d);
    free(buf);
}

/* Two eventlogs one after the other on one pipe, in one write (a FIFO
 * that a script's programs write in turn, read on a busy machine): the
 * live read stops at the first one's end marker and keeps the rest of
 * the chunk (ev_stream.after_end); a second read given it as its prefix
 * reads the second log whole: the same events and ticks as the batch. */
static void test_after_end_carried(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = slurp(LOG, &len);
    uint8_t *two = malloc(2 * len);
    assert_non_null(two);
    memcpy(two, buf, len);
    memcpy(two + len, buf, len);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = writer(fds[1], two, 2 * len, 2 * len, 0, 1, 0);
    close(fds[1]);

    tick_rec t;
    memset(&t, 0, sizeof t);
    ev_driver_opts o;
    ev_driver_opts_init(&o);
    o.tick_interval = 0.05;
    o.on_tick = on_tick;        /* a live read: it stops at the end marker */
    o.tick_ctx = &t;
    ev_driver *d = ev_driver_create(&o);
    prof_profile *p = prof_create(NULL);
    ev_driver_attach(d, &prof_analysis_ops, p);
    const ev_stream *s = ev_driver_run_fd(d, fds[0], "pipe");
    assert_int_equal(s->read.status, EV_END);
    assert_int_equal(s->read.events, batch_events);
    assert_true(s->after_end_len > 0 && s->after_end_len <= len);
    assert_memory_equal(s->after_end, buf, s->after_end_len < 16 ? s->after_end_len : 16);

    ev_driver_opts o2 = o;
    o2.prefix = s->after_end;
    o2.prefix_len = s->after_end_len;
    ev_driver *d2 = ev_driver_create(&o2);
    prof_profile *p2 = prof_create(NULL);
    ev_driver_attach(d2, &prof_analysis_ops, p2);
    const ev_stream *s2 = ev_driver_run_fd(d2, fds[0], "pipe");
    waitpid(pid, NULL, 0);
    close(fds[0]);
    assert_int_equal(s2->read.status, EV_END);
    assert_int_equal(s2->read.events, batch_events);
    prof_result *r = prof_snapshot(p2);
    assert_int_equal(prof_get_info(r)->total_ticks, batch_ticks);
    prof_result_destroy(r);

    /* a file read (not live) never stops at the marker: nothing kept */
    ev_driver *d3 = ev_driver_create(NULL);
    prof_profile *p3 = prof_create(NULL);
    ev_driver_attach(d3, &prof_analysis_ops, p3);
    const ev_stream *s3 = ev_driver_run_path(d3, LOG);
    assert_null(s3->after_end);
    assert_int_equal(s3->after_end_len, 0);

    prof_destroy(p3);
    ev_driver_destroy(d3);
    prof_destroy(p2);
    ev_driver_destroy(d2);
    prof_destroy(p);
    ev_driver_destroy(d);
    free(two);
    free(buf);
}

/* The interrupt flag stops a read that waits for a writer that says
 * nothing more: every event so far delivered, `interrupted` set. */
static void test_interrupt(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = slurp(LOG, &len);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    pid_t pid = writer(fds[1], buf, len, len / 2, 0, 0, 3000);
    close(fds[1]);

    static volatile sig_atomic_t flag;
    flag = 0;
    tick_rec t;
    memset(&t, 0, sizeof t);
    t.flag = &flag;
    t.set_flag_after_events = 1;
    ev_driver_opts o;
    ev_driver_opts_init(&o);
    o.tick_interval = 0.05;
    o.on_tick = on_tick;
    o.tick_ctx = &t;
    o.interrupt = &flag;
    ev_driver *d = ev_driver_create(&o);
    prof_profile *p = prof_create(NULL);
    ev_driver_attach(d, &prof_analysis_ops, p);
    const ev_stream *s = ev_driver_run_fd(d, fds[0], "pipe");
    assert_true(s->interrupted);
    assert_true(s->read.events > 0 && s->read.events < batch_events);
    assert_true(s->wall_ns < 2000000000u);     /* long before the writer gives up */
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    close(fds[0]);
    prof_destroy(p);
    ev_driver_destroy(d);
    free(buf);
}

/* --follow: a file that does not exist yet, then grows, then ends with
 * its end marker: the same events as the batch read. */
static void test_follow_file(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = slurp(LOG, &len);
    char path[] = "/tmp/evprof-test-live-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);               /* followed before it exists */

    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        usleep(200000);
        FILE *f = fopen(path, "wb");
        size_t cut = len / 3;
        fwrite(buf, 1, cut, f);
        fflush(f);
        usleep(300000);
        fwrite(buf + cut, 1, len - cut, f);
        fclose(f);
        _exit(0);
    }
    tick_rec t;
    memset(&t, 0, sizeof t);
    ev_driver_opts o;
    ev_driver_opts_init(&o);
    o.follow = 1;
    o.idle_timeout = 10;
    o.tick_interval = 0.05;
    o.on_tick = on_tick;
    o.tick_ctx = &t;
    ev_driver *d = ev_driver_create(&o);
    prof_profile *p = prof_create(NULL);
    ev_driver_attach(d, &prof_analysis_ops, p);
    const ev_stream *s = ev_driver_run_path(d, path);
    waitpid(pid, NULL, 0);
    assert_int_equal(s->read.status, EV_END);
    assert_false(s->idle_timed_out);
    assert_int_equal(s->read.events, batch_events);
    assert_true(t.calls >= 8);          /* ticks while the file was missing and quiet */
    prof_destroy(p);
    ev_driver_destroy(d);
    unlink(path);
    free(buf);
}

/* --idle-timeout: a followed file that stops growing ends the read. */
static void test_idle_timeout(void **state)
{
    (void)state;
    char path[] = "/tmp/evprof-test-live-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    size_t len;
    uint8_t *buf = slurp(LOG, &len);
    write_all(fd, buf, len / 2);
    close(fd);
    ev_driver_opts o;
    ev_driver_opts_init(&o);
    o.follow = 1;
    o.idle_timeout = 0.3;
    ev_driver *d = ev_driver_create(&o);
    prof_profile *p = prof_create(NULL);
    ev_driver_attach(d, &prof_analysis_ops, p);
    const ev_stream *s = ev_driver_run_path(d, path);
    assert_true(s->idle_timed_out);
    assert_true(s->read.events > 0);
    assert_true(s->read.status == EV_ERR_TRUNCATED || s->read.status == EV_OK);
    assert_true(s->wall_ns >= 250000000u && s->wall_ns < 3000000000u);
    prof_destroy(p);
    ev_driver_destroy(d);
    unlink(path);
    free(buf);
}

/* The model: interval ticks add up to the total, which equals the batch
 * profile's; a frame without new data has an empty interval. */
static void test_top_frames(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = slurp(LOG, &len);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    /* cut inside the data, well after the header */
    pid_t pid = writer(fds[1], buf, len, len * 97 / 100, 300, 1, 0);
    close(fds[1]);

    tick_rec t;
    memset(&t, 0, sizeof t);
    t.top = live_top_create(NULL);
    assert_non_null(t.top);
    ev_driver_opts o;
    ev_driver_opts_init(&o);
    o.tick_interval = 0.05;
    o.on_tick = on_tick;
    o.tick_ctx = &t;
    ev_driver *d = ev_driver_create(&o);
    assert_int_equal(live_top_attach(t.top, d), 0);
    const ev_stream *s = ev_driver_run_fd(d, fds[0], "pipe");
    waitpid(pid, NULL, 0);
    close(fds[0]);
    assert_int_equal(s->read.status, EV_END);
    assert_true(t.frames >= 3);
    uint64_t sum = 0;
    int quiet = 0, partial = 0;
    for (unsigned i = 0; i < t.frames; i++) {
        sum += t.frame_interval[i];
        if (i > 0 && t.frame_interval[i] == 0 && t.frame_ticks[i] == t.frame_ticks[i - 1])
            quiet = 1;
        if (t.frame_ticks[i] > 0 && t.frame_ticks[i] < batch_ticks)
            partial = 1;
    }
    assert_int_equal(t.frame_ticks[t.frames - 1], batch_ticks);
    assert_int_equal(sum, batch_ticks);
    assert_true(quiet);
    assert_true(partial);

    /* the top row is the batch profile's largest cost centre ("build.\") */
    const live_frame *f = live_top_resort(t.top, LIVE_SORT_TOTAL);
    assert_true(f->finished && f->end_marker);
    assert_true(f->n_ccs > 0);
    assert_string_equal(f->ccs[0].label, "build.\\");
    assert_int_equal(f->ccs[0].ticks, 51);
    f = live_top_resort(t.top, LIVE_SORT_INHERITED);
    assert_int_equal(f->ccs[0].inherited, batch_ticks);
    assert_true(f->mem.gcs > 0 && f->mem.allocated > 0);

    char *json = NULL;
    size_t jlen = 0;
    FILE *mem = open_memstream(&json, &jlen);
    assert_int_equal(live_frame_json(f, mem), 0);
    fclose(mem);
    assert_non_null(strstr(json, "\"label\":\"build.\\\\\""));
    assert_int_equal(json[jlen - 1], '\n');
    free(json);

    live_top_destroy(t.top);
    ev_driver_destroy(d);
    free(buf);
}

static void test_connect_addr(void **state)
{
    (void)state;
    assert_true(ev_connect_addr_valid("unix:/tmp/x.sock"));
    assert_true(ev_connect_addr_valid("tcp:localhost:4242"));
    assert_true(ev_connect_addr_valid("tcp:[::1]:4242"));
    assert_false(ev_connect_addr_valid("unix:"));
    assert_false(ev_connect_addr_valid("tcp:4242"));
    assert_false(ev_connect_addr_valid("tcp:host:"));
    assert_false(ev_connect_addr_valid("/tmp/x.sock"));

    ev_driver *d = ev_driver_create(NULL);
    const ev_stream *s = ev_driver_run_connect(d, "unix:/nonexistent/evprof.sock");
    assert_int_equal(s->read.status, EV_ERR_IO);
    assert_non_null(strstr(s->read.error.msg, "cannot connect"));
    ev_driver_destroy(d);
}

/* live_opts_init sets every field: `evprof metrics` on a -hi log read the
 * exe options of an uninitialised stack struct (heap_create, valgrind:
 * "depends on uninitialised value"; it crashed 4 runs in 6). */
static void test_opts_init_whole(void **state)
{
    live_opts o;
    (void)state;
    memset(&o, 0xa5, sizeof o);
    live_opts_init(&o);
    assert_null(o.samples);
    assert_null(o.exe.given);
    assert_null(o.exe.given_path);
    assert_null(o.exe.dir);
    assert_int_equal(o.exe.from_log, 0);
    assert_true(o.top_n > 0);
}

int main(void)
{
    batch();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_opts_init_whole),
        cmocka_unit_test(test_pipe_as_it_comes),
        cmocka_unit_test(test_after_end_carried),
        cmocka_unit_test(test_interrupt),
        cmocka_unit_test(test_follow_file),
        cmocka_unit_test(test_idle_timeout),
        cmocka_unit_test(test_top_frames),
        cmocka_unit_test(test_connect_addr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
