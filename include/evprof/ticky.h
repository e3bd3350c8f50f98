/* evprof: ticky-ticky counters, from TICKY_COUNTER_DEF/SAMPLE/BEGIN_SAMPLE
 * events (210, 211, 212; GHC 9.2+, `-ticky` and `+RTS -lT`) or from the
 * per-counter table of GHC's `+RTS -r` text file (any GHC).
 *
 * A ticky_set holds one record per counter, keyed by GHC's counter id.
 * Samples are deltas since the previous sample of the same counter, so a
 * counter's total is the sum of its samples. Definitions may come after
 * the samples that use them (GHC writes them at exit): names are resolved
 * by ticky_finish. Memory grows with the number of counters, never with
 * the number of samples or batches.
 *
 *     ticky_set *t = ticky_create();
 *     for each event: ticky_add_event(t, ev);         // or ticky_read_text()
 *     ticky_finish(t);
 *     ticky_view v;  ticky_view_build(t, &opts, &v);
 *     ticky_write_table(t, &v, TICKY_TEXT, stdout);
 *     ticky_view_free(&v);
 *     ticky_destroy(t);
 *
 * The time series needs the names before the first row is written, so it
 * is a second pass over the same events after ticky_finish:
 * ticky_series_begin(), ticky_series_add_event() per event,
 * ticky_series_end(). Each batch of samples is handed to a callback as it
 * closes; nothing accumulates.
 */
#ifndef EVPROF_TICKY_H
#define EVPROF_TICKY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evprof/format.h"
#include "evprof/driver.h"
#include "evprof/eventlog.h"
#include "evprof/json.h"
#include "evprof/export.h"
#include "evprof/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- input detection ------------------------------------------------- */

/* 1 when the first bytes are an eventlog's header magic "hdrb", 0 when
 * they are anything else (then the input may be GHC's +RTS -r text).
 * Needs at least 4 bytes to say 1. */
EVPROF_API int ticky_is_eventlog(const void *head, size_t len);

/* ---- counters --------------------------------------------------------- */

typedef enum ticky_source {
    TICKY_FROM_NOTHING = 0,      /* nothing added yet */
    TICKY_FROM_EVENTLOG,
    TICKY_FROM_TEXT,             /* GHC's +RTS -r file */
} ticky_source;

/* One counter. Strings are owned by the set, NUL-terminated, and may hold
 * any bytes (lengths are exact). Valid until ticky_destroy. */
typedef struct ticky_counter {
    uint64_t id;                 /* GHC's counter id (its address); the text
                                    input has none: the row number there */
    const char *name;            /* STG name, or "<undefined ticky counter ID>" */
    uint32_t name_len;
    const char *kinds;           /* the kinds string as written (the 210 event's,
                                    or the text's 20-column field, trimmed) */
    uint32_t kinds_len;
    const char *args;            /* the argument kinds to show: `kinds`, or the
                                    "args" of the JSON description when GHC put
                                    JSON there (9.4+ layouts) */
    uint32_t args_len;
    const char *json;            /* JSON description (the 210 event's JSON field,
                                    or a kinds string holding JSON), or NULL */
    uint32_t json_len;
    uint64_t info_tbl;           /* info-table address when has_info_tbl */
    uint16_t arity;
    uint8_t defined;             /* 0: samples named it, no definition came */
    uint8_t has_id;              /* 0 for the text input */
    uint8_t has_info_tbl;
    uint8_t has_json;            /* the 210 event carried the JSON field */
    uint64_t entries, alloc, allocd;   /* totals of the samples in the window */
    uint64_t samples;            /* samples counted (in the window) */
} ticky_counter;

typedef struct ticky_info {
    ticky_source source;
    uint64_t counters;           /* all counters, defined or not */
    uint64_t defined;
    uint64_t undefined;          /* sampled but never defined (placeholders) */
    uint64_t definitions;        /* 210 events read */
    uint64_t duplicate_defs;     /* 210 events for an id already defined (first kept) */
    uint64_t defs_after_samples; /* definitions that came after a sample of theirs */
    uint64_t samples;            /* 211 events read */
    uint64_t samples_in_window;  /* of those, counted */
    uint64_t begin_events;       /* 212 events read */
    uint64_t batches;            /* batches: one per 212, or implicit (see docs) */
    uint64_t batches_in_window;
    uint64_t text_lines;         /* text input: lines read */
    int text_unterminated;       /* text input: the last table row had no newline */
} ticky_info;

