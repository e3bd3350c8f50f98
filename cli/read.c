/* The CLI's one way to read a log: the driver with the command's analyses. */
#include <stdio.h>

#include "cli/cli.h"
#include "cli/read.h"

ev_driver *cli_read(const char *path, const cli_analysis *an, size_t n, int *code)
{
    ev_driver *d = ev_driver_create(NULL);

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
