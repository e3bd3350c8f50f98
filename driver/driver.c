/* The driver: one read of a source, every attached analysis fed from it
 * through one pipeline (source, decoder, the order and selection stages,
 * the analyses). See include/evprof/driver.h and driver/internal.h. */
#include "evprof/driver.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver/internal.h"
#include "eventlog/source.h"

#define PROGRESS_STEP ((uint64_t)4 << 20)

struct ev_driver {
    ev_driver_opts opts;
    ev_driver_test_hooks hooks;
    uint8_t *after_end;         /* the stream's after_end (owned) */
    void *self[EV_MAX_ANALYSES];
    ev_dispatch x;
    int ran;
    int count_types;            /* an analysis reads the stream's tally (EV_COUNTS) */
    int all_fields;             /* an analysis wants every type's fields */

    ev_pipe pipe;               /* the sequential read's pipeline */
    ev_order *order;            /* the order stage's runs (order.h) */
    ev_spool spool;             /* where the order stage reads them again */

    ev_stream stream;
    el_decoder *decoder;        /* kept after the read */
    el_type_tally *tally;       /* a parallel read's (stream.tally), or NULL */
    uint8_t *sample_caps;       /* a parallel read's (stream.sample_caps), or NULL */
};

void ev_driver_opts_init(ev_driver_opts *o)
{
    memset(o, 0, sizeof *o);
}

ev_driver *ev_driver_create(const ev_driver_opts *opts)
{
    ev_driver *d = calloc(1, sizeof *d);

    if (!d)
        return NULL;
    if (opts)
        d->opts = *opts;
    d->x.select = d->opts.select;
    return d;
}

void ev_driver_set_test_hooks(ev_driver *d, const ev_driver_test_hooks *h)
{
    d->hooks = *h;
}

void ev_driver_destroy(ev_driver *d)
{
    if (!d)
        return;
    ev_order_destroy(d->order);
    ev_spool_free(&d->spool);
    el_decoder_destroy(d->decoder);
    free(d->after_end);
    free(d->tally);
    free(d->sample_caps);
    free(d);
}

int ev_driver_analysis(const ev_driver *d, unsigned i, const ev_analysis_ops **ops, void **self)
{
    if (!d || i >= d->x.n)
        return -1;
    *ops = d->x.ops[i];
    *self = d->self[i];
    return 0;
}

int ev_driver_attach(ev_driver *d, const ev_analysis_ops *ops, void *self)
{
    if (d->ran || d->x.n == EV_MAX_ANALYSES || !ops || !ops->event)
        return -1;
    uint32_t bit = 1u << d->x.n;
    d->x.ops[d->x.n] = ops;
    d->self[d->x.n] = self;
    d->x.n++;
    if (ops->flags & EV_ORDERED)
        d->x.ordered |= bit;
    else
        d->x.live |= bit;
    if (ops->flags & EV_SELECTED)
        d->x.selected_only |= bit;
    if (!ops->types || (ops->flags & EV_ALL_EVENTS))
        d->x.every |= bit;
    if (ops->flags & EV_COUNTS)
        d->count_types = 1;
    if (!ops->types) {
        d->all_fields = 1;
    } else {
        for (size_t i = 0; i < ops->num_types; i++)
            if (ops->types[i] < 256)
                d->x.by_type[ops->types[i]] |= bit;
    }
    return 0;
}

const ev_stream *ev_driver_stream(const ev_driver *d) { return &d->stream; }

uint64_t ev_stream_events_read(const ev_stream *s)
{
    const el_type_tally *t = s->tally;
    if (!t && s->decoder && !s->done)
        t = el_decoder_tally(s->decoder);
    if (!t || !s->decoder)
        return s->read.events;
    uint64_t n = 0;
    for (size_t i = 0, k = el_decoder_num_types(s->decoder); i < k; i++)
        n += t[i].events;
    return n;
}

int ev_stream_damaged(const ev_stream *s)
{
    return s->stopped || s->read.damage.blocks > 0 ||
           (s->read.status != EV_END && s->read.status != EV_OK);
}

/* ---- the pipeline ------------------------------------------------------ */

