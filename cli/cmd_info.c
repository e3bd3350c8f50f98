/* evprof info: what a log holds (the info analysis, info/info.c). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "evprof/info.h"
#include "format.h"
#include "selection.h"
#include "read.h"

/* ---- the command ------------------------------------------------------ */




static const cli_cmd_help info_help = {
    "info",
    "[OPTIONS] FILE",
    "Shows what an eventlog holds: RTS version, program and arguments,\n"
    "capabilities, time span, wall-clock start, the number and size of the\n"
    "events of each type, and which analyses the log supports (with the GHC\n"
    "flags that would add the missing ones). FILE may be '-' (standard input).",
    "The log is read once as a stream. A damaged or truncated log still gets\n"
    "its summary (of the events before the damage) and exit status 1; a log\n"
    "without an end marker gets a warning and exit status 0. With --follow the\n"
    "summary is printed when the log ends (Ctrl-C: the summary so far, exit 130).\n"
    "With --from, --to, --between or --cap the time span, the events and the\n"
    "table of types are those inside the selection (a line says which); the\n"
    "run's facts (RTS, program, start, capabilities, status) are the whole log's.",
};

int cmd_info(cli_ctx *c, int argc, char **argv)
{
    cli_args a;
    cli_window w;
    int id, fmt = -1;
    cli_formats formats = { .to_stdout = 0, .to_file = 0 };    /* text */
    formats.list = info_formats(&formats.count);
    cli_window_init(&w, c);
    const cli_opt opts[] = {
        CLI_FORMAT_OPT(&fmt, &formats, "output format: text (default) or json"),
        CLI_TIME_OPTS(&w),
        CLI_CAP_OPT(&w),
        CLI_FOLLOW_OPTS(&w),
        CLI_MEMORY_OPT(c),
        CLI_JOBS_OPT(c),
        OPT_END,
    };
    id = cli_parse(&info_help, opts, argc, argv, &a);
    const char *path;
    int done = cli_window_done(&a, id, &w, &path);
    if (done >= 0)
        return done;
    fmt = cli_format_resolve(&info_help, &formats, fmt, NULL);

    info_log *in = info_create();
    if (!in) {
        fputs("evprof: out of memory\n", stderr);
        return CLI_FAIL;
    }
    int code;
    cli_analysis an = { info_analysis_for(w.src.select), in };
    ev_driver *d = cli_read_src(c, &w.src, path, &an, 1, &code);
    if (!d) {
        info_destroy(in);
        return code;
    }
    const el_read_result *r = &ev_driver_stream(d)->read;
    /* nothing to summarise when the file could not be opened at all, or
     * is not an eventlog (the message said what it is) */
    int not_log = r->status == EV_ERR_FORMAT && r->error.offset == 0 && r->events == 0 &&
                  !ev_driver_stream(d)->decoder;
    if (!(r->status == EV_ERR_IO && r->bytes == 0) && !not_log) {
        (void)formats.list[fmt].write(in, path, stdout, NULL);
    }
    fflush(stdout);
    if ((info_status(in) != EV_OK)) {
        fputs("evprof: out of memory copying the program name\n", stderr);
        code = CLI_FAIL;
    }
    ev_driver_destroy(d);
    info_destroy(in);
    return code;
}
