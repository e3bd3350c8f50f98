/* evprof pprof: the time profile (or a heap census) as pprof's gzip-
 * compressed profile.proto, written to a file or pushed to a Pyroscope-
 * compatible server. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "evprof/heap.h"
#include "exe.h"
#include "evprof/pprof.h"
#include "evprof/prof.h"
#include "evprof/textout.h"
#include "load.h"
#include "outfile.h"
#include "selection.h"
#include "read.h"



static const cli_cmd_help help = {
    "pprof", "[OPTIONS] FILE...",
    "The time profile of a program run with +RTS -p -l as a gzip-compressed pprof\n"
    "profile (perftools.profiles.Profile): read it with 'go tool pprof', or send\n"
    "it to Pyroscope, Parca or Grafana. Sample types samples/count and\n"
    "cpu/nanoseconds, one location per cost centre (Module.label, file and line\n"
    "from SRC). A heap-profiled run (+RTS -hT -l, -hc, ...) gives the\n"
    "inuse_space/bytes of one census.",
    "Totals are the report's: 'evprof report' ticks (with --all, every sample).\n"
    "Without -o and --push the profile goes to standard output; with --push only\n"
    "to the server, unless -o names a file too. The time range sent is the log's,\n"
    "on its wall clock (event WALL_CLOCK_TIME). The URL is http:// or https://;\n"
    "a query of its own is kept and Pyroscope's parameters added to it (one that\n"
    "sets name, from, until or format is refused), a fragment is refused; the\n"
    "user and password in it are never shown. --cap does not apply to heap\n"
    "censuses. A log without time samples is read a second time for its censuses;\n"
    "standard input cannot be, so give --heap there. See docs/ECOSYSTEM.md.\n",
};

/* The heap census as pprof: returns the exit code; *out filled when 0.
 * The heap profile is read by the driver like every analysis (charged to
 * the memory budget, --follow and --connect), and so is the census kept. */
static int heap_pprof(const char *path, const cli_window *w, uint64_t census, pprof_meta *m,
                      pprof_buf *out, char **program, const heap_exe_opts *exe)
{
    cli_ctx *c = w->ctx;
    const char *name = cli_display_path(c, path);
    heap_opts ho;
    heap_opts_init(&ho);
    ho.exe = *exe;
    ho.length = HEAP_MAX_LENGTH;   /* whole -hc stacks */
    pprof_census_pick *k = pprof_census_pick_create(census);
    heap_profile *h = k ? heap_create(&ho, pprof_census_keep, k) : NULL;
    if (!h) {
        fprintf(stderr, "evprof: out of memory\n");
        pprof_census_pick_destroy(k);
        return CLI_FAIL;
    }
    pprof_census_pick_set_budget(k, cli_budget(c));
    int code;
    ev_driver *d = cli_read_src(c, &w->src, path, &(cli_analysis){ &heap_analysis_ops, h }, 1,
                                &code);
    if (!d) {               /* out of memory, the memory limit, a window outside (said) */
        heap_destroy(h);
        pprof_census_pick_destroy(k);
        return code == CLI_USAGE ? CLI_USAGE : CLI_FAIL;
    }
    const ev_stream *s = ev_driver_stream(d);
    ev_status st = heap_finish(h, &s->read);  /* done by the analysis: its status */
    const heap_info *in = heap_get_info(h);
    int rc;
    if (st != EV_OK) {
        fprintf(stderr, "evprof: %s: out of memory building the heap profile\n", name);
        code = CLI_FAIL;
    } else if (cli_read_nothing(s, code)) {
        /* cli_read_src said why */
    } else if (!in->has_begin && !in->censuses_seen) {
        fprintf(stderr, "evprof: %s: neither time-profile samples (event 167) nor a heap "
                "profile (events 160-166): run with +RTS -p -l or +RTS -hT -l (see 'evprof "
                "info %s')\n", name, path);
        code = CLI_FAIL;
    } else if ((rc = pprof_heap_profile(h, k, m, out)) != 0) {
        if (rc > 0 && census)
            fprintf(stderr, "evprof: %s: no census %llu (the log has %llu complete%s)\n", name,
                    (unsigned long long)census, (unsigned long long)in->censuses,
                    in->filtered ? " in the time window" : "");
        else if (rc > 0)
            fprintf(stderr, "evprof: %s: no complete census%s\n", name,
                    in->filtered ? " in the time window" : "");
        else
            fprintf(stderr, "evprof: %s: out of memory writing the profile\n", name);
        code = CLI_FAIL;
    }
    if (code == CLI_OK && !out->data)
        code = CLI_FAIL;
    if (code == CLI_OK)
        cli_exe_note(name, in);
    if (out->data && *in->program)  /* the heap profile's strings end with it */
        *program = strdup(in->program);
    ev_driver_destroy(d);
    heap_destroy(h);
    pprof_census_pick_destroy(k);
    return code;
}

