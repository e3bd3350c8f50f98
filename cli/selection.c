/* A selection that matches nothing (issue 27): --from/--to outside the
 * log's time span, --cap of a capability it does not have. Every read of
 * a command with the shared options is checked against the command's
 * window after it (cli_window_done registers it, cli/read.c checks); an
 * empty result is then a usage error (exit 2) that says what the log has:
 * its time span and its capabilities (the read's own facts: every event's
 * time, the block markers' capabilities) and its marks (a second read of
 * the file, on this error path only). A window partly outside the log is
 * fine. */
#include "cli/selection.h"

#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "evprof/markers.h"

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
    int ok = s->read.status == EL_END || s->read.status == EL_OK;
    ev_driver_destroy(d);
    if (!ok) {
        ev_markers_destroy(m);
        return NULL;
    }
    return m;
}

/* ---- the command's window -------------------------------------------------- */

static const cli_window *watched;
static int several;                 /* the command reads several logs: sum */
static int matched_any;             /* ... and one of them matched */

static int selects(const cli_window *w)
{
    return w && (w->from_ns > 0 || w->to_ns != UINT64_MAX || w->cap >= 0 || w->spans);
}

void cli_window_watch(const cli_window *w, int several_logs)
{
    watched = w;
    several = several_logs;
    matched_any = 0;
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

int cli_window_misses(const el_read_result *r)
{
    int t, c;
    if (!selects(watched))
        return 0;
    misses(watched, r, &t, &c);
    return t || c;
}

int cli_window_check(const char *path, const el_read_result *r, int cut_short, int live)
{
    const cli_window *w = watched;
    if (!selects(w) || cut_short)
        return CLI_OK;
    /* a read that stopped at an error with nothing before says so itself */
    if (r->events == 0 && r->status != EL_END && r->status != EL_OK)
        return CLI_OK;
    int time_miss, cap_miss;
    misses(w, r, &time_miss, &cap_miss);
    if (!time_miss && !cap_miss) {
        matched_any = 1;
        return CLI_OK;
    }
    const char *name = cli_display_path(path);
    fprintf(stderr, "evprof: %s: ", name);
    put_selection(stderr, w, time_miss, cap_miss);
    fputs(several ? " selects nothing in this log: " : " selects nothing: ", stderr);
    cli_log_has_print(stderr, live ? NULL : path, r, NULL);
    fputc('\n', stderr);
    return several ? CLI_OK : CLI_USAGE;
}

int cli_window_check_logs(void)
{
    if (!several || !selects(watched) || matched_any)
        return CLI_OK;
    fprintf(stderr, "evprof: the selection matches nothing in any of the logs\n");
    return CLI_USAGE;
}
