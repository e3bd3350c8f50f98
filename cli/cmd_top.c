/* evprof top: a running program's profile, refreshed every interval: a
 * full-screen view (ncurses) in a terminal, plain lines otherwise, or one
 * JSON object per interval (--ndjson). The figures are live/top.c's. */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <curses.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "evprof/textout.h"
#include "evprof/driver.h"
#include "evprof/live.h"
#include "evprof/metrics.h"
#include "exe.h"
#include "outfile.h"
#include "selection.h"
#include "read.h"



static const cli_cmd_help help = {
    "top", "[OPTIONS] [FILE | - | --connect ADDR | -- PROG ARGS...]",
    "What a running program does now: the cost centres with the most ticks in the\n"
    "last interval and since the start, memory and GC, the heap profile's largest\n"
    "bands and the busiest ticky counters, refreshed every interval. It follows its\n"
    "input as --follow does until the log's end marker.\n"
    "`evprof top -- PROG ARGS` runs PROG so that the Haskell program writes its\n"
    "eventlog into a private FIFO (+RTS -l -ol<FIFO>, and --eventlog-flush-interval\n"
    "on GHC 9.2 and later; the program needs -rtsopts) and exits with its status:\n"
    "as RTS options of a Haskell program, after the '--' of cabal or stack, and in\n"
    "GHCRTS for anything else (a script); the view says which and why.",
    "Keys in the full-screen view: q quits, p pauses, s changes the sort.\n"
    "--metrics HOST:PORT serves GET /metrics in Prometheus' text format, refreshed\n"
    "every interval (the metrics: docs/LIVE.md, \"Prometheus\"); alone it shows no\n"
    "view and runs until the log ends, or Ctrl-C or SIGTERM.\n"
    "Intervals are by arrival: GHC writes each capability's events when its buffer\n"
    "fills (before 9.2, only then), so an interval shows what was written in it.\n"
    "See docs/LIVE.md.\n",
};

/* Ctrl-C and q: the driver sees the flag between events or while waiting */
static volatile sig_atomic_t stop_flag;

static void on_sigint(int sig)
{
    (void)sig;
    stop_flag = 1;
}

typedef enum view_kind { VIEW_CURSES, VIEW_PLAIN, VIEW_NDJSON, VIEW_NONE } view_kind;

typedef struct top_ctx {
    live_top *model;
    view_kind view;
    double interval;
    uint64_t last_frame_ns;
    int have_frame;
    int paused;
    int quit;                   /* q was pressed */
    live_sort sort;
    const char *source;
    const char *file;           /* the followed file (FILE), else NULL */
    pid_t child;                /* -- PROG, else 0 */
    const live_launch *launch;  /* how it was started (-- PROG), else NULL */
    int child_status;
    int child_done;
    int child_gone_ticks;       /* ticks since the child ended without writing */
    int child_gone;             /* ... which stopped the read (not Ctrl-C) */
    int next_stream;            /* reading a later eventlog on the FIFO: no frame
                                   until its first bytes (the last one's stays) */
    int next_started;           /* ... and they came */
    char note[512];             /* shown under the title, when set */
    FILE *save;
    int save_failed;
    int write_failed;
    int frame_failed;           /* live_top_frame had no memory: the limit, or malloc */
    const live_frame *frame;
    live_http *http;            /* --metrics */
    live_metrics *metrics;
    int metrics_failed;
    /* the cost-centre columns' widths so far: they grow with the rows
     * shown, never shrink, so that the columns stay put from frame to
     * frame */
    int w_label, w_module, w_src;
} top_ctx;

/* ---- numbers ------------------------------------------------------------- */

static const char *bytes_str(char *buf, size_t size, double v)
{
    static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    int u = 0;
    while (v >= 1024 && u < 4) {
        v /= 1024;
        u++;
    }
    snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
    return buf;
}

/* The view's lines, the same for curses and plain text. */
typedef void (*line_fn)(void *ctx, int bold, const char *fmt, ...);

/* text as lines of at most `width` columns, cut at spaces */
static void wrapped(line_fn out, void *octx, const char *text, size_t width)
{
    size_t len = strlen(text);
    while (len > width) {
        size_t cut = width;
        while (cut > width / 2 && text[cut] != ' ')
            cut--;
        if (text[cut] != ' ')
            cut = width;
        out(octx, 0, "%.*s", (int)cut, text);
        text += cut;
        len -= cut;
        while (*text == ' ')
            text++, len--;
    }
    if (len)
        out(octx, 0, "%s", text);
}

/* The cost-centre columns' widths: the widest row so far, between the
 * heading's and a cap; SRC is what tells namesakes apart (two cost
 * centres of one name, prof_namesakes), so its cap is the widest. */
