/* gc/: the heap over time (gc_keep_series), private to summary.c.
 *
 * Heap size, live data and allocation from HEAP_SIZE, HEAP_LIVE and
 * HEAP_ALLOCATED. The log holds them per capability block, not in time
 * order across capabilities, so they go into time buckets: `cap` of equal
 * width, the width doubling (neighbours merged) when an event lies past
 * the last; per bucket the largest heap size and live data seen (peaks
 * survive) and the allocation, each capability's counter growth taken in
 * that capability's own order (the caller's). A bucket's contents do not
 * depend on the order its events came in, so partials of the parallel
 * read merge exactly (gc_series_merge_). Fixed memory: `cap` buckets. */
#ifndef EVPROF_GC_SERIES_H
#define EVPROF_GC_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "evprof/gc.h"

typedef struct gc_series_bucket {
    uint64_t t;                     /* its last event's time */
    uint64_t alloc;                 /* allocation in it, all capabilities */
    uint64_t size, live;            /* the largest seen in it */
    uint8_t used, has_size, has_live;
} gc_series_bucket;

typedef struct gc_series {
    gc_series_bucket *b;
    size_t cap;                     /* buckets: even, at least 4 */
    uint64_t width;                 /* ns per bucket */
} gc_series;

/* The bytes gc_series_init_ allocates for `points`. */
size_t gc_series_bytes_(uint32_t points);
/* 0, or -1 without memory. */
int gc_series_init_(gc_series *g, uint32_t points);
void gc_series_free_(gc_series *g);
/* A copy of from into an empty g. 0 or -1. */
int gc_series_copy_(gc_series *g, const gc_series *from);

/* One event at time t: HEAP_SIZE's or HEAP_LIVE's bytes, or allocation
 * (a capability counter's growth, possibly 0). */
void gc_series_size_(gc_series *g, uint64_t t, uint64_t bytes);
void gc_series_live_(gc_series *g, uint64_t t, uint64_t bytes);
void gc_series_alloc_(gc_series *g, uint64_t t, uint64_t bytes);

/* Folds q's buckets into p's. */
void gc_series_merge_(gc_series *p, const gc_series *q);

/* The used buckets in time order into pts (room for g->cap): sizes and
 * live data as the latest seen by then, allocation summed. Returns how
 * many. */
size_t gc_series_points_(const gc_series *g, gc_point *pts);

#endif
