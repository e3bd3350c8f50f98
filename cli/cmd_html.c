/* evprof html: one self-contained HTML page with every view of a log,
 * made in one read. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "evprof/html.h"
#include "exe.h"
#include "html/internal.h"
#include "outfile.h"
#include "selection.h"
#include "read.h"



static const cli_cmd_help help = {
    "html", "[OPTIONS] FILE -o PAGE.html",
    "One self-contained HTML page with every view the log supports: summary,\n"
    "time profile (tree and flat table), flame graph, call graph, heap profile,\n"
    "GC and memory over time with the +RTS -s summary, ticky counters. Made in\n"
    "one read of the log; opens from disk with no network.",
    "The page holds aggregates, never events: its size follows the profile's,\n"
    "not the log's. Sections the log has no data for say how to get it.\n"
    "See docs/HTML.md.\n",
};

static int attach_page(void *pg, ev_driver *d) { return html_page_attach(pg, d); }

int cmd_html(cli_ctx *c, int argc, char **argv)
{
    cli_args a;
    html_opts ho;
    cli_window w;
    int id;

    html_opts_init(&ho);
    cli_window_init(&w, c);
    cli_exe ex = { 0 };
    unsigned long max_nodes = ho.max_nodes;
    const cli_opt opts[] = {
        OPT_COUNT(0, "max-nodes", "N", &max_nodes, 1, 100000000ul, "send at most N nodes of "
                  "the cost-centre-stack tree, the heaviest (default 20000; the page says "
                  "when it was cut)"),
        CLI_WINDOW_OPTS(&w),
        CLI_EXE_OPTS(&ex),
        CLI_OUTPUT_OPT(&w.output),
        CLI_JOBS_OPT(c),
        OPT_END,
    };
    id = cli_parse(&help, opts, argc, argv, &a);
    ho.max_nodes = (uint32_t)max_nodes;
    const char *path;
    int done = cli_window_done(&a, id, &w, &path);
    if (done >= 0)
        return done;
    const char *output = w.output;
    /* focus/ignore; the windows and the capability are the read's
     * selection, the same for every view */
    prof_filter pf;
    prof_filter_init(&pf);
    if (cli_window_prof_filter(&w, &pf) != 0)
        return CLI_USAGE;
    ho.samples = &pf;
    int rc = cli_exe_setup(c, &ex, &help, path, &ho.exe);
    if (rc != CLI_OK)
        return rc;
    const char *name = cli_display_path(c, path);
    ho.source_name = name;
    html_page *pg = html_page_create(&ho);
    /* tests only: the timeline's cells kept while reading, to reach the
     * pages of a log with more distinct stacks than a small log has */
    const char *tc = getenv("EVPROF_TEST_TIMELINE_CELLS");
    if (pg && tc && *tc)
        html_page_set_test_cells(pg, (uint32_t)strtoul(tc, NULL, 10));

    int code = CLI_FAIL;
    /* a live source (--follow, --connect) as every reading command reads it */
    ev_driver *d = pg ? cli_read_with(c, &w.src, path, attach_page, pg, &code) : NULL;
    if (!d) {
        if (!pg)
            fprintf(stderr, "evprof: out of memory\n");
        html_page_destroy(pg);
        cli_exe_close(&ex);
        return code == CLI_USAGE ? CLI_USAGE : CLI_FAIL;
    }
    const ev_stream *s = ev_driver_stream(d);
    if (cli_read_nothing(s, code)) {
        ev_driver_destroy(d);
        html_page_destroy(pg);
        cli_exe_close(&ex);
        return code;
    }
    cli_out out;
    if (cli_out_open(c, &out, output) != 0) {
        ev_driver_destroy(d);
        html_page_destroy(pg);
        cli_exe_close(&ex);
        return CLI_FAIL;
    }
    html_contents hc;
    ev_error err;
    ev_status st = html_page_write(pg, s, out.f, &hc, &err);
    /* a write error is the output's, which cli_out_close names (with the
     * system's reason); the rest (memory) the read's */
    if (st != EV_OK && st != EV_ERR_WRITE)
        fprintf(stderr, "evprof: %s: %s\n", name, err.msg);
    if (cli_out_close(&out, st == EV_OK) != 0) {
        code = CLI_FAIL;
    } else if (st != EV_OK) {
        if (st == EV_ERR_WRITE)
            fprintf(stderr, "evprof: %s: cannot write\n", cli_out_name(c, output));
        code = CLI_FAIL;
    }
    if (st == EV_OK) {
        if (hc.nodes_sent < hc.nodes_all)
            fprintf(stderr, "evprof: %s: note: the page holds the %u heaviest of %u "
                    "cost-centre stacks (--max-nodes)\n", name, hc.nodes_sent, hc.nodes_all);
        if (hc.graph_failed)
            fprintf(stderr, "evprof: %s: warning: the call graph could not be drawn\n", name);
        if (!hc.prof && !hc.heap && !hc.gc && !hc.ticky)
            fprintf(stderr, "evprof: %s: warning: no profile, heap, GC or ticky data: the "
                    "page has the summary only (see 'evprof info %s')\n", name, name);
        cli_exe_note(name, html_page_heap_info(pg));
    }
    ev_driver_destroy(d);
    html_page_destroy(pg);
    cli_exe_close(&ex);
    return code;
}