static int feed(ev_pipe *p, uint32_t mask, const el_event *ev)
{
    while (mask) {
        unsigned i = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        if (p->x->ops[i]->event(p->self[i], ev, p->s) != 0) {
            p->s->stopped = 1;
            p->s->stopped_by = p->x->ops[i]->name;
            p->s->stop_offset = ev->offset;
            return 1;
        }
    }
    return 0;
}

/* The selection stage: marks the event, and leaves out the analyses that
 * take only what is selected when it is not. */
static inline uint32_t select_stage(const ev_dispatch *x, el_event *ev, uint32_t mask)
{
    if (x->select) {
        uint32_t cap = ev->type == EL_PROF_SAMPLE_COST_CENTRE && ev->decoded
                           ? ev->u.prof_sample.cap : ev->cap;
        ev->outside = (uint8_t)ev_select_outside(x->select, ev->time, cap);
        if (ev->outside)
            mask &= ~x->selected_only;
    }
    return mask;
}

int ev_pipe_event(void *ctx, el_event *ev, const el_decoder *dec)
{
    ev_pipe *p = ctx;
    ev_stream *s = p->s;
    uint32_t mask = ev_dispatch_wanted(p->x, ev->type);

    s->decoder = dec;
    if (p->progress && ev->offset >= p->next_progress) {
        s->read.bytes = ev->offset;
        p->progress(p->progress_ctx, s);
        p->next_progress = ev->offset + PROGRESS_STEP;
    }
    s->read.events++;
    if (ev->time > s->last_time)
        s->last_time = ev->time;
    if (p->order) {
        /* the order stage notes where the ordered analyses' events are */
        if (p->spool && ev_spool_put(p->spool, ev->offset, ev->record, ev->size) != 0) {
            s->stopped = 1;
            s->driver_stop = p->spool->error;
            return 1;
        }
        if (ev_order_note(p->order, ev, (mask & p->x->ordered) != 0,
                          el_decoder_damage(dec)->blocks) != 0) {
            s->stopped = 1;
            s->driver_stop = "out of memory indexing events for the time-ordered replay";
            return 1;
        }
    }
    mask &= p->feed;
    if (!mask)
        return 0;
    return feed(p, select_stage(p->x, ev, mask), ev);
}

static int wants_ordered(void *ctx, uint16_t type)
{
    const ev_pipe *p = ctx;
    return (ev_dispatch_wanted(p->x, type) & p->x->ordered) != 0;
}

/* The order stage's replay, after the read: the ordered analyses' events
 * in time order, through the selection stage. */
static int on_ordered(void *ctx, el_event *ev)
{
    ev_pipe *p = ctx;
    uint32_t mask = ev_dispatch_wanted(p->x, ev->type) & p->x->ordered;
    return mask ? feed(p, select_stage(p->x, ev, mask), ev) : 0;
}

/* ---- a run --------------------------------------------------------------- */

/* The types whose fields to decode, when every analysis has a list; else
 * NULL (every type). */
static uint16_t *selected_types(const ev_driver *d, size_t *n)
{
    *n = 0;
    if (d->all_fields)
        return NULL;
    size_t max = 1;
    for (unsigned i = 0; i < d->x.n; i++)
        max += d->x.ops[i]->num_types;
    uint16_t *t = malloc(max * sizeof *t);
    if (!t)
        return NULL;
    for (unsigned i = 0; i < d->x.n; i++)
        for (size_t k = 0; k < d->x.ops[i]->num_types; k++) {
            uint16_t ty = d->x.ops[i]->types[k];
            size_t j = 0;
            while (j < *n && t[j] != ty)
                j++;
            if (j == *n)
                t[(*n)++] = ty;
        }
    return t;
}

static void set_error(ev_driver *d, ev_status st, const char *msg)
{
    d->stream.read.status = d->stream.read.error.status = st;
    d->stream.read.error.type = -1;
    snprintf(d->stream.read.error.msg, sizeof d->stream.read.error.msg, "%s", msg);
}

/* Starts a run: the read options (*types is the caller's to free).
 * Returns 0, or -1 with the stream's error set. */
