/* The selection every reading command takes (selection.h): its options
 * bound to a cli_window, the marks resolved into times by a first cheap
 * read, the ev_select of the read's selection stage; and a selection that
 * matches nothing (issue 27): --from/--to outside the log's time span,
 * --cap of a capability it does not have. Every read of a command with the
 * shared options is checked against the command's window after it
 * (cli_window_done registers it, cli/read.c checks); an empty result is
 * then a usage error (exit 2) that says what the log has: its time span
 * and its capabilities (the read's own facts: every event's time, the
 * block markers' capabilities) and its marks (a second read of the file,
 * on this error path only). A window partly outside the log is fine. */
#include "cli/selection.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/outfile.h"
#include "cli/read.h"
#include "evprof/markers.h"
#include "evprof/pattern.h"

/* ---- the window: options, marks, the selection -------------------------- */

void cli_window_init(cli_window *w, cli_ctx *c)
{
    w->ctx = c;
    w->from_ns = 0;
    w->to_ns = UINT64_MAX;
    w->cap = -1;
    w->all = 0;
    w->output = NULL;
    w->from_marker = w->to_marker = w->between = w->phase = NULL;
    w->phase_nth = 1;
    w->from_nth = w->to_nth = 1;
    w->spans = NULL;
    w->num_spans = 0;
    w->focus = w->ignore = NULL;
    w->max_depth = 0;
    w->src.follow = 0;
    w->src.idle_timeout = 0;
    w->src.connect = NULL;
    w->src.on_bytes = NULL;
    w->src.bytes_ctx = NULL;
    w->src.select = NULL;
    w->src.spool = NULL;
    w->src.quiet = 0;
}

static int parse_seconds(const cli_args *a, const char *name, uint64_t *ns)
{
    double v;
    if (cli_parse_decimal(a->value, 0, 1.8e10, &v) != 0) {
        cli_usage_error(a->cmd, "--%s wants seconds as a decimal number >= 0 (like 2 or 0.5), "
                        "not '%s'", name, a->value);
        return -1;
    }
    *ns = (uint64_t)llround(v * 1e9);
    return 1;
}

/* "marker:LABEL[#N]": the label and N (1 when absent). 1 when taken, 0
 * when `v` is not a marker, -1 after a usage error. */
static int parse_marker(cli_ctx *c, const cli_args *a, const char *name, const char **label,
                        unsigned long *nth)
{
    const char *v = a->value;
    if (strncmp(v, "marker:", 7) != 0)
        return 0;
    v += 7;
    const char *hash = strrchr(v, '#');
    *nth = 1;
    if (hash && hash[1] && strspn(hash + 1, "0123456789") == strlen(hash + 1)) {
        char *end;
        errno = 0;
        *nth = strtoul(hash + 1, &end, 10);
        if (errno || *nth == 0 || *nth > 1000000000ul) {
            cli_usage_error(a->cmd, "--%s: the N of marker:LABEL#N counts from 1, not '%s'",
                            name, hash + 1);
            return -1;
        }
        /* the label is a copy without #N, kept for the command's life */
        char *copy = cli_ctx_keep(c, strndup(v, (size_t)(hash - v)));
        if (!copy) {
            fprintf(stderr, "evprof: out of memory\n");
            return -1;
        }
        *label = copy;
        return 1;
    }
    *label = v;
    return 1;
}

/* --phase LABEL[#N]: the label and N (1 when absent). */
static int parse_phase(const cli_args *a, cli_window *w)
{
    const char *v = a->value, *hash = strrchr(v, '#');
    w->phase = v;
    w->phase_nth = 1;
    if (hash && hash[1] && strspn(hash + 1, "0123456789") == strlen(hash + 1)) {
        char *end;
        errno = 0;
        w->phase_nth = strtoul(hash + 1, &end, 10);
        if (errno || w->phase_nth == 0 || w->phase_nth > 1000000000ul) {
            cli_usage_error(a->cmd, "--phase: the N of LABEL#N counts from 1, not '%s'", hash + 1);
            return -1;
        }
        /* the label without #N, kept for the command's life */
        char *copy = cli_ctx_keep(w->ctx, strndup(v, (size_t)(hash - v)));
        if (!copy) {
            fprintf(stderr, "evprof: out of memory\n");
            return -1;
        }
        w->phase = copy;
    }
    return 1;
}

