/* evprof: profiles in pprof's format (perftools.profiles.Profile, gzip-
 * compressed), the format of go tool pprof and of continuous profilers
 * (Pyroscope, Parca, Grafana). Encoded with protobuf-c from the project's
 * export/profile.proto, compressed with zlib.
 *
 * Time profiles: sample types samples/count and cpu/nanoseconds, period
 * cpu/nanoseconds = the tick interval (PROF_BEGIN), one Function and one
 * Location per cost centre (name Module.label, system_name the label,
 * filename and start line from SRC), one Sample per stack of the tree with
 * ticks, its locations leaf first. Heap profiles: sample type
 * inuse_space/bytes of one census, one sample per band.
 *
 *     pprof_buf b;
 *     pprof_time_profile(p, &meta, &b);  // p: a snapshot of the time profile (prof_result)
 *     fwrite(b.data, 1, b.len, out);
 *     pprof_buf_free(&b);
 */
#ifndef EVPROF_PPROF_H
#define EVPROF_PPROF_H

#include <stddef.h>
#include <stdint.h>

#include "evprof/heap.h"
#include "evprof/prof.h"
#include "evprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes owned by the caller: free with pprof_buf_free. */
typedef struct pprof_buf {
    uint8_t *data;
    size_t len;
} pprof_buf;

EVPROF_API void pprof_buf_free(pprof_buf *b);   /* accepts an emptied buffer */

/* The profile's place in time, filled in by the writers. */
typedef struct pprof_meta {
    uint64_t from_ns, to_ns;    /* in: the window on the log's clock (to_ns
                                   UINT64_MAX: open) */
    int has_wall_clock;         /* out: the log had WALL_CLOCK_TIME */
    int64_t time_nanos;         /* out: wall clock at the start (ns since the
                                   epoch), or 0 without a wall clock */
    int64_t duration_nanos;     /* out: the profile's span (0 for a census) */
    uint64_t samples;           /* out: the sum of the first sample value */
} pprof_meta;

EVPROF_API void pprof_meta_init(pprof_meta *m);   /* the whole log */

/* A finished time profile as gzip-compressed pprof. Returns 0, or -1 when
 * memory ran out. */
EVPROF_API int pprof_time_profile(const prof_result *p, pprof_meta *m, pprof_buf *out);

/* ---- heap ------------------------------------------------------------- */

/* Keeps one census of a heap profile: pass pprof_census_keep and the
 * picker to heap_create() as the sink. */
typedef struct pprof_census_pick pprof_census_pick;

/* index: the census number (heap_census.index, 1, 2, ...); 0: the census
 * with the largest total (the first of equals). NULL without memory. */
EVPROF_API pprof_census_pick *pprof_census_pick_create(uint64_t index);
EVPROF_API void pprof_census_pick_destroy(pprof_census_pick *k);   /* accepts NULL */
EVPROF_API int pprof_census_keep(void *ctx, const heap_profile *h, const heap_census *c);
/* Charges the kept census's copy to b (util: budget.h); a charge refused
 * fails pprof_census_keep, so the heap profile stops the read at the
 * limit. NULL: no limit (the default). */
EVPROF_API void pprof_census_pick_set_budget(pprof_census_pick *k, ev_budget *b);

/* The kept census as an inuse_space/bytes profile: one sample per band.
 * Cost-centre-stack bands (-hc) become stacks: GHC names them innermost
 * first with '/' between frames (read the whole name: heap_opts.length
 * HEAP_MAX_LENGTH); other bands are one frame. Returns 0, -1 without
 * memory, or 1 when no census was kept. */
EVPROF_API int pprof_heap_profile(const heap_profile *h, const pprof_census_pick *k, pprof_meta *m,
                                  pprof_buf *out);

/* ---- push ------------------------------------------------------------- */

/* POSTs a pprof profile to a Pyroscope-compatible server:
 *   URL/ingest?name=APP&from=START&until=END&format=pprof
 * (START, END: Unix seconds; END at least START + 1) as multipart form data
 * with the gzip-compressed profile in the field "profile". URL must pass
 * pprof_push_url_check; a query of its own is kept, Pyroscope's parameters
 * appended to it (URL?tenant=x -> URL/ingest?tenant=x&name=...). The whole
 * request may take PPROF_PUSH_TIMEOUT_S seconds. Returns EV_OK, or with a
 * message in err (may be NULL; it never holds the URL): EV_ERR_USAGE (the
 * URL refused, as pprof_push_url_check), EV_ERR_NETWORK (libcurl cannot
 * start, a transport error, an HTTP status outside 2xx), EV_ERR_NOMEM. */
#define PPROF_PUSH_TIMEOUT_S 300.0
EVPROF_API ev_status pprof_push(const char *url, const char *app, int64_t from_sec,
                                int64_t until_sec, const pprof_buf *profile, ev_error *err);
/* The same with the whole request bounded by timeout_s seconds (<= 0: the
 * default); the connection by at most 30 of them. */
EVPROF_API ev_status pprof_push_timed(const char *url, const char *app, int64_t from_sec,
                                      int64_t until_sec, double timeout_s,
                                      const pprof_buf *profile, ev_error *err);

/* Whether pprof_push would send to url: an http:// or https:// URL (no
 * other scheme reaches libcurl), without a fragment (a server never sees
 * it), whose query does not set name, from, until or format itself.
 * Returns EV_OK, or EV_ERR_USAGE with the reason in err (may be NULL; not
 * quoting the URL); EV_ERR_NETWORK when libcurl cannot start, EV_ERR_NOMEM. */
EVPROF_API ev_status pprof_push_url_check(const char *url, ev_error *err);

/* url for messages: its user and password (user:secret@) as "***", as
 * snprintf does (the full length is returned). The caller still shows
 * the result's control bytes visibly (tx_vis). */
EVPROF_API size_t pprof_push_url_shown(char *buf, size_t size, const char *url);

#ifdef __cplusplus
}
#endif
#endif
