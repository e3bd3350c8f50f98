/* evprof: the live model behind `evprof top`: what a running program did
 * in the last interval and since the start, from one read of its log.
 *
 * A live_top attaches its analyses to a driver (the time profile, the GC
 * summary, the heap profile, the ticky counters, and a small one of its
 * own for threads, blocks and the program). At each refresh, from the
 * driver's on_tick, live_top_frame() takes snapshots (time in proportion
 * to the aggregates, never to the log) and gives the figures of the
 * interval since the previous frame and since the start:
 *
 *     live_top *t = live_top_create(NULL);
 *     live_top_attach(t, driver);
 *     // in on_tick(ctx, stream):
 *     const live_frame *f = live_top_frame(t, stream);
 *     live_frame_json(f, stdout);             // one NDJSON line
 *
 * Intervals are by arrival: an interval holds the events that were read
 * during it (see docs/LIVE.md, "Time order"). Cumulative figures are the
 * batch analyses' own: at the end of the log, the last frame's ticks per
 * cost centre equal those of `evprof report` on the complete log.
 */
#ifndef EVPROF_LIVE_H
#define EVPROF_LIVE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "evprof/driver.h"
#include "evprof/gc.h"
#include "evprof/heap.h"
#include "evprof/prof.h"
#include "evprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum live_sort {
    LIVE_SORT_INTERVAL = 0,     /* individual ticks in the last interval (default) */
    LIVE_SORT_TOTAL,            /* individual ticks since the start */
    LIVE_SORT_INHERITED,        /* inherited ticks since the start */
    LIVE_SORT_COUNT
} live_sort;

EVPROF_API const char *live_sort_name(live_sort s);    /* "interval", "total", "inherited" */

typedef struct live_opts {
    unsigned top_n;             /* rows per list (cost centres, bands, ticky); 0: 10 */
    live_sort sort;
    const prof_filter *samples; /* the cost-centre lists' focus/ignore; NULL: all.
                                   The time windows and capability of every figure
                                   are the driver's selection (ev_driver_opts.select),
                                   as `evprof gc` takes it */
    heap_exe_opts exe;          /* -hi bands no IPE entry names: the executable's
                                   symbols (heap.h) */
} live_opts;

EVPROF_API void live_opts_init(live_opts *o);

/* A cost centre, with the report's label, module and source location
 * (owned by the frame): namesakes (prof_namesakes) are rows of their own,
 * told apart by srcloc. */
typedef struct live_cc_row {
    uint32_t id;                /* GHC's cost-centre id */
    const char *label, *module, *srcloc;
    uint64_t ticks, interval;               /* individual: since the start, last interval */
    uint64_t inherited, inherited_interval; /* this cc and what it called (a recursive
                                               cc counted once), likewise */
} live_cc_row;

/* The upper bounds of the GC pause histogram's buckets, in ns: 10 us to
 * 10 s in steps of 1, 2.5, 5. */
#define LIVE_PAUSE_BOUNDS 19
EVPROF_API extern const uint64_t live_pause_bound_ns[LIVE_PAUSE_BOUNDS];

/* Memory and GC: the latest values and the interval's changes. */
typedef struct live_mem {
    int has_heap;               /* HEAP_SIZE / HEAP_LIVE seen */
    uint64_t heap_size;         /* latest HEAP_SIZE */
    uint64_t live_bytes;        /* latest HEAP_LIVE (after the last major GC) */
    uint64_t allocated;         /* all capabilities' HEAP_ALLOCATED, summed */
    uint64_t alloc_interval;    /* bytes allocated in the interval */
    double alloc_rate;          /* bytes per second of the log's clock, between the
                                   previous frame's latest HEAP_ALLOCATED (the RTS
                                   start for the first) and this one's; 0 without */
    uint64_t gcs, gcs_interval; /* collections */
    uint64_t pause_ns, pause_interval_ns;   /* summed pauses of the leaders */
    uint64_t max_pause_interval_ns;
    /* the pauses' histogram: collections with a known pause, the longest,
     * and per bucket those longer than the bound before and at most
     * live_pause_bound_ns[i] (the last bucket: longer than every bound) */
    uint64_t paused, max_pause_ns;
    uint64_t pause_buckets[LIVE_PAUSE_BOUNDS + 1];
    uint64_t threads;           /* CREATE_THREAD events */
    int has_blocks_size;
    uint64_t blocks_size;       /* latest BLOCKS_SIZE (GHC 9.2 and later) */
} live_mem;

typedef struct live_band {
    const char *name;
    uint64_t bytes;             /* in the latest census */
} live_band;

typedef struct live_ticky_row {
    const char *name;
    uint64_t entries, entries_interval;
    uint64_t allocs, allocs_interval;
} live_ticky_row;