static int begin(ev_driver *d, const char *path, el_read_opts *ro, uint16_t **types)
{
    size_t ntypes;

    memset(ro, 0, sizeof *ro);
    *types = NULL;
    memset(&d->stream, 0, sizeof d->stream);
    d->stream.path = path;
    d->stream.budget = d->opts.budget;
    d->stream.select = d->opts.select;
    if (d->ran) {
        set_error(d, EV_ERR_IO, "internal error: a driver runs once");
        return -1;
    }
    d->ran = 1;
    *types = selected_types(d, &ntypes);
    if (!d->all_fields && !*types) {
        set_error(d, EV_ERR_NOMEM, "out of memory");
        return -1;
    }
    ro->fields = *types;
    ro->num_fields = ntypes;
    ro->only_selected = *types != NULL && !d->x.every;
    ro->no_resync = d->opts.no_resync;
    ro->count_types = d->count_types;
    return 0;
}

/* The read is over: the order stage's replay, progress, every `end`. */
static const ev_stream *end(ev_driver *d)
{
    ev_stream *s = &d->stream;

    s->done = 1;
    s->decoder = d->decoder && el_decoder_header_done(d->decoder) ? d->decoder : NULL;
    /* a parallel read's sum of its ranges, else the one decoder's count */
    s->tally = d->tally ? d->tally : s->decoder ? el_decoder_tally(s->decoder) : NULL;
    s->sample_caps = d->tally ? d->sample_caps
                   : s->decoder ? el_decoder_sample_caps(s->decoder) : NULL;

    if (d->order && d->pipe.spool && !s->stopped && ev_spool_flush(&d->spool) != 0) {
        s->stopped = 1;
        s->driver_stop = d->spool.error;
    }
    if (d->order && !s->stopped && s->decoder) {
        int rc = ev_order_replay(d->order, d->decoder, &d->spool, wants_ordered, on_ordered,
                                 &d->pipe);
        if (rc < 0) {
            s->stopped = 1;
            s->driver_stop =
                rc == -1 ? "out of memory in the time-ordered replay"
                : rc == -3 ? "cannot read the log again for the time-ordered replay"
                           : "an event read before did not decode again in the time-ordered "
                             "replay (did the file change during the read?)";
        }
    }
    ev_order_destroy(d->order);
    d->order = NULL;
    ev_spool_free(&d->spool);
    if (d->opts.progress)
        d->opts.progress(d->opts.progress_ctx, s);
    for (unsigned i = 0; i < d->x.n; i++)
        if (d->x.ops[i]->end)
            d->x.ops[i]->end(d->self[i], s);
    return s;
}

static int is_live(const ev_driver *d)
{
    return d->opts.follow || d->opts.on_tick || d->opts.interrupt;
}

/* ---- the parallel read ------------------------------------------------------ */

/* Whether the parallel read applies; NULL when it does, else why not. */
static const char *parallel_why_not(const ev_driver *d, uint64_t size)
{
    if (d->x.ordered) {
        for (unsigned i = 0; i < d->x.n; i++)
            if (d->x.ordered >> i & 1)
                return "an analysis reads in time order";
    }
    for (unsigned i = 0; i < d->x.n; i++) {
        const ev_analysis_ops *o = d->x.ops[i];
        if (!o->fork || !o->merge || !o->drop)
            return "an analysis does not merge";
        /* a probe: an analysis may refuse for this read (the time
         * profile of several logs translates ids as it goes) */
        void *probe = o->fork(d->self[i]);
        if (!probe)
            return "an analysis does not merge";
        o->drop(probe);
    }
    if (d->opts.on_bytes)
        return "the bytes are copied as they are read";
    if (d->opts.prefix_len)
        return "bytes come before the file's";
    if (size == 0)
        return "an empty file";
    /* starting threads, partial aggregates and their merge cost more
     * than a second range saves. Measured (2026-11-27, report, two cores,
     * one thread / two ranges): stacks drawn from a pool of 10000, 25 MB
     * 0.12 / 0.12 s, 50 MB 0.17 / 0.18, 100 MB 0.21 / 0.23; many new
     * stacks (synth1g's shape) 25 MB 0.08 / 0.08, 50 MB 0.14 / 0.12,
     * 100 MB 0.27 / 0.19; the real hard log, 88 MB, 0.63 / 0.53 */
    if (!d->hooks.chunk_bytes && size < 2 * EV_PAR_MIN_RANGE)
        return "a small file: one thread reads it faster";
    return NULL;
}

