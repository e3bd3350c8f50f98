/* evprof ticky: ticky-ticky counters as GHC's +RTS -r table, CSV or JSON,
 * or per-counter time series; from an eventlog (events 210-212) or from
 * GHC's +RTS -r text file. */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "driver/spool.h"
#include "evprof/driver.h"
#include "evprof/ticky.h"
#include "format.h"
#include "outfile.h"
#include "selection.h"
#include "read.h"




static const cli_cmd_help help = {
    "ticky", "[OPTIONS] FILE",
    "Ticky-ticky counters of a program built with -ticky: entries and allocation\n"
    "per counter, in the layout of GHC's +RTS -r table with totals underneath.\n"
    "FILE is an eventlog of a run with +RTS -lT (GHC 9.2 or later), or the text\n"
    "file that +RTS -r writes (any GHC); an eventlog starts with \"hdrb\".",
    "Samples in the eventlog are changes since the previous sample of the same\n"
    "counter; a counter's total is the sum of its samples. Each TICKY_BEGIN_SAMPLE\n"
    "opens a batch at its time; logs without it get a new batch whenever a counter\n"
    "repeats. --from/--to select whole batches by that time. Counters sampled but\n"
    "never defined are shown as <undefined ticky counter ID>.\n"
    "\n"
    "--series writes time_ns,counter,entries,alloc,allocd (CSV), a JSON \"rows\"\n"
    "array, or an aligned table; a counter has a row in the batches where GHC\n"
    "sampled it (GHC skips counters that did not change). --sort, --top and --match\n"
    "choose the counters and the order of rows within a batch. Standard input is\n"
    "spooled first (up to 32 MiB in memory, then an unlinked file in $TMPDIR or\n"
    "/tmp): the magic is peeked, and the series reads the log twice.\n"
    "\n"
    "--follow and --connect read an eventlog as it is written (GHC's +RTS -r text\n"
    "is written whole at exit: read it when it is there); the table comes when\n"
    "the read ends, Ctrl-C gives the counters so far (exit 130). --series keeps\n"
    "a copy of what it read, spooled the same way, to read it again.\n",
};

/* ---- input ---------------------------------------------------------------- */

typedef struct input {
    const char *path;
    const char *shown;
    /* standard input, or a live read's bytes (--series), spooled (the one
     * spool of streams, driver/spool.h); NULL: read the file */
    ev_spool *spool;
    uint64_t events;            /* the ticky events of the first pass */
} input;

/* Standard input into sp, whole. Returns 0, or -1 after a message. */
static int spool_stdin(ev_spool *sp)
{
    if (fcntl(STDIN_FILENO, F_GETFD) < 0) {
        fprintf(stderr, "evprof: <stdin>: standard input is closed: give a FILE, or pipe the "
                "eventlog or +RTS -r file into '-'\n");
        return -1;
    }
    char buf[65536];
    for (;;) {
        ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            fprintf(stderr, "evprof: <stdin>: read failed: %s\n", strerror(errno));
            return -1;
        }
        if (n == 0)
            break;
        if (ev_spool_put(sp, sp->size, buf, (uint32_t)n) != 0) {
            fprintf(stderr, "evprof: <stdin>: %s\n", sp->error);
            return -1;
        }
    }
    if (ev_spool_flush(sp) != 0) {
        fprintf(stderr, "evprof: <stdin>: %s\n", sp->error);
        return -1;
    }
    return 0;
}

/* The first bytes, to tell an eventlog from text. -1 when unreadable. */
static int peek(const input *in, unsigned char head[4], size_t *got)
{
    if (in->spool) {
        int64_t n = ev_spool_pread(in->spool, head, 4, 0);
        if (n < 0) {
            fprintf(stderr, "evprof: %s: cannot read: %s\n", in->shown, strerror(errno));
            return -1;
        }
        *got = (size_t)n;
        return 0;
    }
    int fd = open(in->path, O_RDONLY);
    if (fd < 0) {
        fprintf(stderr, "evprof: %s: cannot open: %s\n", in->shown, strerror(errno));
        return -1;
    }
    ssize_t n;
    do
        n = pread(fd, head, 4, 0);
    while (n < 0 && errno == EINTR);
    int err = errno;
    close(fd);
    if (n < 0) {
        /* a pipe or terminal named on the command line: not seekable */
        fprintf(stderr, "evprof: %s: cannot read: %s%s\n", in->shown, strerror(err),
                err == ESPIPE ? " (pipe it to standard input as '-')" : "");
        return -1;
    }
    *got = (size_t)n;
    return 0;
}

