/* The CLI's one way to read a log: the driver with the command's analyses. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/read.h"
#include "cli/selection.h"
#include "driver/internal.h"
#include "driver/spool.h"
#include "cli/signals.h"

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
    int done = s->read.status != EV_OK || s->read.bytes >= s->total_bytes;
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

/* ---- --memory-limit ------------------------------------------------------ */

/* The process's one budget, in the context: every read of the command
 * charges it (the logs of a sum add up), created at the first read, freed
 * with the context. */
int cli_opt_memory(const cli_args *a, void *var, const void *ctx)
{
    cli_ctx *c = var;
    uint64_t v;
    (void)ctx;
    if (ev_budget_parse_size(a->value, &v) != 0) {
        cli_usage_error(a->cmd, "--memory-limit: '%s' is not a size: bytes, or a whole number "
                        "with K, M or G (binary: 512M, 2G)", a->value);
        return -1;
    }
    c->memory_limit = v;
    return 0;
}

ev_budget *cli_budget(cli_ctx *c)
{
    if (c->budget)
        return c->budget;
    uint64_t limit = c->memory_limit ? c->memory_limit : ev_budget_default_limit();
    if (!(c->budget = ev_budget_create(limit)))
        return NULL;
    /* what reading takes whatever the log: the program, the decoder and
     * a file's 16 MiB mapping window (a limit below it stops at once) */
    if (ev_budget_try(c->budget, CLI_READ_BASE_BYTES) != 0)
        (void)ev_budget_try(c->budget, limit);     /* it is all taken */
    return c->budget;
}

/* "256 MiB" */
static void put_size(FILE *f, uint64_t b)
{
    if (b >= (1u << 30) && b % (1u << 30) == 0)
        fprintf(f, "%llu GiB", (unsigned long long)(b >> 30));
    else if (b >= (1u << 20) && b % (1u << 20) == 0)
        fprintf(f, "%llu MiB", (unsigned long long)(b >> 20));
    else if (b >= (1u << 10) && b % (1u << 10) == 0)
        fprintf(f, "%llu KiB", (unsigned long long)(b >> 10));
    else
        fprintf(f, "%llu bytes", (unsigned long long)b);
}

/* The one message of a read stopped at the memory limit: where, the
 * limit, what the aggregates hold so far, and what bounds them. */
int cli_memory_stopped(cli_ctx *c, const char *path, const ev_stream *s,
                       const cli_analysis *an, size_t n)
{
    if (!s->stopped || s->driver_stop || !ev_budget_reached(s->budget))
        return 0;
    cli_memory_message(c, path, s->stopped_by ? s->stop_offset : s->read.bytes, s->budget, an,
                       n);
    return 1;
}

int cli_memory_reached_driver(cli_ctx *c, const char *path, const ev_driver *d)
{
    cli_analysis an[EV_MAX_ANALYSES];
    size_t n = 0;
    const ev_stream *s = ev_driver_stream(d);
    if (!ev_budget_reached(s->budget))
        return 0;
    while (n < EV_MAX_ANALYSES &&
           ev_driver_analysis(d, (unsigned)n, &an[n].ops, &an[n].self) == 0)
        n++;
    cli_memory_message(c, path, s->read.bytes, s->budget, an, n);
    return 1;
}

int cli_memory_stopped_driver(cli_ctx *c, const char *path, const ev_driver *d)
{
    cli_analysis an[EV_MAX_ANALYSES];
    size_t n = 0;
    while (n < EV_MAX_ANALYSES &&
           ev_driver_analysis(d, (unsigned)n, &an[n].ops, &an[n].self) == 0)
        n++;
    return cli_memory_stopped(c, path, ev_driver_stream(d), an, n);
}

void cli_memory_message(cli_ctx *c, const char *path, uint64_t offset, const ev_budget *b,
                        const cli_analysis *an, size_t n)
{
    FILE *e = stderr;
    fprintf(e, "evprof: %s: stopped at byte %llu of the log: the memory limit (",
            cli_display_path(c, path), (unsigned long long)offset);
    put_size(e, ev_budget_limit(b));
    fputs(", --memory-limit) is reached", e);
    if (ev_budget_limit(b) <= CLI_READ_BASE_BYTES) {
        fputs(", below what reading takes (", e);
        put_size(e, CLI_READ_BASE_BYTES);
        fputs(")", e);
    }
    /* each analysis says what it holds; one of several that holds
     * nothing (top's profile without samples) is noise */
    const char *bounds[EV_MAX_ANALYSES];
    size_t nb = 0;
    for (size_t i = 0; i < n; i++) {
        char what[256];
        int say = an[i].ops->holds ? an[i].ops->holds(an[i].self, what, sizeof what) : -1;
        if (say < 0 || (say == 0 && n > 1))
            continue;
        fprintf(e, "; %s", what);
        if (an[i].ops->bounded_by && nb < EV_MAX_ANALYSES)
            bounds[nb++] = an[i].ops->bounded_by;
    }
    fputs(". ", e);
    for (size_t i = 0; i < nb; i++)
        fprintf(e, "%s; ", bounds[i]);
    fputs("raise --memory-limit to read the whole log\n", e);
}

