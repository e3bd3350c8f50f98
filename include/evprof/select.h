/* evprof: a selection of a log: time windows and a capability.
 *
 * The caller builds one (the CLI from --from/--to, marks, --between,
 * --phase, --cap) and hands it to the driver (ev_driver_opts.select). The
 * driver's selection stage marks every event it hands out
 * (el_event.outside: EL_OUT_TIME outside the windows, EL_OUT_CAP of another
 * capability), so that no analysis tests times itself; the analyses that
 * measure spans of time (the GC summary's mutator and GC time, its
 * counters) ask the same selection how much of a span is inside
 * (ev_select_overlap) and which window edge a time is past
 * (ev_select_slot). See "The selection stage" in driver.h.
 *
 *     ev_span w[2] = { { 1000000, 2000000 }, { 5000000, 6000000 } };
 *     ev_select *sel = ev_select_create(w, 2, -1);
 *     opts.select = sel;          // the driver borrows it for its run
 *     ...
 *     ev_select_destroy(sel);
 */
#ifndef EVPROF_SELECT_H
#define EVPROF_SELECT_H

#include <stddef.h>
#include <stdint.h>

#include "evprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A time window [from_ns, to_ns) on the log's clock (ns since the RTS
 * started); to_ns UINT64_MAX: open. */
typedef struct ev_span {
    uint64_t from_ns, to_ns;
} ev_span;

typedef struct ev_select ev_select;

/* The windows (any order; overlapping ones are joined, empty ones
 * dropped; n 0: all time) and a capability (-1: all). NULL when out of
 * memory. */
EVPROF_API ev_select *ev_select_create(const ev_span *spans, size_t n, int32_t cap);
EVPROF_API void ev_select_destroy(ev_select *s);       /* accepts NULL */

/* Every function below takes NULL as "everything selected". */

/* 1 when no time window narrows it (all of the log's time). */
EVPROF_API int ev_select_all_time(const ev_select *s);
/* The windows, sorted and disjoint (*n 1 and [0, UINT64_MAX) for all time). */
EVPROF_API const ev_span *ev_select_spans(const ev_select *s, size_t *n);
EVPROF_API int32_t ev_select_cap(const ev_select *s);
/* The whole: from the first window's start to the last one's end. */
EVPROF_API ev_span ev_select_hull(const ev_select *s);
/* Total length of the windows inside [0, end] (end clips an open one). */
EVPROF_API uint64_t ev_select_length(const ev_select *s, uint64_t end);

/* 1 when time t is inside a window. */
EVPROF_API int ev_select_has(const ev_select *s, uint64_t t);
/* The marks of an event at t whose capability is cap: EL_OUT_TIME,
 * EL_OUT_CAP (eventlog.h), 0 inside. */
EVPROF_API unsigned ev_select_outside(const ev_select *s, uint64_t t, uint32_t cap);
/* How much of [a, b] is inside the windows. */
EVPROF_API uint64_t ev_select_overlap(const ev_select *s, uint64_t a, uint64_t b);
/* The number of window edges at or before t: 2k when t is before window
 * k (outside), 2k + 1 inside it; 2n after the last. A counter whose
 * values only grow is summed over the windows from its largest value in
 * each slot (ev_select_counter_sum). */
EVPROF_API size_t ev_select_slot(const ev_select *s, uint64_t t);
EVPROF_API size_t ev_select_num_slots(const ev_select *s);    /* 2n + 1 */
/* A monotone counter's growth inside the windows, from max[k], the
 * largest value seen at a time of slot k (0: none seen; num_slots
 * entries): the value at each window's end less the one at its start. */
EVPROF_API uint64_t ev_select_counter_sum(const ev_select *s, const uint64_t *max);

/* 1 when the selection meets nothing of a read (eventlog.h): its windows
 * all miss the time span of the events read, or its capability owns no
 * block there (a log without events misses any time window); 0 for NULL. */
struct el_read_result;
EVPROF_API int ev_select_misses(const ev_select *s, const struct el_read_result *r);

#ifdef __cplusplus
}
#endif
#endif