#define W_LABEL_MAX 30
#define W_MODULE_MAX 20
#define W_SRC_MAX 32

static void widen(int *w, const char *s, int cap)
{
    size_t n = strlen(s);
    if ((size_t)*w < n)
        *w = n > (size_t)cap ? cap : (int)n;
}

/* s in `w` bytes: its tail when longer (a source location differs at its
 * end: the lines), after "...", never from inside a UTF-8 sequence */
static const char *tail(const char *s, int w, char *buf, size_t size)
{
    size_t n = strlen(s);
    if (n <= (size_t)w || w < 4)
        return s;
    const char *t = s + n - (size_t)(w - 3);
    while (*t && ((unsigned char)*t & 0xc0) == 0x80)
        t++;
    snprintf(buf, size, "...%s", t);
    return buf;
}

static void cc_rows(top_ctx *c, const live_frame *f, line_fn out, void *octx)
{
    if (!c->w_label) {
        c->w_label = (int)strlen("COST CENTRE");
        c->w_module = (int)strlen("MODULE");
        c->w_src = (int)strlen("SRC");
    }
    for (size_t i = 0; i < f->n_ccs; i++) {
        widen(&c->w_label, f->ccs[i].label, W_LABEL_MAX);
        widen(&c->w_module, f->ccs[i].module, W_MODULE_MAX);
        widen(&c->w_src, f->ccs[i].srcloc, W_SRC_MAX);
    }
    int wl = c->w_label, wm = c->w_module, ws = c->w_src;
    out(octx, 1, "%-*s %-*s %-*s %8s %8s %6s %9s %6s", wl, "COST CENTRE", wm, "MODULE", ws,
        "SRC", "INTERVAL", "TICKS", "%time", "INHERITED", "%inh");
    for (size_t i = 0; i < f->n_ccs; i++) {
        const live_cc_row *r = &f->ccs[i];
        char buf[W_SRC_MAX + 8];
        double t = f->ticks ? 100.0 * (double)r->ticks / (double)f->ticks : 0;
        double h = f->ticks ? 100.0 * (double)r->inherited / (double)f->ticks : 0;
        out(octx, 0, "%-*.*s %-*.*s %-*s %8llu %8llu %6.1f %9llu %6.1f", wl, wl, r->label, wm,
            wm, r->module, ws, tail(r->srcloc, ws, buf, sizeof buf),
            (unsigned long long)r->interval, (unsigned long long)r->ticks, t,
            (unsigned long long)r->inherited, h);
    }
}

static void frame_lines(top_ctx *c, const live_frame *f, line_fn out, void *octx)
{
    char a[32], b[32], d[32], e[32], g[32];

    out(octx, 1, "evprof top - %s%s%s", c->source, f->finished ? "  [ended]" : "",
        c->paused ? "  [paused]" : "");
    if (c->note[0])
        wrapped(out, octx, c->note, 79);
    out(octx, 0, "elapsed %.1f s  log %.3f s  %llu events (%.0f/s)  %s read", f->wall_s,
        f->log_s, (unsigned long long)f->events, f->events_per_s,
        bytes_str(a, sizeof a, (double)f->bytes));
    if (f->waiting) {
        /* nothing has come yet: say why instead of a screen of zeros */
        out(octx, 0, "");
        if (f->rts_writes_when_full) {
            out(octx, 0, "waiting for the first events: this GHC (before 9.2) writes a "
                "capability's events only when its buffer fills (2 MiB on 9.0) and at exit,");
            out(octx, 0, "so figures come in steps, or at the end; GHC 9.2 and later write "
                "every --eventlog-flush-interval (docs/LIVE.md)");
        } else if (!f->bytes && c->file && access(c->file, F_OK) != 0 && errno == ENOENT) {
            /* a mistyped name waits too (the program may not have made
             * the file yet): say so */
            out(octx, 0, "waiting for %s to appear: there is no such file yet "
                "(q or Ctrl-C stops; --idle-timeout SECONDS gives up)", c->source);
        } else {
            out(octx, 0, "waiting for the first events%s",
                f->bytes ? " (the header is read)" : "");
        }
        if (c->launch) {
            out(octx, 0, "");
            wrapped(out, octx, c->launch->said, 79);
        }
        return;
    }
    if (f->mem.has_heap || f->mem.allocated || f->mem.gcs) {
        out(octx, 0, "memory: heap %s  live %s  allocated %s (+%s, %s/s)",
            bytes_str(a, sizeof a, (double)f->mem.heap_size),
            bytes_str(b, sizeof b, (double)f->mem.live_bytes),
            bytes_str(d, sizeof d, (double)f->mem.allocated),
            bytes_str(e, sizeof e, (double)f->mem.alloc_interval),
            bytes_str(g, sizeof g, f->mem.alloc_rate));
        out(octx, 0, "GC: %llu collections (+%llu), pause %.1f ms in the interval (max %.1f ms),"
            " %.1f ms in all", (unsigned long long)f->mem.gcs,
            (unsigned long long)f->mem.gcs_interval, (double)f->mem.pause_interval_ns / 1e6,
            (double)f->mem.max_pause_interval_ns / 1e6, (double)f->mem.pause_ns / 1e6);
    } else {
        out(octx, 0, "memory: no GC events yet");
    }
    out(octx, 0, "ticks %llu (+%llu in %.1f s)  sort: %s", (unsigned long long)f->ticks,
        (unsigned long long)f->ticks_interval, f->interval_s, live_sort_name(c->sort));
    out(octx, 0, "");
    if (f->n_ccs) {
        cc_rows(c, f, out, octx);
    } else {
        if (f->no_samples_why)
            out(octx, 0, "no time-profile samples yet: %s", f->no_samples_why);
        else
        {
            out(octx, 0, "no time-profile samples yet: a -prof build run with +RTS -p writes "
                "them");
            out(octx, 0, "every --eventlog-flush-interval (GHC 9.2 and later), else when a "
                "buffer fills and at exit");
        }
    }
    if (f->has_heap_profile) {
        out(octx, 0, "");
        out(octx, 1, "HEAP CENSUS at %.3f s: %s", f->census_s,
            bytes_str(a, sizeof a, (double)f->census_total));
        for (size_t i = 0; i < f->n_bands; i++)
            out(octx, 0, "  %10s  %.60s", bytes_str(a, sizeof a, (double)f->bands[i].bytes),
                f->bands[i].name);
    }
    if (f->n_ticky) {
        out(octx, 0, "");
        out(octx, 1, "%-40s %12s %14s %12s", "TICKY COUNTER", "ENTRIES +", "ENTRIES", "ALLOCS");
        for (size_t i = 0; i < f->n_ticky; i++)
            out(octx, 0, "%-40.40s %12llu %14llu %12llu", f->ticky[i].name,
                (unsigned long long)f->ticky[i].entries_interval,
                (unsigned long long)f->ticky[i].entries,
                (unsigned long long)f->ticky[i].allocs);
    }
}

