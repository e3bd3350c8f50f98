/* The heap over time: see series.h. */
#include "series.h"

#include <stdlib.h>
#include <string.h>

size_t gc_series_bytes_(uint32_t points)
{
    size_t cap = points < 4 ? 4 : points;
    return (cap + (cap & 1)) * sizeof(gc_series_bucket);
}

int gc_series_init_(gc_series *g, uint32_t points)
{
    g->cap = points < 4 ? 4 : points;
    g->cap += g->cap & 1;
    g->width = 1000;                /* 1 us: doubled as the log goes on */
    g->b = calloc(g->cap, sizeof *g->b);
    return g->b ? 0 : -1;
}

void gc_series_free_(gc_series *g)
{
    free(g->b);
    g->b = NULL;
}

int gc_series_copy_(gc_series *g, const gc_series *from)
{
    *g = *from;
    if (!(g->b = malloc(from->cap * sizeof *g->b)))
        return -1;
    memcpy(g->b, from->b, from->cap * sizeof *g->b);
    return 0;
}

static void merge_bucket(gc_series_bucket *to, const gc_series_bucket *b)
{
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

/* The width doubled: neighbours merged. */
static void widen(gc_series *g)
{
    for (size_t i = 0; i < g->cap / 2; i++) {
        gc_series_bucket m = g->b[2 * i];
        merge_bucket(&m, &g->b[2 * i + 1]);
        g->b[i] = m;
    }
    memset(g->b + g->cap / 2, 0, g->cap / 2 * sizeof *g->b);
    g->width *= 2;
}

/* The bucket of time t, the width doubled until t fits; marked used. */
static gc_series_bucket *bucket_of(gc_series *g, uint64_t t)
{
    while (t / g->width >= g->cap)
        widen(g);
    gc_series_bucket *k = &g->b[t / g->width];
    if (!k->used || t > k->t)
        k->t = t;
    k->used = 1;
    return k;
}

void gc_series_size_(gc_series *g, uint64_t t, uint64_t bytes)
{
    gc_series_bucket *k = bucket_of(g, t);
    if (!k->has_size || bytes > k->size)
        k->size = bytes;
    k->has_size = 1;
}

void gc_series_live_(gc_series *g, uint64_t t, uint64_t bytes)
{
    gc_series_bucket *k = bucket_of(g, t);
    if (!k->has_live || bytes > k->live)
        k->live = bytes;
    k->has_live = 1;
}

void gc_series_alloc_(gc_series *g, uint64_t t, uint64_t bytes)
{
    bucket_of(g, t)->alloc += bytes;
}

void gc_series_merge_(gc_series *p, const gc_series *q)
{
    while (p->width < q->width)
        widen(p);
    /* widths are 1 us times powers of two: q's bucket lies in one of p's */
    uint64_t k = p->width / q->width;
    for (size_t i = 0; i < q->cap; i++)
        if (q->b[i].used)
            merge_bucket(&p->b[i / k], &q->b[i]);
}

size_t gc_series_points_(const gc_series *g, gc_point *pts)
{
    uint64_t size = 0, live = 0, alloc = 0;
    size_t n = 0;
    for (size_t i = 0; i < g->cap; i++) {
        const gc_series_bucket *k = &g->b[i];
        if (!k->used)
            continue;
        if (k->has_size)
            size = k->size;
        if (k->has_live)
            live = k->live;
        alloc += k->alloc;
        pts[n++] = (gc_point){ k->t, size, live, alloc };
    }
    return n;
}
