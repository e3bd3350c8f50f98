/* evprof gc: the +RTS -s memory and GC summary, rebuilt from GC events,
 * for the whole run or a window of it. */
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "evprof/gc.h"
#include "format.h"
#include "outfile.h"
#include "selection.h"
#include "read.h"




static const cli_cmd_help help = {
    "gc", "[OPTIONS] FILE",
    "The memory and GC summary that +RTS -s prints at exit, rebuilt from the GC\n"
    "events of a program run with +RTS -l (no profiling build needed): for the\n"
    "whole run, or for the window --from/--to. Also each capability's mutator,\n"
    "GC and idle time, which +RTS -s cannot show.",
    "Allocation, bytes copied, maximum residency and its samples, maximum slop,\n"
    "total memory in use, collections per generation, parallel collections,\n"
    "work balance and spark counts equal GHC's own +RTS -s for the same run.\n"
    "GC pauses are the leading capability's GC_START..GC_END, which GHC stamps\n"
    "with the times its statistics use (measured on 9.0.2, 9.6.6 and 9.10.3).\n"
    "CPU times and the INIT/EXIT phases are not in the eventlog: they read n/a\n"
    "(see docs/GC.md).\n"
    "\n"
    "A window counts the collections whose GC_STATS_GHC falls in it, and the\n"
    "growth of the allocation and spark counters inside it; MUT/GC time and the\n"
    "capability table are clipped to it. --cap N selects capability N's\n"
    "allocation, sparks and table row; the heap is shared by all capabilities.\n",
};

int cmd_gc(cli_ctx *c, int argc, char **argv)
{
    cli_args a;
    cli_window w;
    int id, fmt = -1;
    cli_formats formats = { .to_stdout = 0, .to_file = 0 };    /* text */
    formats.list = gc_formats(&formats.count);

    cli_window_init(&w, c);
    const cli_opt opts[] = {
        CLI_FORMAT_OPT(&fmt, &formats, "output format: text (+RTS -s layout, default) or "
                       "json (default: from -o's extension)"),
        CLI_TIME_OPTS(&w),
        CLI_CAP_OPT(&w),
        CLI_FOLLOW_OPTS(&w),
        CLI_MEMORY_OPT(c),
        CLI_OUTPUT_OPT(&w.output),
        CLI_JOBS_OPT(c),
        OPT_END,
    };
    id = cli_parse(&help, opts, argc, argv, &a);
    const char *path;
    int done = cli_window_done(&a, id, &w, &path);
    if (done >= 0)
        return done;
    if ((fmt = cli_format_resolve(&help, &formats, fmt, w.output)) < 0)
        return CLI_USAGE;
    const char *name = cli_display_path(c, path);

    gc_summary *s = gc_create();
    if (!s) {
        fprintf(stderr, "evprof: out of memory\n");
        return CLI_FAIL;
    }
    int code;
    ev_driver *d =
        cli_read_src(c, &w.src, path, &(cli_analysis){ &gc_analysis_ops, s }, 1, &code);
    if (!d) {
        gc_destroy(s);
        return code;
    }
    /* a damaged log still gets the summary of everything before the damage;
     * one that yielded nothing (unreadable, not an eventlog) gets none */
    int nothing = cli_read_nothing(ev_driver_stream(d), code);
    ev_driver_destroy(d);
    gc_summary *agg = s;
    s = nothing ? NULL : gc_snapshot(agg);
    gc_destroy(agg);
    if (nothing)
        return code;
    if (!s) {
        fprintf(stderr, "evprof: %s: out of memory building the GC summary\n", name);
        return CLI_FAIL;
    }
    const gc_result *r = gc_get_result(s);
    if (!r->has_gc_events) {
        fprintf(stderr, "evprof: %s: no GC events (GC_START/GC_END, GC_STATS_GHC, "
                "HEAP_ALLOCATED, HEAP_SIZE, HEAP_LIVE): run the program with +RTS -l, "
                "whose default event classes include the GC class g (-l-a and -l-g turn it "
                "off; -l-ag keeps only it) (see 'evprof info %s')\n", name,
                strcmp(path, "-") == 0 ? "-" : name);
        gc_destroy(s);
        return CLI_FAIL;
    }
    if (w.cap >= 0 && r->n_caps == 0)
        fprintf(stderr, "evprof: %s: warning: capability %d does not occur in the log\n",
                name, (int)w.cap);

    gc_report_opts ro;
    gc_report_opts_init(&ro);
    ro.source_name = name;
    cli_out out;
    if (cli_out_open(c, &out, w.output) != 0) {
        gc_destroy(s);
        return CLI_FAIL;
    }
    ev_error err;
    ev_status wst = formats.list[fmt].write(s, &ro, out.f, &err);
    if (cli_out_close(&out, wst == EV_OK) != 0 && code == CLI_OK)
        code = CLI_FAIL;
    gc_destroy(s);
    return code;
}
