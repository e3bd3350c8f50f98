/* The parallel read (opts.jobs > 1): the same pipeline N times. Block
 * markers give each block's size, so a regular file is indexed first (one
 * small pread per block) and cut into ranges of whole blocks; each range
 * is read on a worker thread by the one read loop (el_pump over a range
 * source), through a decoder made from the header's and a pipeline of its
 * own (ev_pipe_event) into partials of the analyses (ops fork); the
 * partials are merged in file order at the end (ops merge).
 *
 * Exactness first: a range decoder starts at a block marker with the
 * header's event types and must end exactly at the range's end (the last
 * one at the end marker, nothing after it); the first range starts where
 * the sequential decoder's first record is, so by induction every range
 * starts on a record boundary of the sequential read and decodes the same
 * records with the same capabilities. Anything irregular (a position that
 * is not a block marker, a block past the end, no end marker or bytes
 * after it, damage in a range, an analysis that stops, a merge that
 * fails) abandons the attempt before anything reaches the analyses: the
 * partials are dropped and the caller reads sequentially, so messages,
 * offsets and partial results are those of one thread. See
 * docs/ARCHITECTURE.md, "The parallel read". */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "driver/internal.h"
#include "eventlog/bytes.h"
#include "eventlog/source.h"

#define PAR_MAX_THREADS 64
#define END_MARKER 0xffffu
#define BLOCK_MARKER_SIZE 24u           /* id, time, size, end time, cap */
#define HEADER_BYTES ((size_t)1 << 20)  /* read for the header */

typedef struct par_range {
    uint64_t start, end;                /* bytes [start, end) */
    void *part[EV_MAX_ANALYSES];        /* the partials, by analysis index */
    ev_stream s;                        /* what its analyses see of the stream */
    el_caps caps;
    uint64_t t_first, t_last;
    uint64_t ipe_len_off;               /* el_decoder_ipe_len_off of the range */
    int has_span;
    int failed;
} par_range;

