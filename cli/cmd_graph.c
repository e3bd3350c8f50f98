/* evprof graph: the call graph of cost centres in one of the graph
 * module's formats (cg_formats: drawn by Graphviz, or as text). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "format.h"
#include "evprof/graph.h"
#include "evprof/prof.h"
#include "load.h"
#include "outfile.h"
#include "selection.h"




static const cli_cmd_help help = {
    "graph", "[OPTIONS] FILE...",
    "The call graph of the cost centres of a program run with +RTS -p -l: one box\n"
    "per cost centre (label and module) with its own (self) and cumulative ticks,\n"
    "an arrow per caller -> callee carrying the ticks of the stacks that make that\n"
    "call. Recursion shows as cycles. Laid out and drawn by Graphviz in-process.",
    "Cumulative ticks count each stack once per cost centre and once per call, even\n"
    "when recursion repeats them. Pruning keeps the graph readable: cost centres\n"
    "under --node-fraction go first, then all but the --max-nodes with the most\n"
    "cumulative ticks, then calls under --edge-fraction, dotted calls that drawn\n"
    "paths imply, and all but the --max-edges heaviest. A dotted arrow stands for\n"
    "calls through hidden cost centres. Fractions and percentages are of the ticks\n"
    "shown (after --focus and --ignore). See docs/FLAMEGRAPH.md.\n",
};

/* A fraction from 0 to 1, or a percentage ("0.5%"). */
static int opt_fraction(const cli_args *a, void *var, const void *ctx)
{
    const char *name = a->opt->long_name;
    double *v = var;
    (void)ctx;
    /* the shared decimal syntax; a trailing % makes it a percentage */
    char buf[64];
    size_t n = strlen(a->value);
    int pct = n > 1 && a->value[n - 1] == '%' && n < sizeof buf;
    if (pct) {
        memcpy(buf, a->value, n - 1);
        buf[n - 1] = '\0';
    }
    if (cli_parse_decimal(pct ? buf : a->value, 0.0, pct ? 100.0 : 1.0, v) != 0) {
        cli_usage_error(a->cmd, "--%s wants a fraction from 0 to 1 or a percentage, not '%s'",
                        name, a->value);
        return -1;
    }
    if (pct)
        *v /= 100.0;
    return 0;
}

/* The legend's line about the shared filters, or "" for none. */
static void filter_line(const cli_window *w, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = '\0';
    if (w->spans) {
        len += (size_t)snprintf(buf, size, "%zu windows between marks (--between)",
                                w->num_spans);
    } else if (w->from_ns || w->to_ns != UINT64_MAX) {
        len += (size_t)snprintf(buf + len, size - len, "Window: %.6g s to ",
                                (double)w->from_ns / 1e9);
        if (w->to_ns == UINT64_MAX)
            len += (size_t)snprintf(buf + len, size - len, "the end");
        else
            len += (size_t)snprintf(buf + len, size - len, "%.6g s", (double)w->to_ns / 1e9);
    }
    if (w->cap >= 0 && len < size)
        len += (size_t)snprintf(buf + len, size - len, "%sCapability %d", len ? ", " : "",
                                (int)w->cap);
    if (w->all && len < size)
        snprintf(buf + len, size - len, "%s stacks counted (--all)",
                 len ? ", built-in" : "Built-in");
}