static int parse_when(cli_ctx *c, const cli_args *a, const char *name, uint64_t *ns,
                      const char **label, unsigned long *nth)
{
    int m = parse_marker(c, a, name, label, nth);
    if (m != 0)
        return m;
    *label = NULL;
    return parse_seconds(a, name, ns);
}

/* The selection names marks: they are found by a first read. */
static int has_marks(const cli_window *w)
{
    return w->from_marker || w->to_marker || w->between || w->phase;
}

int cli_window_check_times(const cli_cmd_help *cmd, const cli_window *w)
{
    if (w->phase && (w->from_marker || w->to_marker || w->between || w->from_ns ||
                     w->to_ns != UINT64_MAX)) {
        cli_usage_error(cmd, "--phase is a window of its own: it takes no --from, --to "
                        "or --between");
        return CLI_USAGE;
    }
    if (!w->from_marker && !w->to_marker && w->from_ns >= w->to_ns) {
        cli_usage_error(cmd, "--from must be before --to");
        return CLI_USAGE;
    }
    return CLI_OK;
}

int cli_window_done(const cli_args *a, int next_result, cli_window *w, const char **path)
{
    if (next_result != CLI_END)
        return cli_done_code(next_result);
    if ((w->src.follow || w->src.connect) && has_marks(w)) {
        cli_usage_error(a->cmd, "marker windows are found by reading the log first: they need "
                        "a finished file, not --follow or --connect (give --from/--to in "
                        "seconds)");
        return CLI_USAGE;
    }
    if (cli_window_check_times(a->cmd, w) != CLI_OK)
        return CLI_USAGE;
    if (w->src.connect) {
        if (!cli_want_pos(a, 0, 0, "FILE"))
            return CLI_USAGE;
        *path = w->src.connect;
        if (cli_window_select(w) != CLI_OK)
            return CLI_FAIL;
        cli_window_watch(w->ctx, w, 0);
        return -1;
    }
    if (w->src.idle_timeout > 0 && !w->src.follow) {
        cli_usage_error(a->cmd, "--idle-timeout applies to --follow");
        return CLI_USAGE;
    }
    if (!cli_want_pos(a, 1, 1, "FILE"))
        return CLI_USAGE;
    if (cli_out_same_file(w->ctx, a->cmd, w->output, a->pos[0]))
        return CLI_USAGE;
    if (has_marks(w) && strcmp(a->pos[0], "-") == 0) {
        cli_usage_error(a->cmd, "marker windows read the log twice: they need a file, not "
                        "standard input");
        return CLI_USAGE;
    }
    int code = cli_window_resolve(w, a->pos[0]);
    if (code != CLI_OK)
        return code;
    cli_window_watch(w->ctx, w, 0);
    *path = a->pos[0];
    return -1;
}

int cli_window_done_logs(const cli_args *a, int next_result, cli_window *w,
                         const char *const **paths, size_t *n)
{
    const char *one;
    if (next_result == CLI_END && a->npos > 1) {
        /* several logs: the checks of one, for each */
        if (w->src.follow || w->src.connect) {
            cli_usage_error(a->cmd, "--follow and --connect read one live log, not several");
            return CLI_USAGE;
        }
        if (cli_window_check_times(a->cmd, w) != CLI_OK)
            return CLI_USAGE;
        if (has_marks(w)) {
            cli_usage_error(a->cmd, "marker windows (marker:LABEL, --between, --phase) take one log; "
                            "with several logs give --from/--to in seconds");
            return CLI_USAGE;
        }
        int stdin_seen = 0;
        for (int i = 0; i < a->npos; i++) {
            if (cli_out_same_file(w->ctx, a->cmd, w->output, a->pos[i]))
                return CLI_USAGE;
            if (strcmp(a->pos[i], "-") == 0 && stdin_seen++) {
                cli_usage_error(a->cmd, "standard input ('-') can be read only once");
                return CLI_USAGE;
            }
        }
        *paths = (const char *const *)a->pos;
        *n = (size_t)a->npos;
        if (cli_window_select(w) != CLI_OK)
            return CLI_FAIL;
        cli_window_watch(w->ctx, w, 1);
        return -1;
    }
    int done = cli_window_done(a, next_result, w, &one);
    if (done >= 0)
        return done;
    /* with --connect there is no FILE: the address names the log */
    *paths = w->src.connect ? &w->src.connect : (const char *const *)a->pos;
    *n = 1;
    return -1;
}

