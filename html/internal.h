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
#include "evprof/json.h"
#include "evprof/prof.h"
#include "evprof/ticky.h"
#include "sched/machine.h"
#include "util/account.h"
#include "util/htab.h"
#include "util/idmap.h"

/* ---- text (html/text.c) ----------------------------------------------
 * The page's JSON is written by tx_json in its html-safe mode
 * (evprof/json.h): '<' '>' '&' U+2028 U+2029 as \u escapes, so that no
 * "</script" nor "<!--" can appear in the data block. */
/* Text for HTML markup (element content or a quoted attribute): & < > " '
 * as references, control bytes dropped, bad UTF-8 as U+FFFD. */
void html_text(FILE *f, const char *s, size_t len);

/* Every event counted by the decoder (EV_COUNTS), for the summary. */
extern const ev_analysis_ops html_counts_ops;


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

/* ---- the timeline (html/timeline.c) ---------------------------------------
 * The run in at most TL_BINS bins of time, fixed from time 0 on the log's
 * clock: a bin is TL_BIN0 ns at first, and when an event comes past the
 * last bin every pair of bins merges (the width doubles) until it fits, so
 * 512 to 1024 bins are used whatever the log's length. Per bin: each
 * capability's mutator and GC time (its first TL_CAPS capabilities),
 * collections and the longest pause, threads created, finished, blocked
 * and woken, sparks (their events, or the growth of SPARK_COUNTERS; and
 * per capability the growth of its SPARK_COUNTERS and its pool), heap
 * size and live data (the largest), bytes allocated, the counted samples;
 * per labelled thread (THREAD_LABEL: the first TL_LABELLED) its running
 * and blocked time. And the time profile's cells: per bin of the profile
 * (a lane bin or a merged pair of them, ...) the samples of each stack,
 * the stack known by a 64-bit hash of its path (hash_path_step), to be
 * mapped onto the page's tree after the read. Three sets of cells, each
 * holding every sample: by the whole stack, by its outer TL_PREFIX_MID
 * frames and by its outer TL_PREFIX_LOW frames (the hashes are steps of
 * the same walk down the stack). A set holds at most its TL_CELLS_* cells:
 * past that its bins merge in pairs; at TL_CELL_BINS_MIN bins it is given
 * up. The page takes the deepest set left with bins enough (the page says
 * which). Memory: fixed arrays, the cells' tables (charged to the read's
 * budget as a cache: refused, a set is given up), a label per labelled
 * thread. */
#define TL_BINS 1024
#define TL_BIN0 16384u              /* ns: the first bins' width (1024 of them: 16 ms) */
#define TL_CAPS 64
#define TL_LABELLED 32              /* labelled threads with a lane */
#define TL_THREADS 1000             /* labelled threads listed */
#define TL_LABEL_BYTES 200          /* of a thread's label kept */
#define TL_CELL_SETS 3
#define TL_CELLS_FULL (1u << 18)    /* cells by the whole stack */
#define TL_CELLS_MID (1u << 17)     /* by its outer TL_PREFIX_MID frames */
#define TL_CELLS_LOW (1u << 15)     /* by its outer TL_PREFIX_LOW frames */
#define TL_PREFIX_MID 8
#define TL_PREFIX_LOW 2
#define TL_CELL_BINS_MIN 4

/* The kinds before TL_SPARK_STOLEN are SPARK_COUNTERS' own (TL_SPARK_COUNTED). */
enum { TL_SPARK_CREATED, TL_SPARK_DUD, TL_SPARK_OVERFLOWED, TL_SPARK_CONVERTED,
       TL_SPARK_GCD, TL_SPARK_FIZZLED, TL_SPARK_STOLEN, TL_SPARK_KINDS };
#define TL_SPARK_COUNTED TL_SPARK_STOLEN

typedef struct tl_cap {
    uint32_t capno;
    sched_cap sched;                /* running, GC, idle (sched/machine.h) */
    uint64_t *mut, *gc;             /* ns per bin */
    uint64_t alloc;                 /* HEAP_ALLOCATED's last value */
    uint64_t spark[TL_SPARK_KINDS]; /* SPARK_COUNTERS' last values */
    uint64_t pool;
    /* From the capability's first SPARK_COUNTERS on (NULL before): per bin
     * each counter's growth (the counters are cumulative, so a bin's
     * running sum is the counter's value at its end), and the largest
     * `remaining` in the bin plus one (0: no SPARK_COUNTERS in the bin,
     * so that an empty pool is told from no sample) */
    uint64_t *spark_grow[TL_SPARK_COUNTED], *spark_pool;
} tl_cap;