int cmd_graph(cli_ctx *c, int argc, char **argv)
{
    cli_args a;
    cli_window w;
    cg_opts go;
    int id, fmt = -1;

    /* the graph module's formats (cg_formats); a file's format is its
     * extension's (no default), standard output's the first, svg */
    cli_formats formats = { .to_stdout = 0, .to_file = -1 };
    formats.list = cg_formats(&formats.count);
    char names[128], fmt_help[256];
    cli_format_names(&formats, names, sizeof names);
    snprintf(fmt_help, sizeof fmt_help, "%s (default: from -o's extension, else %s)", names,
             formats.list[0].name);
    cli_window_init(&w, c);
    cg_opts_init(&go);
    unsigned long max_nodes = go.max_nodes, max_edges = go.max_edges;
    const cli_opt opts[] = {
        CLI_FORMAT_OPT(&fmt, &formats, fmt_help),
        OPT_CALL(0, "node-fraction", "F", opt_fraction, &go.node_fraction, NULL, "hide cost "
                 "centres with less than F of the ticks (a fraction, or a percentage like "
                 "0.5%; default 0.005)"),
        OPT_CALL(0, "edge-fraction", "F", opt_fraction, &go.edge_fraction, NULL, "hide calls "
                 "carrying less than F of the ticks (default 0.001)"),
        OPT_COUNT(0, "max-nodes", "N", &max_nodes, 1, 1000000, "draw at most N cost centres, "
                  "those with the most cumulative ticks (default 80)"),
        OPT_COUNT(0, "max-edges", "N", &max_edges, 1, 1000000, "draw at most N calls, the "
                  "heaviest, each node keeping its heaviest caller (default 3 x max-nodes)"),
        OPT_FLAG('a', "all", &w.all, "count GC, SYSTEM, IDLE, OVERHEAD_of and DONT_CARE "
                 "samples too, as +RTS -pa does"),
        CLI_WINDOW_OPTS(&w),
        CLI_OUTPUT_OPT(&w.output),
        CLI_JOBS_OPT(c),
        OPT_END,
    };
    id = cli_parse(&help, opts, argc, argv, &a);
    go.max_nodes = (uint32_t)max_nodes;
    go.max_edges = (uint32_t)max_edges;
    const char *const *paths;
    size_t num_paths;
    int done = cli_window_done_logs(&a, id, &w, &paths, &num_paths);
    if (done >= 0)
        return done;
    if ((fmt = cli_format_resolve(&help, &formats, fmt, w.output)) < 0 ||
        cli_format_check_tty(&help, &formats, fmt, w.output) != 0)
        return CLI_USAGE;
    const char *name = cli_display_path(c, paths[0]);

    /* the graph applies focus/ignore itself (prof_match_ccs, the one
     * matcher), to show what they keep out of the whole profile */
    go.focus = w.focus;
    go.ignore = w.ignore;
    int bad = cli_pattern_check("--focus", go.focus);      /* before the log is read */
    if (!bad)
        bad = cli_pattern_check("--ignore", go.ignore);
    if (bad)
        return bad;
    w.focus = w.ignore = NULL;
    int code, no_samples = 0;
    prof_result *p = cli_load_profiles(paths, num_paths, &w, w.all, NULL, &code, &no_samples);
    if (!p)
        return code;

    ev_error err;
    cg_graph *g;
    ev_status st = cg_build(p, &go, &g, &err);
    if (st == EV_ERR_PATTERN) {
        cli_usage_error(&help, "bad regular expression %s", err.msg);
        prof_result_destroy(p);
        return CLI_USAGE;
    }
    if (st != EV_OK) {
        fprintf(stderr, "evprof: %s: %s\n", name, err.msg);
        prof_result_destroy(p);
        return CLI_FAIL;
    }

    /* a filter that leaves nothing is a mistake, not an empty picture */
    const cg_summary *sm = cg_get_summary(g);
    if (sm->profile_ticks && !sm->shown_ticks && (go.focus || go.ignore)) {
        if (go.focus && go.ignore) {
            fprintf(stderr, "evprof: %s: no stack passes through --focus '", name);
            cli_text_str(stderr, go.focus, strlen(go.focus));
            fputs("' without passing through --ignore '", stderr);
            cli_text_str(stderr, go.ignore, strlen(go.ignore));
            fputs("'\n", stderr);
        } else if (go.focus) {
            fprintf(stderr, "evprof: %s: --focus '", name);
            cli_text_str(stderr, go.focus, strlen(go.focus));
            fputs("' matches no stack (none passes through a cost centre whose Module.label "
                  "matches)\n", stderr);
        } else {
            fprintf(stderr, "evprof: %s: --ignore '", name);
            cli_text_str(stderr, go.ignore, strlen(go.ignore));
            fputs("' drops every stack\n", stderr);
        }
        cg_destroy(g);
        prof_result_destroy(p);
        return CLI_FAIL;
    }

    char filters[160];
    filter_line(&w, filters, sizeof filters);
    cg_write_opts wo;
    cg_write_opts_init(&wo);
    wo.source_name = name;
    wo.filters = filters[0] ? filters : NULL;
    cli_out out;
    if (cli_out_open(c, &out, w.output) != 0) {
        cg_destroy(g);
        prof_result_destroy(p);
        return CLI_FAIL;
    }
    st = formats.list[fmt].write(g, &wo, out.f, &err);
    /* cli_out_close names a write error it sees; Graphviz's errors here */
    if (st != EV_OK && st != EV_ERR_WRITE)
        fprintf(stderr, "evprof: %s: %s\n", name, err.msg);
    if (cli_out_close(&out, st == EV_OK && !no_samples) != 0)
        code = CLI_FAIL;
    else if (st != EV_OK) {
        if (st == EV_ERR_WRITE)
            fprintf(stderr, "evprof: %s: %s\n", cli_out_name(c, w.output), err.msg);
        code = CLI_FAIL;
    }
    cg_destroy(g);
    prof_result_destroy(p);
    return code == CLI_OK && no_samples ? CLI_FAIL : code;
}