/* ---- options ---------------------------------------------------------------- */

typedef struct ticky_args {
    const char *path;           /* FILE, or --connect's address */
    cli_window w;
    ticky_view_opts view;
    ticky_format fmt;
    int series, cumulative, window_given;
} ticky_args;

/* One pass over the input (FILE or a live source; spool: a copy of it,
 * standard input's or the live read's) through the driver (the read every
 * command makes: its budget, selection, messages) into t by the set's own
 * analysis (ticky_analysis_ops for the table, ticky_series_ops for the
 * series), taking at most `limit` ticky events (the second pass of a live
 * read takes what the first took: Ctrl-C may have stopped it before the
 * bytes' end). Returns the driver (NULL: nothing to show, *code says why,
 * said); *count the ticky events taken. `again`: the second pass over what
 * the first read and reported (no messages). */
static ev_driver *read_log(const input *in, const ticky_args *o, const ev_spool *spool,
                           const ev_analysis_ops *ops, ticky_set *t, uint64_t limit, int again,
                           uint64_t *count, int *code)
{
    cli_ctx *c = o->w.ctx;
    cli_source src = o->w.src;
    if (spool) {
        src.spool = spool;
        src.follow = 0;
        src.connect = NULL;
        src.on_bytes = NULL;
    }
    src.quiet = again;
    ticky_set_event_limit(t, limit);
    ev_driver *d = cli_read_src(c, &src, in->path, &(cli_analysis){ ops, t }, 1, code);
    *count = ticky_events_taken(t);
    return d;
}

static int opt_sort(const cli_args *a, void *var, const void *ctx)
{
    int s = ticky_sort_parse(a->value);
    (void)ctx;
    if (s < 0) {
        cli_usage_error(a->cmd, "--sort wants entries, alloc, allocd, name or input, not '%s'",
                        a->value);
        return -1;
    }
    *(ticky_sort *)var = (ticky_sort)s;
    return 0;
}

static int opt_match(const cli_args *a, void *var, const void *ctx)
{
    ticky_view_opts *v = var;
    (void)ctx;
    v->match = a->value;
    v->match_len = strlen(a->value);
    return 0;
}

/* Returns -1 to go on, or the exit code (--help printed, usage error). */
static int parse_args(cli_ctx *c, int argc, char **argv, ticky_args *o, cli_args *a)
{
    int id, fmt = -1;
    /* the table's formats (row i is ticky_format i: --series writes the same) */
    cli_formats formats = { .to_stdout = TICKY_TEXT, .to_file = TICKY_TEXT };
    formats.list = ticky_formats(&formats.count);
    memset(o, 0, sizeof *o);
    cli_window_init(&o->w, c);
    ticky_view_opts_init(&o->view);
    unsigned long top = 0;
    const cli_opt opts[] = {
        CLI_FORMAT_OPT(&fmt, &formats, "text (GHC's +RTS -r table, the default), csv or json "
                       "(default: from -o's extension)"),
        OPT_CALL('s', "sort", "KEY", opt_sort, &o->view.sort, NULL, "entries (default), "
                 "alloc, allocd (descending), name, or input (the log's or file's order)"),
        OPT_COUNT('n', "top", "N", &top, 1, ULONG_MAX, "show only the first N counters "
                  "(totals still cover all)"),
        OPT_CALL('m', "match", "TEXT", opt_match, &o->view, NULL, "only counters whose STG "
                 "name contains TEXT"),
        OPT_FLAG(0, "series", &o->series, "per-counter time series: one row per counter per "
                 "batch of samples (eventlog only)"),
        OPT_FLAG(0, "cumulative", &o->cumulative, "with --series: running totals instead of "
                 "the change in each batch"),
        CLI_TIME_OPTS(&o->w),
        CLI_FOLLOW_OPTS(&o->w),
        CLI_MEMORY_OPT(c),
        CLI_OUTPUT_OPT(&o->w.output),
        CLI_JOBS_OPT(c),
        OPT_END,
    };
    id = cli_parse(&help, opts, argc, argv, a);
    if (top)
        o->view.top = (size_t)top;
    const cli_window *w = &o->w;
    o->window_given = w->from_ns || w->to_ns != UINT64_MAX || w->from_marker || w->to_marker ||
                      w->between || w->phase;
    if (id != CLI_END)
        return cli_done_code(id);
    if (o->cumulative && !o->series) {
        cli_usage_error(&help, "--cumulative goes with --series");
        return CLI_USAGE;
    }
    /* the shared checks: one FILE not the output, --from before --to, the
     * marks resolved */
    int done = cli_window_done(a, CLI_END, &o->w, &o->path);
    if (done >= 0)
        return done;
    if ((fmt = cli_format_resolve(&help, &formats, fmt, o->w.output)) < 0)
        return CLI_USAGE;
    o->fmt = (ticky_format)fmt;
    return -1;
}

