/* evprof: the `+RTS -s` memory and GC summary, rebuilt from GC events.
 *
 * A gc_summary consumes decoded events (HEAP_ALLOCATED, HEAP_SIZE,
 * HEAP_LIVE, HEAP_INFO_GHC, GC_STATS_GHC, GC_START/GC_END, SPARK_COUNTERS,
 * RUN_THREAD/STOP_THREAD, RTS_IDENTIFIER, the non-moving collector's
 * CONC_*, TASK_CREATE/TASK_DELETE, OSPROCESS_PID, PROGRAM_ARGS) in the
 * order the log stores them, and aggregates per capability and per
 * generation: its memory grows with the number of capabilities and
 * generations, never with the number of events.
 *
 *     gc_summary *s = gc_create(NULL);             // NULL: whole run, every cap
 *     for each event: gc_add_event(s, ev);         // or attach &gc_analysis_ops
 *     gc_summary *snap = gc_snapshot(s);           // a finished copy; s goes on
 *     gc_report_text(snap, NULL, stdout);
 *     gc_destroy(snap);
 *     gc_destroy(s);
 *
 * A summary is either aggregating or finished. Results and writers need a
 * finished one (gc_snapshot's copy, or gc_finish at the very end) and
 * refuse otherwise; a finished summary refuses more events.
 *
 * How each figure follows from the events, and which ones equal GHC's own
 * `+RTS -s` exactly, is in docs/GC.md.
 */
#ifndef EVPROF_GC_H
#define EVPROF_GC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evprof/format.h"
#include "evprof/driver.h"
#include "evprof/eventlog.h"
#include "evprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The event types a gc_summary reads (for el_decoder_only_fields). */
EVPROF_API extern const uint16_t gc_event_types[];
EVPROF_API extern const size_t gc_num_event_types;

typedef struct gc_summary gc_summary;

/* The part of the run summarised is the driver's selection
 * (ev_driver_opts.select: time windows, and the capability whose
 * allocation, sparks and table row are shown); fed without a driver
 * (gc_add_event), the whole run. */
EVPROF_API gc_summary *gc_create(void);                    /* NULL: no memory */
EVPROF_API void gc_destroy(gc_summary *s);                 /* accepts NULL */

/* Consume one event. Returns 0, or -1 when memory ran out (sticky) or
 * the summary is finished. */
EVPROF_API int gc_add_event(gc_summary *s, const el_event *ev);

/* The same as an analysis of the driver; its snapshot is a finished
 * gc_summary (release: gc_destroy). It sets the time span at the end. */
EVPROF_API extern const ev_analysis_ops gc_analysis_ops;

/* One collection, as soon as it is complete: the leader's GC_STATS_GHC
 * (its time, generation, bytes copied, GC threads) and, when the leader
 * wrote GC_START/GC_END around it, the pause. Only collections inside
 * the selection's windows are reported, once each, however many capabilities
 * took part. */
typedef struct gc_collection {
    uint64_t time_ns;               /* of its GC_STATS_GHC */
    int has_pause;
    uint64_t start_ns, end_ns;      /* the leader's GC_START .. GC_END */
    uint16_t gen;
    uint32_t leader;                /* capability, or EL_NO_CAP */
    uint64_t copied_bytes;
    uint32_t par_threads;
} gc_collection;
typedef void (*gc_collection_fn)(void *ctx, const gc_collection *c);
EVPROF_API void gc_on_collection(gc_summary *s, gc_collection_fn fn, void *ctx);

/* Keep the heap over time as well, for a chart: at most `points` points
 * (an even number, at least 4) of heap size, live data and allocation.
 * The events go into time buckets of equal width (1 us at first, doubled,
 * neighbours merged, when an event lies past the last): per bucket the
 * largest heap size and live data seen in it (peaks survive) and the
 * allocation, each capability's HEAP_ALLOCATED growth taken in that
 * capability's own order, so the log's per-capability blocks add up in
 * time order. The whole log, not only the selection (a chart of the run).
 * points x 40 bytes, charged to the read's memory budget (ev_stream.budget)
 * when attached to a driver; the parallel read merges it exactly. Call
 * before adding events: 0, or -1 when it is too late or without memory.
 * The points are in the result (gc_result.points). */
EVPROF_API int gc_keep_series(gc_summary *s, uint32_t points);

/* A finished copy of the summary so far (intervals still open end at the
 * last event seen); s itself is unchanged and takes more events. NULL
 * when out of memory. Destroy with gc_destroy. */
EVPROF_API gc_summary *gc_snapshot(const gc_summary *s);

/* The parallel read (driver.h, ev_analysis_ops fork/merge): an empty
 * partial with s's filter, NULL when out of memory or when s reports
 * collections (gc_on_collection: they must come in file order). gc_merge
 * folds q into p as if p had read q's events after its own (q is left as
 * it was; destroy it with gc_destroy); -1 when out of memory or when q
 * holds too many collection events it could not place (a hostile log:
 * read it sequentially). */
EVPROF_API gc_summary *gc_fork(const gc_summary *s);
EVPROF_API int gc_merge(gc_summary *p, const gc_summary *q);

