/* evprof report: the time profile in GHC's .prof layout, or GHC's -pj JSON. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "evprof/prof.h"
#include "format.h"
#include "load.h"
#include "outfile.h"
#include "selection.h"
#include "read.h"




static const cli_cmd_help help = {
    "report", "[OPTIONS] FILE...",
    "The time profile of a program run with +RTS -p -l (a -prof build), rebuilt\n"
    "from its PROF_SAMPLE_COST_CENTRE events in the layout of GHC's .prof file.\n"
    "`evprof FILE` runs this command.",
    "Ticks count the samples whose stack is exactly the row's path. Entry counts\n"
    "and allocation are not in the eventlog (GHC issue 24106), so the report shows\n"
    "ticks instead. Children are ordered by inherited ticks, then label.\n"
    "--cap N: the ticks are capability N's samples alone, so the total time is\n"
    "theirs on one processor (the line under it says so). --json's\n"
    "initial_capabilities is GHC's: 0 for a non-threaded RTS, else the\n"
    "capabilities the run started with (+RTS -N).\n"
    "Several FILEs: their sum, cost centres matched by module, label and source\n"
    "location (the runs of a fleet or a test suite); see docs/ECOSYSTEM.md.\n"
    "--callers: per matching cost centre (grouped by module and label), the ticks\n"
    "of the stacks through it and, per caller and per callee, through that call;\n"
    "a stack counts once however often it recurs there (the call graph's rule).\n",
};

/* --json: --format json (the later of the two wins) */
static int opt_json(const cli_args *a, void *var, const void *ctx)
{
    (void)a;
    const cli_formats *t = ctx;
    *(int *)var = (int)(ev_format_find(t->list, t->count, "json") - t->list);
    return 0;
}

int cmd_report(cli_ctx *c, int argc, char **argv)
{
    cli_args a;
    cli_window w;
    prof_report_opts ro;
    int id, fmt = -1;
    cli_formats formats = { .to_stdout = 0, .to_file = 0 };    /* text */
    formats.list = prof_formats(&formats.count);
    const char *callers = NULL;
    unsigned long depth = 0;

    cli_window_init(&w, c);
    prof_report_opts_init(&ro);
    const cli_opt opts[] = {
        OPT_CALL(0, "json", NULL, opt_json, &fmt, &formats, "GHC's -pj JSON profile instead of "
                 "the text report (counts every sample, as -pj does): --format json"),
        CLI_FORMAT_OPT(&fmt, &formats, "text (GHC's .prof layout, the default) or json "
                       "(default: from -o's extension, .json or .prof)"),
        OPT_FLAG('a', "all", &w.all, "count GC, SYSTEM, IDLE, OVERHEAD_of and DONT_CARE "
                 "samples too, as +RTS -pa does"),
        CLI_WINDOW_OPTS(&w),
        OPT_NUMBER('t', "threshold", "PCT", &ro.threshold_pct, 0, 100,
                   "hide subtrees with less than PCT% of the ticks"),
        OPT_COUNT('d', "max-depth", "N", &depth, 0, 1000000, "hide stack frames deeper "
                  "than N below MAIN (and keep no deeper ones while reading: bounds the "
                  "memory too)"),
        OPT_STRING(0, "callers", "REGEX", &callers, "instead of the tree: the callers and "
                   "callees of each cost centre whose Module.label matches (as --focus), "
                   "with ticks"),
        CLI_OUTPUT_OPT(&w.output),
        CLI_JOBS_OPT(c),
        OPT_END,
    };
    id = cli_parse(&help, opts, argc, argv, &a);
    ro.max_depth = (uint32_t)depth;
    w.max_depth = ro.max_depth;     /* the aggregate keeps only what is shown */
    const char *const *paths;
    size_t num_paths;
    int done = cli_window_done_logs(&a, id, &w, &paths, &num_paths);
    if (done >= 0)
        return done;
    if ((fmt = cli_format_resolve(&help, &formats, fmt, w.output)) < 0)
        return CLI_USAGE;
    /* JSON counts every sample, as GHC's -pj does */
    int json = strcmp(formats.list[fmt].name, "json") == 0;
    if (callers && (json || ro.max_depth || ro.threshold_pct > 0.0)) {
        cli_usage_error(&help, "--callers writes its own text: it takes no JSON, "
                        "--max-depth or --threshold");
        return CLI_USAGE;
    }
    int bad = cli_pattern_check("--callers", callers);     /* before the log is read */
    if (bad)
        return bad;
    ro.source_name = cli_display_path(c, paths[0]);
    ro.jobs = cli_jobs(c);

    int code, no_samples = 0;
    prof_result *p = cli_load_profiles(paths, num_paths, &w, w.all || json, NULL, &code, &no_samples);
    if (!p)
        return code;

    prof_callers_of *peek = NULL;
    size_t npeek = 0;
    if (callers) {
        ev_error err;
        if (prof_callers(p, callers, &peek, &npeek, &err) != EV_OK) {
            fprintf(stderr, "evprof: %s: %s\n", ro.source_name, err.msg);
            prof_result_destroy(p);
            return CLI_FAIL;
        }
        if (!npeek && !no_samples) {
            fprintf(stderr, "evprof: %s: no cost centre with ticks matches '", ro.source_name);
            cli_text_str(stderr, callers, strlen(callers));
            fprintf(stderr, "' (Module.label, POSIX extended regex)\n");
            prof_callers_free(peek, npeek);     /* an empty table, still allocated */
            prof_result_destroy(p);
            return CLI_FAIL;
        }
    }
    cli_out out;
    if (cli_out_open(c, &out, w.output) != 0) {
        prof_callers_free(peek, npeek);
        prof_result_destroy(p);
        return CLI_FAIL;
    }
    ev_error err;
    int wrc = callers ? prof_report_callers(p, peek, npeek, callers, out.f)
              : formats.list[fmt].write(p, &ro, out.f, &err) == EV_OK ? 0 : -1;
    prof_callers_free(peek, npeek);
    if (cli_out_close(&out, wrc == 0 && !no_samples) != 0 && code == CLI_OK)
        code = CLI_FAIL;
    prof_result_destroy(p);
    return code == CLI_OK && no_samples ? CLI_FAIL : code;
}