static void plain_line(void *ctx, int bold, const char *fmt, ...)
{
    FILE *out = ctx;
    va_list ap;
    (void)bold;
    va_start(ap, fmt);
    vfprintf(out, fmt, ap);
    va_end(ap);
    fputc('\n', out);
}

typedef struct curses_pos {
    int row;
} curses_pos;

static void curses_line(void *ctx, int bold, const char *fmt, ...)
{
    curses_pos *p = ctx;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (p->row >= LINES - 1)
        return;
    if (bold)
        attron(A_BOLD);
    mvaddnstr(p->row, 0, buf, COLS);
    if (bold)
        attroff(A_BOLD);
    clrtoeol();
    p->row++;
}

/* --metrics: the frame's exposition, rendered here, served from now on */
static void publish(top_ctx *c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) {
        c->metrics_failed = 1;
        return;
    }
    int rc = live_metrics_write(c->metrics, c->frame, m);
    if (fclose(m) != 0 || rc != 0) {
        free(buf);
        c->metrics_failed = 1;
        return;
    }
    if (live_http_publish(c->http, buf, len) != 0)
        c->metrics_failed = 1;
}

static void draw(top_ctx *c)
{
    if (!c->frame)
        return;
    if (c->view == VIEW_NONE) {
        /* nothing to show */
    } else if (c->view == VIEW_NDJSON) {
        if (live_frame_json(c->frame, stdout) != 0 || fflush(stdout) != 0)
            c->write_failed = 1;
    } else if (c->view == VIEW_PLAIN) {
        frame_lines(c, c->frame, plain_line, stdout);
        fputc('\n', stdout);
        if (fflush(stdout) != 0)
            c->write_failed = 1;
    } else {
        curses_pos p = { 0 };
        frame_lines(c, c->frame, curses_line, &p);
        move(p.row, 0);
        clrtobot();
        mvaddstr(LINES - 1, 0, c->frame->finished ? "q: quit" : "q: quit  p: pause  s: sort");
        refresh();
    }
    if (c->write_failed)
        stop_flag = 1;          /* nobody reads the output any more */
}

static uint64_t ns_of(double s) { return (uint64_t)(s * 1e9); }

static void keys(top_ctx *c)
{
    int ch;
    while ((ch = getch()) != ERR) {
        if (ch == 'q' || ch == 'Q') {
            c->quit = 1;
            stop_flag = 1;
        } else if (ch == 'p' || ch == 'P') {
            c->paused = !c->paused;
            draw(c);
        } else if (ch == 's' || ch == 'S') {
            c->sort = (live_sort)((c->sort + 1) % LIVE_SORT_COUNT);
            if (c->have_frame)
                c->frame = live_top_resort(c->model, c->sort);
            draw(c);
        } else if (ch == KEY_RESIZE) {
            draw(c);
        }
    }
}

