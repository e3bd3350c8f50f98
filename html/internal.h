/* The HTML page's own pieces: the JSON writer for a <script> block, and
 * the small analyses that collect the page's series during the read. */
#ifndef EVPROF_HTML_INTERNAL_H
#define EVPROF_HTML_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evprof/driver.h"
#include "evprof/heap.h"
#include "evprof/html.h"
#include "evprof/ticky.h"
#include "util/htab.h"

/* ---- text (html/text.c) ----------------------------------------------
 * The page's JSON is written by tx_json in its html-safe mode
 * (evprof/json.h): '<' '>' '&' U+2028 U+2029 as \u escapes, so that no
 * "</script" nor "<!--" can appear in the data block. */
/* Text for HTML markup (element content or a quoted attribute): & < > " '
 * as references, control bytes dropped, bad UTF-8 as U+FFFD. */
void html_text(FILE *f, const char *s, size_t len);

/* ---- the GC time series (html/collect.c) -------------------------------
 * Heap size, live data and allocation over time from HEAP_SIZE, HEAP_LIVE
 * and HEAP_ALLOCATED, at most max_points points: one point every `stride`
 * events, the stride doubling (and every other point dropped) when the
 * buffer fills, so points stay evenly spread; size and live keep the
 * largest value seen since the previous point, so peaks survive. */
typedef struct hs_point {
    uint64_t t, size, live, alloc;
} hs_point;

typedef struct html_gcseries {
    hs_point *pts;
    size_t n, cap;
    uint64_t stride, count;
    uint64_t size, live, alloc;     /* current values */
    uint64_t max_size, max_live;    /* since the last point */
    uint64_t last_t;
    uint64_t *cap_alloc;            /* each capability's counter */
    size_t n_caps;
    uint64_t events;
    int nomem;
} html_gcseries;

extern const ev_analysis_ops html_gcseries_ops;
int html_gcseries_init(html_gcseries *g, uint32_t max_points);
void html_gcseries_free(html_gcseries *g);

/* ---- heap censuses kept for the chart ------------------------------------ */
typedef struct hc_census {
    uint64_t time, total;
    size_t n;
    heap_sample *samples;
} hc_census;

typedef struct html_censuses {
    hc_census *c;
    size_t n, cap;
    uint64_t stride, seen;
    int nomem;
} html_censuses;

int html_censuses_init(html_censuses *k, uint32_t max_censuses);
void html_censuses_free(html_censuses *k);
int html_censuses_sink(void *ctx, const heap_profile *h, const heap_census *c);

/* ---- ticky: the counters and a bounded series per counter ---------------
 * A local consumer of 210/211/212 until ticky has an analysis of its own:
 * the counters go to a ticky_set; each counter keeps at most
 * `points` (time, entries, alloc) deltas, adjacent pairs summed into one
 * when full (exact sums, coarser time). */
typedef struct tk_series {
    uint64_t id;
    uint32_t n, cap;
    uint64_t width;                 /* samples per point */
    uint64_t pending;               /* samples in the open point */
    uint64_t *t, *entries, *alloc;
} tk_series;

typedef struct html_ticky {
    ticky_set *set;
    uint32_t points;
    tk_series *s;                   /* by first sample; by_id: counter id -> index */
    size_t n, cap;
    tx_htab by_id;
    int nomem;
} html_ticky;

extern const ev_analysis_ops html_ticky_ops;
int html_ticky_init(html_ticky *t, uint32_t points);
void html_ticky_free(html_ticky *t);
const tk_series *html_ticky_series(const html_ticky *t, uint64_t id);

/* ---- the run's facts for the summary -----------------------------------
 * A local consumer until `info` is a library analysis. */
typedef struct html_facts {
    char *program_args;             /* NUL-separated, as logged */
    uint32_t args_len;
    char *rts;
    uint32_t rts_len;
    int has_wall;
    uint64_t wall_sec, wall_time;
    uint32_t wall_nsec;
    uint32_t caps;                  /* CAP_CREATE events (or capsets' caps) */
    uint32_t max_cap;               /* the largest capability number + 1 */
    uint32_t startup_caps;
    int has_pid;
    uint32_t pid;
    int nomem;
} html_facts;

extern const ev_analysis_ops html_facts_ops;
void html_facts_free(html_facts *f);

#endif