/* ---- the command ------------------------------------------------------------- */

static void warnings(const char *shown, const ticky_set *t, int table_says_it)
{
    const ticky_info *in = ticky_get_info(t);
    /* the text table says it under the totals; CSV and JSON carry the
     * figures, and a person running them (or a series) is told here */
    ticky_coverage cov;
    char note[768];
    ticky_coverage_of(t, &cov);
    if (!table_says_it && ticky_coverage_note(&cov, note, sizeof note) > 0)
        fprintf(stderr, "evprof: %s: warning: %s\n", shown, note);
    if (in->undefined)
        fprintf(stderr, "evprof: %s: warning: %llu ticky counter%s sampled but never defined "
                "(no event 210); shown as <undefined ticky counter ID>\n", shown,
                (unsigned long long)in->undefined, in->undefined == 1 ? " is" : "s are");
    if (in->source == TICKY_FROM_EVENTLOG && in->counters && !in->samples)
        fprintf(stderr, "evprof: %s: warning: no ticky samples (event 211): every counter "
                "is 0 (was the program run with +RTS -lT?)\n", shown);
    if (in->text_unterminated)
        fprintf(stderr, "evprof: %s: warning: the counter table's last row has no end of "
                "line: the file may be cut short\n", shown);
}

/* After the read of an eventlog (a read stopped at --memory-limit has
 * said so and given no driver: no table, it would look whole). */
static int loaded(const input *in, ticky_set *t, int code, int nothing, int *stop,
                  const ev_facts *f)
{
    if (ticky_finish(t) != 0) {
        fprintf(stderr, "evprof: %s: out of memory\n", in->shown);
        return CLI_FAIL;
    }
    /* a damaged log still gets the table of everything before the damage;
     * one that yielded nothing (unreadable) gets none */
    if (nothing && code != CLI_OK)
        return code;
    *stop = 0;
    const ticky_info *info = ticky_get_info(t);
    if (info->counters == 0 && info->begin_events == 0 &&
        ((f->stopped && f->stop_status == EV_ERR_TRUNCATED) || f->missing_end)) {
        /* what the log shows, not a guess: it was cut before any came */
        fprintf(stderr, "evprof: %s: no ticky counters (events 210/211) before the log ends "
                "at byte %llu (%s): GHC writes them at a collection after an +RTS -i tick "
                "and at exit, so a log cut early may have none yet (see 'evprof info %s')\n",
                in->shown, (unsigned long long)f->end_offset,
                f->missing_end ? "no end marker" : "cut inside an event",
                strcmp(in->path, "-") == 0 ? "-" : in->shown);
        *stop = 1;
        return CLI_FAIL;
    }
    if (info->counters == 0 && info->begin_events == 0) {
        fprintf(stderr, "evprof: %s: no ticky counters (events 210/211): build with -ticky "
                "(GHC 9.2 or later) and run with +RTS -lT, or read the file of +RTS -r "
                "(see 'evprof info %s')\n", in->shown,
                strcmp(in->path, "-") == 0 ? "-" : in->shown);
        *stop = 1;
        return CLI_FAIL;
    }
    return code;
}