static void check_child(top_ctx *c, const ev_stream *s)
{
    if (!c->child)
        return;
    int st;
    if (!c->child_done && waitpid(c->child, &st, WNOHANG) == c->child) {
        c->child_done = 1;
        c->child_status = st;
    }
    /* it ended without ever opening the FIFO: nothing will come */
    if (c->child_done && s->read.bytes == 0 && ++c->child_gone_ticks > 3) {
        c->child_gone = 1;
        stop_flag = 1;
    }
}

static void on_tick(void *ctx, const ev_stream *s)
{
    top_ctx *c = ctx;
    check_child(c, s);
    if (c->view == VIEW_CURSES)
        keys(c);
    if (c->next_stream && !c->next_started)
        return;                 /* the previous eventlog's last frame stays */
    if (c->paused && !s->done)
        return;
    if (!s->done && c->have_frame && s->wall_ns - c->last_frame_ns < ns_of(c->interval) - 5000000)
        return;
    if (!s->done && !c->have_frame && s->wall_ns < ns_of(c->interval) - 5000000)
        return;
    c->frame = live_top_frame(c->model, s);
    c->last_frame_ns = s->wall_ns;
    c->have_frame = 1;
    if (!c->frame) {
        c->frame_failed = 1;    /* said at the end, as the limit or as no memory */
        stop_flag = 1;
        return;
    }
    if (c->http)
        publish(c);
    draw(c);
}

static void save_bytes(void *ctx, const void *buf, size_t len)
{
    top_ctx *c = ctx;
    if (c->next_stream && !c->next_started) {
        /* --save keeps the eventlog followed: the one now coming */
        c->next_started = 1;
        if (c->save && (fflush(c->save) != 0 || ftruncate(fileno(c->save), 0) != 0 ||
                        fseek(c->save, 0, SEEK_SET) != 0))
            c->save_failed = 1;
    }
    if (c->save && !c->save_failed && fwrite(buf, 1, len, c->save) != len)
        c->save_failed = 1;
}

static int exit_code_of(int status)
{
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return CLI_FAIL;
}

/* After an eventlog on the FIFO ended while the command runs: waits until
 * another writer has written into it (without reading: its bytes stay for
 * the next read), the command ends, or Ctrl-C/q. Returns a read end kept
 * open while the next read goes on (so that the bytes wait there), or -1
 * when nothing more will come. */
