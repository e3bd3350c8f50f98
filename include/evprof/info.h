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

#include "evprof/format.h"
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
/* The one of the two a read under `sel` (ev_driver_opts.select; NULL:
 * everything) needs: info_selected_ops with a selection, else
 * info_analysis_ops. */
EVPROF_API const ev_analysis_ops *info_analysis_for(const ev_select *sel);

/* What else a log holds, found in the same read as another analysis's (to
 * name the command that fits a log, or what `diff` compares): heap
 * censuses (heap_begin: a HEAP_PROF_BEGIN, even without censuses), ticky
 * counters, GC events. info_holds_ops's self is an info_holds set to
 * zero; mergeable (the parallel read). */
typedef struct info_holds {
    int heap, heap_begin, ticky, gc;
} info_holds;
EVPROF_API extern const ev_analysis_ops info_holds_ops;

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

/* What a logged command line (PROGRAM_ARGS: argv as the RTS saw it, RTS
 * options between +RTS and -RTS, none after --RTS) says of the time
 * profiler, as INFO_RTS_* bits. Options given through GHCRTS or
 * -with-rtsopts are not in the log. */
enum {
    INFO_RTS_TIME_PROF = 1u << 0,   /* -p, -P, -pa, -pj, -po...: time profiling on */
    INFO_RTS_NO_AUTO = 1u << 1,     /* --no-automatic-time-samples (GHC 9.10 and later) */
    INFO_RTS_TIMER_OFF = 1u << 2,   /* -V0: the RTS timer, and so the ticks, disabled */
    INFO_RTS_ARGS = 1u << 3,        /* the log has a command line at all */
};
EVPROF_API unsigned info_rts_flags(const char *const *argv, size_t argc);

/* What a log shows that tells why it has no time-profile samples. */
typedef struct info_prof_signs {
    const char *rts;            /* the RTS identifier ("GHC-9.10.3 rts_p"), NULL: none */
    size_t rts_len;
    uint64_t ccs;               /* cost centres defined (161) */
    unsigned rts_flags;         /* info_rts_flags of its command line */
    int has_prof_begin;         /* the log has a PROF_BEGIN (168): time profiling on */
    uint64_t prof_interval_ns;  /* its tick interval (0 under +RTS -V0) */
    double prof_begin_s;        /* its time (s after the RTS started) */
} info_prof_signs;

/* Why a log has no time-profile samples (event 167), from what it shows,
 * never a guess: the one text of `info`'s verdict and of the profile
 * commands' message. `f` is the read's facts (NULL: none). A log that
 * ends early (no end marker, cut) and comes from a profiling RTS has no
 * samples *yet* (the RTS writes them from a buffer of its own, when it is
 * full or at exit); one that ends early without an RTS identifier cannot
 * tell. A whole log of a profiling RTS: with PROF_BEGIN the time profiler
 * was on, and the command line says why no tick came (the program never
 * started the timer under --no-automatic-time-samples, -V0, a run shorter
 * than a tick); without it the run had no +RTS -p. The rest were not
 * built with -prof. Writes one sentence into buf (no newline); the RTS
 * identifier in it is shortened (tx_vis_short). */
EVPROF_API void info_no_samples_why(char *buf, size_t size, const info_prof_signs *s,
                                    const ev_facts *f);
/* The same for a log still being written (live views): why no sample has
 * come *yet*, only from what the log shows positively (a command line
 * with --no-automatic-time-samples or -V0, or without -p; an RTS that is
 * not a profiling one); 0 and an empty buf when nothing tells (the
 * samples may simply not be written yet). */
EVPROF_API int info_no_samples_yet(char *buf, size_t size, const info_prof_signs *s);

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
/* The formats (evprof/format.h): "text" and "json"; a row's writer takes
 * an info_log and, as its options, the log's path (const char *). */
EVPROF_API const ev_format *info_formats(size_t *count);

#ifdef __cplusplus
}
#endif
#endif