/* Tries the parallel read of a regular file: 1 done, 0 read sequentially. */
static int run_parallel(ev_driver *d, const char *path, uint64_t size, const el_read_opts *ro)
{
    const char *why = parallel_why_not(d, size);
    if (why) {
        d->stream.parallel_note = why;
        return 0;
    }
    unsigned threads = d->opts.jobs;
    if (!d->hooks.chunk_bytes && threads > size / EV_PAR_MIN_RANGE)
        threads = (unsigned)(size / EV_PAR_MIN_RANGE);  /* ranges of EV_PAR_MIN_RANGE at least */
    if (threads < 1)
        threads = 1;
    ev_par_job j = {
        .x = &d->x, .self = d->self, .path = path, .size = size, .ro = ro,
        .threads = threads, .chunk_bytes = d->hooks.chunk_bytes, .s = &d->stream,
        .progress = d->opts.progress, .progress_ctx = d->opts.progress_ctx,
    };
    ev_par_out out = { 0 };
    if (!ev_par_read(&j, &out, &why)) {
        d->stream.parallel_note = why;
        memset(&d->stream.read, 0, sizeof d->stream.read);
        d->stream.last_time = 0;
        return 0;
    }
    d->decoder = out.header;
    d->tally = out.tally;
    d->sample_caps = out.sample_caps;
    return 1;
}

/* ---- the sequential read ---------------------------------------------------- */

static void on_tick(void *ctx, uint64_t bytes, uint64_t wall_ns)
{
    ev_driver *d = ctx;
    ev_stream *s = &d->stream;
    s->read.bytes = bytes;
    s->wall_ns = wall_ns;
    if (bytes > s->total_bytes && d->opts.follow)
        s->total_bytes = bytes;
    if (!s->decoder && d->decoder && el_decoder_header_done(d->decoder))
        s->decoder = d->decoder;    /* the header's types before any event */
    d->opts.on_tick(d->opts.tick_ctx, s);
}

/* Where the order stage reads the records again: the file by offset, the
 * memory, else (a stream, a followed file) a spool written as they come. */
static int setup_order(ev_driver *d, const char *path, int regular, const void *mem,
                       size_t len, el_read_opts *ro)
{
    if (!d->x.ordered)
        return 0;
    if (!(d->order = ev_order_create()))
        return -1;
    int rfd = regular && path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    if (rfd >= 0) {
        ev_spool_init_fd(&d->spool, rfd, 1);
    } else if (mem) {
        ev_spool_init_mem(&d->spool, mem, len);
    } else {
        /* a stream is read once: every record goes into the spool, so
         * that the replay finds each run's records again */
        ev_spool_init_pipe(&d->spool, NULL);
        d->pipe.spool = &d->spool;
        ro->only_selected = 0;
    }
    d->pipe.order = d->order;
    return 0;
}

/* One pipeline over the source (el_pump, the one read loop). */
static void run_source(ev_driver *d, el_source *src, const el_read_opts *ro)
{
    ev_stream *s = &d->stream;
    el_pump_end pe;

    s->total_bytes = src->size;
    if (!(d->decoder = el_decoder_create_opts(ro))) {
        set_error(d, EV_ERR_NOMEM, "out of memory");
        return;
    }
    d->pipe.x = &d->x;
    memcpy(d->pipe.self, d->self, sizeof d->self);
    d->pipe.s = s;
    d->pipe.feed = d->x.live;
    d->pipe.progress = d->opts.progress;
    d->pipe.progress_ctx = d->opts.progress_ctx;
    el_pump_opts po = {
        .idle_timeout = d->opts.idle_timeout,
        .tick_ns = d->opts.tick_interval > 0 ? (uint64_t)(d->opts.tick_interval * 1e9) : 0,
        .tick = d->opts.on_tick ? on_tick : NULL,
        .tick_ctx = d,
        .interrupt = d->opts.interrupt,
        .on_bytes = d->opts.on_bytes,
        .bytes_ctx = d->opts.bytes_ctx,
        .prefix = d->opts.prefix,
        .prefix_len = d->opts.prefix_len,
    };
    el_read_result r;
    el_pump(src, d->decoder, &po, ev_pipe_event, &d->pipe, &r, &pe);
    free(d->after_end);
    d->after_end = pe.after_end;
    s->after_end = pe.after_end;
    s->after_end_len = pe.after_end_len;
    s->read = r;
    s->interrupted = pe.interrupted;
    s->idle_timed_out = pe.idle_timed_out;
    s->wall_ns = pe.wall_ns;
    if (src->size > s->total_bytes)
        s->total_bytes = src->size;
}

