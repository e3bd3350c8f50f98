/* evprof metrics: a finished log's figures, once, as Prometheus' text
 * exposition format (for node_exporter's textfile collector). The same
 * model as `evprof top` (live/top.c) and the same writer as `top
 * --metrics` (live/metrics.c): one frame at the end of the read. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "evprof/live.h"
#include "evprof/metrics.h"
#include "outfile.h"
#include "selection.h"
#include "read.h"



static const cli_cmd_help help = {
    "metrics", "[OPTIONS] FILE",
    "The log's figures as Prometheus' text exposition format (version 0.0.4), the\n"
    "same that `evprof top --metrics` serves while it follows a program: memory\n"
    "and GC (allocated and copied bytes, collections per generation, pauses,\n"
    "heap size, live data, maximum residency, mutator and GC time per\n"
    "capability, threads, sparks), the cost centres with the most ticks, the\n"
    "largest heap bands and the busiest ticky counters. For node_exporter's\n"
    "textfile collector: -o DIR/NAME.prom replaces the file whole.",
    "Every metric and what it means in GHC's terms: docs/LIVE.md (\"Prometheus\").\n"
    "The windows (--from/--to, --between, --phase) and --cap select the cost\n"
    "centres' samples and the other figures as `evprof gc`, `heap` and `ticky` do.\n",
};

static int attach(void *ctx, ev_driver *d)
{
    return live_top_attach(ctx, d);
}

int cmd_metrics(cli_ctx *c, int argc, char **argv)
{
    cli_args a;
    cli_window w;
    int id;
    unsigned long top = 10;

    cli_window_init(&w, c);
    const cli_opt opts[] = {
        OPT_COUNT('n', "top", "N", &top, 1, 1000, "cost centres, heap bands and ticky "
                  "counters: the N with the most (default 10)"),
        CLI_TIME_OPTS(&w),
        CLI_CAP_OPT(&w),
        CLI_FOCUS_OPTS(&w),
        CLI_FOLLOW_OPTS(&w),
        CLI_MEMORY_OPT(c),
        CLI_OUTPUT_OPT(&w.output),
        OPT_END,
    };
    id = cli_parse(&help, opts, argc, argv, &a);
    const char *path;
    int done = cli_window_done(&a, id, &w, &path);
    if (done >= 0)
        return done;
    const char *name = cli_display_path(c, path);

    prof_filter pf;
    prof_filter_init(&pf);
    if (cli_window_prof_filter(&w, &pf) != 0)
        return CLI_USAGE;
    live_opts lo;
    live_opts_init(&lo);
    lo.top_n = (unsigned)top;
    lo.samples = &pf;
    live_metrics_opts mo;
    live_metrics_opts_init(&mo);
    mo.top_n = (unsigned)top;
    live_top *t = live_top_create(&lo);
    live_metrics *m = live_metrics_create(&mo);
    if (!t || !m) {
        fprintf(stderr, "evprof: out of memory\n");
        live_top_destroy(t);
        live_metrics_destroy(m);
        return CLI_FAIL;
    }
    int code;
    ev_driver *d = cli_read_with(c, &w.src, path, attach, t, &code);
    if (!d) {
        live_top_destroy(t);
        live_metrics_destroy(m);
        return code;
    }
    /* a damaged log still gets the figures of everything before the
     * damage; one that yielded nothing gets none */
    const ev_stream *s = ev_driver_stream(d);
    const live_frame *f = cli_read_nothing(s, code) ? NULL : live_top_frame(t, s);
    if (!f && !cli_read_nothing(s, code)) {
        fprintf(stderr, "evprof: %s: out of memory building the figures\n", name);
        code = CLI_FAIL;
    }
    if (f) {
        cli_out out;
        if (cli_out_open(c, &out, w.output) != 0) {
            code = CLI_FAIL;
        } else {
            /* a write error is cli_out_close's to report; anything else
             * was memory */
            int nomem = live_metrics_write(m, f, out.f) != 0 && !ferror(out.f);
            if (nomem) {
                fprintf(stderr, "evprof: %s: out of memory writing the figures\n", name);
                code = CLI_FAIL;
            }
            if (cli_out_close(&out, !nomem) != 0)
                code = CLI_FAIL;
        }
    }
    ev_driver_destroy(d);
    live_top_destroy(t);
    live_metrics_destroy(m);
    return code;
}
