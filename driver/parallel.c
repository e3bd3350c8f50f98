/* The parallel read (opts.jobs > 1): block markers give each block's
 * size, so a regular file is indexed first (one small pread per block),
 * cut into ranges of whole blocks, and each range is decoded on a worker
 * thread into partial aggregates of the mergeable analyses (ops fork /
 * merge / drop), merged in file order at the end. The records of the
 * analyses that cannot merge but take a few types (GC, heap) are held by
 * the ranges and replayed in file order after them, when a sample of the
 * file says they fit in bounded memory. The rest (EV_ORDERED ones, every
 * event, too many records) take the ordinary sequential pass on the
 * calling thread meanwhile (driver.c).
 *
 * Exactness first: a range decoder starts at a block marker with the
 * header's event types and must end exactly at the range's end (the last
 * one at the end marker, nothing after it); the first range starts where
 * the sequential decoder's first record is, so by induction every range
 * starts on a record boundary of the sequential read and decodes the same
 * records with the same capabilities. Anything irregular (a position that
 * is not a block marker, a block past the end, no end marker or bytes
 * after it, damage in a range, an analysis that stops) abandons the
 * attempt: the partials are dropped and the mergeable analyses are read
 * sequentially, so messages, offsets and partial results are those of
 * one thread. See docs/ARCHITECTURE.md, "The parallel read". */
#include "driver/parallel.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "eventlog/bytes.h"

#define PAR_BUF ((size_t)1 << 20)       /* a worker's read buffer */
#define PAR_HOLD_MAX ((uint64_t)64 << 20) /* records held for replay, all ranges */
#define PAR_MAX_THREADS 64
#define END_MARKER 0xffffu
#define BLOCK_MARKER_SIZE 24u           /* id, time, size, end time, cap */

typedef struct par_range {
    uint64_t start, end;                /* bytes [start, end) */
    void *part[EV_MAX_ANALYSES];        /* the partials, by analysis index */
    uint64_t events, last_time, t_first, t_last;
    el_caps caps;
    int has_span;
    int failed;
    uint8_t *held;                      /* records for the deferred analyses */
    size_t held_len, held_cap;
} par_range;

/* A held record: this head, then the record's bytes. */
typedef struct held_head {
    uint64_t offset;
    uint32_t size;
    uint16_t cap;
} held_head;

struct ev_par {
    const ev_par_host *host;
    int fd;
    uint64_t size;
    el_decoder *header;         /* the header's types and the fields to decode */
    int only_selected;
    uint32_t mask;              /* analyses read in ranges */
    uint32_t deferred;          /* analyses whose records the ranges hold */
    ev_budget *budget;          /* what holding may take (a cache's try) */
    atomic_uint_fast64_t held_bytes;
    atomic_int hold_full;       /* holding stopped: too many records */
    uint64_t hold_max;          /* the most bytes held, all ranges */
    uint64_t *blocks;           /* where each block starts */
    size_t n_blocks;
    par_range *ranges;
    unsigned n_ranges;
    pthread_t threads[PAR_MAX_THREADS];
    unsigned n_threads;
    ev_stream stream0;          /* what an analysis sees of the stream in a range */
    atomic_uint next;           /* the next range to take */
    atomic_int abandon;         /* a range failed: the others stop early */
    atomic_uint running;        /* workers not finished */
    atomic_uint_fast64_t done_bytes;
    const char *why;            /* why the attempt was abandoned (a static text) */
    /* the events and bytes of each type (header order) the ranges read,
     * added by each range as it ends */
    el_type_tally *tally;
    uint8_t *sample_caps;       /* and the capabilities of their samples */
    pthread_mutex_t tally_lock;
};

/* ---- the index -------------------------------------------------------- */

static int pread_all(int fd, void *buf, size_t n, uint64_t off)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = pread(fd, (uint8_t *)buf + got, n - got, (off_t)(off + got));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        got += (size_t)k;
    }
    return 0;
}

