/* What the sources' files share (private to eventlog/source*.c). */
#ifndef EVPROF_EVENTLOG_SOURCE_IMPL_H
#define EVPROF_EVENTLOG_SOURCE_IMPL_H

#include "eventlog/source.h"

/* s->error: an I/O error at byte `at`, "WHAT: strerror(err)" (err 0: WHAT). */
void el_source_set_error(el_source *s, uint64_t at, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* *e: status st (no offset), "WHAT: strerror(err)" (err 0: WHAT). */
void el_error_io(ev_error *e, ev_status st, int err, const char *what);

/* A stream over fd (closed by the source when `own`). */
el_source *el_source_stream_fd(int fd, int own, const el_source_opts *o, ev_error *err);
/* A path followed as it is written (it may not exist yet). */
el_source *el_source_open_followed(const char *path, const el_source_opts *o, ev_error *err);

#endif