typedef struct tl_thread {
    uint32_t tid;
    char *label;
    uint32_t label_len;
    sched_thread sched;             /* from its label on (sched/machine.h) */
    uint64_t labelled_ns, finished_ns;
    uint64_t run_ns, blocked_ns;
    int lane;                       /* -1: none */
} tl_thread;

typedef struct tl_cell {
    uint64_t hash;                  /* the stack's (or its prefix's) */
    uint64_t count;                 /* 0: an empty slot */
} tl_cell;

/* One bin's cells: an open-addressing table, at most half full. A bin's
 * own table keeps the probes of a stretch of the log in a few cache
 * lines' worth of memory, where one table of every bin missed the cache
 * on every sample (measured: a fifth of the page's time). */
typedef struct tl_bincells {
    tl_cell *slots;
    uint32_t cap, n, last;          /* last: the slot of the bin's last sample */
} tl_bincells;

typedef struct tl_cellset {
    uint32_t prefix;                /* frames of the stack kept; 0: all */
    size_t limit;                   /* most cells, over every bin */
    size_t n;
    tl_bincells bins[TL_BINS];      /* a cell's bin: the lane bin >> kshift */
    uint32_t kshift;
    int dropped;
} tl_cellset;

typedef struct html_timeline {
    prof_filter f;                  /* `all` (the windows and capability: the
                                       driver's selection stage) */
    uint64_t w;                     /* bin width, ns: a power of two */
    uint32_t wshift;                /* its log2 */
    uint32_t n;                     /* bins used */
    uint64_t end;                   /* the latest event time */
    tl_cap caps[TL_CAPS];
    uint32_t ncaps, caps_over;      /* capabilities past TL_CAPS: their events skipped */
    uint8_t cap_slot[TL_CAPS];      /* capability number -> slot + 1 (0: none yet) */
    uint64_t *gc_count, *gc_pause, *created, *finished, *blocked, *woken;
    uint64_t *spark_ev[TL_SPARK_KINDS], *spark_cnt[TL_SPARK_KINDS], *pool;
    uint64_t *heap_size, *heap_live, *alloc, *samples;
    int has_spark_ev, has_spark_cnt, has_threads, has_heap, has_caps;
    tl_thread *threads;             /* labelled threads, at most TL_THREADS */
    size_t nthreads, threads_over;
    tx_idmap thread_ids;            /* tid -> index into threads */
    uint64_t *lane_run[TL_LABELLED], *lane_blocked[TL_LABELLED];
    uint32_t nlanes;
    uint32_t builtin[16];           /* GHC ids of the built-in cost centres */
    uint32_t nbuiltin;
    tl_cellset sets[TL_CELL_SETS];  /* the profile's cells: whole stacks, then prefixes */
    uint64_t samples_counted, sample_events;
    int cells_yielded;              /* sets given up to the memory budget */
    ev_account mem;
    int nomem;
} html_timeline;

extern const ev_analysis_ops html_timeline_ops;
int html_timeline_init(html_timeline *t, const prof_filter *f);
void html_timeline_free(html_timeline *t);
/* What the page's timeline holds (for the CLI's messages and the tests). */
typedef struct html_tl_out {
    uint32_t bins;                  /* lane bins */
    uint64_t bin_ns;
    uint32_t prof_bins;             /* the profile's bins in the page */
    uint64_t prof_bin_ns;
    size_t cells;                   /* (bin, node) cells sent */
    const char *prof_status;        /* "ok", or why a range has no profile */
    uint32_t prof_prefix;           /* 0: the cells keep whole stacks, else this many frames */
} html_tl_out;

/* The page's "timeline" object. kept[n], sent_of[n]: the page's tree
 * (node n sent, its index there; NULL: no tree). The cells go onto the
 * nearest sent node of their stack, and the profile's bins merge in pairs
 * until at most max_cells are sent. Returns 0, or -1 without memory. */
int html_timeline_write(tx_json *j, const html_timeline *t, const prof_result *r,
                        const uint8_t *kept, const uint32_t *sent_of, size_t max_cells,
                        html_tl_out *o);

/* A test hook (tests only, not API): the cells each set of the timeline
 * keeps while reading (0: its own), so that a small log reaches the
 * limits of a big one. Before the read. */
void html_page_set_test_cells(html_page *pg, uint32_t cells);
/* The page's heap profile's facts (the command's notes). */
const heap_info *html_page_heap_info(const html_page *pg);

#endif