/* The header (into par->header) and the offset of the first record. */
static int read_header(ev_par *par, const el_read_opts *ro, uint64_t *data_start)
{
    size_t n = par->size < PAR_BUF ? (size_t)par->size : PAR_BUF;
    uint8_t *buf = malloc(n);
    el_event ev;
    int rc = -1;

    if (!buf || !(par->header = el_decoder_create())) {
        free(buf);
        par->why = "out of memory";
        return -1;
    }
    if (ro->fields)
        el_decoder_only_fields(par->header, ro->fields, ro->num_fields);
    el_decoder_count_types(par->header, ro->count_types);   /* the ranges' too */
    if (pread_all(par->fd, buf, n, 0) != 0) {
        par->why = "cannot read the header";
    } else {
        el_decoder_feed(par->header, buf, n);
        if (el_decoder_next(par->header, &ev) == EL_OK && ev.type == EL_BLOCK_MARKER) {
            *data_start = ev.offset;
            rc = 0;
        } else {
            par->why = "no block marker after the header";
        }
    }
    /* only the header's tables are used from here on */
    el_decoder_feed(par->header, NULL, 0);
    free(buf);
    return rc;
}

/* Walks the block markers from the first record; fills the ranges.
 * Returns 0, or -1 with par->why set. */
static int index_blocks(ev_par *par, uint64_t data_start, unsigned want_ranges,
                        uint64_t chunk_bytes)
{
    const el_event_type *bt = el_decoder_type(par->header, EL_BLOCK_MARKER);
    uint64_t *starts = NULL;
    size_t n = 0, cap = 0;
    uint64_t pos = data_start, end_at;

    if (!bt || bt->size != BLOCK_MARKER_SIZE - 10) {
        par->why = "the header declares block markers of another size";
        return -1;
    }
    for (;;) {
        uint8_t h[BLOCK_MARKER_SIZE];
        if (pos + 2 > par->size) {
            par->why = "no end marker";
            goto fail;
        }
        size_t k = par->size - pos < sizeof h ? (size_t)(par->size - pos) : sizeof h;
        if (pread_all(par->fd, h, k, pos) != 0) {
            par->why = "cannot read a block marker";
            goto fail;
        }
        uint16_t type = be16(h);
        if (type == END_MARKER) {
            if (pos + 2 != par->size) {
                par->why = "bytes after the end marker";
                goto fail;
            }
            end_at = pos;
            break;
        }
        if (type != EL_BLOCK_MARKER || k < BLOCK_MARKER_SIZE) {
            par->why = "a record outside the blocks";
            goto fail;
        }
        uint32_t bsize = be32(h + 10);
        if (bsize < BLOCK_MARKER_SIZE || bsize > par->size - pos) {
            par->why = "a block's size runs past the end";
            goto fail;
        }
        if (n == cap) {
            size_t nc = cap ? cap * 2 : 1024;
            uint64_t *s = realloc(starts, nc * sizeof *s);
            if (!s) {
                par->why = "out of memory";
                goto fail;
            }
            starts = s;
            cap = nc;
        }
        starts[n++] = pos;
        pos += bsize;
        if (pos == par->size) {
            /* GHC 9.2 and later count the end marker into the last block */
            uint8_t e[2];
            if (pos - 2 < starts[n - 1] + BLOCK_MARKER_SIZE ||
                pread_all(par->fd, e, 2, pos - 2) != 0 || be16(e) != END_MARKER) {
                par->why = "no end marker";
                goto fail;
            }
            end_at = pos - 2;
            break;
        }
    }
    if (n == 0) {
        par->why = "no blocks";
        goto fail;
    }
    uint64_t target = chunk_bytes ? chunk_bytes
                                  : (end_at - data_start + want_ranges - 1) / want_ranges;
    if (!target)
        target = 1;
    size_t max = chunk_bytes ? n : (want_ranges < n ? want_ranges : n);
    if (!(par->ranges = calloc(max, sizeof *par->ranges))) {
        par->why = "out of memory";
        goto fail;
    }
    unsigned r = 0;
    par->ranges[0].start = data_start;
    for (size_t b = 1; b < n; b++)
        if (starts[b] - par->ranges[r].start >= target && r + 1 < max) {
            par->ranges[r].end = starts[b];
            par->ranges[++r].start = starts[b];
        }
    par->ranges[r].end = par->size;     /* the last one reads the end marker */
    par->n_ranges = r + 1;
    free(par->blocks);
    par->blocks = starts;               /* kept for the sample (holding_fits) */
    par->n_blocks = n;
    return 0;

fail:
    free(starts);
    return -1;
}

/* ---- how much the deferred analyses would hold -------------------------- */

#define SAMPLE_BLOCKS 16
#define SAMPLE_MAX ((size_t)4 << 20)    /* bytes read of a sampled block */

/* The bytes of records the deferred analyses want in the block at `at`
 * (at most SAMPLE_MAX of it read); *read: the bytes looked at. */
