/* evprof phases: the run cut at its marks (traceMarker), one row per
 * phase with its ticks, top cost centres and GC figures, in one read. */
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "evprof/phases.h"
#include "format.h"
#include "outfile.h"
#include "selection.h"
#include "read.h"




static const cli_cmd_help help = {
    "phases", "[OPTIONS] FILE",
    "The run cut into phases at the marks the program made with traceMarker\n"
    "(USER_MARKER events), or at those whose label matches --marker: one row\n"
    "per phase (its label and number, start and length) with its ticks and\n"
    "share of them, its top cost centres, and where the log has them its\n"
    "collections, GC time, bytes allocated, largest heap size and live data.\n"
    "The part before the first mark is the phase \"(start)\".",
    "A phase runs from its mark to the next one (the last to the end of the\n"
    "log): its figures are those of 'evprof report' and 'evprof gc' with\n"
    "--from marker:LABEL#N --to marker:NEXT#M, and the phases' ticks add up to\n"
    "the run's. The log is read once, its events in time order (the driver's\n"
    "time-ordered replay: the file is read again by offset, memory about 256 KiB\n"
    "per capability). --from/--to cut the phases to a window; --cap N makes\n"
    "the ticks, top cost centres and allocation capability N's own (its samples\n"
    "and its allocation counter, as 'evprof gc --cap N' counts them), while\n"
    "the collections, GC time and heap stay the whole run's. See\n"
    "docs/PROF.md, \"Phases\".\n",
};

int cmd_phases(cli_ctx *c, int argc, char **argv)
{
    cli_args a;
    cli_window w;
    phases_opts po;
    int id, fmt = -1;
    cli_formats formats = { .to_stdout = 0, .to_file = 0 };    /* text */
    formats.list = phases_formats(&formats.count);

    cli_window_init(&w, c);
    phases_opts_init(&po);
    unsigned long top = po.top;
    const cli_opt opts[] = {
        CLI_FORMAT_OPT(&fmt, &formats, "text (default), csv or json (default: from -o's "
                       "extension)"),
        OPT_STRING('m', "marker", "REGEX", &po.marker, "cut only at the marks whose label "
                   "matches (POSIX extended regex, as --focus); default: every mark"),
        OPT_COUNT(0, "top", "N", &top, 0, 1000, "cost centres listed per phase, most "
                  "individual ticks first (default 3; 0: none)"),
        OPT_FLAG('a', "all", &w.all, "count GC, SYSTEM, IDLE, OVERHEAD_of and DONT_CARE "
                 "samples too, as +RTS -pa does"),
        CLI_TIME_OPTS(&w),
        CLI_CAP_OPT(&w),
        CLI_FOLLOW_OPTS(&w),
        CLI_MEMORY_OPT(c),
        CLI_OUTPUT_OPT(&w.output),
        OPT_END,
    };
    id = cli_parse(&help, opts, argc, argv, &a);
    po.top = (uint32_t)top;
    const char *path;
    int done = cli_window_done(&a, id, &w, &path);
    if (done >= 0)
        return done;
    if ((fmt = cli_format_resolve(&help, &formats, fmt, w.output)) < 0)
        return CLI_USAGE;
    const char *name = cli_display_path(c, path);
    po.all = w.all;

    int bad = cli_pattern_check("--marker", po.marker);
    if (bad)
        return bad;
    ev_error err;
    phases_run *p = phases_create(&po, &err);
    if (!p) {
        fprintf(stderr, "evprof: %s\n", err.msg);
        return err.status == EV_ERR_PATTERN ? CLI_USAGE : CLI_FAIL;
    }
    int code;
    ev_driver *d = cli_read_src(c, &w.src, path, &(cli_analysis){ &phases_ops, p }, 1, &code);
    if (!d) {
        phases_destroy(p);
        return code;
    }
    int nothing = cli_read_nothing(ev_driver_stream(d), code);
    ev_driver_destroy(d);
    if (nothing) {
        phases_destroy(p);
        return code;
    }
    if ((phases_status(p) != EV_OK)) {
        fprintf(stderr, "evprof: %s: out of memory cutting the phases\n", name);
        phases_destroy(p);
        return CLI_FAIL;
    }
    phases_info in;
    phases_get_info(p, &in);
    if (!in.has_samples && !in.has_gc && !in.has_alloc) {
        fprintf(stderr, "evprof: %s: no time-profile samples and no GC events: nothing to "
                "say per phase (run the program with +RTS -l, a -prof build with +RTS -p -l "
                "for ticks; see 'evprof info %s')\n", name, strcmp(path, "-") == 0 ? "-" : name);
        phases_destroy(p);
        return CLI_FAIL;
    }
    if (!in.marks)
        fprintf(stderr, "evprof: %s: note: %s, so the run is one phase\n", name,
                in.marks_seen ? "no mark's label matches --marker" : "the log has no marks "
                "(Debug.Trace.traceMarkerIO)");
    cli_out out;
    if (cli_out_open(c, &out, w.output) != 0) {
        phases_destroy(p);
        return CLI_FAIL;
    }
    ev_status wst = formats.list[fmt].write(p, name, out.f, &err);
    if (cli_out_close(&out, wst == EV_OK) != 0 && code == CLI_OK)
        code = CLI_FAIL;
    phases_destroy(p);
    return code;
}