enum src_kind { SRC_PATH, SRC_FD, SRC_CONNECT, SRC_MEM };

static void on_connect_wait(void *ctx, const char *addr)
{
    const ev_driver *d = ctx;
    d->opts.on_wait(d->opts.wait_ctx, addr);
}

static const ev_stream *run(ev_driver *d, enum src_kind kind, const char *path, int fd,
                            const void *buf, size_t len)
{
    el_read_opts ro;
    uint16_t *types;
    int live = is_live(d);

    if (begin(d, kind == SRC_MEM ? NULL : path, &ro, &types) != 0)
        return &d->stream;
    struct stat sb;
    int regular = kind == SRC_PATH && strcmp(path, "-") != 0 && stat(path, &sb) == 0 &&
                  S_ISREG(sb.st_mode);
    if (regular)
        d->stream.total_bytes = (uint64_t)sb.st_size;
    if (kind == SRC_PATH && !live && d->opts.jobs > 1) {
        if (!regular) {
            d->stream.parallel_note = "not a regular file";
        } else if (run_parallel(d, path, (uint64_t)sb.st_size, &ro)) {
            free(types);
            return end(d);
        }
    }
    el_source_opts so = {
        .follow = d->opts.follow,
        .live = live,
        .wait_connect = d->opts.follow,
        .on_wait = d->opts.on_wait ? on_connect_wait : NULL,
        .wait_ctx = d,
    };
    ev_error err;
    el_source *src = NULL;
    switch (kind) {
    case SRC_PATH:
        src = el_source_open_path(path, &so, &err);
        break;
    case SRC_FD:
        src = el_source_open_fd(fd, &so, &err);
        break;
    case SRC_CONNECT:
        src = el_source_open_connect(path, &so, &err);
        break;
    case SRC_MEM:
        src = el_source_open_mem(buf, len, &err);
        break;
    }
    if (!src) {
        d->stream.read.status = err.status;
        d->stream.read.error = err;
    } else if (setup_order(d, path, regular && !live, kind == SRC_MEM ? buf : NULL, len,
                           &ro) != 0) {
        set_error(d, EV_ERR_NOMEM, "out of memory");
    } else {
        run_source(d, src, &ro);
    }
    el_source_close(src);
    free(types);
    const ev_stream *s = end(d);
    if (live && d->opts.on_tick)
        d->opts.on_tick(d->opts.tick_ctx, s);
    return s;
}

const ev_stream *ev_driver_run_path(ev_driver *d, const char *path)
{
    return run(d, SRC_PATH, path, -1, NULL, 0);
}

const ev_stream *ev_driver_run_mem(ev_driver *d, const void *buf, size_t len)
{
    return run(d, SRC_MEM, NULL, -1, buf, len);
}

const ev_stream *ev_driver_run_fd(ev_driver *d, int fd, const char *name)
{
    return run(d, SRC_FD, name, fd, NULL, 0);
}

const ev_stream *ev_driver_run_spool(ev_driver *d, const ev_spool *s, const char *name)
{
    if (s->fd < 0)
        return run(d, SRC_MEM, NULL, -1, s->mem, (size_t)s->size);
    /* a copy of a stream: read as the stream was, from its start */
    if (lseek(s->fd, 0, SEEK_SET) != 0)
        return run(d, SRC_FD, name, -1, NULL, 0);
    return run(d, SRC_FD, name, s->fd, NULL, 0);
}

const ev_stream *ev_driver_run_connect(ev_driver *d, const char *addr)
{
    return run(d, SRC_CONNECT, addr, -1, NULL, 0);
}

int ev_connect_addr_valid(const char *addr)
{
    return el_source_addr_valid(addr);
}
