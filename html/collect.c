/* The page's own small analyses: the GC time series, the heap censuses
 * kept for the chart (the run's facts come from info/, the ticky counters
 * and their points from ticky/).
 * Each is bounded: memory grows with the options, never with the log. */
#include <stdlib.h>
#include <string.h>

#include "html/internal.h"

/* ---- GC time series ------------------------------------------------------ */

int html_gcseries_init(html_gcseries *g, uint32_t max_points)
{
    memset(g, 0, sizeof *g);
    g->cap = max_points < 4 ? 4 : max_points;
    g->cap += g->cap & 1;
    g->width = 1000;                /* 1 us: doubled as the log goes on */
    g->b = calloc(g->cap, sizeof *g->b);
    g->pts = malloc(g->cap * sizeof *g->pts);
    return g->b && g->pts ? 0 : -1;
}

void html_gcseries_free(html_gcseries *g)
{
    free(g->b);
    free(g->pts);
    free(g->cap_alloc);
    g->b = NULL;
    g->pts = NULL;
    g->cap_alloc = NULL;
}

static void merge_bucket(hs_bucket *to, const hs_bucket *a, const hs_bucket *b)
{
    *to = *a;
    if (!b->used)
        return;
    if (!to->used || b->t > to->t)
        to->t = b->t;
    to->used = 1;
    to->alloc += b->alloc;
    if (b->has_size && (!to->has_size || b->size > to->size))
        to->size = b->size;
    if (b->has_live && (!to->has_live || b->live > to->live))
        to->live = b->live;
    to->has_size |= b->has_size;
    to->has_live |= b->has_live;
}

/* The bucket of time t, the width doubled until t fits. */
static hs_bucket *bucket_of(html_gcseries *g, uint64_t t)
{
    while (t / g->width >= g->cap) {
        for (size_t i = 0; i < g->cap / 2; i++) {
            hs_bucket m;
            merge_bucket(&m, &g->b[2 * i], &g->b[2 * i + 1]);
            g->b[i] = m;
        }
        memset(g->b + g->cap / 2, 0, g->cap / 2 * sizeof *g->b);
        g->width *= 2;
    }
    return &g->b[t / g->width];
}

static int gcs_event(void *self, const el_event *ev, const ev_stream *s)
{
    html_gcseries *g = self;
    (void)s;
    if (!ev->decoded)
        return 0;
    uint64_t b = ev->u.heap.bytes;
    hs_bucket *k = bucket_of(g, ev->time);
    switch (ev->type) {
    case EL_HEAP_SIZE:
        if (!k->has_size || b > k->size)
            k->size = b;
        k->has_size = 1;
        break;
    case EL_HEAP_LIVE:
        if (!k->has_live || b > k->live)
            k->live = b;
        k->has_live = 1;
        break;
    case EL_HEAP_ALLOCATED: {
        /* a per-capability counter, in that capability's own order: its
         * growth is allocation at this event's time */
        size_t c = ev->cap == EL_NO_CAP ? 0 : ev->cap;
        if (c >= g->n_caps) {
            size_t n = c + 1;
            uint64_t *a = realloc(g->cap_alloc, n * sizeof *a);
            if (!a) {
                g->nomem = 1;
                return 0;
            }
            memset(a + g->n_caps, 0, (n - g->n_caps) * sizeof *a);
            g->cap_alloc = a;
            g->n_caps = n;
        }
        if (b > g->cap_alloc[c])
            k->alloc += b - g->cap_alloc[c];
        g->cap_alloc[c] = b;
        break;
    }
    default:
        return 0;
    }
    if (!k->used || ev->time > k->t)
        k->t = ev->time;
    k->used = 1;
    g->events++;
    return 0;
}

int html_gcseries_points(html_gcseries *g)
{
    uint64_t size = 0, live = 0, alloc = 0;
    g->n = 0;
    for (size_t i = 0; i < g->cap; i++) {
        const hs_bucket *k = &g->b[i];
        if (!k->used)
            continue;
        if (k->has_size)
            size = k->size;
        if (k->has_live)
            live = k->live;
        alloc += k->alloc;
        g->pts[g->n++] = (hs_point){ k->t, size, live, alloc };
    }
    return 0;
}

static void gcs_end(void *self, const ev_stream *s)
{
    (void)self;
    (void)s;
}

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

static const uint16_t gcs_types[] = { EL_HEAP_SIZE, EL_HEAP_LIVE, EL_HEAP_ALLOCATED };
const ev_analysis_ops html_gcseries_ops = {
    .name = "gc series",
    .types = gcs_types,
    .num_types = sizeof gcs_types / sizeof gcs_types[0],
    .event = gcs_event,
    .end = gcs_end,
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