typedef struct live_frame {
    uint64_t seq;               /* 1, 2, ... */
    double wall_s;              /* since the read started */
    double interval_s;          /* wall seconds since the previous frame */
    double log_s;               /* the latest event time, seconds on the log's clock */
    uint64_t bytes;
    uint64_t events, events_interval;   /* every event read, of every type (ev_stream_events_read) */
    double events_per_s;        /* over the interval */
    double cpu_s;               /* CPU time this process has used so far (getrusage) */
    uint64_t max_rss_kb;        /* and its largest resident set, KiB */
    int finished;               /* the read is over */
    int end_marker;             /* ... and the log ended with its end marker */
    /* The header is read, its event types are GHC's before 9.2 (no
     * MEM_RETURN, 90): that RTS writes a capability's events only when its
     * buffer fills (2 MiB on 9.0) and at exit, never every few seconds. */
    int rts_writes_when_full;
    int waiting;                /* no event yet, the read goes on: the figures are
                                   not zero, they have not come */

    uint64_t ticks, ticks_interval;     /* counted as the report counts them */
    uint64_t tick_interval_ns;          /* the sampling interval (PROF_BEGIN) */
    size_t n_ccs;
    const live_cc_row *ccs;             /* top_n, in the sort order */
    size_t n_ccs_all;                   /* cost centres with ticks */

    live_mem mem;

    int has_heap_profile;
    double census_s;                    /* time of the latest census */
    uint64_t census_total;
    size_t n_bands;
    const live_band *bands;             /* top_n of the latest census, largest first */

    size_t n_ticky;
    const live_ticky_row *ticky;        /* top_n by entries in the interval, then total */

    /* the whole lists (n_ccs, n_bands, n_ticky are their first top_n) */
    const live_cc_row *all_ccs;         /* n_ccs_all cost centres with ticks, in no order */
    /* without ticks: why none has come yet, when the log tells
     * (info_no_samples_yet), else NULL */
    const char *no_samples_why;
    size_t n_bands_all;                 /* bands[] of the latest census */
    size_t n_ticky_all;                 /* ticky[] with entries or allocations */

    /* the program (NULL, 0 until its events arrive) */
    const char *program;                /* its first argument (PROGRAM_ARGS) */
    int has_pid;
    uint32_t pid;                       /* OSPROCESS_PID */

    /* the GC summary so far (`evprof gc`'s figures: per generation and
     * capability, copied bytes, maximum residency), a finished copy owned
     * by the frame */
    const gc_result *gc;
} live_frame;

typedef struct live_top live_top;

/* NULL opts: the defaults. NULL when out of memory. */
EVPROF_API live_top *live_top_create(const live_opts *o);
EVPROF_API void live_top_destroy(live_top *t);        /* accepts NULL */

/* Attaches the model's analyses to a driver before its run. 0 or -1. */
EVPROF_API int live_top_attach(live_top *t, ev_driver *d);

/* A new frame: the interval ends now (s: the driver's stream). The frame
 * is owned by t and valid until the next call. NULL when out of memory. */
EVPROF_API const live_frame *live_top_frame(live_top *t, const ev_stream *s);

/* The current frame again, sorted another way (the `s` key of top). */
EVPROF_API const live_frame *live_top_resort(live_top *t, live_sort sort);
/* The live heap profile's facts so far (how its -hi bands were named:
 * heap_info.exe_state). Valid until live_top_destroy. */
EVPROF_API const heap_info *live_top_heap_info(const live_top *t);

/* One JSON object on one line (NDJSON): see docs/LIVE.md for the fields.
 * Returns 0, or -1 on a write error. */
EVPROF_API int live_frame_json(const live_frame *f, FILE *out);

/* ---- starting the program a live view follows (live/launch.c) ---------- */

/* How the program's RTS is told where to write its eventlog, by what the
 * command is (docs/LIVE.md, "Following any command"). */
typedef enum live_launch_way {
    LIVE_LAUNCH_ARGS,           /* a Haskell program: PROG +RTS ... -RTS ARGS */
    LIVE_LAUNCH_LAUNCHER,       /* cabal or stack, whose own RTS takes GHCRTS and
                                   +RTS before a "--": PROG ARGS [--] +RTS ... -RTS,
                                   handed to the program it runs */
    LIVE_LAUNCH_ENV,            /* anything else (a script): GHCRTS in its
                                   environment, read by every Haskell program it
                                   starts */
} live_launch_way;
EVPROF_API const char *live_launch_way_name(live_launch_way w);   /* "args", ... */

typedef struct live_launch_opts {
    const char *eventlog;       /* where the RTS writes (+RTS -ol): a FIFO's path */
    double flush_s;             /* --eventlog-flush-interval, where the GHC takes it
                                   (9.2 and later); default 0.5 */
    const char *ghc_version;    /* the program's GHC ("9.6.6") when the command is
                                   not the program; NULL: the ghc on PATH's */
    const char *output;         /* the program's standard output and error go to
                                   this file; NULL: standard error (or /dev/null
                                   when quiet) */
    int quiet;
} live_launch_opts;
EVPROF_API void live_launch_opts_init(live_launch_opts *o);

typedef struct live_launch {
    pid_t pid;                  /* the command's process, -1 before the start */
    live_launch_way way;
    int flush;                  /* --eventlog-flush-interval was passed */
    char version[32];           /* the GHC version the flush was judged on, or "" */
    char said[1200];            /* one line: what was passed, and why */
} live_launch;

/* Starts argv[0..argc) (execvp) with the eventlog options its way. The
 * command's own standard input is evprof's. EV_OK, or an error with err
 * filled (it did not start: a FIFO path with a space, out of memory, fork
 * failed); a command that cannot be executed starts and exits 127. */
EVPROF_API ev_status live_launch_start(live_launch *l, char *const *argv, int argc,
                                       const live_launch_opts *o, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
