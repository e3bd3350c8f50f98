/* evprof heap: the heap profile as GHC's .hp file, CSV/JSON rows, or a
 * summary of the bands. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "evprof/heap.h"
#include "exe.h"
#include "format.h"
#include "outfile.h"
#include "selection.h"
#include "read.h"



static const cli_cmd_help help = {
    "heap", "[OPTIONS] FILE",
    "The heap profile of a program run with +RTS -hT -l (or -hc, -hy, -hd, -hm, -hr,\n"
    "-hb, -hi in a -prof build), rebuilt from the censuses in its eventlog.\n"
    "`evprof heap FILE -o prog.hp` writes GHC's .hp file, for hp2ps, hp2pretty and\n"
    "the rest of the .hp tools; without -o the bands are summarised.",
    "Bands are named as GHC's .hp names them: -hc stacks innermost label first,\n"
    "joined by '/', CAF frames as Module.CAF, cut to -L bytes, without the CCS\n"
    "number GHC puts in front (the eventlog does not carry it); the other modes'\n"
    "strings verbatim; -hi bands by their info table's address. The summary, CSV\n"
    "and JSON name an -hi band by its IPE entry (event 169, -finfo-table-map):\n"
    "table name (closure type :: type, label, module, source location); where the\n"
    "log has none (libraries built without it), by the executable's symbol,\n"
    "Z-decoded and marked (symbol), when the executable is the run's: the program\n"
    "the log names (a relative one from the log's folder) or --exe PROG; else by\n"
    "its address. Times are seconds since the RTS started, as the log's clock\n"
    "runs (GHC's own .hp uses mutator CPU seconds). Like GHC's,\n"
    "the .hp opens and closes with an empty sample (window start, log end).\n"
    "So that hp2ps reads every file, whitespace in .hp band names becomes '_'\n"
    "(docs/HEAP.md lists the other cases).\n"
    "\n"
    "Biographical censuses (-hb), which GHC writes at the end of the run, are put\n"
    "in order of the time they were taken. A census that the end of a cut or\n"
    "damaged log leaves unfinished is dropped with a warning, never written half.\n"
    "\n"
    "Memory: the bands and one census; biographical censuses are kept until the\n"
    "end of the log to be sorted; the executable's info-table symbols (-hi).\n",
};

typedef struct heap_ctx {
    heap_profile *h;
    ev_status st;
} heap_ctx;

/* the summary, then heap_format's rows in their order (the id less one) */
enum { FMT_SUMMARY, FMT_HP };
_Static_assert(HEAP_FORMAT_HP == 0 && HEAP_FORMAT_JSON == 2, "heap_format is hp, csv, json");

static const ev_format format_list[] = {
    [FMT_SUMMARY] = { "summary", ".txt" },
    [FMT_HP + HEAP_FORMAT_HP] = { "hp", ".hp" },
    [FMT_HP + HEAP_FORMAT_CSV] = { "csv", ".csv" },
    [FMT_HP + HEAP_FORMAT_JSON] = { "json", ".json" },
};
static const cli_formats formats = { format_list, 4, FMT_SUMMARY, FMT_HP };

static void put_secs(uint64_t ns)
{
    fprintf(stderr, "%.6f", (double)ns / 1e9);
}

/* What the output leaves out, on standard error. */
static void warn(const char *name, const heap_info *in, int hp)
{
    if (in->dropped) {
        fprintf(stderr, "evprof: %s: warning: %llu census%s dropped, never written half: the "
                "census at ", name, (unsigned long long)in->dropped,
                in->dropped == 1 ? "" : "es");
        put_secs(in->drop_time);
        fprintf(stderr, " s %s\n", in->drop_reason == HEAP_DROP_NO_END
                ? "has no end event before the next census began"
                : in->drop_reason == HEAP_DROP_DAMAGED
                ? "lost events in a damaged block"
                : "is unfinished where the log ends");
    }
    if (in->stray_samples)
        fprintf(stderr, "evprof: %s: warning: %llu heap sample events outside any census "
                "were ignored\n", name, (unsigned long long)in->stray_samples);
    if (in->undefined_ccs)
        fprintf(stderr, "evprof: %s: warning: %llu stack frames name cost centres that no "
                "event 161 defines (GHC issue 24148); shown as <undefined cc N>\n", name,
                (unsigned long long)in->undefined_ccs);
    if (!hp)     /* the .hp names every -hi band by address, as GHC */
        cli_exe_note(name, in);
}

/* --clock elapsed|mutator */
static int opt_clock(const cli_args *a, void *var, const void *ctx)
{
    (void)ctx;
    if (strcmp(a->value, "elapsed") == 0) {
        *(int *)var = HEAP_CLOCK_ELAPSED;
    } else if (strcmp(a->value, "mutator") == 0) {
        *(int *)var = HEAP_CLOCK_MUTATOR;
    } else {
        cli_usage_error(a->cmd, "--clock wants elapsed or mutator, not '%s'", a->value);
        return -1;
    }
    return 0;
}

