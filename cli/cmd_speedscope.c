/* evprof speedscope: the time profile as speedscope's JSON file format,
 * one sampled profile per capability in time order. */
#include <stdlib.h>

#include "cli.h"
#include "commands.h"
#include "evprof/prof.h"
#include "evprof/speedscope.h"
#include "load.h"
#include "outfile.h"
#include "selection.h"
#include "read.h"


static const cli_cmd_help help = {
    "speedscope", "[OPTIONS] FILE...",
    "The time profile of a program run with +RTS -p -l in speedscope's own file\n"
    "format (https://www.speedscope.app): one sampled profile per capability whose\n"
    "samples are in time order and end at their events' timestamps, so the \"Time\n"
    "Order\" view shows what the program did when. Frames are the cost centres:\n"
    "Module.label with the file, line and column of their SRC.",
    "A capability's samples are its ticks in 'evprof report': GHC's built-in\n"
    "stacks (GC, IDLE, SYSTEM, OVERHEAD_of, DONT_CARE) are empty time unless --all\n"
    "(then they count, as in 'evprof report --all'). Weights are nanoseconds: the\n"
    "time since the capability's previous sample; a gap of more than two ticks is\n"
    "an empty sample. Memory: 12 bytes per sample plus the distinct stacks.\n"
    "Several logs: one profile per log\n"
    "and capability, named \"LOG capability N\", cost centres matched by name.\n"
    "See docs/ECOSYSTEM.md.\n",
};

/* Several logs: one group of profiles each, named by the log. */
static int begin_log(void *extra, const prof_profile *agg, size_t i, const char *name)
{
    (void)i;
    return speedscope_timeline_begin_log(extra, agg, name);
}

int cmd_speedscope(cli_ctx *c, int argc, char **argv)
{
    cli_args a;
    cli_window w;
    int id;

    cli_window_init(&w, c);
    const cli_opt opts[] = {
        OPT_FLAG('a', "all", &w.all, "count GC, SYSTEM, IDLE, OVERHEAD_of and DONT_CARE "
                 "samples too, as +RTS -pa does (without it they are empty time, as the "
                 "report drops them)"),
        CLI_WINDOW_OPTS(&w),
        CLI_OUTPUT_OPT(&w.output),
        CLI_JOBS_OPT(c),
        OPT_END,
    };
    id = cli_parse(&help, opts, argc, argv, &a);
    const char *const *paths;
    size_t num_paths;
    int done = cli_window_done_logs(&a, id, &w, &paths, &num_paths);
    if (done >= 0)
        return done;
    const char *name = num_paths > 1 ? "" : cli_display_path(c, paths[0]);

    prof_filter f;
    prof_filter_init(&f);
    if (cli_window_prof_filter(&w, &f) != 0)
        return CLI_USAGE;
    f.all = w.all;
    speedscope_timeline *t = speedscope_timeline_create(&f);
    if (!t) {
        fprintf(stderr, "evprof: out of memory\n");
        return CLI_FAIL;
    }
    cli_load_more more = { .extra_ops = &speedscope_timeline_ops, .extra = t,
                           .begin_log = begin_log };
    int code, no_samples = 0;
    prof_result *p = cli_load_profiles(paths, num_paths, &w, 1, &more, &code, &no_samples);
    if (!p) {
        speedscope_timeline_destroy(t);
        return code;
    }
    cli_out out;
    if (speedscope_timeline_finish(t) != 0) {
        /* the sort's copy of the samples is charged: past the limit, the
         * one message, at the end of what was read */
        if (ev_budget_reached(cli_budget(c)))
            cli_memory_message(c, num_paths > 1 ? "" : paths[0], more.result.bytes, cli_budget(c),
                               &(cli_analysis){ &speedscope_timeline_ops, t }, 1);
        else
            fprintf(stderr, "evprof: %s: out of memory keeping the samples\n", name);
        code = CLI_FAIL;
    } else if (cli_out_open(c, &out, w.output) != 0) {
        code = CLI_FAIL;
    } else {
        speedscope_opts so = { .name = name };
        int wrc = speedscope_write(p, t, &so, out.f);
        /* no samples: the empty profile goes to standard output only, as
         * report's and folded's do; an -o file is neither made nor replaced */
        if (cli_out_close(&out, wrc == 0 && !no_samples) != 0)
            code = CLI_FAIL;
        else if (wrc != 0) {
            fprintf(stderr, "evprof: %s: out of memory writing the profile\n", name);
            code = CLI_FAIL;
        }
    }
    speedscope_timeline_destroy(t);
    prof_result_destroy(p);
    return code == CLI_OK && no_samples ? CLI_FAIL : code;
}
