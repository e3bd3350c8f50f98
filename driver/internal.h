/* What the driver's live reader (live.c) shares with driver.c: the setup
 * and the end of a run, around a read loop of its own. Private. */
#ifndef EVPROF_DRIVER_INTERNAL_H
#define EVPROF_DRIVER_INTERNAL_H

#include "evprof/driver.h"

/* Starts a run: fills *ro (types to decode; *types is the caller's to
 * free). Returns 0, or -1 with the stream's error set (the run is over:
 * return the stream as it is). */
int ev_driver_begin(ev_driver *d, const char *path, el_read_opts *ro, uint16_t **types);
/* After ev_driver_begin, for a source read once (a pipe, a socket, a
 * followed file): the records are spooled for the ordered analyses. */
void ev_driver_spool_stream(ev_driver *d, el_read_opts *ro);
/* The per-event entry point of the driver (ctx: the driver). */
el_event_fn ev_driver_event_fn(void);
/* Where the run's decoder is kept (the driver destroys it). */
el_decoder **ev_driver_decoder_slot(ev_driver *d);
const ev_driver_opts *ev_driver_get_opts(const ev_driver *d);
ev_stream *ev_driver_stream_mut(ev_driver *d);
/* Ends a run whose stream.read is set: ordered replay, progress, `end`. */
const ev_stream *ev_driver_end(ev_driver *d);

/* live.c: a path read live (follow, ticks, interrupt). */
const ev_stream *ev_driver_run_live_path(ev_driver *d, const char *path);

#endif
