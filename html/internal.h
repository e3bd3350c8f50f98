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
 * and HEAP_ALLOCATED. The log holds them per capability block, not in
 * time order across capabilities, so they go into time buckets: at most
 * max_points of equal width, the width doubling (neighbours merged) when
 * an event lies past the last; per bucket the largest heap size and live
 * data seen (peaks survive) and the allocation, each capability's counter
 * growth taken in that capability's own order. html_gcseries_points then
 * walks the buckets in time order: the allocation summed over every
 * capability, one rising line. */
typedef struct hs_point {
    uint64_t t, size, live, alloc;
} hs_point;

typedef struct hs_bucket {
    uint64_t t;                     /* its last event's time */
    uint64_t alloc;                 /* allocation in it, all capabilities */
    uint64_t size, live;            /* the largest seen in it */
    uint8_t used, has_size, has_live;
} hs_bucket;

typedef struct html_gcseries {
    hs_bucket *b;
    size_t cap;                     /* buckets */
    uint64_t width;                 /* ns per bucket */
    uint64_t *cap_alloc;            /* each capability's counter */
    size_t n_caps;
    uint64_t events;
    int nomem;
    hs_point *pts;                  /* html_gcseries_points */
    size_t n;
} html_gcseries;

/* Every event counted by the decoder (EV_COUNTS), for the summary. */
extern const ev_analysis_ops html_counts_ops;

/* The points, in time order, into g->pts / g->n (after the read). */
int html_gcseries_points(html_gcseries *g);
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

#endif