/* ---- marks ---------------------------------------------------------- */

/* "evprof: FILE: no marker 'X' in the log" or "marker 'X' #3 asked, the
 * log has 2"; the marks it has follow on the next line (resolve). */
static void no_marker(cli_ctx *c, const char *path, const char *label, unsigned long nth,
                      size_t have)
{
    const char *name = cli_display_path(c, path);
    fprintf(stderr, have == 0 ? "evprof: %s: no marker '" : "evprof: %s: marker '", name);
    cli_text_str(stderr, label, strlen(label));
    if (have == 0)
        fprintf(stderr, "' in the log (USER_MARKER 58, Debug.Trace.traceMarker)\n");
    else
        fprintf(stderr, "' #%lu asked, the log has %zu\n", nth, have);
}

static int mark_time(cli_ctx *c, const char *path, const ev_markers *m, const char *label,
                     unsigned long nth, uint64_t *t)
{
    size_t n;
    const uint64_t *times = ev_markers_times(m, label, strlen(label), &n);
    if (nth > n) {
        no_marker(c, path, label, nth, n);
        return -1;
    }
    *t = times[nth - 1];
    return 0;
}

static int resolve_marks(cli_window *w, const char *path);

int cli_window_resolve(cli_window *w, const char *path)
{
    int code = resolve_marks(w, path);
    return code == CLI_OK ? cli_window_select(w) : code;
}