int cmd_heap(cli_ctx *c, int argc, char **argv)
{
    cli_args a;
    cli_window w;
    heap_opts ho;
    heap_summary_opts so;
    int id, fmt = -1, top_given = 0, length_given = 0;

    cli_window_init(&w, c);
    heap_opts_init(&ho);
    heap_summary_opts_init(&so);
    unsigned long top = ULONG_MAX, length = ULONG_MAX;     /* ULONG_MAX: not given */
    cli_exe ex = { 0 };
    const cli_opt opts[] = {
        CLI_FORMAT_OPT(&fmt, &formats, "summary (the default), hp (the default with -o), "
                       "csv or json: one row per census per band (default: from -o's "
                       "extension)"),
        OPT_COUNT('n', "top", "N", &top, 0, 1000000000ul, "summary: the N largest bands "
                  "(default 20; 0: all)"),
        OPT_COUNT('L', "length", "N", &length, 4, HEAP_MAX_LENGTH, "cut -hc bands longer "
                  "than N bytes as GHC's -L does (default: the -L of the run, else 25; the "
                  "summary shows them whole)"),
        CLI_TIME_OPTS(&w),
        OPT_CALL(0, "clock", "CLOCK", opt_clock, &ho.clock, NULL, "the censuses' times: "
                 "elapsed (the default: the log's clock) or mutator (an estimate of the "
                 "mutator CPU seconds GHC's own .hp uses)"),
        CLI_EXE_OPTS(&ex),
        CLI_FOLLOW_OPTS(&w),
        CLI_MEMORY_OPT(c),
        CLI_OUTPUT_OPT(&w.output),
        CLI_JOBS_OPT(c),
        OPT_END,
    };
    id = cli_parse(&help, opts, argc, argv, &a);
    top_given = top != ULONG_MAX;
    length_given = length != ULONG_MAX;
    if (top_given)
        so.top = top;
    if (length_given)
        ho.length = (uint32_t)length;
    const char *path;
    int done = cli_window_done(&a, id, &w, &path);
    if (done >= 0)
        return done;
    if ((fmt = cli_format_resolve(&help, &formats, fmt, w.output)) < 0)
        return CLI_USAGE;
    /* the summary shows -hc stacks whole, unless -L asks for GHC's cut */
    if (fmt == FMT_SUMMARY && !length_given)
        ho.whole_names = 1;
    if (top_given && fmt != FMT_SUMMARY) {
        cli_usage_error(&help, "--top applies to the summary, not to --format hp, csv or json");
        return CLI_USAGE;
    }
    const char *name = cli_display_path(c, path);
    so.source_name = name;
    int rc = cli_exe_setup(c, &ex, &help, path, &ho.exe);
    if (rc != CLI_OK)
        return rc;

    /* the streaming formats write each census as it completes */
    cli_out out;
    heap_writer *wr = NULL;
    int opened = 0;
    if (fmt != FMT_SUMMARY) {
        if (cli_out_open(c, &out, w.output) != 0) {
            cli_exe_close(&ex);
            return CLI_FAIL;
        }
        opened = 1;
        if (!(wr = heap_writer_create((heap_format)(fmt - FMT_HP), out.f))) {
            fprintf(stderr, "evprof: out of memory\n");
            cli_out_close(&out, 0);
            cli_exe_close(&ex);
            return CLI_FAIL;
        }
    }
    heap_ctx hp = { heap_create(&ho, wr ? heap_writer_census : NULL, wr), EV_OK };
    if (!hp.h) {
        fprintf(stderr, "evprof: out of memory\n");
        if (opened)
            cli_out_close(&out, 0);
        heap_writer_destroy(wr);
        cli_exe_close(&ex);
        return CLI_FAIL;
    }
    int code;
    cli_analysis an = { heap_analysis_for(hp.h), hp.h };
    ev_driver *d = cli_read_src(c, &w.src, path, &an, 1, &code);
    if (!d) {
        if (opened)
            cli_out_close(&out, 0);
        heap_writer_destroy(wr);
        heap_destroy(hp.h);
        cli_exe_close(&ex);
        return code == CLI_USAGE ? CLI_USAGE : CLI_FAIL;
    }
    const ev_stream *s = ev_driver_stream(d);
    ev_status st = heap_finish(hp.h, &s->read);    /* done by the analysis: its status */

    int ok = 1;
    if (st == EV_ERR_NOMEM) {
        fprintf(stderr, "evprof: %s: out of memory building the heap profile\n", name);
        code = CLI_FAIL;
        ok = 0;
    } else if (st == EV_ERR_SINK) {
        code = CLI_FAIL;    /* cli_out_close says what failed */
        ok = 0;
    } else {
        /* a damaged log still gets the censuses before the damage; one that
         * yielded nothing (unreadable, not an eventlog) gets no output */
        const heap_info *in = heap_get_info(hp.h);
        if (cli_read_nothing(s, code)) {
            ok = 0;
        } else if (!in->has_begin && !in->censuses_seen) {
            fprintf(stderr, "evprof: %s: no heap profile (events 160-166): run with +RTS -hT "
                    "-l, or -hc, -hy, -hd, ... in a -prof build (see 'evprof info %s')\n", name,
                    strcmp(path, "-") == 0 ? "-" : name);
            code = CLI_FAIL;
            ok = 0;
        } else {
            warn(name, in, fmt == FMT_HP + HEAP_FORMAT_HP);
            if (!in->censuses)
                fprintf(stderr, "evprof: %s: warning: no complete census%s\n", name,
                        in->filtered ? " in the time window" : "");
        }
    }
    if (ok && fmt == FMT_SUMMARY) {
        if (cli_out_open(c, &out, w.output) != 0) {
            heap_destroy(hp.h);
            cli_exe_close(&ex);
            return CLI_FAIL;
        }
        opened = 1;
        if (heap_summary_text(hp.h, &so, out.f) != 0)
            ok = 0;
    } else if (ok && wr && heap_writer_finish(wr, hp.h) != 0) {
        ok = 0;
    }
    if (opened && cli_out_close(&out, ok) != 0)
        code = CLI_FAIL;
    if (!ok && code == CLI_OK)
        code = CLI_FAIL;
    heap_writer_destroy(wr);
    heap_destroy(hp.h);
    ev_driver_destroy(d);
    cli_exe_close(&ex);
    return code;
}