ev_driver *cli_read(cli_ctx *c, const char *path, const cli_analysis *an, size_t n, int *code)
{
    return cli_read_src(c, NULL, path, an, n, code);
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

static ev_driver *read_with(cli_ctx *c, const cli_source *src, const char *path,
                            int (*attach)(void *ctx, ev_driver *d), void *ctx,
                            const cli_analysis *an, size_t n, int *code);

ev_driver *cli_read_src(cli_ctx *c, const cli_source *src, const char *path,
                        const cli_analysis *an, size_t n, int *code)
{
    attach_list l = { an, n };
    return read_with(c, src, path, attach_all, &l, an, n, code);
}

ev_driver *cli_read_with(cli_ctx *c, const cli_source *src, const char *path,
                         int (*attach)(void *ctx, ev_driver *d), void *ctx, int *code)
{
    return read_with(c, src, path, attach, ctx, NULL, 0, code);
}

/* --connect to a program not listening yet: said once, while waiting */
static void on_connect_wait(void *ctx, const char *addr)
{
    fprintf(stderr, "evprof: waiting for %s to accept a connection (Ctrl-C%s)\n",
            cli_display_path(ctx, addr), " or --idle-timeout ends the wait");
}

/* an[0..n): the analyses whose counts the memory-limit message gives */
static ev_driver *read_with(cli_ctx *c, const cli_source *src, const char *path,
                            int (*attach)(void *ctx, ev_driver *d), void *ctx,
                            const cli_analysis *an, size_t n, int *code)
{
    int live = src && (src->follow || src->connect);
    ev_driver_opts o;
    struct sigaction old;

    progress prog = { cli_display_path(c, path ? path : "-"), 0.0, 0 };

    ev_driver_opts_init(&o);
    cli_jobs_opts(c, &o);
    o.budget = cli_budget(c);
    o.select = src ? src->select : NULL;
    if (live) {
        /* --connect waits for a program not listening yet, as --follow
         * waits for a file (issue 27) */
        o.follow = src->follow || src->connect;
        o.idle_timeout = src->idle_timeout;
        o.interrupt = &c->interrupted;
        o.on_bytes = src->on_bytes;
        o.bytes_ctx = src->bytes_ctx;
        o.on_wait = on_connect_wait;
        o.wait_ctx = c;
    } else if (isatty(STDERR_FILENO)) {
        o.progress = on_progress;
        o.progress_ctx = &prog;
    }
    ev_driver *d = ev_driver_create(&o);
    if (d)
        cli_test_hooks(d);
    if (d && attach(ctx, d) != 0) {
        ev_driver_destroy(d);
        d = NULL;
    }
    if (!d) {
        fprintf(stderr, "evprof: out of memory\n");
        *code = CLI_FAIL;
        return NULL;
    }
    int caught = live && cli_catch_interrupt(c, &old) == 0;
    const ev_stream *s = src && src->connect ? ev_driver_run_connect(d, src->connect)
                       : src && src->spool   ? ev_driver_run_spool(d, src->spool, path)
                                             : ev_driver_run_path(d, path);
    if (caught)
        sigaction(SIGINT, &old, NULL);
    if (prog.shown)
        fputs("\r\033[K", stderr);
    if (an ? cli_memory_stopped(c, path, s, an, n) : cli_memory_stopped_driver(c, path, d)) {
        /* no result: a profile cut at the limit would look whole */
        ev_driver_destroy(d);
        *code = CLI_FAIL;
        return NULL;
    }
    if (src && src->quiet) {
        *code = ev_stream_damaged(s) ? CLI_FAIL : CLI_OK;
        return d;
    }
    *code = cli_report_stream(c, path, s);
    /* a selection outside the log: no result, a usage error */
    int sel = cli_window_check(c, path, &s->read, s->interrupted || s->stopped, live);
    if (sel != CLI_OK) {
        ev_driver_destroy(d);
        *code = sel;
        return NULL;
    }
    return d;
}

/* ---- -j N ---------------------------------------------------------------- */

unsigned cli_jobs(const cli_ctx *c)
{
    if (c->jobs_given)
        return c->jobs_given;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

void cli_jobs_opts(const cli_ctx *c, ev_driver_opts *o)
{
    o->jobs = cli_jobs(c);
}

void cli_test_hooks(ev_driver *d)
{
    /* tests only (docs/evprof.1): ranges of about this many bytes */
    const char *c = getenv("EVPROF_TEST_CHUNK_BYTES");
    if (c && *c) {
        ev_driver_test_hooks h = { .chunk_bytes = strtoull(c, NULL, 10) };
        ev_driver_set_test_hooks(d, &h);
    }
}

void cli_jobs_note(const ev_stream *s)
{
    /* tests only: whether the read was parallel */
    if (getenv("EVPROF_TEST_JOBS_NOTE"))
        fprintf(stderr, "evprof: test: %u ranges%s%s\n", s->parallel_ranges,
                s->parallel_note ? "; sequential: " : "",
                s->parallel_note ? s->parallel_note : "");
}

int cli_report_stream(cli_ctx *c, const char *path, const ev_stream *s)
{
    cli_jobs_note(s);
    const char *shown = cli_display_path(c, path);
    int code;

    if (s->interrupted) {
        /* the cut at the interrupt is not damage: say what was read */
        el_read_result r = s->read;
        if (r.status == EV_ERR_TRUNCATED || r.status == EV_OK)
            r.status = EV_END;
        code = cli_report_read(c, path, &r);
        fprintf(stderr, "evprof: %s: interrupted after %llu events (%llu bytes); "
                "the results so far\n", shown, (unsigned long long)s->read.events,
                (unsigned long long)s->read.bytes);
        if (code == CLI_OK)
            code = CLI_INTERRUPTED;
    } else {
        if (s->idle_timed_out && s->read.status != EV_ERR_IO)   /* missing: the error says it */
            fprintf(stderr, "evprof: %s: the file did not grow for the idle timeout; "
                    "reading stopped there\n", shown);
        code = cli_report_read(c, path, &s->read);
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