typedef struct ticky_set ticky_set;

EVPROF_API ticky_set *ticky_create(void);
EVPROF_API void ticky_destroy(ticky_set *t);        /* accepts NULL */

/* Read through the driver (ticky_analysis_ops), only the batches whose
 * time (the 212's timestamp, or the first sample of an implicit batch) is
 * inside the driver's selection count (ev_driver_opts.select);
 * definitions count whatever their time. Fed directly, everything. */

/* Consume one event: 210, 211 and 212 are used (decoded ones), the rest
 * ignored. Returns 0, or -1 when memory ran out (sticky). */
EVPROF_API int ticky_add_event(ticky_set *t, const el_event *ev);

/* The memory budget the set charges as its counters and strings grow
 * (budget.h; borrowed; NULL: none). A refused charge fails the event
 * (-1, sticky) and sets over_budget below. Attached to a driver the set
 * takes the read's budget (ev_stream.budget) by itself. */
EVPROF_API void ticky_set_budget(ticky_set *t, ev_budget *b);
typedef struct ticky_counts {
    uint64_t counters;      /* counters defined or sampled */
    uint64_t bytes;         /* charged to the budget */
    int over_budget;
} ticky_counts;
EVPROF_API void ticky_count(const ticky_set *t, ticky_counts *c);
/* EV_OK, or the set's first error, which sticks: EV_ERR_LIMIT (the budget
 * refused a charge) or EV_ERR_NOMEM (an allocation failed). A failed set's
 * figures miss events. */
EVPROF_API ev_status ticky_status(const ticky_set *t);

/* Done adding: placeholder names for undefined counters. 0 or -1 (no
 * memory). Counters keep their order of first appearance. A finished set
 * refuses events (-1). */
EVPROF_API int ticky_finish(ticky_set *t);

/* The counters so far as a finished set of their own (the open batch
 * closed, placeholders named); t is unchanged and takes more events.
 * NULL when out of memory or during a series pass. Destroy with
 * ticky_destroy. */
EVPROF_API ticky_set *ticky_snapshot(const ticky_set *t);

/* Keep, per counter, at most `points` points of its samples over time
 * (an even number, at least 2): each point sums the entries and
 * allocation of adjacent samples and has the time of the last; when a
 * counter's points are full, adjacent pairs are summed into one (exact
 * sums, coarser time). points x 24 bytes per counter sampled. Call
 * before adding events; 0, or -1 when it is too late. */
EVPROF_API int ticky_keep_series(ticky_set *t, uint32_t points);

typedef struct ticky_points {
    uint32_t n;                  /* 0: none kept */
    const uint64_t *time, *entries, *alloc;   /* n each, in time order */
} ticky_points;

/* The kept points of the counter at index i (ticky_counter_at's), valid
 * until the set changes. 0, or -1 when memory ran out keeping points
 * (then no counter's points are whole: show none). */
EVPROF_API int ticky_counter_points(const ticky_set *t, size_t i, ticky_points *p);

/* The same as an analysis of the driver; its snapshot is ticky_snapshot's
 * (release: ticky_destroy). It also reads STOP_THREAD (2), for the end of
 * the run (ticky_coverage_of). */
EVPROF_API extern const ev_analysis_ops ticky_analysis_ops;
/* The events the set's analyses (ticky_analysis_ops, ticky_series_ops)
 * may take: past `limit` they take none; the count starts again at 0.
 * What a second read of a live log needs, to take what the first took (a
 * Ctrl-C may have stopped the first before the bytes' end). No limit
 * (UINT64_MAX) after ticky_create. */
EVPROF_API void ticky_set_event_limit(ticky_set *t, uint64_t limit);
/* The events they took since ticky_create or the last ticky_set_event_limit. */
EVPROF_API uint64_t ticky_events_taken(const ticky_set *t);

/* ---- how much of the run the counts cover ------------------------------ */

