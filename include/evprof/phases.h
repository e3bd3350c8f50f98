/* evprof: the run cut into phases at its marks (traceMarker, USER_MARKER 58).
 *
 * A phases_run is an analysis of the driver that takes the events in time
 * order (EV_ORDERED: the driver's time-ordered replay, one read) and cuts
 * the run at every mark, or at the marks whose label a pattern matches, as
 * the marks come: the part before the first mark is a phase of its own,
 * "(start)". Per phase: the label and its number (the N of
 * marker:LABEL#N), start and length, the time profile's ticks (the
 * report's rule: GHC's built-in stacks only with `all`), the cost centres
 * with the most individual ticks, and from the GC events the collections,
 * the GC time, the bytes allocated and the largest heap size and live
 * data. Each phase's figures are those of the window from its mark to the
 * next (`report`/`gc --from marker:A#N --to marker:B#M`), and the phases'
 * ticks add up to the run's. Memory: the cost centres once, a row per
 * phase (charged to the read's budget), the GC summary's state.
 *
 *     phases_opts o;
 *     phases_opts_init(&o);
 *     ev_error err;
 *     phases_run *p = phases_create(&o, &err);        // NULL: err.msg says why
 *     ev_driver_attach(d, &phases_ops, p);
 *     ev_driver_run_path(d, path);
 *     phases_write_text(p, "prog.eventlog", stdout);
 *     phases_destroy(p);
 */
#ifndef EVPROF_PHASES_H
#define EVPROF_PHASES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evprof/format.h"
#include "evprof/driver.h"
#include "evprof/export.h"
#include "evprof/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct phases_opts {
    const char *marker;         /* a pattern (evprof/pattern.h) on the label, seen up to
                                   a NUL; NULL: every mark */
    /* The driver's selection (ev_driver_opts.select) cuts the phases to
     * its windows (those outside dropped) and keeps the samples and the
     * allocation of its capability. */
    int all;                    /* count GHC's built-in stacks (GC, IDLE, ...) */
    uint32_t top;               /* cost centres per phase (3) */
} phases_opts;

EVPROF_API void phases_opts_init(phases_opts *o);

typedef struct phases_run phases_run;

/* NULL with err (may be NULL) saying why: EV_ERR_PATTERN when the marker
 * is refused (ev_pattern_compile's "'PATTERN': why"), EV_ERR_NOMEM. */
EVPROF_API phases_run *phases_create(const phases_opts *o, ev_error *err);
EVPROF_API void phases_destroy(phases_run *p);     /* accepts NULL */

/* The analysis (time order); it stops the read when memory runs out. */
EVPROF_API extern const ev_analysis_ops phases_ops;

/* One cost centre among a phase's top. */
typedef struct phase_cc {
    const char *label, *module, *srcloc;    /* owned by the run */
    uint64_t ticks;                         /* individual ticks in the phase */
    uint8_t namesake;                       /* another cost centre of the log has its
                                               module and label at another place
                                               (prof_namesakes): the text names it
                                               with its srcloc */
} phase_cc;

typedef struct phase_row {
    const char *label;          /* the mark's label (may hold NUL: label_len);
                                   "(start)" for the part before the first mark */
    uint32_t label_len;
    uint64_t nth;               /* the mark's N (marker:LABEL#N); 0 for (start) */
    uint64_t start_ns, end_ns;  /* cut to the window */
    uint64_t ticks;             /* counted samples */
    const phase_cc *top;        /* most individual ticks first */
    uint32_t num_top;
    uint32_t collections;       /* GC_STATS_GHC in the phase */
    uint64_t gc_ns;             /* the leading capabilities' pauses inside it */
    uint64_t allocated;         /* HEAP_ALLOCATED's growth over it */
    uint64_t peak_heap;         /* largest HEAP_SIZE in it */
    uint64_t max_live;          /* largest HEAP_LIVE in it */
    uint8_t has_heap, has_live; /* the phase has such events */
} phase_row;

/* After the read. */
typedef struct phases_info {
    size_t num_rows;
    uint64_t total_ticks;       /* the rows' sum: the run's (window's) ticks */
    uint64_t marks;             /* marks that cut (matched) */
    uint64_t marks_seen;        /* every mark */
    uint64_t interval_ns;       /* PROF_BEGIN's; 0 when absent */
    int has_samples, has_gc, has_alloc;
    /* The read's selected capability (--cap), -1: all. Then the ticks, the
     * top cost centres and the allocation are that capability's own (its
     * samples, its HEAP_ALLOCATED counter, as `gc --cap` counts them); the
     * collections, GC time, heap size and live data stay the whole run's
     * (every collection stops every capability; the heap is shared). */
    int32_t cap;
} phases_info;

EVPROF_API void phases_get_info(const phases_run *p, phases_info *in);
EVPROF_API const phase_row *phases_row_at(const phases_run *p, size_t i);   /* NULL past the end */

/* EV_OK, or EV_ERR_NOMEM or EV_ERR_LIMIT (the memory budget refused a
 * charge) when memory ran out: the rows are cut there (sticky). */
EVPROF_API ev_status phases_status(const phases_run *p);


/* The table as text, CSV (one row per phase, a header line) or JSON.
 * `source` names the log. Return 0, or -1 on a write error. */
EVPROF_API int phases_write_text(const phases_run *p, const char *source, FILE *out);
EVPROF_API int phases_write_csv(const phases_run *p, FILE *out);
EVPROF_API int phases_write_json(const phases_run *p, const char *source, FILE *out);
/* The formats (evprof/format.h): "text", "csv" and "json"; a row's writer
 * takes a phases_run and, as its options, the log's name (const char *). */
EVPROF_API const ev_format *phases_formats(size_t *count);

#ifdef __cplusplus
}
#endif
#endif
