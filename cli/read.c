/* The CLI's one way to read a log: the driver with the command's analyses. */
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/output.h"
#include "cli/read.h"

/* Progress on a terminal for a long read: one line on stderr, rewritten
 * at most every 0.2 s, erased at the end. Only for files of 256 MiB and
 * more, and only when stderr is a terminal. */
#define PROGRESS_MIN_BYTES ((uint64_t)256 << 20)

typedef struct progress {
    const char *name;
    double last;
    int shown;
} progress;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void on_progress(void *ctx, const ev_stream *s)
{
    progress *p = ctx;
    if (s->total_bytes < PROGRESS_MIN_BYTES)
        return;
    int done = s->read.status != EL_OK || s->read.bytes >= s->total_bytes;
    double t = now_s();
    if (!done && t - p->last < 0.2)
        return;
    p->last = t;
    if (done) {
        if (p->shown)
            fputs("\r\033[K", stderr);
        p->shown = 0;
        return;
    }
    fprintf(stderr, "\revprof: reading %s: %3.0f%% (%.1f of %.1f MB)\033[K", p->name,
            100.0 * (double)s->read.bytes / (double)s->total_bytes,
            (double)s->read.bytes / 1e6, (double)s->total_bytes / 1e6);
    p->shown = 1;
}

/* Ctrl-C while a live source is read: the driver sees the flag between
 * events or while waiting and stops; the command prints what it has. */
static volatile sig_atomic_t interrupt_flag;

static void on_sigint(int sig)
{
    (void)sig;
    interrupt_flag = 1;
}

int cli_catch_interrupt(struct sigaction *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;            /* no SA_RESTART: a blocked wait returns EINTR */
    interrupt_flag = 0;
    return sigaction(SIGINT, &sa, old);
}

const volatile sig_atomic_t *cli_interrupt_flag(void) { return &interrupt_flag; }

ev_driver *cli_read(const char *path, const cli_analysis *an, size_t n, int *code)
{
    return cli_read_src(NULL, path, an, n, code);
}

/* cli_read_src's analyses, attached by cli_read_with */
typedef struct attach_list {
    const cli_analysis *an;
    size_t n;
} attach_list;

static int attach_all(void *ctx, ev_driver *d)
{
    const attach_list *l = ctx;
    for (size_t i = 0; i < l->n; i++)
        if (ev_driver_attach(d, l->an[i].ops, l->an[i].self) != 0)
            return -1;
    return 0;
}

ev_driver *cli_read_src(const cli_source *src, const char *path, const cli_analysis *an,
                        size_t n, int *code)
{
    attach_list l = { an, n };
    return cli_read_with(src, path, attach_all, &l, code);
}

ev_driver *cli_read_with(const cli_source *src, const char *path,
                         int (*attach)(void *ctx, ev_driver *d), void *ctx, int *code)
{
    int live = src && (src->follow || src->connect);
    ev_driver_opts o;
    struct sigaction old;

    progress prog = { cli_display_path(path ? path : "-"), 0.0, 0 };

    ev_driver_opts_init(&o);
    cli_jobs_opts(&o);
    if (live) {
        o.follow = src->follow;
        o.idle_timeout = src->idle_timeout;
        o.interrupt = &interrupt_flag;
        o.on_bytes = src->on_bytes;
        o.bytes_ctx = src->bytes_ctx;
    } else if (isatty(STDERR_FILENO)) {
        o.progress = on_progress;
        o.progress_ctx = &prog;
    }
    ev_driver *d = ev_driver_create(&o);
    if (d && attach(ctx, d) != 0) {
        ev_driver_destroy(d);
        d = NULL;
    }
    if (!d) {
        fprintf(stderr, "evprof: out of memory\n");
        *code = CLI_FAIL;
        return NULL;
    }
    int caught = live && cli_catch_interrupt(&old) == 0;
    const ev_stream *s = src && src->connect ? ev_driver_run_connect(d, src->connect)
                                             : ev_driver_run_path(d, path);
    if (caught)
        sigaction(SIGINT, &old, NULL);
    if (prog.shown)
        fputs("\r\033[K", stderr);
    *code = cli_report_stream(path, s);
    return d;
}