/* GHC (9.6 and 9.10 measured, a 9.3 pre-release too) posts the ticky
 * counters to the eventlog at the first collection after each +RTS -i
 * tick, the one at exit only when a tick came since the last sample: what
 * the program counted after its last sample is in +RTS -r's table but not
 * in the log. The counts stop at the last sample (211, or an empty
 * batch's 212); the run ends when its last Haskell thread stops (the
 * latest STOP_THREAD), or, in a log without thread events, at its last
 * event. */
#define TICKY_SHORT_MARGIN_NS 1000000u  /* a stop closer to the end is no gap */
typedef struct ticky_coverage {
    int known;                   /* an eventlog with ticky samples and an end */
    uint64_t counted_until_ns;   /* the last sample (of the whole log) */
    uint64_t run_end_ns;         /* the latest STOP_THREAD, or the log's last event */
    int end_from_threads;        /* run_end_ns is a STOP_THREAD's time */
    uint64_t after_ns;           /* run_end_ns - counted_until_ns, or 0 */
    double after_pct;            /* after_ns as a share of run_end_ns (the RTS
                                    starts at 0), in percent */
    /* after_ns is more than TICKY_SHORT_MARGIN_NS and the selection reaches
     * past counted_until_ns: the counts fall short of the run's */
    int short_of_run;
} ticky_coverage;

/* Fills *c (known = 0 for the text input, a log without samples, or one
 * whose end is unknown: a set fed without the driver and without thread
 * events). */
EVPROF_API void ticky_coverage_of(const ticky_set *t, ticky_coverage *c);
/* The sentence said under the table (text), on standard error (CSV, JSON)
 * and in diff --ticky, without a final newline: "the counts stop at ...".
 * Returns the length (snprintf's), or 0 when there is nothing to say
 * (not short_of_run). */
EVPROF_API int ticky_coverage_note(const ticky_coverage *c, char *buf, size_t size);
/* The same as `key`: {"counted_until_ns", "run_end_ns", "run_end_from"
 * ("threads" or "log"), "after_ns", "after_pct", "short", "note" (the
 * sentence, or null)}, or null when not known: ticky's JSON and diff
 * --ticky's. */
EVPROF_API void ticky_coverage_json(tx_json *j, const char *key, const ticky_coverage *c);

/* These read a set that still takes events as well (a live view's totals
 * so far, without a snapshot's copy of every string): the counters in
 * order of first appearance, so an index names the same counter as the
 * set grows; an undefined counter's name is "" until ticky_finish. The
 * record is valid until the next event, its strings until ticky_destroy. */
EVPROF_API const ticky_info *ticky_get_info(const ticky_set *t);
EVPROF_API size_t ticky_num_counters(const ticky_set *t);
EVPROF_API const ticky_counter *ticky_counter_at(const ticky_set *t, size_t i);
/* The counter with GHC id `id`, or NULL. */
EVPROF_API const ticky_counter *ticky_find(const ticky_set *t, uint64_t id);

/* ---- GHC's +RTS -r text ------------------------------------------------- */

/* The reader of the text returns an ev_status (status.h): EV_OK,
 * EV_ERR_FORMAT (a garbled table line, or no table at all), EV_ERR_NOMEM,
 * EV_ERR_IO; its detail is an ev_error: the 1-based line of the problem
 * (0: none) and a message without file name or line number. */

/* Reads the per-counter table of a +RTS -r file into an empty set: the
 * line "Entries Alloc Alloc'd Non-void Arguments STG Name", a dashed rule,
 * then rows `%11d%11d%11d %3lu %-20.20s %s` up to a blank line. Other
 * sections are skipped. A row whose numbers overflow their 11 columns
 * (and so run into each other) is split by the column rules. On an error
 * the rows before the bad line stay in the set. Call ticky_finish after. */
EVPROF_API ev_status ticky_read_text(ticky_set *t, FILE *in, ev_error *err);
EVPROF_API ev_status ticky_read_text_mem(ticky_set *t, const char *buf, size_t len,
                                            ev_error *err);

/* ---- selection and order ---------------------------------------------- */

typedef enum ticky_sort {
    TICKY_SORT_ENTRIES = 0,      /* descending; ties by name, then input order */
    TICKY_SORT_ALLOC,
    TICKY_SORT_ALLOCD,
    TICKY_SORT_NAME,             /* ascending bytes; ties by input order */
    TICKY_SORT_INPUT,            /* order of first appearance in the input */
} ticky_sort;

