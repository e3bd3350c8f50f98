/* evprof threads: each Haskell thread's label, capabilities, running time
 * and why it stopped, then each capability's running, GC and idle time. */
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "evprof/sched.h"
#include "format.h"
#include "outfile.h"
#include "read.h"
#include "selection.h"


static const cli_cmd_help help = {
    "threads", "[OPTIONS] FILE",
    "Each Haskell thread of a program run with +RTS -l (no profiling build\n"
    "needed): its label (GHC.Conc.labelThread), the capabilities it ran on,\n"
    "when it was created and finished, its running time, how often it ran,\n"
    "and why it stopped (heap checks, stack growth, yields, blocked on an MVar,\n"
    "a black hole, an STM retry, a delay, I/O, throwTo, a foreign call). Then\n"
    "each capability's running, GC and idle time.",
    "A thread's running time is its capabilities' running intervals: from a\n"
    "capability's RUN_THREAD to its next scheduler event, so the threads' times\n"
    "add up to the capabilities', which are gc's per-capability MUT time. GHC's\n"
    "eventlog has no allocation per thread (HEAP_ALLOCATED counts per\n"
    "capability): it reads n/a. A window (--from/--to) clips running time and\n"
    "counts the events inside it; --cap N only capability N's. Threads are listed\n"
    "by id, those with an event or running time in the selection.\n",
};

int cmd_threads(cli_ctx *c, int argc, char **argv)
{
    cli_args a;
    cli_window w;
    int fmt = -1;
    cli_formats formats = { .to_stdout = 0, .to_file = 0 };    /* text */
    formats.list = sched_formats(&formats.count);

    cli_window_init(&w, c);
    const cli_opt opts[] = {
        CLI_FORMAT_OPT(&fmt, &formats, "output format: text (a table, default) or json "
                       "(default: from -o's extension)"),
        CLI_TIME_OPTS(&w),
        CLI_CAP_OPT(&w),
        CLI_FOLLOW_OPTS(&w),
        CLI_MEMORY_OPT(c),
        CLI_OUTPUT_OPT(&w.output),
        CLI_JOBS_OPT(c),
        OPT_END,
    };
    int id = cli_parse(&help, opts, argc, argv, &a);
    const char *path;
    int done = cli_window_done(&a, id, &w, &path);
    if (done >= 0)
        return done;
    if ((fmt = cli_format_resolve(&help, &formats, fmt, w.output)) < 0)
        return CLI_USAGE;
    const char *name = cli_display_path(c, path);

    sched_summary *s = sched_create();
    if (!s) {
        fprintf(stderr, "evprof: out of memory\n");
        return CLI_FAIL;
    }
    int code;
    ev_driver *d =
        cli_read_src(c, &w.src, path, &(cli_analysis){ &sched_analysis_ops, s }, 1, &code);
    if (!d) {
        sched_destroy(s);
        return code;
    }
    int nothing = cli_read_nothing(ev_driver_stream(d), code);
    ev_driver_destroy(d);
    sched_result *r = nothing ? NULL : sched_snapshot(s);
    sched_destroy(s);
    if (nothing)
        return code;
    if (!r) {
        fprintf(stderr, "evprof: %s: out of memory building the thread table\n", name);
        return CLI_FAIL;
    }
    if (!r->has_events) {
        fprintf(stderr, "evprof: %s: no scheduler events (CREATE_THREAD, RUN_THREAD, "
                "STOP_THREAD, GC_START/GC_END): run the program with +RTS -l, whose default "
                "event classes include the scheduler class s (-l-s turns it off) (see "
                "'evprof info %s')\n", name, strcmp(path, "-") == 0 ? "-" : name);
        sched_result_destroy(r);
        return CLI_FAIL;
    }
    if (w.cap >= 0 && r->n_caps == 0)
        fprintf(stderr, "evprof: %s: warning: capability %d does not occur in the log\n",
                name, (int)w.cap);
    cli_out out;
    if (cli_out_open(c, &out, w.output) != 0) {
        sched_result_destroy(r);
        return CLI_FAIL;
    }
    ev_error err;
    ev_status wst = formats.list[fmt].write(r, name, out.f, &err);
    if (cli_out_close(&out, wst == EV_OK) != 0 && code == CLI_OK)
        code = CLI_FAIL;
    sched_result_destroy(r);
    return code;
}