int cmd_pprof(cli_ctx *c, int argc, char **argv)
{
    cli_args a;
    cli_window w;
    int id, heap = 0;
    unsigned long census = 0;
    const char *push = NULL, *app = NULL;
    double push_timeout = 0;

    cli_window_init(&w, c);
    cli_exe ex = { 0 };
    const cli_opt opts[] = {
        OPT_FLAG('a', "all", &w.all, "count GC, SYSTEM, IDLE, OVERHEAD_of and DONT_CARE "
                 "samples too, as +RTS -pa does"),
        CLI_WINDOW_OPTS(&w),
        OPT_FLAG(0, "heap", &heap, "a heap census (inuse_space/bytes) instead of the time "
                 "profile; the default when the log has no time-profile samples"),
        OPT_COUNT(0, "census", "N", &census, 1, UINT32_MAX, "with --heap: census N (1, 2, "
                  "... as 'evprof heap --format csv' numbers them); default: the census "
                  "with the largest total"),
        OPT_STRING(0, "push", "URL", &push, "POST the profile to a Pyroscope-compatible "
                   "server at URL (URL/ingest?...&format=pprof)"),
        OPT_STRING(0, "app", "NAME", &app, "with --push: the application name (default: "
                   "the program's name in the log)"),
        OPT_NUMBER(0, "push-timeout", "SECONDS", &push_timeout, 0.001, 1e9, "with --push: "
                   "give up when the request has not finished in SECONDS (default 300)"),
        CLI_EXE_OPTS(&ex),
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
    const char *path = paths[0];
    if (num_paths > 1 && heap) {
        cli_usage_error(&help, "--heap takes one log (a census is one moment of one run)");
        return CLI_USAGE;
    }
    if (census && !heap) {
        cli_usage_error(&help, "--census needs --heap");
        return CLI_USAGE;
    }
    if (app && !push) {
        cli_usage_error(&help, "--app needs --push");
        return CLI_USAGE;
    }
    if (push_timeout > 0 && !push) {
        cli_usage_error(&help, "--push-timeout needs --push");
        return CLI_USAGE;
    }
    /* the URL, as messages show it: without its user and password */
    char shown_url[1024];
    if (push) {
        ev_error why;
        pprof_push_url_shown(shown_url, sizeof shown_url, push);
        if (pprof_push_url_check(push, &why) != EV_OK) {
            cli_usage_error(&help, "--push %s: %s", shown_url, why.msg);
            return CLI_USAGE;
        }
    }
    const char *name = cli_display_path(c, path);

    pprof_meta m;
    pprof_meta_init(&m);
    ev_span hull = ev_select_hull(w.src.select);    /* the profile's span: the windows' */
    m.from_ns = hull.from_ns;
    m.to_ns = hull.to_ns;
    pprof_buf buf = { NULL, 0 };
    const char *program = "";
    char *heap_program = NULL;
    int code = CLI_OK;
    if (!heap) {
        int no_samples = 0;
        cli_load_more more = { .quiet = 1 };
        prof_result *p = cli_load_profiles(paths, num_paths, &w, w.all, &more, &code,
                                          &no_samples);
        if (!p)
            return code;
        if (no_samples && strcmp(path, "-") == 0) {
            fprintf(stderr, "evprof: %s: no time-profile samples (event 167); for a heap "
                    "profile read from standard input, give --heap\n", name);
            prof_result_destroy(p);
            return CLI_FAIL;
        }
        if (no_samples && num_paths > 1) {
            fprintf(stderr, "evprof: no time-profile samples (event 167) in these logs\n");
            prof_result_destroy(p);
            return CLI_FAIL;
        }
        if (no_samples) {
            heap = 1;       /* the log may hold heap censuses */
        } else if (pprof_time_profile(p, &m, &buf) != 0) {
            fprintf(stderr, "evprof: %s: out of memory writing the profile\n", name);
            prof_result_destroy(p);
            return CLI_FAIL;
        } else {
            heap_program = strdup(prof_get_info(p)->program);
        }
        prof_result_destroy(p);
    }
    if (heap) {
        if (w.cap >= 0) {
            cli_usage_error(&help, "--cap does not apply to heap censuses");
            return CLI_USAGE;
        }
        heap_exe_opts eo;
        code = cli_exe_setup(c, &ex, &help, path, &eo);
        if (code == CLI_OK)
            code = heap_pprof(path, &w, census, &m, &buf, &heap_program, &eo);
        cli_exe_close(&ex);
        if (code != CLI_OK) {
            free(heap_program);
            pprof_buf_free(&buf);
            return code;
        }
    }
    program = heap_program ? heap_program : "";

    if (!push || w.output) {
        cli_out out;
        if (cli_out_open(c, &out, w.output) != 0) {
            code = CLI_FAIL;
        } else {
            size_t n = fwrite(buf.data, 1, buf.len, out.f);
            if (cli_out_close(&out, n == buf.len) != 0 || n != buf.len)
                code = CLI_FAIL;
        }
    }
    if (push && code != CLI_FAIL) {
        ev_error err;
        if (!app)
            app = *program ? program : "evprof";
        if (!m.has_wall_clock) {
            fprintf(stderr, "evprof: %s: no wall-clock time (event WALL_CLOCK_TIME) to place "
                    "the profile in time; not pushed\n", name);
            code = CLI_FAIL;
        } else {
            int64_t from = m.time_nanos / 1000000000;
            int64_t until = (m.time_nanos + m.duration_nanos + 999999999) / 1000000000;
            if (pprof_push_timed(push, app, from, until, push_timeout, &buf, &err) != EV_OK) {
                fprintf(stderr, "evprof: %s: cannot push to ", name);
                tx_put(stderr, shown_url, strlen(shown_url));
                fputs(": ", stderr);
                tx_put(stderr, err.msg, strlen(err.msg));
                fputc('\n', stderr);
                code = CLI_FAIL;
            }
        }
    }
    free(heap_program);
    pprof_buf_free(&buf);
    return code;
}