static uint64_t sample_block(ev_par *par, uint64_t at, uint8_t *buf, uint64_t *read)
{
    uint8_t h[BLOCK_MARKER_SIZE];
    uint64_t held = 0;
    el_event ev;

    *read = 0;
    if (pread_all(par->fd, h, sizeof h, at) != 0)
        return 0;
    uint64_t size = be32(h + 10);
    size_t len = size < SAMPLE_MAX ? (size_t)size : SAMPLE_MAX;
    el_decoder *dec = el_decoder_create_for_records(par->header);
    if (!dec || pread_all(par->fd, buf, len, at) != 0) {
        el_decoder_destroy(dec);
        return 0;
    }
    el_decoder_set_offset(dec, at);
    el_decoder_only_selected(dec, par->only_selected);
    el_decoder_feed(dec, buf, len);
    while (el_decoder_next(dec, &ev) == EL_OK)
        if (par->host->wanted(par->host->ctx, ev.type) & par->deferred)
            held += sizeof(held_head) + ev.size;
    el_decoder_feed(dec, NULL, 0);
    el_decoder_destroy(dec);
    *read = len;
    return held;
}

/* Would the records of the deferred analyses fit in what may be held?
 * Estimated from up to SAMPLE_BLOCKS blocks spread over the file: when
 * they would not (a time line of every
 * sample, the thread events of a long run), holding would only be wasted
 * work, and those analyses read sequentially from the start. */
static int holding_fits(ev_par *par)
{
    uint8_t *buf = malloc(SAMPLE_MAX);
    uint64_t held = 0, read = 0;

    if (!buf)
        return 0;
    /* blocks spread evenly, the first one left out (with the header's
     * definitions, it is nothing like the rest) unless it is alone */
    size_t n = par->n_blocks > 1 ? par->n_blocks - 1 : 1, first = par->n_blocks > 1;
    size_t k = n < SAMPLE_BLOCKS ? n : SAMPLE_BLOCKS;
    for (size_t i = 0; i < k; i++) {
        uint64_t r;
        held += sample_block(par, par->blocks[first + i * n / k], buf, &r);
        read += r;
    }
    free(buf);
    /* half the limit: an estimate from a few blocks may be low */
    return read > 0 && (double)held / (double)read * (double)par->size < (double)PAR_HOLD_MAX / 2;
}

/* ---- a worker --------------------------------------------------------- */

static void fail_range(ev_par *par, par_range *rg, const char *why)
{
    rg->failed = 1;
    if (!atomic_exchange(&par->abandon, 1))
        par->why = why;     /* the first failure says why (set once) */
}

/* Keeps a copy of ev's record for the deferred analyses, while the
 * records held by every range stay under PAR_HOLD_MAX and the budget
 * lends the memory; past that, holding stops for every range (the caller
 * then reads the deferred analyses sequentially). */
static void hold(ev_par *par, par_range *rg, const el_event *ev)
{
    size_t need = sizeof(held_head) + ev->size;

    if (atomic_load_explicit(&par->hold_full, memory_order_relaxed))
        return;
    if (rg->held_cap - rg->held_len < need) {
        size_t cap = rg->held_cap ? rg->held_cap * 2 : (size_t)64 << 10;
        while (cap - rg->held_len < need)
            cap *= 2;
        size_t grow = cap - rg->held_cap;
        uint64_t before = atomic_fetch_add(&par->held_bytes, grow);
        uint8_t *h = NULL;
        if (before + grow > par->hold_max || ev_budget_try(par->budget, grow) != 0) {
            atomic_fetch_sub(&par->held_bytes, grow);
        } else if (!(h = realloc(rg->held, cap))) {
            atomic_fetch_sub(&par->held_bytes, grow);
            ev_budget_release(par->budget, grow);
        }
        if (!h) {
            atomic_store(&par->hold_full, 1);
            return;
        }
        rg->held = h;
        rg->held_cap = cap;
    }
    held_head hd = { ev->offset, ev->size, ev->cap };
    memcpy(rg->held + rg->held_len, &hd, sizeof hd);
    memcpy(rg->held + rg->held_len + sizeof hd, ev->record, ev->size);
    rg->held_len += need;
}

static void drop_held(ev_par *par, par_range *rg)
{
    free(rg->held);
    ev_budget_release(par->budget, rg->held_cap);
    atomic_fetch_sub(&par->held_bytes, rg->held_cap);
    rg->held = NULL;
    rg->held_len = rg->held_cap = 0;
}

