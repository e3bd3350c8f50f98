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
    g->stride = 1;
    g->pts = malloc(g->cap * sizeof *g->pts);
    return g->pts ? 0 : -1;
}

void html_gcseries_free(html_gcseries *g)
{
    free(g->pts);
    free(g->cap_alloc);
    g->pts = NULL;
    g->cap_alloc = NULL;
}

static void gcs_point(html_gcseries *g)
{
    if (g->n == g->cap) {
        /* keep every other point; a dropped point's peaks go to the next */
        size_t k = 0;
        for (size_t i = 1; i < g->n; i += 2) {
            hs_point p = g->pts[i];
            if (g->pts[i - 1].size > p.size)
                p.size = g->pts[i - 1].size;
            if (g->pts[i - 1].live > p.live)
                p.live = g->pts[i - 1].live;
            g->pts[k++] = p;
        }
        g->n = k;
        g->stride *= 2;
    }
    g->pts[g->n++] = (hs_point){ g->last_t, g->max_size, g->max_live, g->alloc };
    g->max_size = g->size;
    g->max_live = g->live;
}

static int gcs_event(void *self, const el_event *ev, const ev_stream *s)
{
    html_gcseries *g = self;
    (void)s;
    if (!ev->decoded)
        return 0;
    uint64_t b = ev->u.heap.bytes;
    switch (ev->type) {
    case EL_HEAP_SIZE:
        g->size = b;
        break;
    case EL_HEAP_LIVE:
        g->live = b;
        break;
    case EL_HEAP_ALLOCATED: {
        /* a per-capability counter; the total is the sum of their growth */
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
            g->alloc += b - g->cap_alloc[c];
        g->cap_alloc[c] = b;
        break;
    }
    default:
        return 0;
    }
    if (g->size > g->max_size)
        g->max_size = g->size;
    if (g->live > g->max_live)
        g->max_live = g->live;
    g->last_t = ev->time;
    g->events++;
    if (++g->count >= g->stride) {
        g->count = 0;
        gcs_point(g);
    }
    return 0;
}

static void gcs_end(void *self, const ev_stream *s)
{
    html_gcseries *g = self;
    (void)s;
    if (g->events && g->count)
        gcs_point(g);
}

static const uint16_t gcs_types[] = { EL_HEAP_SIZE, EL_HEAP_LIVE, EL_HEAP_ALLOCATED };
const ev_analysis_ops html_gcseries_ops = {
    "gc series", gcs_types, sizeof gcs_types / sizeof gcs_types[0], 0, gcs_event, gcs_end,
    NULL, NULL,
    NULL, NULL, NULL,   /* not mergeable */
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
