/* The parallel read (opts.jobs > 1): block markers give each block's
 * size, so a regular file is indexed first (one small pread per block),
 * cut into ranges of whole blocks, and each range is decoded on a worker
 * thread into partial aggregates of the mergeable analyses (ops fork /
 * merge / drop), merged in file order at the end. The other analyses
 * (EV_ORDERED ones, those without merge) take the ordinary sequential
 * pass on the calling thread meanwhile (driver.c), so `all` and `html`
 * use both cores too.
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
#define PAR_MAX_THREADS 64
#define END_MARKER 0xffffu
#define BLOCK_MARKER_SIZE 24u           /* id, time, size, end time, cap */

typedef struct par_range {
    uint64_t start, end;                /* bytes [start, end) */
    void *part[EV_MAX_ANALYSES];        /* the partials, by analysis index */
    uint64_t events, last_time, t_first, t_last;
    int has_span;
    int failed;
} par_range;

struct ev_par {
    const ev_par_host *host;
    int fd;
    uint64_t size;
    el_decoder *header;         /* the header's types and the fields to decode */
    int only_selected;
    uint32_t mask;              /* analyses read in ranges */
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
    free(starts);
    return 0;

fail:
    free(starts);
    return -1;
}

/* ---- a worker --------------------------------------------------------- */

static void fail_range(ev_par *par, par_range *rg, const char *why)
{
    rg->failed = 1;
    if (!atomic_exchange(&par->abandon, 1))
        par->why = why;     /* the first failure says why (set once) */
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
        if (atomic_load_explicit(&par->abandon, memory_order_relaxed)) {
            rg->failed = 1;
            goto out;
        }
        size_t len = rg->end - off < PAR_BUF ? (size_t)(rg->end - off) : PAR_BUF;
        if (pread_all(par->fd, buf, len, off) != 0) {
            fail_range(par, rg, "the file could not be read again (did it shrink?)");
            goto out;
        }
        el_decoder_feed(dec, buf, len);
        while ((st = el_decoder_next(dec, &ev)) == EL_OK) {
            rg->events++;
            if (ev.time > rg->last_time)
                rg->last_time = ev.time;
            uint32_t m = host->wanted(host->ctx, ev.type) & par->mask;
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
out:
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
        if (atomic_load(&par->abandon))
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
                     const ev_stream *stream0, const char **why)
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
    par->only_selected = ro->only_selected;
    par->stream0 = *stream0;
    if (threads > PAR_MAX_THREADS)
        threads = PAR_MAX_THREADS;
    if ((par->fd = open(path, O_RDONLY)) < 0) {
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

static void join(ev_par *par)
{
    for (unsigned i = 0; i < par->n_threads; i++)
        pthread_join(par->threads[i], NULL);
    par->n_threads = 0;
}

void ev_par_wait(ev_par *par, ev_progress_fn progress, void *ctx, ev_stream *s)
{
    /* progress from this thread while the workers read */
    while (progress && atomic_load(&par->running) > 0) {
        struct timespec ts = { 0, 50 * 1000 * 1000 };
        nanosleep(&ts, NULL);
        s->read.bytes = atomic_load(&par->done_bytes);
        progress(ctx, s);
    }
    join(par);
}

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

void ev_par_discard(ev_par *par)
{
    if (!par)
        return;
    atomic_store(&par->abandon, 1);
    join(par);
    for (unsigned i = 0; i < par->n_ranges; i++)
        for (unsigned a = 0; a < par->host->n; a++)
            if (par->ranges[i].part[a])
                par->host->ops[a]->drop(par->ranges[i].part[a]);
    free(par->ranges);
    el_decoder_destroy(par->header);
    if (par->fd >= 0)
        close(par->fd);
    free(par);
}