/* Nothing left for the workers: no partials, and the holding stopped. */
static int idle(ev_par *par)
{
    return !par->mask && atomic_load_explicit(&par->hold_full, memory_order_relaxed);
}

static void read_range(ev_par *par, par_range *rg, uint8_t *buf)
{
    const ev_par_host *host = par->host;
    el_decoder *dec = el_decoder_create_for_records(par->header);
    ev_stream s = par->stream0;
    el_event ev;
    el_status st = EL_NEED_INPUT;

    if (!dec) {
        fail_range(par, rg, "out of memory");
        return;
    }
    el_decoder_set_offset(dec, rg->start);
    el_decoder_only_selected(dec, par->only_selected);
    el_decoder_set_resync(dec, 0);      /* damage ends the attempt anyway */
    s.decoder = dec;
    for (unsigned i = 0; i < host->n; i++)
        if ((par->mask >> i & 1) && !(rg->part[i] = host->ops[i]->fork(host->self[i]))) {
            fail_range(par, rg, "out of memory");
            goto out;
        }
    for (uint64_t off = rg->start; off < rg->end && st == EL_NEED_INPUT;) {
        if (atomic_load_explicit(&par->abandon, memory_order_relaxed) || idle(par)) {
            rg->failed = 1;
            goto out;
        }
        size_t len = rg->end - off < PAR_BUF ? (size_t)(rg->end - off) : PAR_BUF;
        if (pread_all(par->fd, buf, len, off) != 0) {
            fail_range(par, rg, "the file could not be read again (did it shrink?)");
            goto out;
        }
        if (rg->held && atomic_load_explicit(&par->hold_full, memory_order_relaxed))
            drop_held(par, rg);     /* of no use now: the memory goes back */
        el_decoder_feed(dec, buf, len);
        while ((st = el_decoder_next(dec, &ev)) == EL_OK) {
            rg->events++;
            if (ev.time > rg->last_time)
                rg->last_time = ev.time;
            uint32_t w = host->wanted(host->ctx, ev.type);
            if (w & par->deferred)
                hold(par, rg, &ev);
            uint32_t m = w & par->mask;
            while (m) {
                unsigned i = (unsigned)__builtin_ctz(m);
                m &= m - 1;
                if (host->ops[i]->event(rg->part[i], &ev, &s) != 0) {
                    fail_range(par, rg, "an analysis stopped the read");
                    goto out;
                }
            }
        }
        off += len;
        atomic_fetch_add_explicit(&par->done_bytes, len, memory_order_relaxed);
    }
    el_decoder_feed(dec, NULL, 0);
    if (st == EL_NEED_INPUT)
        st = el_decoder_finish(dec);
    /* the last range ends at the end marker, every other one between two
     * records exactly at its end */
    int last = rg->end == par->size;
    if (!(last ? st == EL_END : st == EL_OK && el_decoder_missing_end(dec)) ||
        el_decoder_damage(dec)->blocks) {
        fail_range(par, rg, "damage or a cut record in a range");
        goto out;
    }
    rg->has_span = el_decoder_time_span(dec, &rg->t_first, &rg->t_last);
    el_decoder_caps(dec, &rg->caps);
    const el_type_tally *t = el_decoder_tally(dec);
    const uint8_t *caps = el_decoder_sample_caps(dec);
    if (t && caps && par->tally) {
        pthread_mutex_lock(&par->tally_lock);
        for (size_t i = 0, n = el_decoder_num_types(dec); i < n; i++) {
            par->tally[i].events += t[i].events;
            par->tally[i].bytes += t[i].bytes;
            par->tally[i].declared_off += t[i].declared_off;
        }
        for (size_t i = 0; i < EL_SAMPLE_CAPS_BYTES; i++)
            par->sample_caps[i] |= caps[i];
        pthread_mutex_unlock(&par->tally_lock);
    }
out:
    if (rg->held && atomic_load(&par->hold_full))
        drop_held(par, rg);
    el_decoder_destroy(dec);
}

static void *worker(void *arg)
{
    ev_par *par = arg;
    uint8_t *buf = malloc(PAR_BUF);

    for (;;) {
        unsigned i = atomic_fetch_add(&par->next, 1);
        if (i >= par->n_ranges)
            break;
        if (!buf) {
            fail_range(par, &par->ranges[i], "out of memory");
            continue;
        }
        if (atomic_load(&par->abandon) || idle(par))
            par->ranges[i].failed = 1;
        else
            read_range(par, &par->ranges[i], buf);
    }
    free(buf);
    atomic_fetch_sub(&par->running, 1);
    return NULL;
}

