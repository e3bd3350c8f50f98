/* evprof folded: the time profile as folded stacks, the input of
 * flamegraph.pl, inferno and speedscope. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "evprof/prof.h"
#include "load.h"
#include "outfile.h"
#include "selection.h"

static const cli_cmd_help help = {
    "folded", "[OPTIONS] FILE...",
    "The time profile of a program run with +RTS -p -l as folded stacks: one line\n"
    "per distinct stack, frames from MAIN to the leaf joined by ';', a space, and\n"
    "the stack's own ticks. Feed it to flamegraph.pl, inferno-flamegraph, or open\n"
    "it in speedscope.",
    "Counts are the ticks whose stack is exactly the line's (GHC's 'individual'),\n"
    "so they add up to the report's total. Names are cleaned so that every line\n"
    "parses: ';' becomes ':', control characters become spaces, and whitespace at\n"
    "a frame's end or before a number that ends it becomes '_'. Stacks that GHC\n"
    "cut at 255 frames start at the frame '<stack cut at 255 frames>'.\n"
    "See docs/FLAMEGRAPH.md.\n",
};

static int opt_frame_format(const cli_args *a, void *var, const void *ctx)
{
    (void)ctx;
    if (prof_frame_format_parse(a->value, var) != 0) {
        cli_usage_error(a->cmd, "--frame-format wants name, label or src, not '%s'", a->value);
        return -1;
    }
    return 0;
}

int cmd_folded(cli_ctx *c, int argc, char **argv)
{
    cli_args a;
    cli_window w;
    prof_folded_opts fo;

    cli_window_init(&w, c);
    prof_folded_opts_init(&fo);
    const cli_opt opts[] = {
        OPT_FLAG('a', "all", &w.all, "count GC, SYSTEM, IDLE, OVERHEAD_of and DONT_CARE "
                 "samples too, as +RTS -pa does"),
        CLI_WINDOW_OPTS(&w),
        OPT_CALL('F', "frame-format", "FMT", opt_frame_format, &fo.frame, NULL, "a frame is "
                 "'name' (Module.label, the default), 'label', or 'src' (Module.label "
                 "(File.hs:line:col))"),
        CLI_OUTPUT_OPT(&w.output),
        CLI_JOBS_OPT(c),
        OPT_END,
    };
    int id = cli_parse(&help, opts, argc, argv, &a);
    const char *const *paths;
    size_t num_paths;
    int done = cli_window_done_logs(&a, id, &w, &paths, &num_paths);
    if (done >= 0)
        return done;
    const char *name = cli_display_path(c, paths[0]);

    int code, no_samples = 0;
    prof_result *p = cli_load_profiles(paths, num_paths, &w, w.all, NULL, &code, &no_samples);
    if (!p)
        return code;

    cli_out out;
    if (cli_out_open(c, &out, w.output) != 0) {
        prof_result_destroy(p);
        return CLI_FAIL;
    }
    int wrc = prof_report_folded(p, &fo, out.f);
    if (cli_out_close(&out, wrc == 0 && !no_samples) != 0 && code == CLI_OK)
        code = CLI_FAIL;
    else if (wrc != 0 && code == CLI_OK) {
        fprintf(stderr, "evprof: %s: out of memory writing the stacks\n", name);
        code = CLI_FAIL;
    }
    prof_result_destroy(p);
    return code == CLI_OK && no_samples ? CLI_FAIL : code;
}