static int resolve_marks(cli_window *w, const char *path)
{
    cli_ctx *c = w->ctx;
    if (!has_marks(w))
        return CLI_OK;
    ev_markers *m = ev_markers_create();
    if (!m) {
        fprintf(stderr, "evprof: out of memory\n");
        return CLI_FAIL;
    }
    int code;
    cli_analysis an = { &ev_markers_ops, m };
    ev_driver *d = cli_read(c, path, &an, 1, &code);
    if (!d || cli_read_nothing(ev_driver_stream(d), code)) {
        ev_driver_destroy(d);
        ev_markers_destroy(m);
        return code == CLI_OK ? CLI_FAIL : code;
    }
    el_read_result read = ev_driver_stream(d)->read;
    ev_driver_destroy(d);
    /* a mark the log lacks, or marks that leave no window: a selection
     * that matches nothing (selection.c), said with what the log has */
    code = CLI_OK;
    if (w->from_marker && mark_time(c, path, m, w->from_marker, w->from_nth, &w->from_ns) != 0)
        code = CLI_USAGE;
    if (code == CLI_OK && w->to_marker &&
        mark_time(c, path, m, w->to_marker, w->to_nth, &w->to_ns) != 0)
        code = CLI_USAGE;
    if (code == CLI_OK && w->phase) {
        /* from the mark to the next one of any label, later in time (the
         * last phase runs to the end of the log) */
        if (mark_time(c, path, m, w->phase, w->phase_nth, &w->from_ns) != 0) {
            code = CLI_USAGE;
        } else {
            w->to_ns = UINT64_MAX;
            for (size_t i = 0; i < ev_markers_num_labels(m); i++) {
                const ev_marker_label *l = ev_markers_label_at(m, i);
                size_t n;
                const uint64_t *t = ev_markers_times(m, l->label, l->len, &n);
                size_t lo = 0, hi = n;      /* the first time after from */
                while (lo < hi) {
                    size_t mid = lo + (hi - lo) / 2;
                    if (t[mid] <= w->from_ns)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                if (lo < n && t[lo] < w->to_ns)
                    w->to_ns = t[lo];
            }
        }
    }
    if (code == CLI_OK && w->from_ns >= w->to_ns) {
        fprintf(stderr, "evprof: %s: --from (%.9f s) is not before --to (%.9f s)\n",
                cli_display_path(c, path), w->from_ns / 1e9,
                w->to_ns == UINT64_MAX ? INFINITY : w->to_ns / 1e9);
        code = CLI_USAGE;
    }
    if (code == CLI_OK && w->between) {
        size_t n;
        const uint64_t *t = ev_markers_times(m, w->between, strlen(w->between), &n);
        if (n < 2) {
            no_marker(c, path, w->between, 2, n);
            code = CLI_USAGE;
        } else {
            /* the windows live as long as the command */
            ev_span *spans = cli_ctx_keep(c, malloc(n / 2 * sizeof *spans));
            if (!spans) {
                fprintf(stderr, "evprof: out of memory\n");
                code = CLI_FAIL;
            } else {
                size_t k = 0;
                uint64_t sum = 0;
                for (size_t i = 0; i + 1 < n; i += 2) {
                    /* each pair, cut to --from/--to */
                    uint64_t a = t[i] > w->from_ns ? t[i] : w->from_ns;
                    uint64_t b = t[i + 1] < w->to_ns ? t[i + 1] : w->to_ns;
                    if (a < b) {
                        spans[k++] = (ev_span){ a, b };
                        sum += b - a;
                    }
                }
                w->spans = spans;
                w->num_spans = k;
                fprintf(stderr, "evprof: %s: --between '", cli_display_path(c, path));
                cli_text_str(stderr, w->between, strlen(w->between));
                fprintf(stderr, "': %zu window%s, %.6f s in all%s\n", k, k == 1 ? "" : "s",
                        sum / 1e9, n % 2 ? " (the last mark, unpaired, left out)" : "");
                if (k == 0) {
                    fprintf(stderr, "evprof: %s: no pair of marks inside --from/--to\n",
                            cli_display_path(c, path));
                    code = CLI_USAGE;
                }
            }
        }
    }
    if (code == CLI_USAGE) {
        fprintf(stderr, "evprof: %s: the log: ", cli_display_path(c, path));
        cli_log_has_print(stderr, NULL, &read, m);
        fputc('\n', stderr);
    }
    ev_markers_destroy(m);
    return code;
}

int cli_window_select(cli_window *w)
{
    ev_span one = { w->from_ns, w->to_ns };
    int all_time = !w->spans && w->from_ns == 0 && w->to_ns == UINT64_MAX;
    if (all_time && w->cap < 0) {
        w->src.select = NULL;
        return CLI_OK;
    }
    ev_select *sel = w->spans ? ev_select_create(w->spans, w->num_spans, w->cap)
                   : ev_select_create(&one, all_time ? 0 : 1, w->cap);
    /* kept for the command's life (a command makes one, diff one a side) */
    if (cli_ctx_keep_select(w->ctx, sel) != 0) {
        fprintf(stderr, "evprof: out of memory\n");
        return CLI_FAIL;
    }
    w->src.select = sel;
    return CLI_OK;
}

int cli_pattern_check(const char *option, const char *pattern)
{
    ev_pattern *p;
    ev_error err;
    if (!pattern)
        return 0;
    ev_status st = ev_pattern_compile(&p, pattern, NULL, &err);
    if (st == EV_OK) {
        ev_pattern_destroy(p);
        return 0;
    }
    if (st == EV_ERR_PATTERN) {
        fprintf(stderr, "evprof: %s: bad regular expression %s\n", option, err.msg);
        return CLI_USAGE;
    }
    fprintf(stderr, "evprof: %s: %s\n", option, err.msg);
    return CLI_FAIL;
}

int cli_window_prof_filter(const cli_window *w, prof_filter *f)
{
    int rc;
    f->focus = w->focus;
    f->ignore = w->ignore;
    f->max_depth = w->max_depth;
    if ((rc = cli_pattern_check("--focus", w->focus)) != 0 ||
        (rc = cli_pattern_check("--ignore", w->ignore)) != 0)
        return rc;
    return 0;
}

/* ---- the options' callbacks (cli_opt's OPT_CALL) ---- */

int cli_opt_from(const cli_args *a, void *var, const void *ctx)
{
    cli_window *w = var;
    (void)ctx;
    return parse_when(w->ctx, a, "from", &w->from_ns, &w->from_marker, &w->from_nth) < 0 ? -1
                                                                                       : 0;
}

int cli_opt_to(const cli_args *a, void *var, const void *ctx)
{
    cli_window *w = var;
    (void)ctx;
    return parse_when(w->ctx, a, "to", &w->to_ns, &w->to_marker, &w->to_nth) < 0 ? -1 : 0;
}

int cli_opt_phase(const cli_args *a, void *var, const void *ctx)
{
    (void)ctx;
    return parse_phase(a, var) < 0 ? -1 : 0;
}

int cli_opt_between(const cli_args *a, void *var, const void *ctx)
{
    cli_window *w = var;
    (void)ctx;
    if (w->between && strcmp(w->between, a->value) != 0) {
        /* one label's start/end pairs: a second label is not a union */
        cli_usage_error(a->cmd, "--between takes one LABEL (given '%s' and '%s'); for the "
                        "marks of another label use a second run, or --from/--to with "
                        "marker:LABEL", w->between, a->value);
        return -1;
    }
    w->between = a->value;
    return 0;
}

int cli_opt_cap(const cli_args *a, void *var, const void *ctx)
{
    cli_window *w = var;
    unsigned long n;
    (void)ctx;
    if (cli_parse_count(a, "cap", 0, 65534, &n) != 0)
        return -1;
    w->cap = (int32_t)n;
    return 0;
}

int cli_opt_idle_timeout(const cli_args *a, void *var, const void *ctx)
{
    cli_window *w = var;
    uint64_t ns;
    (void)ctx;
    if (parse_seconds(a, "idle-timeout", &ns) < 0)
        return -1;
    w->src.idle_timeout = (double)ns / 1e9;
    return 0;
}

int cli_opt_connect(const cli_args *a, void *var, const void *ctx)
{
    cli_window *w = var;
    (void)ctx;
    if (!ev_connect_addr_valid(a->value)) {
        cli_usage_error(a->cmd, "--connect wants unix:PATH or tcp:HOST:PORT, not '%s'",
                        a->value);
        return -1;
    }
    w->src.connect = a->value;
    return 0;
}

/* ---- a selection that matches nothing --------------------------------------- */

/* The marks of a finished file, for the message (a second read, only
 * on this error path; NULL for standard input, a live source or without
 * memory). */
static ev_markers *read_marks(const char *path)
{
    if (strcmp(path, "-") == 0)
        return NULL;
    ev_markers *m = ev_markers_create();
    ev_driver *d = m ? ev_driver_create(NULL) : NULL;
    if (!d || ev_driver_attach(d, &ev_markers_ops, m) != 0) {
        ev_driver_destroy(d);
        ev_markers_destroy(m);
        return NULL;
    }
    const ev_stream *s = ev_driver_run_path(d, path);
    int ok = s->read.status == EV_END || s->read.status == EV_OK;
    ev_driver_destroy(d);
    if (!ok) {
        ev_markers_destroy(m);
        return NULL;
    }
    return m;
}

/* ---- the command's window -------------------------------------------------- */

static int selects(const cli_window *w)
{
    return w && (w->from_ns > 0 || w->to_ns != UINT64_MAX || w->cap >= 0 || w->spans);
}

void cli_window_watch(cli_ctx *c, const cli_window *w, int several_logs)
{
    c->watched = w;
    c->several = several_logs;
    c->matched_any = 0;
}

/* "1 capability (0)", "4 capabilities (0-3, 7)" */
static void put_caps(FILE *e, const el_caps *c)
{
    uint32_t top = c->max < 256 ? c->max : 256, n = 0;
    for (uint32_t k = 0; k < top; k++)
        n += el_caps_has(c, k);
    if (c->max == 0) {
        fputs("no capability blocks", e);
        return;
    }
    if (c->max > 256)
        fprintf(e, "capabilities up to %u (", c->max - 1);
    else
        fprintf(e, "%u %s (", n, n == 1 ? "capability" : "capabilities");
    int first = 1;
    for (uint32_t k = 0; k < top; k++) {
        if (!el_caps_has(c, k))
            continue;
        uint32_t end = k;
        while (end + 1 < top && el_caps_has(c, end + 1))
            end++;
        fprintf(e, "%s%u", first ? "" : ", ", k);
        if (end > k)
            fprintf(e, "%s%u", end == k + 1 ? ", " : "-", end);
        first = 0;
        k = end;
    }
    fputs(c->max > 256 ? ", ...)" : ")", e);
}

void cli_log_has_print(FILE *e, const char *path, const el_read_result *r,
                       const ev_markers *marks)
{
    if (r->has_time_span)
        fprintf(e, "its events run from %.6f s to %.6f s (seconds on its clock, which starts "
                "with the RTS)", r->first_time / 1e9, r->last_time / 1e9);
    else
        fputs("it has no events", e);
    fputs("; ", e);
    put_caps(e, &r->caps);
    ev_markers *read = marks || !path ? NULL : read_marks(path);
    const ev_markers *m = marks ? marks : read;
    if (!m)
        return;
    size_t n = ev_markers_num_labels(m);
    if (n == 0)
        fputs("; no marks (traceMarker)", e);
    else
        fputs("; marks (label, count, first at):", e);
    for (size_t i = 0; i < n && i < 20; i++) {
        const ev_marker_label *l = ev_markers_label_at(m, i);
        fprintf(e, "%s '", i ? "," : "");
        cli_text_str(e, l->label, l->len);
        fprintf(e, "' (%llu, %.6f s)", (unsigned long long)l->count, l->first_ns / 1e9);
    }
    if (n > 20)
        fprintf(e, ", and %zu more", n - 20);
    ev_markers_destroy(read);
}

/* The window as the command line gave it, for the message (marks as the
 * times they stand for). */
static void put_selection(FILE *e, const cli_window *w, int time, int cap)
{
    int any = 0;
    if (time && w->spans) {
        fprintf(e, "--between (%zu window%s)", w->num_spans, w->num_spans == 1 ? "" : "s");
        any = 1;
    } else if (time) {
        if (w->from_ns > 0) {
            fprintf(e, "--from %.9g", w->from_ns / 1e9);
            any = 1;
        }
        if (w->to_ns != UINT64_MAX) {
            fprintf(e, "%s--to %.9g", any ? " " : "", w->to_ns / 1e9);
            any = 1;
        }
    }
    if (cap)
        fprintf(e, "%s--cap %d", any ? " with " : "", (int)w->cap);
}

/* 1 when [from, to) or one of the spans meets [first, last]. */
static int time_meets(const cli_window *w, const el_read_result *r)
{
    if (!r->has_time_span)
        return 0;
    if (!w->spans)
        return w->from_ns <= r->last_time && w->to_ns > r->first_time;
    for (size_t i = 0; i < w->num_spans; i++)
        if (w->spans[i].from_ns <= r->last_time && w->spans[i].to_ns > r->first_time)
            return 1;
    return 0;
}

static void misses(const cli_window *w, const el_read_result *r, int *time_miss, int *cap_miss)
{
    int time_given = w->from_ns > 0 || w->to_ns != UINT64_MAX || w->spans;
    *time_miss = time_given && !time_meets(w, r);
    *cap_miss = w->cap >= 0 && !el_caps_has(&r->caps, (uint32_t)w->cap);
}

int cli_window_check(cli_ctx *c, const char *path, const el_read_result *r, int cut_short,
                     int live)
{
    const cli_window *w = c->watched;
    if (!selects(w) || cut_short)
        return CLI_OK;
    /* a read that stopped at an error with nothing before says so itself */
    if (r->events == 0 && r->status != EV_END && r->status != EV_OK)
        return CLI_OK;
    int time_miss, cap_miss;
    misses(w, r, &time_miss, &cap_miss);
    if (!time_miss && !cap_miss) {
        c->matched_any = 1;
        return CLI_OK;
    }
    const char *name = cli_display_path(c, path);
    fprintf(stderr, "evprof: %s: ", name);
    put_selection(stderr, w, time_miss, cap_miss);
    fputs(c->several ? " selects nothing in this log: " : " selects nothing: ", stderr);
    cli_log_has_print(stderr, live ? NULL : path, r, NULL);
    fputc('\n', stderr);
    return c->several ? CLI_OK : CLI_USAGE;
}

int cli_window_check_logs(const cli_ctx *c)
{
    if (!c->several || !selects(c->watched) || c->matched_any)
        return CLI_OK;
    fprintf(stderr, "evprof: the selection matches nothing in any of the logs\n");
    return CLI_USAGE;
}