/* Reads the input into t. Returns the exit code so far; *stop when there
 * is nothing to show. */
static int load(const input *in, const ticky_args *o, ticky_set *t, int *stop)
{
    cli_ctx *c = o->w.ctx;
    unsigned char head[4];
    size_t got = 0;
    *stop = 1;
    if (peek(in, head, &got) != 0)
        return CLI_FAIL;
    if (got == 0) {
        fprintf(stderr, "evprof: %s: %s: no eventlog and no +RTS -r table to read\n",
                in->shown, in->spool ? "standard input is empty" : "the file is empty");
        return CLI_FAIL;
    }
    if (!ticky_is_eventlog(head, got)) {
        FILE *f = in->spool ? ev_spool_fopen(in->spool) : fopen(in->path, "rb");
        if (!f) {
            fprintf(stderr, "evprof: %s: cannot open: %s\n", in->shown, strerror(errno));
            return CLI_FAIL;
        }
        ev_error err;
        ev_status st = ticky_read_text(t, f, &err);
        long at = ftell(f);
        fclose(f);
        ticky_counts tc;
        ticky_count(t, &tc);
        if (tc.over_budget) {
            /* stopped at --memory-limit: no table (it would look whole) */
            cli_memory_message(c, in->path, at > 0 ? (uint64_t)at : 0, cli_budget(c),
                               &(cli_analysis){ &ticky_analysis_ops, t }, 1);
            *stop = 1;
            return CLI_FAIL;
        }
        if (ticky_finish(t) != 0) {
            fprintf(stderr, "evprof: %s: out of memory\n", in->shown);
            return CLI_FAIL;
        }
        if ((o->series || o->window_given) && st == EV_OK) {
            cli_usage_error(&help, "%s is GHC's +RTS -r text, which has totals only: "
                            "--series, --from and --to need an eventlog (+RTS -lT)", in->shown);
            return CLI_USAGE;
        }
        if (o->series || o->window_given) {
            fprintf(stderr, "evprof: %s: not an eventlog (it does not start with \"hdrb\"): "
                    "--series, --from and --to need the eventlog of a run with +RTS -lT\n",
                    in->shown);
            return CLI_FAIL;
        }
        if (st != EV_OK) {
            if (err.line)
                fprintf(stderr, "evprof: %s: line %llu: %s\n", in->shown,
                        (unsigned long long)err.line, err.msg);
            else
                fprintf(stderr, "evprof: %s: %s\n", in->shown, err.msg);
            /* the rows before a garbled line are still shown */
            *stop = st != EV_ERR_FORMAT || ticky_num_counters(t) == 0;
            return CLI_FAIL;
        }
        *stop = 0;
        return CLI_OK;
    }
    int code;
    uint64_t count;
    ev_driver *d = read_log(in, o, in->spool, &ticky_analysis_ops, t, UINT64_MAX, 0, &count,
                            &code);
    if (!d)
        return code;    /* *stop: nothing to show (said) */
    int nothing = cli_read_nothing(ev_driver_stream(d), code);
    ev_facts f;
    ev_facts_of(&ev_driver_stream(d)->read, &f);
    ev_driver_destroy(d);
    return loaded(in, t, code, nothing, stop, &f);
}

/* A live read (--follow, --connect) of an eventlog as it comes; with
 * --series a copy of its bytes goes into a spool (in->spool) for the
 * second pass, which takes as many ticky events as this one did
 * (in->events). */
static void spool_bytes(void *ctx, const void *buf, size_t len)
{
    ev_spool *sp = ctx;
    if (!sp->error)
        (void)ev_spool_put(sp, sp->size, buf, (uint32_t)len);
}

