/* evprof: a whole log as `ghc-events show` prints it (evprof dump).
 *
 * An analysis of the driver: the event types of the header, then every
 * event in time order (EV_ORDERED: a stable sort, ties in file order, as
 * ghc-events sorts), one line each (show.h), then an empty line. Each line
 * is formatted into one reused buffer, written to `out` in large pieces.
 * Under a selection (EV_SELECTED) it prints only the events inside, a
 * sample by its block's capability rather than its own (ghc-events' cap
 * field); a selection that misses the log prints nothing at all.
 *
 *     ev_dump *dp = ev_dump_create(stdout, NULL, 0);
 *     ev_driver_attach(d, ev_dump_analysis(dp), dp);
 *     ev_driver_run_path(d, "prog.eventlog");
 *     int err;
 *     if (ev_dump_finish(dp, &err) != EV_OK) ...      // a write failed: errno err
 *     if (ev_dump_status(dp) != EV_OK) ...            // out of memory
 *     ev_dump_destroy(dp);
 */
#ifndef EVPROF_DUMP_H
#define EVPROF_DUMP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evprof/driver.h"
#include "evprof/export.h"
#include "evprof/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ev_dump ev_dump;

/* Writes to `out` (borrowed). `types`, `num_types`: print only events of
 * these type ids (copied; NULL or 0: every event). NULL when out of
 * memory. */
EVPROF_API ev_dump *ev_dump_create(FILE *out, const uint16_t *types, size_t num_types);
EVPROF_API void ev_dump_destroy(ev_dump *dp);      /* accepts NULL */

/* Its analysis (self: dp), valid while dp lives: the ops carry its types. */
EVPROF_API const ev_analysis_ops *ev_dump_analysis(const ev_dump *dp);

/* After the read: writes what is buffered and flushes `out`. EV_OK, or
 * EV_ERR_WRITE when a write failed (the read was stopped there), with the
 * errno of the first failure in *write_errno (0 when unknown; may be NULL). */
EVPROF_API ev_status ev_dump_finish(ev_dump *dp, int *write_errno);
/* EV_ERR_NOMEM when a line could not be formatted for want of memory (the
 * read was stopped there), else EV_OK. */
EVPROF_API ev_status ev_dump_status(const ev_dump *dp);

#ifdef __cplusplus
}
#endif
#endif