/* The log's first and last event times, whether or not every event was
 * handed to gc_add_event (el_read_result.first_time/last_time). The whole
 * run is [0, last]: the log's clock starts when the RTS starts, as GHC's
 * elapsed time does. Without it the last event seen is used. */
EVPROF_API void gc_set_time_span(gc_summary *s, uint64_t first, uint64_t last);

/* Done adding, in place: closes intervals still open at the end of the
 * log and computes the summary. Returns 0, or -1 when memory ran out. */
EVPROF_API int gc_finish(gc_summary *s);

/* ---- results (of a finished summary) ------------------------------------ */

typedef struct gc_sparks {
    uint64_t created, dud, overflowed, converted, gcd, fizzled;
} gc_sparks;

/* One generation's row of the collections table. A collection belongs to
 * the window holding its GC_STATS_GHC event. */
typedef struct gc_gen {
    uint32_t collections;
    uint32_t par_collections;       /* GC_STATS_GHC with more than one GC thread */
    uint64_t elapsed_ns;            /* sum of the leading capability's pauses */
    uint64_t avg_pause_ns;          /* elapsed_ns / collections, integer division (GHC) */
    uint64_t max_pause_ns;
    uint64_t copied_bytes;
    uint64_t max_slop_bytes;        /* over this generation's collections */
} gc_gen;

/* What one capability did, elapsed times clipped to the window. */
typedef struct gc_cap {
    uint32_t cap;
    uint64_t allocated_bytes;       /* its HEAP_ALLOCATED counter over the window */
    uint64_t mutator_ns;            /* RUN_THREAD .. STOP_THREAD */
    uint64_t gc_ns;                 /* its own GC_START .. GC_END */
    uint64_t idle_ns;               /* the rest of the window */
    uint32_t gcs;                   /* collections it took part in (GC_END in window) */
    uint32_t led;                   /* collections it led (it wrote their GC_STATS_GHC) */
    uint64_t led_ns;                /* their pauses (the leader's GC_START .. GC_END, as
                                       +RTS -s times them): summed over the capabilities,
                                       the GC time of the generation rows */
    uint64_t max_pause_ns;          /* its longest GC_START .. GC_END */
    gc_sparks sparks;
    uint8_t has_alloc, has_sparks;
} gc_cap;

/* A point of the kept series (gc_keep_series): a bucket's last event
 * time, the heap size and live data as the latest bucket with one had
 * them (0 before the first), the allocation summed up to it. */
typedef struct gc_point {
    uint64_t time_ns;
    uint64_t heap_size_bytes, live_bytes, allocated_bytes;
} gc_point;

