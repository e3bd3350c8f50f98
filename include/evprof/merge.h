/* evprof: one eventlog from several (evprof merge), as ghc-events' merge
 * does: one header (the union of the event types), each log's records
 * copied in order with their capability, capset, thread and cost-centre
 * numbers moved apart; times kept (each log's clock starts at its own RTS
 * start). Cost centres are matched by module, label and source location as
 * prof_begin_log matches them: a 161 definition of a name seen before is
 * dropped, a new one gets a fresh id, the stacks of 163 and 167 follow.
 *
 * Each log is read twice, each time through a driver with one of the two
 * analyses (self: the merge): a scan (ev_merge_scan_ops: the header, the
 * largest numbers), then the copy (ev_merge_copy_ops) into the writer that
 * ev_merge_start opens on the output.
 *
 *     ev_merge *m = ev_merge_create(n);
 *     for (i = 0; i < n; i++) {           // pass 1
 *         ev_merge_begin_log(m, i);
 *         ... read log i with ev_merge_scan_ops (m) attached ...
 *         ev_merge_end_log(m, &err);
 *     }
 *     ev_merge_fits(m, &err);             // one log can number them
 *     ev_merge_start(m, out, &err);       // pass 2
 *     for (i = 0; i < n; i++) {
 *         ev_merge_begin_log(m, i);
 *         ... read log i with ev_merge_copy_ops (m) attached ...
 *         ev_merge_end_log(m, &err);
 *     }
 *     ev_merge_finish(m, &err);
 *     ev_merge_destroy(m);
 *
 * An analysis that fails stops the read; ev_merge_status says why. */
#ifndef EVPROF_MERGE_H
#define EVPROF_MERGE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evprof/driver.h"
#include "evprof/export.h"
#include "evprof/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ev_merge ev_merge;

/* A merge of num_logs logs (at least 1). NULL when out of memory. */
EVPROF_API ev_merge *ev_merge_create(size_t num_logs);
EVPROF_API void ev_merge_destroy(ev_merge *m);     /* accepts NULL */

/* The log the next read is of (0 .. num_logs-1, in order, in each pass). */
EVPROF_API void ev_merge_begin_log(ev_merge *m, size_t i);
/* After its read. The scan: its numbers counted in. The copy: its open
 * block closed and the next log's numbers moved past its own. EV_OK, or
 * the writer's status. */
EVPROF_API ev_status ev_merge_end_log(ev_merge *m, ev_error *err);

/* Pass 1, every event of each log: its header joins the union (a type
 * declared by two logs with two sizes cannot: EV_ERR_FORMAT, see
 * ev_merge_conflict_of), the largest capability, capset, thread and
 * cost-centre numbers. */
EVPROF_API extern const ev_analysis_ops ev_merge_scan_ops;

/* After the scans: EV_ERR_LIMIT (message: the totals) when the logs number
 * more capabilities, capsets or threads than one eventlog can, else EV_OK
 * (before an output is opened for nothing). */
EVPROF_API ev_status ev_merge_fits(const ev_merge *m, ev_error *err);
/* Then: opens a writer on `out` (borrowed) and declares the types. EV_OK,
 * EV_ERR_LIMIT (ev_merge_fits'), EV_ERR_NOMEM, or the writer's status
 * (message: which type). */
EVPROF_API ev_status ev_merge_start(ev_merge *m, FILE *out, ev_error *err);

/* Pass 2, every event of each log: written with its numbers moved. */
EVPROF_API extern const ev_analysis_ops ev_merge_copy_ops;

/* After the copies: the end of the merged log. EV_OK, or the writer's
 * status (message: the writer's). */
EVPROF_API ev_status ev_merge_finish(ev_merge *m, ev_error *err);

/* The analyses' first failure (sticky), which stopped the read: EV_OK;
 * EV_ERR_NOMEM; EV_ERR_FORMAT, a type both logs declare with two sizes
 * (ev_merge_conflict_of); EV_ERR_WRITE, writing the output failed (the
 * output's own error: err says nothing more); another status of the
 * writer, err giving the byte offset and type of the event being copied
 * and the writer's message. err may be NULL. */
EVPROF_API ev_status ev_merge_status(const ev_merge *m, ev_error *err);

/* The type two logs declare with two sizes. */
typedef struct ev_merge_conflict {
    uint16_t type;
    int32_t size;               /* in the log being scanned */
    int32_t first_size;         /* in the log that declared it first, */
    size_t first_log;           /* this one */
} ev_merge_conflict;
/* 1 with *c set after such a conflict, else 0. */
EVPROF_API int ev_merge_conflict_of(const ev_merge *m, ev_merge_conflict *c);

#ifdef __cplusplus
}
#endif
#endif
