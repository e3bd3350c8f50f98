/* The time-ordered replay of a log (private to the driver).
 *
 * Events come per capability block, so a log is not in time order across
 * capabilities. ev_order keeps each event's raw record in file order, in
 * 1 MiB chunks, with a 6-byte prefix (capability of its block, record
 * length), and notes the runs of records whose times never decrease (a
 * run is about one block: 24 bytes each). A k-way merge of the runs by
 * (time, file position) is a stable sort without an index; each record is
 * decoded again by a decoder primed with the log's header and handed out
 * with its stored capability. Memory: about the log's size, plus 6 bytes
 * per event and 24 per run. */
#ifndef EVPROF_DRIVER_ORDER_H
#define EVPROF_DRIVER_ORDER_H

#include <stdint.h>

#include "evprof/eventlog.h"

typedef struct ev_order ev_order;

ev_order *ev_order_create(void);
void ev_order_destroy(ev_order *o);     /* accepts NULL */

/* Keeps a copy of the event's record. Returns 0, or -1 out of memory. */
int ev_order_add(ev_order *o, const el_event *ev);
uint64_t ev_order_count(const ev_order *o);

/* Hands every kept event to fn in (time, file position) order, decoded
 * with the header of `header`. Consumes the runs. Returns 0, the first
 * non-zero value fn returned, or -1 out of memory / -2 when a record did
 * not decode again (a bug, not bad input). */
typedef int (*ev_order_fn)(void *ctx, const el_event *ev);
int ev_order_replay(ev_order *o, const el_decoder *header, ev_order_fn fn, void *ctx);

#endif