static int wait_next_writer(top_ctx *c, const char *fifo)
{
    int fd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return -1;
    while (!stop_flag) {
        struct pollfd p = { fd, POLLIN, 0 };
        int rc = poll(&p, 1, 100);
        if (rc > 0 && (p.revents & POLLIN))
            return fd;
        if (rc > 0 && (p.revents & POLLHUP)) {
            /* a writer came and went without a byte: wait afresh */
            close(fd);
            if ((fd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
                return -1;
        }
        int st;
        if (!c->child_done && waitpid(c->child, &st, WNOHANG) == c->child) {
            c->child_done = 1;
            c->child_status = st;
        }
        if (c->child_done)
            break;
        if (c->view == VIEW_CURSES)
            keys(c);
    }
    close(fd);
    return -1;
}

/* ---- the command ---------------------------------------------------------- */

static int opt_sort(const cli_args *a, void *var, const void *ctx)
{
    (void)ctx;
    for (int s = 0; s < LIVE_SORT_COUNT; s++)
        if (strcmp(a->value, live_sort_name((live_sort)s)) == 0) {
            *(live_sort *)var = (live_sort)s;
            return 0;
        }
    cli_usage_error(a->cmd, "--sort wants interval, total or inherited, not '%s'", a->value);
    return -1;
}

static int opt_metrics(const cli_args *a, void *var, const void *ctx)
{
    char host[256], port[8];
    (void)ctx;
    if (live_http_parse_addr(a->value, host, sizeof host, port, sizeof port) != 0) {
        cli_usage_error(a->cmd, "--metrics wants HOST:PORT, :PORT, PORT or [IPV6]:PORT, not "
                        "'%s'", a->value);
        return -1;
    }
    *(const char **)var = a->value;
    return 0;
}

int cmd_top(cli_ctx *cx, int argc, char **argv)
{
    cli_args a;
    int id, ndjson = 0, plain = 0;
    double interval = 1, idle = 0, linger = 0;
    unsigned long metrics_top = 10;
    live_opts lo;
    const char *connect = NULL, *save = NULL, *prog_out = NULL, *metrics = NULL;
    const char *ghc_version = NULL;
    int linger_given = 0, metrics_top_given = 0;

    live_opts_init(&lo);
    /* everything after "--" is the program to run */
    int nopt = argc;
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--") == 0) {
            nopt = i;
            break;
        }
    char **prog = nopt < argc ? argv + nopt + 1 : NULL;
    int nprog = nopt < argc ? argc - nopt - 1 : 0;

    cli_window w;
    cli_window_init(&w, cx);
    cli_exe ex = { 0 };
    unsigned long top_n = lo.top_n;
    const cli_opt opts[] = {
        OPT_NUMBER('i', "interval", "SECONDS", &interval, 0.05, 3600, "refresh every SECONDS "
                   "(default 1)"),
        OPT_FLAG(0, "ndjson", &ndjson, "one JSON object per interval on standard output "
                 "(fields: docs/LIVE.md)"),
        OPT_FLAG(0, "plain", &plain, "plain lines per interval even in a terminal"),
        OPT_COUNT('n', "top", "N", &top_n, 1, 1000, "rows per list (default 10)"),
        OPT_CALL('s', "sort", "KEY", opt_sort, &lo.sort, NULL, "cost centres by 'interval' "
                 "(default), 'total' or 'inherited' ticks"),
        OPT_CALL(0, "connect", "ADDR", cli_opt_connect, &w, NULL, "read a running program's "
                 "eventlog-socket stream (unix:PATH or tcp:HOST:PORT)"),
        OPT_CALL(0, "idle-timeout", "SECONDS", cli_opt_idle_timeout, &w, NULL, "stop when "
                 "nothing has come for SECONDS (a file that stopped growing, a quiet FIFO or "
                 "socket)"),
        CLI_TIME_OPTS(&w),
        CLI_CAP_OPT(&w),
        CLI_FOCUS_OPTS(&w),
        CLI_MEMORY_OPT(cx),
        CLI_EXE_OPTS(&ex),
        OPT_STRING(0, "save", "FILE", &save, "also write the log as read to FILE"),
        OPT_STRING(0, "program-output", "FILE", &prog_out, "-- PROG: its standard output and "
                   "error go to FILE (default: standard error, /dev/null under the "
                   "full-screen view)"),
        OPT_STRING(0, "ghc", "VERSION", &ghc_version, "-- PROG: the GHC that built the "
                   "program, when PROG is a script or launcher (default: the ghc on PATH's "
                   "version); 9.2 and later get --eventlog-flush-interval"),
        OPT_CALL(0, "metrics", "HOST:PORT", opt_metrics, &metrics, NULL, "serve the figures "
                 "to Prometheus at http://HOST:PORT/metrics (a bare PORT: 127.0.0.1); without "
                 "--ndjson or --plain, no view"),
        OPT_COUNT(0, "metrics-top", "N", &metrics_top, 1, 1000, "--metrics: cost centres, "
                  "heap bands and ticky counters, the N with the most (default 10)"),
        OPT_NUMBER(0, "metrics-linger", "SECONDS", &linger, 0, 1e9, "--metrics: after the read "
                   "ends, serve the last figures SECONDS longer (Ctrl-C ends it)"),
        OPT_END,
    };
    metrics_top = ULONG_MAX;
    linger = -1;
    id = cli_parse(&help, opts, nopt, argv, &a);
    lo.top_n = (unsigned)top_n;
    metrics_top_given = metrics_top != ULONG_MAX;
    if (!metrics_top_given)
        metrics_top = 10;
    linger_given = linger >= 0;
    if (!linger_given)
        linger = 0;
    connect = w.src.connect;
    idle = w.src.idle_timeout;
    if (id != CLI_END)
        return cli_done_code(id);
    int sources = (a.npos > 0) + (connect != NULL) + (prog != NULL);
    if (a.npos > 1) {
        cli_usage_error(&help, "unexpected argument '%s'", a.pos[1]);
        return CLI_USAGE;
    }
    if (sources != 1) {
        cli_usage_error(&help, sources ? "give one of FILE, --connect ADDR and -- PROG"
                                       : "missing FILE, --connect ADDR or -- PROG");
        return CLI_USAGE;
    }
    if (prog && nprog == 0) {
        cli_usage_error(&help, "missing PROG after --");
        return CLI_USAGE;
    }
    if (!metrics && (metrics_top_given || linger_given)) {
        cli_usage_error(&help, "--metrics-top and --metrics-linger go with --metrics");
        return CLI_USAGE;
    }
    if (cli_window_check_times(&help, &w) != CLI_OK)
        return CLI_USAGE;
    /* the selection: marks need the whole file first (not a live stream) */
    if (w.from_marker || w.to_marker || w.between || w.phase) {
        if (a.npos != 1 || strcmp(a.pos[0], "-") == 0) {
            cli_usage_error(&help, "marker windows need a FILE (the log is read twice)");
            return CLI_USAGE;
        }
        int rc = cli_window_resolve(&w, a.pos[0]);
        if (rc != CLI_OK)
            return rc;
    } else if (cli_window_select(&w) != CLI_OK) {
        return CLI_FAIL;
    }
    prof_filter pf;
    prof_filter_init(&pf);
    if (cli_window_prof_filter(&w, &pf) != 0)
        return CLI_USAGE;
    lo.samples = &pf;
    /* a FILE's relative argv[0] from its folder; -- PROG's and a
     * socket's from here */
    int erc = cli_exe_setup(cx, &ex, &help, a.npos == 1 ? a.pos[0] : NULL, &lo.exe);
    if (erc != CLI_OK)
        return erc;

    top_ctx c;
    memset(&c, 0, sizeof c);
    c.interval = interval;
    c.sort = lo.sort;
    c.view = ndjson                 ? VIEW_NDJSON
             : plain                ? VIEW_PLAIN
             : metrics              ? VIEW_NONE
             : !isatty(STDOUT_FILENO) ? VIEW_PLAIN
                                    : VIEW_CURSES;
    c.source = connect ? connect : prog ? prog[0] : cli_display_path(cx, a.pos[0]);
    c.file = connect || prog || strcmp(a.pos[0], "-") == 0 ? NULL : a.pos[0];
    if (!(c.model = live_top_create(&lo))) {
        fprintf(stderr, "evprof: out of memory\n");
        cli_exe_close(&ex);
        return CLI_FAIL;
    }
    if (save && !(c.save = fopen(save, "wbe"))) {     /* e: not the child's */
        fprintf(stderr, "evprof top: %s: cannot create: %s\n", save, strerror(errno));
        live_top_destroy(c.model);
        cli_exe_close(&ex);
        return CLI_FAIL;
    }
    if (metrics) {
        live_metrics_opts mo;
        live_metrics_opts_init(&mo);
        mo.top_n = (unsigned)metrics_top;
        mo.process = 1;
        ev_error err;
        if (!(c.metrics = live_metrics_create(&mo)) ||
            live_http_start(&c.http, metrics, NULL, &err) != EV_OK) {
            if (c.metrics)
                fprintf(stderr, "evprof top: --metrics %s\n", err.msg);
            else
                fprintf(stderr, "evprof: out of memory\n");
            live_metrics_destroy(c.metrics);
            live_top_destroy(c.model);
            if (c.save)
                fclose(c.save);
            cli_exe_close(&ex);
            return CLI_FAIL;
        }
        fprintf(stderr, "evprof top: serving http://%s/metrics\n", live_http_address(c.http));
    }

    /* the FIFO in $TMPDIR (a program in a chroot or container sees it
     * where that folder is bound at the same path) */
    const char *tmpdir = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/evprof-top-XXXXXX", tmpdir && tmpdir[0] ? tmpdir : "/tmp");
    char fifo[sizeof dir + 16] = "";
    live_launch launch;
    if (prog) {
        if (!mkdtemp(dir)) {
            fprintf(stderr, "evprof top: cannot make a directory for the FIFO: %s\n",
                    strerror(errno));
            live_top_destroy(c.model);
            live_http_stop(c.http);
            live_metrics_destroy(c.metrics);
            if (c.save)
                fclose(c.save);
            cli_exe_close(&ex);
            return CLI_FAIL;
        }
        snprintf(fifo, sizeof fifo, "%s/eventlog", dir);
        if (mkfifo(fifo, 0600) != 0) {
            fprintf(stderr, "evprof top: cannot make the FIFO %s: %s\n", fifo, strerror(errno));
            rmdir(dir);
            live_top_destroy(c.model);
            live_http_stop(c.http);
            live_metrics_destroy(c.metrics);
            if (c.save)
                fclose(c.save);
            cli_exe_close(&ex);
            return CLI_FAIL;
        }
        live_launch_opts lo_launch;
        live_launch_opts_init(&lo_launch);
        lo_launch.eventlog = fifo;
        lo_launch.flush_s = interval > 0.1 ? interval / 2 : 0.05;
        lo_launch.ghc_version = ghc_version;
        lo_launch.output = prog_out;
        lo_launch.quiet = c.view == VIEW_CURSES;
        ev_error lerr;
        c.child = live_launch_start(&launch, prog, nprog, &lo_launch, &lerr) == EV_OK
                      ? launch.pid : -1;
        if (c.child > 0) {
            c.launch = &launch;
            if (c.view == VIEW_NDJSON || c.view == VIEW_NONE) {
                /* a whole sentence, its names already bounded: visible, not cut */
                fprintf(stderr, "evprof top: ");
                tx_put(stderr, launch.said, strlen(launch.said));
                fputc('\n', stderr);
            }
        } else {
            errno = 0;
            fprintf(stderr, "evprof top: %s\n", lerr.msg);
        }
        if (c.child > 0 && c.metrics &&
            live_metrics_set_default_labels(c.metrics, prog[0], (uint32_t)c.child) != 0)
            c.metrics_failed = 1;
        if (c.child < 0) {
            unlink(fifo);
            rmdir(dir);
            live_top_destroy(c.model);
            live_http_stop(c.http);
            live_metrics_destroy(c.metrics);
            if (c.save)
                fclose(c.save);
            cli_exe_close(&ex);
            return CLI_FAIL;
        }
    }

    ev_driver_opts o;
    ev_driver_opts_init(&o);
    o.follow = 1;
    o.idle_timeout = idle;
    o.tick_interval = interval < 0.1 ? interval : 0.1;   /* keys and the child: 10 times a second */
    o.on_tick = on_tick;
    o.tick_ctx = &c;
    o.interrupt = &stop_flag;
    o.on_bytes = save_bytes;
    o.bytes_ctx = &c;
    o.budget = cli_budget(cx);
    o.select = w.src.select;
    ev_driver *d = ev_driver_create(&o);
    if (!d || live_top_attach(c.model, d) != 0) {
        fprintf(stderr, "evprof: out of memory\n");
        ev_driver_destroy(d);
        live_top_destroy(c.model);
        live_http_stop(c.http);
        live_metrics_destroy(c.metrics);
        cli_exe_close(&ex);
        return CLI_FAIL;
    }

    struct sigaction sa, old, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    stop_flag = 0;
    sigaction(SIGINT, &sa, &old);
    if (c.http)     /* a service is stopped with SIGTERM: the same end as Ctrl-C */
        sigaction(SIGTERM, &sa, &old_term);
    if (c.view == VIEW_CURSES) {
        initscr();
        cbreak();
        noecho();
        nodelay(stdscr, TRUE);
        keypad(stdscr, TRUE);
        curs_set(0);
        mvaddstr(0, 0, "evprof top: waiting for the log...");
        refresh();
    }

    const ev_stream *s = connect ? ev_driver_run_connect(d, connect)
                         : prog  ? ev_driver_run_path(d, fifo)
                                 : ev_driver_run_path(d, a.pos[0]);
    /* Every Haskell program a script starts reads GHCRTS, and one may
     * write its eventlog before the program does (a ghc --version, a
     * build): when an eventlog ends while the command still runs, the
     * next one on the FIFO is followed; when none comes before the
     * command ends, the last one's figures stay. */
    while (prog && !c.quit && !c.write_failed && !stop_flag && !s->idle_timed_out &&
           (s->read.status == EV_END || s->read.status == EV_OK) && s->read.bytes > 0) {
        int st;
        if (!c.child_done && waitpid(c.child, &st, WNOHANG) == c.child) {
            c.child_done = 1;
            c.child_status = st;
        }
        if (c.child_done)
            break;
        const live_frame *lf = c.frame;
        char who[128] = "a Haskell program";
        if (lf && lf->program)
            snprintf(who, sizeof who, "%.80s", lf->program);
        if (lf && lf->has_pid)
            snprintf(who + strlen(who), sizeof who - strlen(who), " (pid %u)",
                     (unsigned)lf->pid);
        /* the next eventlog's first bytes may have come in the chunk that
         * held this one's end: they come first in the next read */
        uint8_t *carried = NULL;
        size_t ncarried = s->after_end_len;
        if (ncarried && (carried = malloc(ncarried)))
            memcpy(carried, s->after_end, ncarried);
        int waiting_fd = carried ? -2 : wait_next_writer(&c, fifo);
        if (waiting_fd == -1)
            break;              /* the command ended without another eventlog */
        snprintf(c.note, sizeof c.note, "the eventlog of %s ended while %.100s still ran, "
                 "and another came: following it (GHCRTS reaches every Haskell program the "
                 "command starts)", who, prog[0]);
        if (c.view != VIEW_CURSES)
            fprintf(stderr, "evprof top: %s\n", c.note);
        live_top *m2 = live_top_create(&lo);
        ev_driver_opts o2 = o;
        o2.prefix = carried;
        o2.prefix_len = carried ? ncarried : 0;
        ev_driver *d2 = m2 ? ev_driver_create(&o2) : NULL;
        if (!d2 || live_top_attach(m2, d2) != 0) {
            if (waiting_fd >= 0)
                close(waiting_fd);
            free(carried);
            ev_driver_destroy(d2);
            live_top_destroy(m2);
            break;
        }
        live_top *m1 = c.model;
        c.model = m2;
        c.next_stream = 1;
        c.next_started = 0;
        c.child_gone_ticks = 0;
        const ev_stream *s2 = ev_driver_run_path(d2, fifo);
        if (waiting_fd >= 0)
            close(waiting_fd);
        free(carried);
        c.next_stream = 0;
        if (c.next_started) {
            ev_driver_destroy(d);
            live_top_destroy(m1);
            d = d2;
            s = s2;
            c.note[0] = '\0';
            continue;
        }
        /* nothing more came: the command ended (or Ctrl-C) */
        ev_driver_destroy(d2);
        live_top_destroy(m2);
        c.model = m1;
        c.note[0] = '\0';
        if (c.child_gone)
            stop_flag = 0;
        break;
    }

    /* in a terminal the final figures stay until q */
    if (c.view == VIEW_CURSES && !stop_flag) {
        nodelay(stdscr, FALSE);
        int ch;
        while ((ch = getch()) != 'q' && ch != 'Q' && ch != ERR && !stop_flag) {
            if (ch == 's' || ch == 'S') {
                c.sort = (live_sort)((c.sort + 1) % LIVE_SORT_COUNT);
                c.frame = live_top_resort(c.model, c.sort);
            }
            draw(&c);
        }
    }
    if (c.view == VIEW_CURSES)
        endwin();

    int interrupted = stop_flag != 0;
    /* --metrics-linger: the last figures stay up for a last scrape */
    if (c.http && !interrupted && linger > 0) {
        struct timespec step = { 0, 50000000 };
        for (double waited = 0; waited < linger && !stop_flag; waited += 0.05)
            nanosleep(&step, NULL);
    }
    sigaction(SIGINT, &old, NULL);
    if (c.http)
        sigaction(SIGTERM, &old_term, NULL);
    if (c.child) {
        if (!c.child_done) {
            if (interrupted)
                kill(c.child, SIGTERM);
            if (waitpid(c.child, &c.child_status, 0) == c.child)
                c.child_done = 1;
        }
        unlink(fifo);
        rmdir(dir);
    }
    /* the last frame, once more after the full-screen view is gone */
    if (c.view == VIEW_CURSES && c.frame)
        frame_lines(&c, c.frame, plain_line, stdout);

    int code = CLI_OK;
    const char *src_name = connect ? connect : prog ? fifo : a.pos[0];
    /* the memory limit: the frames so far were shown, the message says why
     * they end (a last frame would need memory past the limit) */
    int mem_stopped = cli_memory_stopped_driver(cx, src_name, d);
    /* a frame that found no memory stopped the read itself: the limit's
     * message when the budget is what ran out, else no memory at all */
    if (!mem_stopped && c.frame_failed) {
        mem_stopped = 1;
        if (!cli_memory_reached_driver(cx, src_name, d))
            fprintf(stderr, "evprof top: out of memory making a frame\n");
    }
    if (mem_stopped)
        code = CLI_FAIL;
    else if (!c.quit && !c.write_failed && (!interrupted || s->read.bytes > 0))
        code = cli_report_stream(cx, src_name, s);
    /* a log read to its end that the window or capability misses: the
     * usage error of every reading command, with what the log has (its
     * marks too when it is a regular file, read again) */
    if (code == CLI_OK && !mem_stopped && !c.child && !c.quit && !interrupted &&
        !c.write_failed) {
        struct stat st;
        int live = connect || strcmp(src_name, "-") == 0 || stat(src_name, &st) != 0 ||
                   !S_ISREG(st.st_mode);
        cli_window_watch(cx, &w, 0);
        code = cli_window_check(cx, src_name, &s->read, 0, live);
        cli_window_watch(cx, NULL, 0);
    }
    if (c.child && c.child_done && s->read.bytes == 0)
        fprintf(stderr, "evprof top: %s ended without writing an eventlog (is it a GHC program "
                "built with -rtsopts?)\n", prog[0]);
    if (c.save) {
        if (fclose(c.save) != 0 || c.save_failed) {
            fprintf(stderr, "evprof top: %s: cannot write\n", save);
            code = CLI_FAIL;
        }
    }
    if (c.metrics_failed) {
        fprintf(stderr, "evprof top: out of memory making the metrics\n");
        code = CLI_FAIL;
    }
    if (c.write_failed || mem_stopped || c.metrics_failed)
        code = CLI_FAIL;
    if (mem_stopped)
        ;
    else if (c.child && c.child_done)
        code = exit_code_of(c.child_status);
    else if (c.quit)
        code = CLI_OK;
    else if (interrupted && !c.write_failed)
        code = CLI_INTERRUPTED;
    cli_exe_note(c.source, live_top_heap_info(c.model));
    ev_driver_destroy(d);
    live_top_destroy(c.model);
    live_http_stop(c.http);
    live_metrics_destroy(c.metrics);
    cli_exe_close(&ex);
    return code;
}
