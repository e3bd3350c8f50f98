/* The CLI's one way to read a log: the driver with the command's analyses. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
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

ev_driver *cli_read(const char *path, const cli_analysis *an, size_t n, int *code)
{
    progress prog = { cli_display_path(path), 0.0, 0 };
    ev_driver_opts o;
    ev_driver_opts_init(&o);
    if (isatty(STDERR_FILENO)) {
        o.progress = on_progress;
        o.progress_ctx = &prog;
    }
    ev_driver *d = ev_driver_create(&o);

    for (size_t i = 0; d && i < n; i++)
        if (ev_driver_attach(d, an[i].ops, an[i].self) != 0) {
            ev_driver_destroy(d);
            d = NULL;
        }
    if (!d) {
        fprintf(stderr, "evprof: out of memory\n");
        *code = CLI_FAIL;
        return NULL;
    }
    const ev_stream *s = ev_driver_run_path(d, path);
    if (prog.shown)
        fputs("\r\033[K", stderr);
    *code = cli_report_stream(path, s);
    return d;
}

int cli_report_stream(const char *path, const ev_stream *s)
{
    int code = cli_report_read(path, &s->read);

    /* an analysis that stopped the read is reported by its command, which
     * knows why; the driver's own stops are said here */
    if (s->driver_stop)
        fprintf(stderr, "evprof: %s: %s\n", cli_display_path(path), s->driver_stop);
    if (s->stopped)
        code = CLI_FAIL;
    return code;
}

int cli_read_nothing(const ev_stream *s, int code)
{
    return s->read.events == 0 && code != CLI_OK;
}