/* ---- the coordinator -------------------------------------------------- */

ev_par *ev_par_start(const ev_par_host *host, const char *path, uint64_t size,
                     const el_read_opts *ro, unsigned threads, uint64_t chunk_bytes,
                     uint64_t hold_bytes, const ev_stream *stream0, const char **why)
{
    ev_par *par = calloc(1, sizeof *par);
    uint64_t data_start = 0;

    *why = NULL;
    if (!par) {
        *why = "out of memory";
        return NULL;
    }
    par->host = host;
    par->size = size;
    par->mask = host->mergeable;
    par->deferred = host->deferred;
    par->budget = stream0->budget;
    par->hold_max = hold_bytes ? hold_bytes : PAR_HOLD_MAX;
    atomic_init(&par->held_bytes, 0);
    atomic_init(&par->hold_full, 0);
    par->only_selected = ro->only_selected;
    par->stream0 = *stream0;
    pthread_mutex_init(&par->tally_lock, NULL);
    if (threads > PAR_MAX_THREADS)
        threads = PAR_MAX_THREADS;
    if ((par->fd = open(path, O_RDONLY)) < 0) {
        pthread_mutex_destroy(&par->tally_lock);
        free(par);
        *why = "cannot open the file again";
        return NULL;
    }
    if (read_header(par, ro, &data_start) != 0 ||
        index_blocks(par, data_start, threads, chunk_bytes) != 0) {
        *why = par->why;
        ev_par_discard(par);
        return NULL;
    }
    size_t num_types = el_decoder_num_types(par->header);
    if (ro->count_types && (!(par->tally = calloc(num_types ? num_types : 1, sizeof *par->tally)) ||
                            !(par->sample_caps = calloc(EL_SAMPLE_CAPS_BYTES, 1)))) {
        *why = "out of memory";
        ev_par_discard(par);
        return NULL;
    }
    if (par->deferred && !holding_fits(par)) {
        /* the deferred analyses take the sequential pass instead, on the
         * calling thread: one worker less, ranges for that many */
        par->deferred = 0;
        if (!par->mask) {
            *why = "too many records to hold for the analyses that do not merge";
            ev_par_discard(par);
            return NULL;
        }
        if (threads > 1)
            threads--;
        if (!chunk_bytes) {
            free(par->ranges);
            par->ranges = NULL;
            if (index_blocks(par, data_start, threads, chunk_bytes) != 0) {
                *why = par->why;
                ev_par_discard(par);
                return NULL;
            }
        }
    }
    atomic_init(&par->next, 0);
    atomic_init(&par->abandon, 0);
    atomic_init(&par->done_bytes, 0);
    unsigned n = threads < par->n_ranges ? threads : par->n_ranges;
    atomic_init(&par->running, n);
    for (unsigned i = 0; i < n; i++) {
        if (pthread_create(&par->threads[i], NULL, worker, par) != 0) {
            /* fewer threads: the ones started take every range */
            atomic_fetch_sub(&par->running, n - i);
            if (i == 0) {
                *why = "cannot start a thread";
                ev_par_discard(par);
                return NULL;
            }
            break;
        }
        par->n_threads = i + 1;
    }
    return par;
}

unsigned ev_par_ranges(const ev_par *par) { return par->n_ranges; }

uint32_t ev_par_deferred(const ev_par *par) { return par->deferred; }

static void join(ev_par *par)
{
    for (unsigned i = 0; i < par->n_threads; i++)
        pthread_join(par->threads[i], NULL);
    par->n_threads = 0;
}

int ev_par_wait(ev_par *par, ev_progress_fn progress, void *ctx, ev_stream *s)
{
    /* progress from this thread while the workers read; holding records
     * that stops is said at once, so that the caller's sequential pass
     * overlaps the workers */
    for (unsigned tick = 0; s && (progress || par->deferred) && atomic_load(&par->running) > 0;
         tick++) {
        if (par->deferred && atomic_load(&par->hold_full))
            return 1;
        struct timespec ts = { 0, 10 * 1000 * 1000 };
        nanosleep(&ts, NULL);
        if (progress && tick % 5 == 4) {
            s->read.bytes = atomic_load(&par->done_bytes);
            progress(ctx, s);
        }
    }
    join(par);
    return par->deferred && atomic_load(&par->hold_full);
}