typedef struct ev_par {
    const ev_par_job *j;
    int fd;
    uint64_t size;
    el_decoder *header;         /* the header's types and the fields to decode */
    par_range *ranges;
    unsigned n_ranges;
    pthread_t threads[PAR_MAX_THREADS];
    unsigned n_threads;
    atomic_uint next;           /* the next range to take */
    atomic_int abandon;         /* a range failed: the others stop early */
    atomic_uint running;        /* workers not finished */
    atomic_uint_fast64_t done_bytes;
    const char *why;            /* why the attempt was abandoned (a static text) */
    /* the events and bytes of each type (header order) the ranges read,
     * added by each range as it ends, and their samples' capabilities */
    el_type_tally *tally;
    uint8_t *sample_caps;
    pthread_mutex_t tally_lock;
} ev_par;

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
    size_t n = par->size < HEADER_BYTES ? (size_t)par->size : HEADER_BYTES;
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
        if (el_decoder_next(par->header, &ev) == EV_OK && ev.type == EL_BLOCK_MARKER) {
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


/* ---- a worker ------------------------------------------------------------ */

static void fail_range(ev_par *par, par_range *rg, const char *why)
{
    rg->failed = 1;
    if (!atomic_exchange(&par->abandon, 1))
        par->why = why;     /* the first failure says why (set once) */
}

/* Progress of the bytes read, for the coordinator (el_pump_opts.on_bytes). */
static void count_bytes(void *ctx, const void *buf, size_t len)
{
    ev_par *par = ctx;
    (void)buf;
    atomic_fetch_add_explicit(&par->done_bytes, len, memory_order_relaxed);
}

/* One range: its own source, decoder and pipeline. */
static void read_range(ev_par *par, par_range *rg)
{
    const ev_par_job *j = par->j;
    ev_error err;
    el_decoder *dec = el_decoder_create_for_records(par->header);
    el_source *src = el_source_open_range(par->fd, rg->start, rg->end, &err);
    ev_pipe p = { .x = j->x, .s = &rg->s, .feed = j->x->live };
    el_read_result r;
    el_pump_end end;

    rg->s = *j->s;
    if (!dec || !src) {
        fail_range(par, rg, "out of memory");
        goto out;
    }
    el_decoder_set_offset(dec, rg->start);
    el_decoder_only_selected(dec, j->ro->only_selected);
    el_decoder_set_resync(dec, 0);      /* damage ends the attempt anyway */
    for (unsigned i = 0; i < j->x->n; i++)
        if (!(p.self[i] = rg->part[i] = j->x->ops[i]->fork(j->self[i]))) {
            fail_range(par, rg, "out of memory");
            goto out;
        }
    el_pump_opts po = { .on_bytes = count_bytes, .bytes_ctx = par };
    el_pump(src, dec, &po, ev_pipe_event, &p, &r, &end);
    if (end.stopped) {
        fail_range(par, rg, "an analysis stopped the read");
        goto out;
    }
    /* the last range ends at the end marker, every other one between two
     * records exactly at its end */
    int last = rg->end == par->size;
    if (!(last ? r.status == EV_END : r.status == EV_OK && r.missing_end) ||
        r.damage.blocks) {
        fail_range(par, rg, r.status == EV_ERR_IO
                                ? "the file could not be read again (did it shrink?)"
                                : "damage or a cut record in a range");
        goto out;
    }
    rg->has_span = r.has_time_span;
    rg->t_first = r.first_time;
    rg->t_last = r.last_time;
    rg->ipe_len_off = r.ipe_len_off;
    rg->caps = r.caps;
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
    rg->s.decoder = NULL;
    el_source_close(src);
    el_decoder_destroy(dec);
}

static void *worker(void *arg)
{
    ev_par *par = arg;

    for (;;) {
        unsigned i = atomic_fetch_add(&par->next, 1);
        if (i >= par->n_ranges)
            break;
        if (atomic_load(&par->abandon))
            par->ranges[i].failed = 1;
        else
            read_range(par, &par->ranges[i]);
    }
    atomic_fetch_sub(&par->running, 1);
    return NULL;
}

/* ---- the coordinator -------------------------------------------------- */

static void join(ev_par *par)
{
    for (unsigned i = 0; i < par->n_threads; i++)
        pthread_join(par->threads[i], NULL);
    par->n_threads = 0;
}

/* Stops the workers, drops every partial left, frees. */
static void discard(ev_par *par)
{
    atomic_store(&par->abandon, 1);
    join(par);
    for (unsigned i = 0; i < par->n_ranges; i++)
        for (unsigned a = 0; a < par->j->x->n; a++)
            if (par->ranges[i].part[a])
                par->j->x->ops[a]->drop(par->ranges[i].part[a]);
    free(par->ranges);
    free(par->tally);
    free(par->sample_caps);
    pthread_mutex_destroy(&par->tally_lock);
    el_decoder_destroy(par->header);
    if (par->fd >= 0)
        close(par->fd);
}

/* The stream's facts of a clean parallel read (what the sequential read
 * would have said). */
static void facts(const ev_par *par, ev_stream *s)
{
    el_read_result *r = &s->read;
    memset(r, 0, sizeof *r);
    r->status = EV_END;
    r->bytes = par->size;
    r->damage = *el_decoder_damage(par->header);    /* none: as a decoder starts */
    s->last_time = 0;
    for (unsigned i = 0; i < par->n_ranges; i++) {
        const par_range *rg = &par->ranges[i];
        r->events += rg->s.read.events;
        r->ipe_len_off += rg->ipe_len_off;
        el_caps_add(&r->caps, &rg->caps);
        if (rg->s.last_time > s->last_time)
            s->last_time = rg->s.last_time;
        if (!rg->has_span)
            continue;
        if (!r->has_time_span || rg->t_first < r->first_time)
            r->first_time = rg->t_first;
        if (!r->has_time_span || rg->t_last > r->last_time)
            r->last_time = rg->t_last;
        r->has_time_span = 1;
    }
}

/* Merges the partials of ranges 1, 2, ... into range 0's, in order, and
 * drops them. Returns 0, or -1 when a merge failed (the analyses are
 * untouched: the attempt is dropped). */
static int merge_parts(ev_par *par)
{
    const ev_dispatch *x = par->j->x;
    for (unsigned a = 0; a < x->n; a++)
        for (unsigned i = 1; i < par->n_ranges; i++) {
            void *part = par->ranges[i].part[a];
            if (x->ops[a]->merge(par->ranges[0].part[a], part) != 0)
                return -1;
            x->ops[a]->drop(part);
            par->ranges[i].part[a] = NULL;
        }
    return 0;
}

int ev_par_read(const ev_par_job *j, ev_par_out *out, const char **why)
{
    ev_par par_, *par = &par_;
    uint64_t data_start = 0;
    unsigned threads = j->threads < PAR_MAX_THREADS ? j->threads : PAR_MAX_THREADS;

    memset(par, 0, sizeof *par);
    memset(out, 0, sizeof *out);
    par->j = j;
    par->size = j->size;
    pthread_mutex_init(&par->tally_lock, NULL);
    atomic_init(&par->next, 0);
    atomic_init(&par->abandon, 0);
    atomic_init(&par->done_bytes, 0);
    atomic_init(&par->running, 0);
    if ((par->fd = open(j->path, O_RDONLY | O_CLOEXEC)) < 0) {
        par->why = "cannot open the file again";
        goto fail;
    }
    if (read_header(par, j->ro, &data_start) != 0 ||
        index_blocks(par, data_start, threads, j->chunk_bytes) != 0)
        goto fail;
    size_t num_types = el_decoder_num_types(par->header);
    if (j->ro->count_types &&
        (!(par->tally = calloc(num_types ? num_types : 1, sizeof *par->tally)) ||
         !(par->sample_caps = calloc(EL_SAMPLE_CAPS_BYTES, 1)))) {
        par->why = "out of memory";
        goto fail;
    }
    unsigned n = threads < par->n_ranges ? threads : par->n_ranges;
    atomic_store(&par->running, n);
    for (unsigned i = 0; i < n; i++) {
        if (pthread_create(&par->threads[i], NULL, worker, par) != 0) {
            /* fewer threads: the ones started take every range */
            atomic_fetch_sub(&par->running, n - i);
            if (i == 0) {
                par->why = "cannot start a thread";
                goto fail;
            }
            break;
        }
        par->n_threads = i + 1;
    }
    /* progress from this thread while the workers read */
    for (unsigned tick = 0; j->progress && atomic_load(&par->running) > 0; tick++) {
        struct timespec ts = { 0, 10 * 1000 * 1000 };
        nanosleep(&ts, NULL);
        if (tick % 5 == 4) {
            j->s->read.bytes = atomic_load(&par->done_bytes);
            j->progress(j->progress_ctx, j->s);
        }
    }
    join(par);
    if (atomic_load(&par->abandon))
        goto fail;
    if (merge_parts(par) != 0) {
        par->why = "a merge failed (out of memory, or a limit)";
        goto fail;
    }
    /* the read is the ranges': its facts, then the sum into the analyses */
    facts(par, j->s);
    j->s->parallel_ranges = par->n_ranges;
    int failed = 0;
    for (unsigned a = 0; a < j->x->n; a++) {
        void *part = par->ranges[0].part[a];
        if (!failed && j->x->ops[a]->merge(j->self[a], part) != 0) {
            failed = 1;
            j->s->stopped = 1;
            j->s->stopped_by = j->x->ops[a]->name;
            out->failed_merge = a;
        }
        j->x->ops[a]->drop(part);
        par->ranges[0].part[a] = NULL;
    }
    out->header = par->header;
    par->header = NULL;
    out->tally = par->tally;
    out->sample_caps = par->sample_caps;
    par->tally = NULL;
    par->sample_caps = NULL;
    discard(par);
    *why = NULL;
    return 1;

fail:
    *why = par->why ? par->why : "out of memory";
    discard(par);
    return 0;
}