/* ---- -j N ---------------------------------------------------------------- */

unsigned cli_jobs(void)
{
    if (cli_jobs_given())
        return cli_jobs_given();
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

void cli_jobs_opts(ev_driver_opts *o)
{
    o->jobs = cli_jobs();
    /* tests only (docs/evprof.1): ranges of about this many bytes */
    const char *c = getenv("EVPROF_TEST_CHUNK_BYTES");
    if (c && *c)
        o->chunk_bytes = strtoull(c, NULL, 10);
}

void cli_jobs_note(const ev_stream *s)
{
    /* tests only: whether the read was parallel */
    if (getenv("EVPROF_TEST_JOBS_NOTE"))
        fprintf(stderr, "evprof: test: %u ranges%s%s\n", s->parallel_ranges,
                s->parallel_note ? "; sequential: " : "",
                s->parallel_note ? s->parallel_note : "");
}

int cli_report_stream(const char *path, const ev_stream *s)
{
    cli_jobs_note(s);
    const char *shown = cli_display_path(path);
    int code;

    if (s->interrupted) {
        /* the cut at the interrupt is not damage: say what was read */
        el_read_result r = s->read;
        if (r.status == EL_ERR_TRUNCATED || r.status == EL_OK)
            r.status = EL_END;
        code = cli_report_read(path, &r);
        fprintf(stderr, "evprof: %s: interrupted after %llu events (%llu bytes); "
                "the results so far\n", shown, (unsigned long long)s->read.events,
                (unsigned long long)s->read.bytes);
        if (code == CLI_OK)
            code = CLI_INTERRUPTED;
    } else {
        if (s->idle_timed_out && s->read.status != EL_ERR_IO)   /* missing: the error says it */
            fprintf(stderr, "evprof: %s: the file did not grow for the idle timeout; "
                    "reading stopped there\n", shown);
        code = cli_report_read(path, &s->read);
    }
    /* an analysis that stopped the read is reported by its command, which
     * knows why; the driver's own stops are said here */
    if (s->driver_stop)
        fprintf(stderr, "evprof: %s: %s\n", shown, s->driver_stop);
    if (s->stopped)
        code = CLI_FAIL;
    return code;
}

int cli_read_nothing(const ev_stream *s, int code)
{
    return s->read.events == 0 && code != CLI_OK && code != CLI_INTERRUPTED;
}

/* ---- what else a log holds ---------------------------------------------- */

static int holds_event(void *self, const el_event *ev, const ev_stream *s)
{
    cli_holds *k = self;
    (void)s;
    switch (ev->type) {
    case EL_HEAP_PROF_BEGIN:
        k->heap_begin = 1;
        break;
    case EL_HEAP_PROF_SAMPLE_BEGIN:
    case EL_HEAP_BIO_PROF_SAMPLE_BEGIN:
        k->heap = 1;
        break;
    case EL_TICKY_COUNTER_DEF:
    case EL_TICKY_COUNTER_SAMPLE:
        k->ticky = 1;
        break;
    default:
        k->gc = 1;
        break;
    }
    return 0;
}

static void *holds_fork(void *self)
{
    (void)self;
    return calloc(1, sizeof(cli_holds));
}

static int holds_merge(void *self, void *part)
{
    cli_holds *k = self;
    const cli_holds *q = part;
    k->heap |= q->heap;
    k->heap_begin |= q->heap_begin;
    k->ticky |= q->ticky;
    k->gc |= q->gc;
    return 0;
}

static void holds_drop(void *part) { free(part); }

static const uint16_t holds_types[] = {
    EL_HEAP_PROF_BEGIN, EL_HEAP_PROF_SAMPLE_BEGIN, EL_HEAP_BIO_PROF_SAMPLE_BEGIN,
    EL_TICKY_COUNTER_DEF, EL_TICKY_COUNTER_SAMPLE, EL_GC_START, EL_GC_STATS_GHC,
    EL_HEAP_ALLOCATED,
};
const ev_analysis_ops cli_holds_ops = {
    "holds", holds_types, sizeof holds_types / sizeof holds_types[0], 0, holds_event, NULL,
    NULL, NULL, holds_fork, holds_merge, holds_drop,
};
