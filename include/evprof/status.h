/* evprof: the one status space of the library (zstd's ZSTD_isError and
 * ZSTD_getErrorName; babeltrace2's per-function statuses over one value
 * set). Every function of the public headers that can fail returns an
 * ev_status, or reports one through ev_error where a status needs detail
 * (where in the input, which event type, the message). END and STOPPED
 * are not errors: the end marker was read, or a consumer asked to stop.
 *
 *     ev_status st = heap_add_event(h, ev, d);
 *     if (ev_is_error(st))
 *         fprintf(stderr, "heap: %s\n", ev_status_name(st));
 */
#ifndef EVPROF_STATUS_H
#define EVPROF_STATUS_H

#include <stdint.h>

#include "evprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ev_status {
    EV_OK = 0,              /* done; for a reader: an event was produced */
    EV_NEED_INPUT,          /* a decoder consumed every byte fed: feed more or finish */
    EV_END,                 /* the log's end marker was read (the normal end) */
    EV_STOPPED,             /* a consumer asked to stop (not an error of the input;
                               every event before was delivered) */
    /* errors, from here on (ev_is_error) */
    EV_ERR_TRUNCATED,       /* the input ended inside the header or an event */
    EV_ERR_FORMAT,          /* the bytes are not what they must be (eventlog, -r text) */
    EV_ERR_NOMEM,           /* an allocation failed */
    EV_ERR_LIMIT,           /* the memory budget refused a charge (budget.h) */
    EV_ERR_IO,              /* reading the input failed */
    EV_ERR_WRITE,           /* writing an output failed */
    EV_ERR_USAGE,           /* a bad call or argument (an undeclared event type, ...) */
    EV_ERR_PATTERN,         /* a regular expression does not compile */
    EV_ERR_RENDER,          /* Graphviz failed (layout or renderer) */
    EV_ERR_SINK,            /* a sink the caller gave failed (a heap census writer) */
    EV_ERR_FINISHED,        /* an event for an aggregate that takes no more (a snapshot) */
    EV_ERR_NETWORK,         /* a network request failed (pprof --push) */
    EV_STATUS_COUNT
} ev_status;

/* 1 for the errors, 0 for OK, NEED_INPUT, END and STOPPED. */
static inline int ev_is_error(ev_status st)
{
    return st >= EV_ERR_TRUNCATED;
}

/* A short name, lower case, for messages ("truncated", "out of memory");
 * "unknown status" for a value outside the set. Never NULL. */
EVPROF_API const char *ev_status_name(ev_status st);

/* The detail of a status: which, where, why. Filled by the functions that
 * take one (a NULL ev_error * is allowed: no detail). */
#define EV_NO_OFFSET UINT64_MAX
typedef struct ev_error {
    ev_status status;
    uint64_t offset;        /* byte offset in the input, or EV_NO_OFFSET */
    int32_t type;           /* the event type concerned, or -1 */
    uint64_t line;          /* the 1-based line of a text input, or 0 */
    char msg[512];          /* without file name or place; "" when the name says it.
                               512: a message may quote the caller's input (a
                               --focus pattern, an address) or another
                               library's text (Graphviz, libcurl's 256) */
} ev_error;

#ifdef __cplusplus
}
#endif
#endif
