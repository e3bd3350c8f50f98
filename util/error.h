/* Filling an ev_error (evprof/status.h), the detail of a status, for the
 * library's functions that take one. A NULL ev_error * is allowed (the
 * caller wants no detail): both helpers then do nothing.
 *
 *     ev_error_clear(err);                        // on entry
 *     ...
 *     return ev_error_set(err, EV_ERR_PATTERN, "'%s': %s", pattern, why);
 */
#ifndef EVPROF_UTIL_ERROR_H
#define EVPROF_UTIL_ERROR_H

#include <stdarg.h>
#include <stdio.h>

#include "evprof/status.h"

/* EV_OK, no offset, no event type, no line, no message. */
static inline void ev_error_clear(ev_error *e)
{
    if (!e)
        return;
    e->status = EV_OK;
    e->offset = EV_NO_OFFSET;
    e->type = -1;
    e->line = 0;
    e->msg[0] = '\0';
}

/* The status st with a message (printf's format; cut to the buffer),
 * no offset, event type or line. Returns st. */
static inline ev_status ev_error_set(ev_error *e, ev_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static inline ev_status ev_error_set(ev_error *e, ev_status st, const char *fmt, ...)
{
    if (!e)
        return st;
    ev_error_clear(e);
    e->status = st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    return st;
}

/* A writer's int result (0, or -1 when writing failed) as the status of a
 * format's writer (evprof/format.h): EV_OK, or EV_ERR_WRITE "cannot write
 * WHAT". */
static inline ev_status ev_write_status(int rc, ev_error *e, const char *what)
{
    ev_error_clear(e);
    return rc == 0 ? EV_OK : ev_error_set(e, EV_ERR_WRITE, "cannot write %s", what);
}

#endif
