/* The driver: one read of a source, every attached analysis fed from it.
 * See include/evprof/driver.h. */
#include "evprof/driver.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "driver/internal.h"
#include "driver/order.h"
#include "driver/parallel.h"

#define PROGRESS_STEP ((uint64_t)4 << 20)

typedef struct attached {
    const ev_analysis_ops *ops;
    void *self;
} attached;

struct ev_driver {
    ev_driver_opts opts;
    attached an[EV_MAX_ANALYSES];
    unsigned n;
    int ran;

    /* dispatch: which analyses read a type id < 256, and which read all */
    uint32_t by_type[256];
    uint32_t every;             /* analyses handed every event */
    int count_types;            /* an analysis reads the stream's tally (EV_COUNTS) */
    int all_fields;             /* an analysis wants every type's fields */
    uint32_t live;              /* analyses fed during the read */
    uint32_t ordered;           /* analyses fed in time order after it */
    ev_order *order;            /* the runs of the ordered events (order.h) */
    ev_spool spool;             /* where the replay reads them again */
    int spooling;               /* a pipe: every record is copied into the spool */

    ev_stream stream;
    el_decoder *decoder;        /* kept after the read */
    el_type_tally *tally;       /* a parallel read's (stream.tally), or NULL */
    uint8_t *sample_caps;       /* a parallel read's (stream.sample_caps), or NULL */
    uint64_t next_progress;
    int stop;                   /* a live analysis asked to stop */
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
    return d;
}

void ev_driver_destroy(ev_driver *d)
{
    if (!d)
        return;
    ev_order_destroy(d->order);
    if (d->ordered)
        ev_spool_free(&d->spool);
    el_decoder_destroy(d->decoder);
    free(d->tally);
    free(d->sample_caps);
    free(d);
}

int ev_driver_analysis(const ev_driver *d, unsigned i, const ev_analysis_ops **ops, void **self)
{
    if (!d || i >= d->n)
        return -1;
    *ops = d->an[i].ops;
    *self = d->an[i].self;
    return 0;
}

