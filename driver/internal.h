/* The driver's insides (private): the pipeline every read runs, the test
 * hooks, and what the parallel read (parallel.c) shares with driver.c. */
#ifndef EVPROF_DRIVER_INTERNAL_H
#define EVPROF_DRIVER_INTERNAL_H

#include "driver/order.h"
#include "evprof/driver.h"
#include "evprof/select.h"

/* ---- test hooks (the CLI takes them from $EVPROF_TEST_* variables) ------ */

typedef struct ev_driver_test_hooks {
    /* The size in bytes a range of the parallel read aims at (whole
     * blocks, at least one); 0: the file split in `jobs` ranges of about
     * equal bytes, 32 MiB at least. 1 puts every block in a range of its
     * own (and reads small files in ranges too). */
    uint64_t chunk_bytes;
} ev_driver_test_hooks;

void ev_driver_set_test_hooks(ev_driver *d, const ev_driver_test_hooks *h);

/* ---- the pipeline --------------------------------------------------------
 *
 * source ─► decoder ─► [time-order stage] ─► [selection stage] ─► analyses
 *
 * One pipeline (ev_pipe) is fed by el_pump; a sequential read has one over
 * the attached analyses, the parallel read one per range over their
 * partials (the same code, ev_pipe_event). */

typedef struct ev_dispatch {
    unsigned n;
    const ev_analysis_ops *ops[EV_MAX_ANALYSES];
    uint32_t by_type[256];      /* which analyses read a type id < 256 */
    uint32_t every;             /* analyses handed every event */
    uint32_t live;              /* fed during the read */
    uint32_t ordered;           /* fed in time order after it (the order stage) */
    uint32_t selected_only;     /* EV_SELECTED: only events inside the selection */
    const ev_select *select;    /* the selection stage's (NULL: none) */
} ev_dispatch;

static inline uint32_t ev_dispatch_wanted(const ev_dispatch *x, uint16_t type)
{
    return (type < 256 ? x->by_type[type] : 0) | x->every;
}

typedef struct ev_pipe {
    const ev_dispatch *x;
    void *self[EV_MAX_ANALYSES];    /* the analyses, or a range's partials */
    ev_stream *s;                   /* the read's facts the analyses see */
    uint32_t feed;                  /* the analyses fed during the read */
    /* the sequential read only (NULL/0 in a range) */
    ev_order *order;                /* the order stage's runs */
    ev_spool *spool;                /* a stream's records for the order stage */
    ev_progress_fn progress;
    void *progress_ctx;
    uint64_t next_progress;
} ev_pipe;

/* The per-event entry of a pipeline (el_pump_fn; ctx: the ev_pipe). */
int ev_pipe_event(void *ctx, el_event *ev, const el_decoder *dec);

/* ---- the parallel read (parallel.c) ----------------------------------- */

/* The least bytes a range gets (without a test's chunk size): a file under
 * two of them is read on one thread. */
#define EV_PAR_MIN_RANGE ((uint64_t)32 << 20)

typedef struct ev_par_job {
    const ev_dispatch *x;
    void *const *self;              /* the attached analyses (merged into) */
    const char *path;
    uint64_t size;
    const el_read_opts *ro;
    unsigned threads;
    uint64_t chunk_bytes;
    ev_stream *s;                   /* the read's facts, set on success */
    ev_progress_fn progress;
    void *progress_ctx;
} ev_par_job;

typedef struct ev_par_out {
    el_decoder *header;             /* the log's types (the caller destroys it) */
    el_type_tally *tally;           /* with count_types: summed over the ranges */
    uint8_t *sample_caps;
    unsigned failed_merge;          /* the analysis whose last merge failed */
} ev_par_out;

/* Reads the file as N pipelines over ranges of whole blocks, merged in
 * file order into the attached analyses. Returns 1 done (j->s holds the
 * facts; a last merge that failed stops the read, out->failed_merge), 0
 * when the read must be sequential (nothing was fed; *why says why, a
 * static text). */
int ev_par_read(const ev_par_job *j, ev_par_out *out, const char **why);

#endif
