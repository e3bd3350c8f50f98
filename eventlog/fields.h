/* The typed fields of one record, from the layouts of eventlog/layouts.h;
 * private to the decoder (decoder.c frames records, this fills el_event.u). */
#ifndef EVPROF_EVENTLOG_FIELDS_H
#define EVPROF_EVENTLOG_FIELDS_H

#include <stddef.h>
#include <stdint.h>

#include "evprof/eventlog.h"

/* A decoder's field state: one argument on the hot path. */
typedef struct el_fields {
    uint8_t want[EL_NUM_TYPE_IDS];     /* decode typed fields of this type */
    uint32_t stack[EL_MAX_STACK];      /* the stack of the last sample */
    char msg[160];                     /* why a payload is damaged */
} el_fields;

/* Fills ev->u when f->want[ev->type] (ev->decoded says whether it did);
 * a known type not wanted is still checked, so that whether a log is
 * damaged never depends on what the consumer reads. A stack goes to
 * f->stack. Returns 0, or -1 with f->msg set when the payload is too
 * short for the oldest layout evprof knows or its strings or stack
 * overrun it. */
int el_decode_fields(el_fields *f, el_event *ev);

/* The known types el_decode_fields checks beyond their length when their
 * fields are not wanted (a stack's depth, a definition's strings). */
int el_fields_checked(uint16_t type);

#endif
