/* The names of the one status space (include/evprof/status.h). */
#include "evprof/status.h"

#include <stddef.h>

static const char *const names[] = {
    [EV_OK] = "ok",
    [EV_NEED_INPUT] = "need input",
    [EV_END] = "end",
    [EV_STOPPED] = "stopped by the consumer",
    [EV_ERR_TRUNCATED] = "truncated",
    [EV_ERR_FORMAT] = "format error",
    [EV_ERR_NOMEM] = "out of memory",
    [EV_ERR_LIMIT] = "memory limit reached",
    [EV_ERR_IO] = "I/O error",
    [EV_ERR_WRITE] = "write error",
    [EV_ERR_USAGE] = "usage error",
    [EV_ERR_PATTERN] = "bad pattern",
    [EV_ERR_RENDER] = "rendering failed",
    [EV_ERR_SINK] = "the sink failed",
    [EV_ERR_FINISHED] = "finished: takes no more events",
    [EV_ERR_NETWORK] = "network error",
};
_Static_assert(sizeof names / sizeof names[0] == EV_STATUS_COUNT, "a name per ev_status");

const char *ev_status_name(ev_status st)
{
    if ((unsigned)st < EV_STATUS_COUNT && names[st])
        return names[st];
    return "unknown status";
}
