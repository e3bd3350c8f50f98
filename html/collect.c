/* The page's own small pieces: the heap censuses kept for the chart and an
 * analysis that makes the decoder count every event (the run's facts come
 * from info/, the ticky counters and their points from ticky/, the heap
 * over time from gc/: gc_keep_series).
 * Each is bounded: memory grows with the options, never with the log. */
#include <stdlib.h>
#include <string.h>

#include "html/internal.h"

/* ---- every event counted ----------------------------------------------------- */

/* Reads no event: its flag makes the decoder count every event by type
 * (the stream's tally, as `info` counts), so the page's count is info's. */
static const uint16_t no_types[1] = { 0 };
static int cnt_event(void *self, const el_event *ev, const ev_stream *s)
{
    (void)self;
    (void)ev;
    (void)s;
    return 0;
}
static void *cnt_fork(void *self) { (void)self; return malloc(1); }
static int cnt_merge(void *self, void *part) { (void)self; (void)part; return 0; }
static void cnt_drop(void *part) { free(part); }
const ev_analysis_ops html_counts_ops = {
    .name = "event counts",
    .types = no_types,
    .flags = EV_COUNTS,
    .event = cnt_event,
    .fork = cnt_fork,
    .merge = cnt_merge,
    .drop = cnt_drop,
};

/* ---- heap censuses --------------------------------------------------------- */

int html_censuses_init(html_censuses *k, uint32_t max_censuses)
{
    memset(k, 0, sizeof *k);
    k->cap = max_censuses < 4 ? 4 : max_censuses;
    k->cap += k->cap & 1;
    k->stride = 1;
    k->c = calloc(k->cap, sizeof *k->c);
    return k->c ? 0 : -1;
}

void html_censuses_free(html_censuses *k)
{
    for (size_t i = 0; i < k->n; i++)
        free(k->c[i].samples);
    free(k->c);
    k->c = NULL;
    k->n = 0;
}

int html_censuses_sink(void *ctx, const heap_profile *h, const heap_census *c)
{
    html_censuses *k = ctx;
    (void)h;
    /* every stride-th census; when full, every other one goes and the
     * stride doubles, so the kept ones stay evenly spread over the run */
    if (k->seen++ % k->stride != 0)
        return 0;
    if (k->n == k->cap) {
        size_t j = 0;
        for (size_t i = 0; i < k->n; i++) {
            if (i % 2 == 0)
                k->c[j++] = k->c[i];
            else
                free(k->c[i].samples);
        }
        k->n = j;
        k->stride *= 2;
        /* cap is even: this census, cap x the old stride, is on the new one */
    }
    hc_census *o = &k->c[k->n];
    o->samples = c->n ? malloc(c->n * sizeof *o->samples) : NULL;
    if (c->n && !o->samples) {
        k->nomem = 1;
        return 0;       /* the chart misses a census; the profile goes on */
    }
    if (c->n)
        memcpy(o->samples, c->samples, c->n * sizeof *o->samples);
    o->n = c->n;
    o->time = c->time;
    o->total = c->total;
    k->n++;
    return 0;
}