int ev_par_replay(ev_par *par, int (*fn)(void *ctx, const el_event *ev), void *ctx)
{
    el_decoder *rd = el_decoder_create_for_records(par->header);
    el_event ev;
    int rc = 0;

    if (!rd)
        return -1;
    for (unsigned i = 0; i < par->n_ranges && rc == 0; i++) {
        const par_range *rg = &par->ranges[i];
        for (size_t at = 0; at < rg->held_len && rc == 0;) {
            held_head hd;
            memcpy(&hd, rg->held + at, sizeof hd);
            el_decoder_feed(rd, rg->held + at + sizeof hd, hd.size);
            if (el_decoder_next(rd, &ev) != EL_OK) {
                rc = -2;
                break;
            }
            ev.cap = hd.cap;
            ev.offset = hd.offset;
            if (fn(ctx, &ev) != 0)
                rc = 1;
            at += sizeof hd + hd.size;
        }
    }
    el_decoder_feed(rd, NULL, 0);
    el_decoder_destroy(rd);
    return rc;
}

const el_decoder *ev_par_header(const ev_par *par) { return par->header; }

int ev_par_ok(ev_par *par, const char **why)
{
    join(par);
    *why = atomic_load(&par->abandon) ? par->why : NULL;
    return !atomic_load(&par->abandon);
}

void ev_par_facts(const ev_par *par, el_read_result *r, uint64_t *last_time)
{
    memset(r, 0, sizeof *r);
    r->status = EL_END;
    r->bytes = par->size;
    r->damage = *el_decoder_damage(par->header);    /* none: as a decoder starts */
    *last_time = 0;
    for (unsigned i = 0; i < par->n_ranges; i++) {
        const par_range *rg = &par->ranges[i];
        r->events += rg->events;
        el_caps_add(&r->caps, &rg->caps);
        if (rg->last_time > *last_time)
            *last_time = rg->last_time;
        if (!rg->has_span)
            continue;
        if (!r->has_time_span || rg->t_first < r->first_time)
            r->first_time = rg->t_first;
        if (!r->has_time_span || rg->t_last > r->last_time)
            r->last_time = rg->t_last;
        r->has_time_span = 1;
    }
}

int ev_par_merge_parts(ev_par *par)
{
    const ev_par_host *host = par->host;

    /* into the first range's partial, so that a failed merge leaves the
     * analyses untouched (the read is then sequential) */
    for (unsigned a = 0; a < host->n; a++) {
        if (!(par->mask >> a & 1))
            continue;
        for (unsigned i = 1; i < par->n_ranges; i++) {
            void *part = par->ranges[i].part[a];
            if (host->ops[a]->merge(par->ranges[0].part[a], part) != 0)
                return -1;
            host->ops[a]->drop(part);
            par->ranges[i].part[a] = NULL;
        }
    }
    return 0;
}

int ev_par_merge(ev_par *par, unsigned *failed_analysis)
{
    const ev_par_host *host = par->host;
    int rc = 0;

    for (unsigned a = 0; a < host->n; a++) {
        if (!(par->mask >> a & 1))
            continue;
        void *part = par->ranges[0].part[a];
        if (rc == 0 && host->ops[a]->merge(host->self[a], part) != 0) {
            rc = -1;
            *failed_analysis = a;
        }
        host->ops[a]->drop(part);
        par->ranges[0].part[a] = NULL;
    }
    return rc;
}

el_decoder *ev_par_take_header(ev_par *par)
{
    el_decoder *h = par->header;
    par->header = NULL;
    return h;
}

el_type_tally *ev_par_take_tally(ev_par *par, uint8_t **sample_caps)
{
    el_type_tally *t = par->tally;
    *sample_caps = par->sample_caps;
    par->tally = NULL;
    par->sample_caps = NULL;
    return t;
}

void ev_par_discard(ev_par *par)
{
    if (!par)
        return;
    atomic_store(&par->abandon, 1);
    join(par);
    for (unsigned i = 0; i < par->n_ranges; i++) {
        for (unsigned a = 0; a < par->host->n; a++)
            if (par->ranges[i].part[a])
                par->host->ops[a]->drop(par->ranges[i].part[a]);
        drop_held(par, &par->ranges[i]);
    }
    free(par->ranges);
    free(par->blocks);
    free(par->tally);
    free(par->sample_caps);
    pthread_mutex_destroy(&par->tally_lock);
    el_decoder_destroy(par->header);
    if (par->fd >= 0)
        close(par->fd);
    free(par);
}
