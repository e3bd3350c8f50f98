/* ticky/: private structures shared by counters.c, text.c and report.c. */
#ifndef EVPROF_TICKY_INTERNAL_H
#define EVPROF_TICKY_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "evprof/ticky.h"
#include "util/account.h"
#include "util/htab.h"

#define TK_NOT_SHOWN UINT32_MAX

/* A counter: the public record, then the per-batch state of the passes. */
typedef struct tk_counter {
    ticky_counter pub;
    uint64_t last_batch;            /* number of the batch of its last sample; 0: none */
    uint64_t b_entries, b_alloc, b_allocd;   /* series: the open batch */
    uint64_t c_entries, c_alloc, c_allocd;   /* series: running totals */
    uint32_t rank;                  /* series: place in the view, or TK_NOT_SHOWN */
    uint8_t touched;                /* series: has a row in the open batch */
    /* kept points (ticky_keep_series): time, entries and alloc columns of
     * keep_points each; pwidth samples per point, ppending in the open one */
    uint64_t *pts;
    uint32_t pn;
    uint64_t pwidth, ppending;
} tk_counter;

typedef struct tk_chunk {
    struct tk_chunk *next;
    size_t used, cap;
    char data[];
} tk_chunk;

/* Batches: a 212 opens one. Before any 212, an implicit one opens at the
 * first sample, at a sample of a counter that already has one in the open
 * batch (GHC posts each counter at most once per batch), and at a sample
 * TK_IMPLICIT_GAP_NS or more after the previous one (GHC posts a batch in
 * one loop, microseconds apart; batches are an -i interval apart). */
#define TK_IMPLICIT_GAP_NS 10000000u
typedef struct tk_batch {
    int explicit_seen;              /* a 212 was read */
    int open;
    int in_window;
    uint64_t no;                    /* 1, 2, ...; 0 before the first */
    uint64_t time;
    uint64_t last_time;             /* of the latest sample */
} tk_batch;

struct ticky_set {
    tk_counter *c;
    size_t n, cap;
    tx_htab by_id;                  /* counter id -> index into c */
    tk_chunk *strings;
    const ev_select *sel;           /* the read's selection (the driver's; NULL: all) */
    uint64_t from_ns, to_ns;        /* its hull */
    ticky_info info;
    tk_batch b;
    /* what the counts cover (ticky_coverage_of): the latest sample or
     * batch start of the first pass, the latest STOP_THREAD, the log's
     * last event (the driver's end) */
    int has_counted, has_threads_end, has_log_end;
    uint64_t counted_until, threads_end, log_end;
    int failed;                     /* out of memory (sticky) */
    /* the memory budget (budget.h) and what the set charged to it: the
     * counters, their id table and strings */
    ev_account mem;
    int finished;
    uint64_t taken, take_limit;     /* ticky_set_event_limit */
    uint32_t keep_points;           /* ticky_keep_series; 0: none */
    int points_failed;              /* a point column could not be allocated */
    /* the series pass */
    int series;                     /* in the second pass */
    int stopped;                    /* the callback asked to stop */
    int cumulative;
    ticky_batch_fn fn;
    void *fn_ctx;
    uint64_t *touched;              /* counters with a row in the open batch
                                       (index; rank in the high half to sort) */
    size_t ntouched;
    ticky_row *rows;
};

/* Counter for `id`, created if new (undefined, in input order); NULL when
 * memory ran out. */
tk_counter *ticky_counter_get_(ticky_set *t, uint64_t id);
/* A NUL-terminated copy owned by the set, or NULL (no memory). */
char *ticky_strdup_(ticky_set *t, const char *s, size_t len);

#endif
