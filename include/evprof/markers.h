/* evprof: the marks a program put in its log (traceMarker: USER_MARKER 58).
 *
 * A small analysis of the driver: it keeps every mark's label and time,
 * and answers which labels the log holds (count, first time) and the
 * times of one label's marks in time order. The selection layer resolves
 * `--from marker:LABEL` and `--between LABEL` with it; `info` lists them.
 *
 *     ev_markers *m = ev_markers_create();
 *     ev_driver_attach(d, &ev_markers_ops, m);
 *     ev_driver_run_path(d, path);
 *     size_t n; const uint64_t *t = ev_markers_times(m, "parse", 5, &n);
 */
#ifndef EVPROF_MARKERS_H
#define EVPROF_MARKERS_H

#include <stddef.h>
#include <stdint.h>

#include "evprof/budget.h"
#include "evprof/driver.h"
#include "evprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ev_marker_label {
    const char *label;          /* the bytes as logged, NUL-terminated (may hold NUL) */
    uint32_t len;
    uint64_t count;             /* marks with this label */
    uint64_t first_ns;          /* the earliest one's time */
} ev_marker_label;

typedef struct ev_markers ev_markers;

EVPROF_API ev_markers *ev_markers_create(void);            /* NULL when out of memory */
EVPROF_API void ev_markers_destroy(ev_markers *m);         /* accepts NULL */

/* The analysis (USER_MARKER only); it stops the read when memory runs out
 * or the read's budget (ev_stream.budget, taken at the first event) refuses
 * a charge. Mergeable: the parallel read gives each range a partial. A
 * label is found by its hash: time in proportion to the marks, however
 * many labels. */
EVPROF_API extern const ev_analysis_ops ev_markers_ops;

/* Charges what the marks hold (labels, their strings and times, the label
 * table, the order of the labels) to b from now on, moving what is
 * charged already; a refusal marks the marks failed. The analysis does it
 * by itself with the stream's budget; a caller that feeds events without
 * a stream (info) calls it. */
EVPROF_API void ev_markers_set_budget(ev_markers *m, ev_budget *b);

/* Distinct labels, marks and the bytes charged so far. */
EVPROF_API void ev_markers_count(const ev_markers *m, uint64_t *labels, uint64_t *marks,
                                 uint64_t *bytes);

/* Adds the marks of `part`, read from the stretch of the log after m's
 * (before either's end), as if m had read them. Returns 0, or -1 when out
 * of memory (m is then marked failed). */
EVPROF_API int ev_markers_merge(ev_markers *m, const ev_markers *part);

/* The labels, in order of their first time (ties: file order). Valid
 * after the read's end. */
EVPROF_API size_t ev_markers_num_labels(const ev_markers *m);
EVPROF_API const ev_marker_label *ev_markers_label_at(const ev_markers *m, size_t i);

/* The times of the marks labelled exactly label[0..len), ascending; NULL
 * with *n = 0 when there are none. Valid after the read's end. */
EVPROF_API const uint64_t *ev_markers_times(const ev_markers *m, const char *label, size_t len,
                                            size_t *n);

/* One mark: its label (as in ev_marker_label), its number among the
 * marks of that label (marker:LABEL#N) and its time. */
typedef struct ev_mark {
    const char *label;
    uint32_t len;
    uint64_t nth;
    uint64_t time_ns;
} ev_mark;

/* Every mark of the log. Valid after the read's end. */
EVPROF_API uint64_t ev_markers_total(const ev_markers *m);

/* The first min(max, total) marks in time order (ties: the label of the
 * earlier first mark, then N) into out[]; returns how many. Time and memory bounded by
 * `max` and the labels, whatever the number of marks. Valid after the
 * read's end. */
EVPROF_API size_t ev_markers_first(const ev_markers *m, size_t max, ev_mark *out);

#ifdef __cplusplus
}
#endif
#endif
