/* evprof: a live frame as Prometheus' text exposition format (version
 * 0.0.4), and the small HTTP endpoint that serves it (`evprof top
 * --metrics`, `evprof metrics`).
 *
 * The figures are the frame's (live.h): the exposition computes none of
 * its own, it only picks the top N rows of the frame's lists by their
 * totals and writes them with Prometheus' names, units and escaping:
 *
 *     live_metrics *m = live_metrics_create(&mo);
 *     const live_frame *f = live_top_frame(t, stream);
 *     live_metrics_write(m, f, out);
 *
 * The endpoint runs on a thread of its own and serves a copy of the
 * latest exposition handed to it (live_http_publish): a slow or stuck
 * scraper never holds up the thread that reads the log.
 *
 *     live_http *h;
 *     ev_error err;
 *     if (live_http_start(&h, "127.0.0.1:9187", NULL, &err) != EV_OK) ...  // err.msg
 *     live_http_publish(h, buf, len);     // after each frame; takes buf
 *     live_http_stop(h);                  // joins the thread
 *
 * See docs/LIVE.md ("Prometheus") for every metric and what it means in
 * GHC's terms.
 */
#ifndef EVPROF_METRICS_H
#define EVPROF_METRICS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evprof/live.h"
#include "evprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the exposition ------------------------------------------------------ */

#define LIVE_METRICS_CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"

typedef struct live_metrics_opts {
    unsigned top_n;     /* cost centres, heap bands and ticky counters; 0: 10 */
    int process;        /* also evprof's own CPU time, peak RSS and refreshes (a
                           live run; a finished log's exposition leaves them out,
                           so that it depends on the log only) */
} live_metrics_opts;

EVPROF_API void live_metrics_opts_init(live_metrics_opts *o);

/* Scratch memory kept from one exposition to the next (the rows, their
 * label texts), so a refresh allocates only when a list outgrows it. */
typedef struct live_metrics live_metrics;

EVPROF_API live_metrics *live_metrics_create(const live_metrics_opts *o);     /* NULL: no memory */
EVPROF_API void live_metrics_destroy(live_metrics *m);                         /* accepts NULL */

/* The program and pid labels while the log has not said them yet (its
 * PROGRAM_ARGS and OSPROCESS_PID events, which GHC 9.0 writes with its
 * first full buffer): what `top -- PROG` started, so that its series keep
 * one set of labels from the first scrape. program is copied; NULL: none. */
EVPROF_API int live_metrics_set_default_labels(live_metrics *m, const char *program, uint32_t pid);

/* The exposition of frame f. Returns 0, or -1 on a write error or when
 * out of memory (then part of it may be written). */
EVPROF_API int live_metrics_write(live_metrics *m, const live_frame *f, FILE *out);

/* ---- the endpoint ---------------------------------------------------------- */

typedef struct live_http_opts {
    unsigned max_conns;         /* connections open at once; when they are, the
                                   oldest still waiting for its request is closed
                                   to admit the next (with none, more wait in the
                                   kernel's backlog); 0: 64 */
    size_t max_request;         /* bytes of request line and headers; more: 431;
                                   0: 8192 */
    unsigned timeout_ms;        /* a connection's whole life, from accept to the
                                   last byte sent; 0: 10000 */
    unsigned head_timeout_ms;   /* from accept to the end of the request's line
                                   and headers (then closed unanswered); at most
                                   timeout_ms; 0: 2000 */
} live_http_opts;

EVPROF_API void live_http_opts_init(live_http_opts *o);

/* Checks HOST:PORT, :PORT, PORT or [IPV6]:PORT (a bare port: 127.0.0.1).
 * Returns 0 with host and port copied out (host "" never: the default is
 * filled in), or -1. */
EVPROF_API int live_http_parse_addr(const char *addr, char *host, size_t hsize, char *port,
                                    size_t psize);

typedef struct live_http live_http;

/* Binds, listens and starts the server thread. Returns EV_OK, or with a
 * message in err (may be NULL) that begins with the address where it is
 * about the address: EV_ERR_USAGE (not an address), EV_ERR_NETWORK (the
 * host does not resolve, the port is in use or refused), EV_ERR_IO (no
 * pipe), EV_ERR_NOMEM (out of memory, no thread). */
EVPROF_API ev_status live_http_start(live_http **out, const char *addr, const live_http_opts *o,
                                     ev_error *err);

/* The address bound, "HOST:PORT" (the port the system chose for port 0). */
EVPROF_API const char *live_http_address(const live_http *h);

/* The exposition to serve from now on: buf (malloc'ed, len bytes) becomes
 * the server's, freed when the last response that sends it is done.
 * Before the first call the server answers GET /metrics with an empty
 * exposition. Returns 0, or -1 (buf freed) when out of memory. */
EVPROF_API int live_http_publish(live_http *h, char *buf, size_t len);

typedef struct live_http_stats {
    uint64_t accepted;          /* connections */
    uint64_t responses[6];      /* 200, 400, 404, 405, 431, 505 */
    uint64_t busy;              /* times max_conns were open (accepting paused) */
    uint64_t timed_out;         /* closed at a deadline (the head's or the whole's) */
    uint64_t dropped;           /* waiting for their request, the oldest, closed to
                                   admit a new connection when max_conns were open */
} live_http_stats;

EVPROF_API void live_http_get_stats(live_http *h, live_http_stats *st);

/* Stops the thread (joined), closes every socket, frees everything.
 * Accepts NULL. */
EVPROF_API void live_http_stop(live_http *h);

#ifdef __cplusplus
}
#endif
#endif
