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

#include <stdio.h>

#include "evprof/driver.h"
#include "evprof/eventlog.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct info_log info_log;

info_log *info_create(void);            /* NULL when out of memory */
void info_destroy(info_log *in);        /* accepts NULL */

/* Count one event. Returns 0. */
int info_add_event(info_log *in, const el_event *ev);
/* The header's event types (descriptions are copied); once. -1 out of memory. */
int info_set_header(info_log *in, const el_decoder *d);
/* The read is over: its status, bytes, damage and the file's size. */
void info_set_stream(info_log *in, const ev_stream *s);
/* 1 when a copy (a string, the header) failed for want of memory. */
int info_failed(const info_log *in);

/* As an analysis of the driver: every event counted; its end sets the
 * stream's facts; its snapshot is info_snapshot's (release: info_destroy). */
extern const ev_analysis_ops info_analysis_ops;

/* A copy of the figures so far (status "still being read" until the
 * stream's end was set). NULL when out of memory. */
info_log *info_snapshot(const info_log *in);

/* The text and JSON of `evprof info`. `path` names the log ("-" is
 * standard input). Return 0, or -1 on a write error. */
int info_report_text(const info_log *in, const char *path, FILE *out);
int info_report_json(const info_log *in, const char *path, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
