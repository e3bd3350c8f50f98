/* The parallel read of a regular file (driver/parallel.c). Private to the
 * driver. */
#ifndef EVPROF_DRIVER_PARALLEL_H
#define EVPROF_DRIVER_PARALLEL_H

#include "evprof/driver.h"

/* What the driver lends the parallel read: its analyses and dispatch. */
typedef struct ev_par_host {
    unsigned n;
    const ev_analysis_ops *ops[EV_MAX_ANALYSES];
    void *self[EV_MAX_ANALYSES];
    uint32_t mergeable;                         /* the analyses read in ranges */
    uint32_t deferred;      /* not mergeable: the ranges hold their records for replay */
    uint32_t (*wanted)(const void *ctx, uint16_t type);   /* analyses of a type */
    const void *ctx;
} ev_par_host;

typedef struct ev_par ev_par;

/* The least bytes a range gets (without a test's chunk size): a file under
 * two of them is read on one thread. */
#define EV_PAR_MIN_RANGE ((uint64_t)32 << 20)

/* Reads the header, indexes the blocks and starts the workers on ranges
 * of whole blocks. NULL when the file is not fit (irregular, or out of
 * memory): *why says why (a static text); nothing was fed then. */
ev_par *ev_par_start(const ev_par_host *host, const char *path, uint64_t size,
                     const el_read_opts *ro, unsigned threads, uint64_t chunk_bytes,
                     uint64_t hold_bytes, const ev_stream *stream0, const char **why);
unsigned ev_par_ranges(const ev_par *par);
/* The analyses whose records the ranges hold: host->deferred, or none
 * when a sample of the file says they would not fit (those analyses
 * then take the sequential pass, with one worker less). */
uint32_t ev_par_deferred(const ev_par *par);
/* Waits for the workers, calling progress (may be NULL) about every 50 ms
 * with s->read.bytes set to the bytes read so far. Returns 0 when every
 * record of the deferred analyses is held; 1 when holding stopped (too
 * many records: the caller reads them sequentially, the workers may
 * still run then). With s NULL it only waits for the workers. */
int ev_par_wait(ev_par *par, ev_progress_fn progress, void *ctx, ev_stream *s);
/* After a clean read with everything held: feeds the held records, in
 * file order, decoded as the sequential read decodes them, to fn.
 * Returns 0, 1 when fn stopped, -1 out of memory (nothing fed), -2 a
 * record that did not decode again. */
int ev_par_replay(ev_par *par, int (*fn)(void *ctx, const el_event *ev), void *ctx);
/* The header decoder (the log's types), for the stream during a replay. */
const el_decoder *ev_par_header(const ev_par *par);
/* After the workers: 1 when every range read cleanly, else 0 and *why. */
int ev_par_ok(ev_par *par, const char **why);
/* The stream's facts of a clean parallel read (what the sequential read
 * would have said). */
void ev_par_facts(const ev_par *par, el_read_result *r, uint64_t *last_time);
/* Merges the partials of ranges 1, 2, ... into range 0's, in order, and
 * drops them. Returns 0, or -1 when a merge failed (the analyses are
 * untouched: drop the attempt). */
int ev_par_merge_parts(ev_par *par);
/* Then range 0's partial (all of them) into each analysis, and drops it.
 * Returns 0, or -1 with the analysis whose merge failed. */
int ev_par_merge(ev_par *par, unsigned *failed_analysis);
/* The header decoder (the types), for the stream; the caller destroys it. */
el_decoder *ev_par_take_header(ev_par *par);
/* After a clean read that counted types (el_read_opts.count_types): the
 * events and bytes of each of the header's types (el_decoder_tally's
 * order) that the ranges read, and in *sample_caps the union of their
 * samples' capabilities (el_decoder_sample_caps), else NULL for both; the
 * caller frees them. */
el_type_tally *ev_par_take_tally(ev_par *par, uint8_t **sample_caps);
/* Stops the workers, drops every partial left, frees. Accepts NULL. */
void ev_par_discard(ev_par *par);

#endif
