/* The CLI's one way to read a log: the driver with the command's analyses. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/output.h"
#include "cli/read.h"

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

ev_driver *cli_read_src(const cli_source *src, const char *path, const cli_analysis *an,
                        size_t n, int *code)
{
    int live = src && (src->follow || src->connect);
    ev_driver_opts o;
    struct sigaction old;

    ev_driver_opts_init(&o);
    if (live) {
        o.follow = src->follow;
        o.idle_timeout = src->idle_timeout;
        o.interrupt = &interrupt_flag;
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
    int caught = live && cli_catch_interrupt(&old) == 0;
    const ev_stream *s = src && src->connect ? ev_driver_run_connect(d, src->connect)
                                             : ev_driver_run_path(d, path);
    if (caught)
        sigaction(SIGINT, &old, NULL);
    *code = cli_report_stream(path, s);
    return d;
}

int cli_report_stream(const char *path, const ev_stream *s)
{
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
        if (s->idle_timed_out)
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