static int load_live(input *in, ticky_args *o, ev_spool *copy, ticky_set *t, int *stop)
{
    *stop = 1;
    if (o->series) {
        ev_spool_init_pipe(copy, "the copy of the log");
        in->spool = copy;
        o->w.src.on_bytes = spool_bytes;
        o->w.src.bytes_ctx = copy;
    }
    int code;
    uint64_t count;
    ev_driver *d = read_log(in, o, NULL, &ticky_analysis_ops, t, UINT64_MAX, 0, &count, &code);
    if (!d)
        return code;
    const ev_stream *s = ev_driver_stream(d);
    int nothing = cli_read_nothing(s, code);
    ev_facts f;
    ev_facts_of(&s->read, &f);
    if (s->read.status == EV_ERR_FORMAT && s->read.events == 0 && s->decoder == NULL)
        fprintf(stderr, "evprof: %s: --follow and --connect read an eventlog; GHC's +RTS -r "
                "text is read without them\n", in->shown);
    ev_driver_destroy(d);
    in->events = count;
    if (in->spool && (in->spool->error || ev_spool_flush(in->spool) != 0)) {
        fprintf(stderr, "evprof: %s: %s\n", in->shown, in->spool->error);
        return CLI_FAIL;
    }
    return loaded(in, t, code, nothing, stop, &f);
}


int cmd_ticky(cli_ctx *c, int argc, char **argv)
{
    cli_args a;
    ticky_args o;
    int code = parse_args(c, argc, argv, &o, &a);
    if (code >= 0)
        return code;

    int live = o.w.src.follow || o.w.src.connect;
    input in = { o.path, cli_display_path(c, o.path), NULL, UINT64_MAX };
    ev_spool sp;
    ev_spool_init_pipe(&sp, NULL);
    if (!live && strcmp(in.path, "-") == 0) {
        in.spool = &sp;
        if (spool_stdin(&sp) != 0) {
            ev_spool_free(&sp);
            return CLI_FAIL;
        }
    }
    ticky_set *t = ticky_create();
    if (!t) {
        fprintf(stderr, "evprof: out of memory\n");
        ev_spool_free(&sp);
        return CLI_FAIL;
    }
    ticky_set_budget(t, cli_budget(c));
    int stop = 0;
    code = live ? load_live(&in, &o, &sp, t, &stop) : load(&in, &o, t, &stop);
    ticky_view v = { 0 };
    if (!stop && ticky_view_build(t, &o.view, &v) != 0) {
        fprintf(stderr, "evprof: %s: out of memory\n", in.shown);
        code = CLI_FAIL;
        stop = 1;
    }
    if (stop)
        goto done;
    warnings(in.shown, t, !o.series && o.fmt == TICKY_TEXT);

    cli_out out;
    if (cli_out_open(c, &out, o.w.output) != 0) {
        code = CLI_FAIL;
        goto done;
    }
    /* write errors are caught by cli_out_close (ferror); ok = 0 only
     * for a run that must not publish its output */
    int ok = 1;
    if (!o.series) {
        size_t n;
        (void)ticky_formats(&n)[o.fmt].write(t, &v, out.f, NULL);
    } else {
        ticky_series_out so;
        ticky_series_out_begin(&so, out.f, o.fmt, o.cumulative);
        if (ticky_series_begin(t, &v, o.cumulative, ticky_series_out_batch, &so) != 0) {
            fprintf(stderr, "evprof: %s: out of memory\n", in.shown);
            ok = 0;
        } else {
            int again;
            uint64_t n;
            ev_driver *d = read_log(&in, &o, in.spool, &ticky_series_ops, t, in.events, 1, &n,
                                    &again);
            int stopped = ticky_series_end(t);
            /* the first pass reported any damage; a second pass that
             * fails where the first did not means the input changed */
            const el_read_result *res = d ? &ev_driver_stream(d)->read : NULL;
            if (!d)
                code = again;
            else if (code == CLI_OK && res->status != EV_END && res->status != EV_OK &&
                     !stopped)
                code = cli_report_read(c, in.path, res);
            ev_driver_destroy(d);
            (void)ticky_series_out_end(&so);
        }
    }
    if (cli_out_close(&out, ok) != 0 || !ok)
        code = CLI_FAIL;
done:
    ticky_view_free(&v);
    ticky_destroy(t);
    ev_spool_free(&sp);
    return code;
}
