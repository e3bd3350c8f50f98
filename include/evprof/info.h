/* evprof: what a log holds (the `info` analysis).
 *
 * Counts the events of every type (and their bytes), the capabilities
 * seen, the time span, and keeps the RTS identifier, the program's
 * arguments, the wall-clock start, the tick interval and the heap
 * profile's breakdown; at the end it knows the stream's status (complete,
 * truncated, damaged) and judges which analyses the log supports, with
 * the GHC flags that would add the missing ones. Fixed memory (about
 * 1 MB: a counter pair per possible type id), nothing per event.
 *
 *     info_log *in = info_create();
 *     attach &info_analysis_ops (in) to a driver and run it
 *     info_report_text(in, "prog.eventlog", stdout);
 *     info_destroy(in);
 */
#ifndef EVPROF_INFO_H
#define EVPROF_INFO_H

#include <stdint.h>
#include <stdio.h>

#include "evprof/driver.h"
#include "evprof/eventlog.h"
#include "evprof/export.h"
#include "evprof/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct info_log info_log;

EVPROF_API info_log *info_create(void);            /* NULL when out of memory */
EVPROF_API void info_destroy(info_log *in);        /* accepts NULL */

/* Count one event. Returns 0, or 1 when the marks it keeps ran out of
 * memory or past the read's memory budget (the read is to stop). */
EVPROF_API int info_add_event(info_log *in, const el_event *ev);
/* The header's event types (descriptions are copied); once. -1 out of memory. */
EVPROF_API int info_set_header(info_log *in, const el_decoder *d);
/* The read is over: its status, bytes, damage and the file's size. */
EVPROF_API void info_set_stream(info_log *in, const ev_stream *s);
/* EV_ERR_NOMEM when a copy (a string, the header) failed for want of
 * memory (sticky), else EV_OK. */
EVPROF_API ev_status info_status(const info_log *in);

/* What it holds that grows with the log: the marks (distinct labels,
 * marks, bytes charged to the read's budget), for the memory message. */
EVPROF_API void info_count_marks(const info_log *in, uint64_t *labels, uint64_t *marks,
                                 uint64_t *bytes);

/* As an analysis of the driver: every event counted (by the driver's
 * decoder: the analysis itself is called for a few types only); its end
 * sets the stream's facts; its snapshot is info_snapshot's (release:
 * info_destroy), with the counts so far during a read. */
EVPROF_API extern const ev_analysis_ops info_analysis_ops;
/* The same under the driver's selection (ev_driver_opts.select): the
 * counts per type, the events and the time span are those of the events
 * inside it (a call per event); the run's facts (RTS, program, start,
 * capabilities, status) still come from the whole log. The outputs say
 * which selection. */
EVPROF_API extern const ev_analysis_ops info_selected_ops;

/* The run's facts as logged (first of each unless said): what a summary
 * of the run shows. Strings point into `in` (valid until it is
 * destroyed); NULL when the log has none. */
typedef struct info_facts {
    const char *rts;                /* RTS_IDENTIFIER (29) */
    size_t rts_len;
    const char *args;               /* PROGRAM_ARGS (30): argv, NUL-separated */
    size_t args_len;
    int has_wall;                   /* WALL_CLOCK_TIME (43): the wall clock */
    uint64_t wall_sec;
    uint32_t wall_nsec;
    uint64_t wall_event_time;       /* at this time of the log */
    unsigned caps_created;          /* capabilities in CAP_CREATE (45) */
    int has_startup;                /* STARTUP (17, old GHC), the last */
    unsigned startup_caps;
    int has_pid;                    /* OSPROCESS_PID (32) */
    uint32_t pid;
} info_facts;

EVPROF_API void info_get_facts(const info_log *in, info_facts *f);

/* Why a log has no time-profile samples (event 167), from what it shows,
 * never a guess: the one text of `info`'s verdict and of the profile
 * commands' message. `rts` is the RTS identifier (NULL: none in the log),
 * `ccs` the cost centres it defines (161), `f` the read's facts. A log
 * that ends early (no end marker, cut) and comes from a profiling RTS has
 * no samples *yet* (the RTS writes them from a buffer of its own, when it
 * is full or at exit); one that ends early without an RTS identifier
 * cannot tell; a whole log of a profiling RTS was run without +RTS -p; the
 * rest were not built with -prof. Writes one sentence into buf (no
 * newline); the RTS identifier in it is shortened (tx_vis_short). */
EVPROF_API void info_no_samples_why(char *buf, size_t size, const char *rts, size_t rts_len,
                                    uint64_t ccs, const ev_facts *f);

/* The same analysis reading only the events of info_facts (no counts per
 * type, no time span): for a summary beside other analyses, at the cost
 * of those few events. */
EVPROF_API extern const ev_analysis_ops info_facts_ops;

/* A copy of the figures so far (status "still being read" until the
 * stream's end was set). NULL when out of memory. */
EVPROF_API info_log *info_snapshot(const info_log *in);

/* The text and JSON of `evprof info`. `path` names the log ("-" is
 * standard input). Return 0, or -1 on a write error. */
EVPROF_API int info_report_text(const info_log *in, const char *path, FILE *out);
EVPROF_API int info_report_json(const info_log *in, const char *path, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
