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

#endif
