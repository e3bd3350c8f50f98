/* evprof: the time profile as speedscope's own JSON file format, with a
 * timeline.
 *
 * A speedscope_timeline records every PROF_SAMPLE_COST_CENTRE sample (167)
 * in a window compactly: per capability, a stack id (u32) and the event's
 * time (u64), 12 bytes a sample; distinct stacks are interned once. The
 * cost centres come from a snapshot of a prof_profile read from the same
 * events (built with filter.all set, so that GHC's built-in stacks have
 * their frames: the timeline's own filter says whether they are written).
 *
 *     prof_profile *p = prof_create(&filter);      // filter.all = 1
 *     speedscope_timeline *t = speedscope_timeline_create(&filter);
 *     attach &prof_analysis_ops (p) and &speedscope_timeline_ops (t) to
 *     one driver, run it; speedscope_timeline_finish(t);
 *     prof_result *r = prof_snapshot(p);
 *     speedscope_write(r, t, &opts, out);
 *
 * The file has one "sampled" profile per capability that has samples, in
 * nanoseconds. Sample i of a capability covers the time since the
 * capability's previous sample, so on speedscope's "Time Order" view it
 * ends exactly at its event's timestamp; a gap of more than two tick
 * intervals becomes an empty sample (no stack) followed by one of a tick.
 * All profiles share startValue, so capabilities line up. See
 * docs/ECOSYSTEM.md.
 */
#ifndef EVPROF_SPEEDSCOPE_H
#define EVPROF_SPEEDSCOPE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evprof/eventlog.h"
#include "evprof/prof.h"
#include "evprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct speedscope_timeline speedscope_timeline;

/* Samples inside the driver's selection are kept (el_event.outside 0: in
 * its windows and of its capability); of the filter, focus/ignore apply
 * when the file is written. Without `all`, the samples of GHC's built-in
 * stacks (MAIN/GC, MAIN/IDLE, ...: one built-in frame) are written as
 * empty samples, their time kept, as the report drops them (GHC's -p);
 * with it they are frames like any other (-pa). Returns NULL without
 * memory. */
EVPROF_API speedscope_timeline *speedscope_timeline_create(const prof_filter *filter);
EVPROF_API void speedscope_timeline_destroy(speedscope_timeline *t);   /* accepts NULL */

/* Consume one event (only 167 matters). Returns 0, or -1 when memory ran
 * out (sticky). */
EVPROF_API int speedscope_timeline_add_event(speedscope_timeline *t, const el_event *ev);

/* The same as an analysis of the driver (no snapshot: the timeline is
 * written once, after speedscope_timeline_finish). It charges the read's
 * memory budget (ev_stream.budget) as it grows and stops the read when a
 * charge is refused. */
EVPROF_API extern const ev_analysis_ops speedscope_timeline_ops;

/* Charges what the timeline holds to b from now on (the analysis does it
 * with the stream's budget); a refusal makes it fail. */
EVPROF_API void speedscope_timeline_set_budget(speedscope_timeline *t, ev_budget *b);
/* Samples kept, distinct stacks, bytes charged: for the memory message. */
EVPROF_API void speedscope_timeline_count(const speedscope_timeline *t, uint64_t *samples,
                                          uint64_t *stacks, uint64_t *bytes);

/* Done adding: puts each capability's samples in time order (stable; a
 * second copy of an unsorted capability's samples, charged, while it
 * sorts). Returns 0 or -1 (no memory, or the budget refused the copy). */
EVPROF_API int speedscope_timeline_finish(speedscope_timeline *t);

/* Capabilities that have samples, and the samples of one, numbered as in
 * the samples' own cap field. */
/* Several logs (cli: fed beside a profile that prof_begin_log aggregates):
 * call before each log; its samples' ids are translated by p
 * (prof_log_ids) and its capabilities become profiles of their own, named
 * "NAME capability N". Returns 0 or -1 out of memory. */
EVPROF_API int speedscope_timeline_begin_log(speedscope_timeline *t, const prof_profile *p,
                                             const char *name);

typedef struct speedscope_opts {
    const char *name;           /* the file's "name" (e.g. the log's name); may be NULL */
} speedscope_opts;

/* Writes the file. Stacks dropped by the timeline's filter (focus,
 * ignore, the built-in ones without `all`) are empty samples whose time
 * is kept. Frames are the profile's cost centres: name
 * "Module.label" (built-ins and evprof's own frames by label), file, line
 * and column parsed from SRC when it has them. Stacks start at MAIN, or
 * at "<stack cut at 255 frames>" for stacks GHC cut. Returns 0, or -1 on a
 * write error or when memory ran out. */
EVPROF_API int speedscope_write(const prof_result *p, const speedscope_timeline *t,
                                const speedscope_opts *o, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