typedef struct gc_result {
    /* the window summarised: [from_ns, to_ns], to_ns clipped to the log's end
     * (several windows: their hull, each in windows[]) */
    uint64_t from_ns, to_ns;
    size_t n_windows;               /* the selection's windows before the log's end */
    const ev_span *windows;         /* [n_windows], clipped to the log's end */
    uint64_t log_end_ns;
    int whole_run;                  /* the window holds the whole log, all caps */
    int32_t cap;                    /* the selection's capability, -1 all */

    /* what the log holds (whole log, not only the window) */
    uint64_t n_gc_start, n_gc_end, n_gc_stats, n_heap_alloc, n_heap_size,
             n_heap_live, n_spark_counters;
    int has_gc_events;              /* any GC or heap event at all */
    int has_heap_info;
    int threaded;                   /* threaded RTS (identifier or spark counters) */
    int profiled;                   /* profiled RTS (identifier) */
    int old_gc_stats;               /* some GC_STATS_GHC lack the balanced field */
    char rts_version[64];           /* "GHC-9.0.2 rts_thr_l", or "" */

    /* heap (heap-wide, window only) */
    uint64_t allocated_bytes;       /* summed over the selected capabilities */
    uint64_t copied_bytes;
    uint64_t max_live_bytes;        /* max HEAP_LIVE */
    uint32_t major_gcs;             /* residency samples: collections of the oldest gen */
    uint64_t max_slop_bytes;        /* over major collections */
    /* GHC's "total memory in use": the peak of the megablocks the heap held,
     * which a major collection reaches before it returns megablocks to the
     * OS. The largest of HEAP_SIZE (the heap after each collection) and of
     * MEM_RETURN's megablocks before the return (GHC 9.2 and later, one per
     * major collection) times HEAP_INFO_GHC's megablock size. */
    uint64_t max_mem_in_use_bytes;
    /* 1 when the log cannot give GHC's figure: it has heap sizes but its
     * header declares no MEM_RETURN (GHC 9.0 and older), so a peak inside
     * a collection is not in it: max_mem_in_use_bytes is a lower bound */
    int mem_in_use_lower_bound;
    uint64_t n_mem_return;
    uint64_t max_frag_bytes;        /* max current fragmentation (GC_STATS_GHC) */
    /* the heap now (a live view's figures): the latest HEAP_SIZE and
     * HEAP_LIVE in the windows, latest in the log's order, 0 and has_ 0
     * when none; and the time of the latest HEAP_ALLOCATED inside the
     * selection (windows and capability), 0 when none */
    int has_heap_size, has_live;
    uint64_t heap_size_bytes, live_bytes;
    uint64_t last_alloc_ns;
    uint32_t generations;           /* HEAP_INFO_GHC, else the oldest gen seen + 1 */
    const gc_gen *gens;             /* [generations] */
    uint32_t collections;           /* all generations */

    /* parallel GC */
    uint64_t par_copied_bytes;      /* copied by collections with > 1 GC thread */
    uint64_t par_balanced_copied_bytes;
    double work_balance;            /* balanced / par copied; 0 when none */

    /* sparks, summed over the selected capabilities */
    gc_sparks sparks;
    int has_sparks;

    /* The non-moving collector (+RTS --nonmoving-gc), from the events of
     * its mark thread (CONC_*, 200-205): shown when the log has them or
     * the program's RTS options ask for it (PROGRAM_ARGS). A sync or a
     * concurrent collection belongs to the window that holds its end. */
    int nonmoving;
    uint32_t nonmoving_syncs;       /* GHC's "syncs": the oldest generation's collections */
    uint32_t nonmoving_sync_pairs;  /* the syncs seen: CONC_SYNC_BEGIN .. CONC_SYNC_END */
    uint64_t nonmoving_sync_ns;     /* their sum, GHC's own (its clock beside the events) */
    uint64_t nonmoving_sync_max_ns;
    /* Concurrent collections (those that synchronised): each from its
     * first CONC_MARK_BEGIN to its CONC_SWEEP_END. GHC's clock starts
     * before the first mark pass and stops after the sweep, out of the
     * events' sight: lower bounds of GHC's elapsed figures. */
    uint32_t nonmoving_collections;
    uint64_t nonmoving_elapsed_ns, nonmoving_max_elapsed_ns;
    /* 0: GHC's figure is not in the log at all (GHC before 9.4 prints the
     * process's CPU time in this elapsed column) */
    int has_nonmoving_elapsed;

    /* Tasks (GHC's TASKS line, the threaded RTS), over the whole log:
     * TASK_CREATE/TASK_DELETE and OSPROCESS_PID. The main thread's task
     * (its kernel thread id is the process id) is bound; every other task
     * created is counted a worker (docs/GC.md: threads that call into
     * Haskell from outside, as forkOS's, are counted workers too). */
    int has_tasks;                  /* task events, and the process id */
    uint32_t bound_tasks;           /* the main thread's: 1 when it wrote one */
    /* 1: GHC counts bound tasks that write no event: the non-moving
     * collector's mark thread ran (CONC_MARK_BEGIN) */
    int bound_tasks_lower_bound;
    uint32_t workers;               /* worker tasks created */
    uint32_t peak_workers;          /* the most alive at once (file order: time order) */
    uint32_t n_capabilities;        /* the largest capability created + 1 (GHC's -N) */

    /* elapsed time of the window */
    uint64_t total_ns;              /* the windows' length */
    uint64_t gc_ns;                 /* leading capabilities' pauses, clipped */
    uint64_t mutator_ns;            /* total - gc (INIT and EXIT included) */
    uint64_t alloc_rate;            /* bytes per elapsed MUT second (GHC: per CPU second) */
    double productivity;            /* mutator / total */

    /* capabilities seen, by number (only the selected one with a filter) */
    uint32_t n_caps;
    const gc_cap *caps;
    uint32_t caps_in_log;           /* every capability the log has */

    /* collections whose pause is unknown (no GC_START/GC_END around them) */
    uint64_t collections_without_pause;

    /* the heap over time (gc_keep_series), in time order; 0 points when
     * none was kept */
    size_t n_points;
    const gc_point *points;
} gc_result;

/* NULL when the summary is not finished. */
EVPROF_API const gc_result *gc_get_result(const gc_summary *s);

/* ---- output ----------------------------------------------------------- */

typedef struct gc_report_opts {
    const char *source_name;        /* for the JSON "source"; may be NULL */
} gc_report_opts;

EVPROF_API void gc_report_opts_init(gc_report_opts *o);

/* GHC's `+RTS -s` layout (see docs/GC.md), then the per-capability table
 * and notes. NULL o: the defaults. Returns 0, or -1 on a write error or
 * when s is not finished. */
EVPROF_API int gc_report_text(const gc_summary *s, const gc_report_opts *o, FILE *out);

/* The same figures as one JSON object. Returns 0 or -1. */
EVPROF_API int gc_report_json(const gc_summary *s, const gc_report_opts *o, FILE *out);
/* The formats (evprof/format.h): "text" and "json"; a row's writer takes
 * a finished gc_summary and a gc_report_opts (NULL: the defaults);
 * EV_ERR_USAGE when the summary is not finished. */
EVPROF_API const ev_format *gc_formats(size_t *count);

/* "241,023,752": GHC's showStgWord64 with commas. buf holds at least 27. */
EVPROF_API void gc_commas(char *buf, size_t size, uint64_t v);

#ifdef __cplusplus
}
#endif
#endif
