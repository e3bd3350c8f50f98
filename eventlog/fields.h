/* The typed fields of one record, from the layouts of eventlog/layouts.h;
 * private to the decoder (decoder.c frames records, this fills el_event.u). */
#ifndef EVPROF_EVENTLOG_FIELDS_H
#define EVPROF_EVENTLOG_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "evprof/eventlog.h"

/* Fills ev->u when want[ev->type] (ev->decoded says whether it did); a
 * known type not wanted is still checked, so that whether a log is
 * damaged never depends on what the consumer reads. A stack goes to
 * `stack` (EL_MAX_STACK entries). Returns 0, or -1 with `msg` set when
 * the payload is too short for the oldest layout evprof knows or its
 * strings or stack overrun it. */
int el_decode_fields(el_event *ev, const uint8_t *want, uint32_t *stack, char *msg,
                     size_t msg_size);

/* The known types el_decode_fields checks beyond their length when their
 * fields are not wanted (a stack's depth, a definition's strings). */
int el_fields_checked(uint16_t type);

#endif