/* "entries", ... for a sort, and back (-1 for an unknown name). */
EVPROF_API const char *ticky_sort_name(ticky_sort s);
EVPROF_API int ticky_sort_parse(const char *name);

typedef struct ticky_view_opts {
    ticky_sort sort;
    size_t top;                  /* show at most this many; 0: all */
    const char *match;           /* only names containing these bytes; NULL: all */
    size_t match_len;
} ticky_view_opts;

EVPROF_API void ticky_view_opts_init(ticky_view_opts *o);

typedef struct ticky_view {
    size_t *order;               /* counter indices of the matching counters, sorted */
    size_t matched;              /* counters matching the filter */
    size_t shown;                /* min(matched, top) */
    uint64_t entries, alloc, allocd;   /* totals over the matching counters */
    ticky_view_opts opts;        /* match points at the caller's bytes */
} ticky_view;

/* After ticky_finish. Returns 0, or -1 (no memory). */
EVPROF_API int ticky_view_build(const ticky_set *t, const ticky_view_opts *o, ticky_view *v);
EVPROF_API void ticky_view_free(ticky_view *v);

/* ---- output ----------------------------------------------------------- */

typedef enum ticky_format {
    TICKY_TEXT = 0,              /* GHC's +RTS -r table, totals underneath */
    TICKY_CSV,                   /* RFC 4180 quoting, header line */
    TICKY_JSON,
} ticky_format;

/* The shown rows of the view. Returns 0, or -1 when writing failed. */
EVPROF_API int ticky_write_table(const ticky_set *t, const ticky_view *v, ticky_format f,
                                 FILE *out);

/* The table's formats (evprof/format.h), row i being ticky_format i:
 * "text", "csv", "json"; a row's writer takes a ticky_set and, as its
 * options, a ticky_view of it. */
EVPROF_API const ev_format *ticky_formats(size_t *count);

/* ---- time series (a second pass) -------------------------------------- */

typedef struct ticky_row {
    const ticky_counter *c;
    uint64_t entries, alloc, allocd;   /* the batch's delta, or running totals */
} ticky_row;

/* One batch: rows of the view's shown counters that have a sample in it,
 * in the view's order. Return non-zero to stop. */
typedef int (*ticky_batch_fn)(void *ctx, uint64_t time_ns, const ticky_row *rows, size_t n);

/* After ticky_finish and ticky_view_build on the same set (the view must
 * outlive the pass). Feed the same events again; batches in the window
 * that have rows are handed to fn as they close. With cumulative != 0 the
 * values are running totals since the window's start. 0 or -1 (no memory). */
EVPROF_API int ticky_series_begin(ticky_set *t, const ticky_view *v, int cumulative,
                                  ticky_batch_fn fn, void *ctx);
/* 0, or 1 when the callback asked to stop (later calls do nothing). */
EVPROF_API int ticky_series_add_event(ticky_set *t, const el_event *ev);
/* The same as a driver's analysis (self: the set), for the second read:
 * batches inside the selection, as ticky_analysis_ops counts them. */
EVPROF_API extern const ev_analysis_ops ticky_series_ops;
/* Closes the last batch. 0, or 1 when the callback asked to stop. */
EVPROF_API int ticky_series_end(ticky_set *t);

/* A ready-made series writer: CSV `time_ns,counter,entries,alloc,allocd`,
 * a JSON object with a "rows" array, or an aligned text table. */
typedef struct ticky_series_out {
    FILE *f;
    ticky_format fmt;
    int cumulative;
    uint64_t rows, batches;
    tx_json json;               /* JSON: the document */
} ticky_series_out;

EVPROF_API void ticky_series_out_begin(ticky_series_out *o, FILE *f, ticky_format fmt,
                                       int cumulative);
EVPROF_API int ticky_series_out_batch(void *o, uint64_t time_ns, const ticky_row *rows, size_t n);
/* Writes the end (JSON: closes the object). 0, or -1 when writing failed. */
EVPROF_API int ticky_series_out_end(ticky_series_out *o);

#ifdef __cplusplus
}
#endif
#endif