int ev_driver_attach(ev_driver *d, const ev_analysis_ops *ops, void *self)
{
    if (d->ran || d->n == EV_MAX_ANALYSES || !ops || !ops->event)
        return -1;
    uint32_t bit = 1u << d->n;
    d->an[d->n].ops = ops;
    d->an[d->n].self = self;
    d->n++;
    if (ops->flags & EV_ORDERED)
        d->ordered |= bit;
    else
        d->live |= bit;
    if (!ops->types || (ops->flags & EV_ALL_EVENTS))
        d->every |= bit;
    if (ops->flags & EV_COUNTS)
        d->count_types = 1;
    if (!ops->types) {
        d->all_fields = 1;
    } else {
        for (size_t i = 0; i < ops->num_types; i++)
            if (ops->types[i] < 256)
                d->by_type[ops->types[i]] |= bit;
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
           (s->read.status != EL_END && s->read.status != EL_OK);
}

static uint32_t wanted(const ev_driver *d, uint16_t type)
{
    return (type < 256 ? d->by_type[type] : 0) | d->every;
}

static int feed(ev_driver *d, uint32_t mask, const el_event *ev)
{
    while (mask) {
        unsigned i = (unsigned)__builtin_ctz(mask);
        mask &= mask - 1;
        if (d->an[i].ops->event(d->an[i].self, ev, &d->stream) != 0) {
            d->stream.stopped = 1;
            d->stream.stopped_by = d->an[i].ops->name;
            d->stream.stop_offset = ev->offset;
            return 1;
        }
    }
    return 0;
}

static int on_event(void *ctx, const el_event *ev, const el_decoder *dec)
{
    ev_driver *d = ctx;
    uint32_t mask = wanted(d, ev->type);

    d->stream.decoder = dec;
    if (ev->offset >= d->next_progress && d->opts.progress) {
        d->stream.read.bytes = ev->offset;
        d->opts.progress(d->opts.progress_ctx, &d->stream);
        d->next_progress = ev->offset + PROGRESS_STEP;
    }
    d->stream.read.events++;
    if (ev->time > d->stream.last_time)
        d->stream.last_time = ev->time;
    if (d->order) {
        if (d->spooling && ev_spool_put(&d->spool, ev->offset, ev->record, ev->size) != 0) {
            d->stream.stopped = 1;
            d->stream.driver_stop = d->spool.error;
            return 1;
        }
        if (ev_order_note(d->order, ev, (mask & d->ordered) != 0,
                          el_decoder_damage(dec)->blocks) != 0) {
            d->stream.stopped = 1;
            d->stream.driver_stop = "out of memory indexing events for the time-ordered replay";
            return 1;
        }
    }
    return (mask & d->live) ? feed(d, mask & d->live, ev) : 0;
}

static int wants_ordered(void *ctx, uint16_t type)
{
    const ev_driver *d = ctx;
    return (wanted(d, type) & d->ordered) != 0;
}

static int on_ordered(void *ctx, const el_event *ev)
{
    ev_driver *d = ctx;
    uint32_t mask = wanted(d, ev->type) & d->ordered;

    return mask ? feed(d, mask, ev) : 0;
}

/* The types whose fields to decode, when every analysis has a list; else
 * NULL (every type). */
static uint16_t *selected_types(const ev_driver *d, size_t *n)
{
    *n = 0;
    if (d->all_fields)
        return NULL;
    size_t max = 1;
    for (unsigned i = 0; i < d->n; i++)
        max += d->an[i].ops->num_types;
    uint16_t *t = malloc(max * sizeof *t);
    if (!t)
        return NULL;
    for (unsigned i = 0; i < d->n; i++)
        for (size_t k = 0; k < d->an[i].ops->num_types; k++) {
            uint16_t ty = d->an[i].ops->types[k];
            size_t j = 0;
            while (j < *n && t[j] != ty)
                j++;
            if (j == *n)
                t[(*n)++] = ty;
        }
    return t;
}

int ev_driver_begin(ev_driver *d, const char *path, el_read_opts *ro, uint16_t **types)
{
    size_t ntypes;

    memset(ro, 0, sizeof *ro);
    *types = NULL;
    memset(&d->stream, 0, sizeof d->stream);
    d->stream.path = path;
    d->stream.budget = d->opts.budget;
    if (d->ran) {
        d->stream.read.status = d->stream.read.error.status = EL_ERR_IO;
        d->stream.read.error.type = -1;
        strcpy(d->stream.read.error.msg, "internal error: a driver runs once");
        return -1;
    }
    d->ran = 1;
    if (d->ordered && !(d->order = ev_order_create()))
        goto nomem;
    *types = selected_types(d, &ntypes);
    if (!d->all_fields && !*types)
        goto nomem;
    ro->fields = *types;
    ro->num_fields = ntypes;
    ro->only_selected = *types != NULL && !d->every;
    ro->no_resync = d->opts.no_resync;
    ro->count_types = d->count_types;
    return 0;

nomem:
    d->stream.read.status = d->stream.read.error.status = EL_ERR_NOMEM;
    d->stream.read.error.type = -1;
    strcpy(d->stream.read.error.msg, "out of memory");
    return -1;
}

void ev_driver_spool_stream(ev_driver *d, el_read_opts *ro)
{
    if (!d->ordered)
        return;
    /* a stream is read once: every record goes into the spool, so that
     * the time-ordered replay finds each run's records again */
    ev_spool_init_pipe(&d->spool);
    d->spooling = 1;
    ro->only_selected = 0;
}

el_event_fn ev_driver_event_fn(void) { return on_event; }

el_decoder **ev_driver_decoder_slot(ev_driver *d) { return &d->decoder; }

const ev_driver_opts *ev_driver_get_opts(const ev_driver *d) { return &d->opts; }

ev_stream *ev_driver_stream_mut(ev_driver *d) { return &d->stream; }

const ev_stream *ev_driver_end(ev_driver *d)
{
    d->stream.done = 1;
    d->stream.decoder = d->decoder && el_decoder_header_done(d->decoder) ? d->decoder : NULL;
    /* a parallel read's sum of its ranges, else the one decoder's count */
    d->stream.tally = d->tally ? d->tally
                    : d->stream.decoder ? el_decoder_tally(d->stream.decoder) : NULL;
    d->stream.sample_caps = d->tally ? d->sample_caps
                          : d->stream.decoder ? el_decoder_sample_caps(d->stream.decoder) : NULL;

    if (d->ordered && d->spooling && !d->stream.stopped && ev_spool_flush(&d->spool) != 0) {
        d->stream.stopped = 1;
        d->stream.driver_stop = d->spool.error;
    }
    if (d->ordered && !d->stream.stopped && d->stream.decoder) {
        int rc = ev_order_replay(d->order, d->decoder, &d->spool, wants_ordered, on_ordered, d);
        if (rc < 0) {
            d->stream.stopped = 1;
            d->stream.driver_stop =
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
        d->opts.progress(d->opts.progress_ctx, &d->stream);
    for (unsigned i = 0; i < d->n; i++)
        if (d->an[i].ops->end)
            d->an[i].ops->end(d->an[i].self, &d->stream);
    return &d->stream;
}

static int is_live(const ev_driver *d)
{
    return d->opts.follow || d->opts.on_tick || d->opts.interrupt;
}

/* ---- the parallel read (parallel.c) ---------------------------------- */

static uint32_t host_wanted(const void *ctx, uint16_t type)
{
    return wanted(ctx, type);
}

/* The analyses that can be read in ranges: fed during the read, with
 * fork, merge and drop, and a fork now (an analysis may refuse for this
 * read: the time profile of several logs translates ids as it goes). */
static uint32_t mergeable(const ev_driver *d)
{
    uint32_t m = 0;
    for (unsigned i = 0; i < d->n; i++) {
        const ev_analysis_ops *o = d->an[i].ops;
        if (!(d->live >> i & 1) || !o->fork || !o->merge || !o->drop)
            continue;
        void *probe = o->fork(d->an[i].self);
        if (probe) {
            o->drop(probe);
            m |= 1u << i;
        }
    }
    return m;
}

/* Starts the parallel read of the mergeable analyses when it applies;
 * NULL otherwise (stream.parallel_note says why). */
static ev_par *start_parallel(ev_driver *d, ev_par_host *host, const char *path,
                              uint64_t size, const el_read_opts *ro)
{
    const char *why = NULL;
    ev_par *par = NULL;

    host->n = d->n;
    for (unsigned i = 0; i < d->n; i++) {
        host->ops[i] = d->an[i].ops;
        host->self[i] = d->an[i].self;
    }
    host->mergeable = mergeable(d);
    /* The others, when each takes a few types (not every event) and none
     * needs time order: the ranges hold their records, replayed here in
     * file order after the workers (held in bounded memory; past it they
     * are read sequentially, as in a mixed read). */
    uint32_t rest = d->live & ~host->mergeable;
    host->deferred = !d->ordered && !(rest & d->every) ? rest : 0;
    host->wanted = host_wanted;
    host->ctx = d;
    if (!host->mergeable && !host->deferred) {
        why = "no analysis is mergeable";
    } else if (d->opts.on_bytes) {
        why = "the bytes are copied as they are read";
    } else if (size == 0) {
        why = "an empty file";
    } else if (!d->opts.chunk_bytes && size < 2 * EV_PAR_MIN_RANGE) {
        /* starting threads, partial aggregates and their merge cost more
         * than a second range saves. Measured (2026-11-27, report, two
         * cores, one thread / two ranges): stacks drawn from a pool of
         * 10000, 25 MB 0.12 / 0.12 s, 50 MB 0.17 / 0.18, 100 MB 0.21 /
         * 0.23; many new stacks (synth1g's shape) 25 MB 0.08 / 0.08,
         * 50 MB 0.14 / 0.12, 100 MB 0.27 / 0.19; the real hard log,
         * 88 MB, 0.63 / 0.53 */
        why = "a small file: one thread reads it faster";
    } else {
        /* the others take the sequential pass on this thread: one worker less */
        int mixed = (d->live & ~(host->mergeable | host->deferred)) || d->ordered;
        unsigned threads = d->opts.jobs - (mixed ? 1 : 0);
        if (!d->opts.chunk_bytes && threads > size / EV_PAR_MIN_RANGE)
            threads = (unsigned)(size / EV_PAR_MIN_RANGE);    /* ranges of EV_PAR_MIN_RANGE at least */
        if (threads < 1)
            threads = 1;
        par = ev_par_start(host, path, size, ro, threads, d->opts.chunk_bytes,
                           d->opts.hold_bytes, &d->stream, &why);
        if (par)
            host->deferred = ev_par_deferred(par);
    }
    d->stream.parallel_note = why;
    return par;
}

/* After the workers: a clean read is merged; anything else is dropped and
 * the caller reads sequentially. Returns 1 when merged. */
static int finish_parallel(ev_driver *d, ev_par *par, int check_stream)
{
    const char *why = NULL;
    unsigned failed = 0;

    if (!ev_par_ok(par, &why) ||
        (check_stream && (d->stream.read.status != EL_END || ev_stream_damaged(&d->stream) ||
                          d->stream.read.missing_end))) {
        d->stream.parallel_note = why ? why : "the sequential pass found the log irregular";
        ev_par_discard(par);
        return 0;
    }
    if (ev_par_merge_parts(par) != 0) {
        d->stream.parallel_note = "a merge failed (out of memory, or a limit)";
        ev_par_discard(par);
        return 0;
    }
    d->stream.parallel_ranges = ev_par_ranges(par);
    if (ev_par_merge(par, &failed) != 0 && !d->stream.stopped) {
        d->stream.stopped = 1;
        d->stream.stopped_by = d->an[failed].ops->name;
    }
    return 1;
}

/* The second pass of a mixed read whose parallel part was dropped: the
 * mergeable analyses read the file sequentially, as they would have in
 * one pass with the others (at most the events the first pass handed out
 * when it stopped). */
typedef struct second_pass {
    ev_driver *d;
    uint32_t mask;
    uint64_t limit, count, last_time;
} second_pass;

static int second_event(void *ctx, const el_event *ev, const el_decoder *dec)
{
    second_pass *sp = ctx;
    ev_driver *d = sp->d;
    uint32_t mask = wanted(d, ev->type) & sp->mask;

    if (sp->count++ >= sp->limit)
        return 1;
    if (ev->time > sp->last_time)
        sp->last_time = ev->time;
    d->stream.decoder = dec;
    if (mask && feed(d, mask, ev) != 0)
        return 1;
    return 0;
}

static void second_read(ev_driver *d, const char *path, const el_read_opts *ro, uint32_t mask)
{
    second_pass sp = { d, mask, d->stream.stopped ? d->stream.read.events : UINT64_MAX, 0, 0 };
    int was_stopped = d->stream.stopped;
    el_read_opts o = *ro;

    el_read_result r = el_read_path_opts(path, &o, second_event, &sp, NULL);
    d->stream.decoder = NULL;
    if (!was_stopped && d->stream.stopped) {
        /* a mergeable analysis stopped the read: the read's facts are its */
        d->stream.read = r;
        d->stream.last_time = sp.last_time;
    }
}

/* The replay of the held records to the deferred analyses. */
typedef struct replay_ctx {
    ev_driver *d;
    uint32_t mask;
} replay_ctx;

static int replay_event(void *ctx, const el_event *ev)
{
    replay_ctx *c = ctx;
    uint32_t mask = wanted(c->d, ev->type) & c->mask;
    return mask ? feed(c->d, mask, ev) : 0;
}

/* After a clean parallel read: the deferred analyses get their records
 * (or, without the memory to replay, read the file themselves). */
static void replay_deferred(ev_driver *d, ev_par *par, const char *path, const el_read_opts *ro,
                            uint32_t mask)
{
    replay_ctx c = { d, mask };
    d->stream.decoder = ev_par_header(par);
    int rc = ev_par_replay(par, replay_event, &c);
    d->stream.decoder = NULL;
    if (rc == -1) {
        second_read(d, path, ro, mask);     /* nothing was fed */
    } else if (rc == -2 && !d->stream.stopped) {
        d->stream.stopped = 1;
        d->stream.driver_stop = "an event read before did not decode again for the analyses "
                                "read after the ranges (did the file change during the read?)";
    }
}

static const ev_stream *run(ev_driver *d, const char *path, const void *buf, size_t len)
{
    el_read_opts ro;
    uint16_t *types;

    if (path && is_live(d))
        return ev_driver_run_live_path(d, path);
    if (ev_driver_begin(d, path, &ro, &types) != 0)
        return &d->stream;
    if (path) {
        struct stat sb;
        int regular = strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
        if (regular)
            d->stream.total_bytes = (uint64_t)sb.st_size;
        ev_par_host host;
        ev_par *par = NULL;
        if (d->opts.jobs > 1)
            par = regular ? start_parallel(d, &host, path, (uint64_t)sb.st_size, &ro) : NULL;
        if (d->opts.jobs > 1 && !regular)
            d->stream.parallel_note = "not a regular file";
        int overflow = 0;
        if (par && !(d->live & ~(host.mergeable | host.deferred)) && !d->ordered &&
            !(overflow = ev_par_wait(par, d->opts.progress, d->opts.progress_ctx, &d->stream))) {
            /* nothing for a sequential pass: the ranges, then the held
             * records of the deferred analyses */
            if (finish_parallel(d, par, 0)) {
                ev_par_facts(par, &d->stream.read, &d->stream.last_time);
                if (host.deferred)
                    replay_deferred(d, par, path, &ro, host.deferred);
                d->decoder = ev_par_take_header(par);
                d->tally = ev_par_take_tally(par, &d->sample_caps);
                ev_par_discard(par);
                free(types);
                return ev_driver_end(d);
            }
            par = NULL;     /* irregular: the sequential read below */
            memset(&d->stream.read, 0, sizeof d->stream.read);
        }
        /* else too many records to hold: the deferred analyses take the
         * sequential pass below while the workers finish (a mixed read) */
        uint32_t live = d->live;
        if (par)
            d->live &= ~host.mergeable;     /* they are read in ranges meanwhile */
        if (d->ordered) {
            /* the replay reads the file again by offset; a pipe is spooled */
            int rfd = regular ? open(path, O_RDONLY) : -1;
            if (rfd >= 0)
                ev_spool_init_fd(&d->spool, rfd, 1);
            else
                ev_driver_spool_stream(d, &ro);
        }
        d->stream.read = el_read_path_opts(path, &ro, on_event, d, &d->decoder);
        d->live = live;
        if (par) {
            ev_par_wait(par, NULL, NULL, NULL);
            if (finish_parallel(d, par, 1)) {
                if (overflow)   /* tests see it (EVPROF_TEST_JOBS_NOTE) */
                    d->stream.parallel_note = "too many records to hold: the others read on";
                ev_par_discard(par);
            } else {
                second_read(d, path, &ro, host.mergeable);
            }
        }
    } else {
        d->stream.total_bytes = len;
        if (d->ordered)
            ev_spool_init_mem(&d->spool, buf, len);
        d->stream.read = el_read_mem_opts(buf, len, &ro, on_event, d, &d->decoder);
    }
    free(types);
    return ev_driver_end(d);
}

const ev_stream *ev_driver_run_path(ev_driver *d, const char *path)
{
    return run(d, path, NULL, 0);
}

const ev_stream *ev_driver_run_mem(ev_driver *d, const void *buf, size_t len)
{
    return run(d, NULL, buf, len);
}
