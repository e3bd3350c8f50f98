/* The time-ordered replay of a log (private to the driver).
 *
 * Events come per capability block, so a log is not in time order across
 * capabilities. ghc-events sorts stably by time (ties in file order), and
 * so does this, in bounded memory, without keeping the events:
 *
 *  - during the read (pass 1), ev_order_note() sees every event handed
 *    out and cuts the events an ordered analysis wants into runs: stretches
 *    of the file whose wanted events' times never decrease, with no
 *    skipped damage inside. A run is about one capability block (blocks
 *    are written in time order); 56 bytes describe it: where it starts and
 *    ends, its first time, and the enclosing block (capability, end, end
 *    time) at its start;
 *  - after the read (pass 2), a k-way merge of the runs by (time, file
 *    offset) is the stable sort. Each run is read again by offset through
 *    its own cursor (pread into a buffer of at most EV_ORDER_BUF bytes, or
 *    straight from memory); a cursor exists only while its run is between
 *    its first and last event in the merge, so for a log GHC wrote about
 *    one per capability (plus the global buffer's) is open at once. Each
 *    record is decoded again by a decoder primed with the log's header and
 *    handed out with its block's capability (EL_NO_CAP outside blocks, as
 *    the decoder says).
 *
 * Memory: 56 bytes per run (a few per MiB of log) plus EV_ORDER_BUF per
 * open cursor; a log whose times run backwards event by event makes one
 * run per event (56 bytes each), and its cursors' buffers never exceed
 * their runs' bytes, so the worst case stays below the log's size.
 *
 * The bytes come from a source that can be read by offset (ev_spool,
 * driver/spool.h): the file itself, memory, or for a pipe the records
 * written into a spool at their stream offsets as they are read; a spool
 * that cannot be written stops the read with a message. */
#ifndef EVPROF_DRIVER_ORDER_H
#define EVPROF_DRIVER_ORDER_H

#include <stdint.h>

#include "driver/spool.h"
#include "evprof/eventlog.h"

#define EV_ORDER_BUF ((size_t)256 << 10)

typedef struct ev_order ev_order;

ev_order *ev_order_create(void);
void ev_order_destroy(ev_order *o);     /* accepts NULL */

/* Every event the decoder handed out, in file order; `wanted`: an ordered
 * analysis reads it; `damage_blocks`: the decoder's count of damaged
 * blocks skipped so far. Returns 0, or -1 out of memory. */
int ev_order_note(ev_order *o, const el_event *ev, int wanted, uint64_t damage_blocks);
uint64_t ev_order_count(const ev_order *o);     /* wanted events noted */
uint64_t ev_order_runs(const ev_order *o);

/* Hands every wanted event to fn in (time, file offset) order, read from
 * `src` and decoded with the header of `header`; `wants` says again which
 * types are wanted. Returns 0, the first non-zero value fn returned, -1
 * out of memory, -2 when a record did not decode again (the file changed
 * under us, or a bug), -3 when reading the source failed. */
typedef int (*ev_order_fn)(void *ctx, el_event *ev);
typedef int (*ev_order_wants_fn)(void *ctx, uint16_t type);
int ev_order_replay(ev_order *o, const el_decoder *header, const ev_spool *src,
                    ev_order_wants_fn wants, ev_order_fn fn, void *ctx);

#endif
