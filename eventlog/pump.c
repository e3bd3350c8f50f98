/* The one read loop: any source (source.h) through a decoder to a
 * callback, with ticks, the interrupt flag and the idle timeout of a live
 * read handled here once; and the el_read_* calls on top of it. Fixed
 * buffers per read (the source's); nothing per event. */
#include "eventlog/source.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_WAIT_MS 100         /* the longest wait without looking at the flag */
#define CLOCK_EVERY 4096        /* events between two looks at the clock (live) */

typedef struct pump {
    el_source *src;
    el_decoder *dec;
    const el_pump_opts *o;
    el_pump_fn fn;
    void *ctx;
    el_read_result *r;
    el_pump_end *end;
    int live;
    uint64_t start_ns, next_tick_ns, tick_ns, last_growth_ns;
    unsigned since_clock;
} pump;

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int interrupted(const pump *p)
{
    return p->o->interrupt && *p->o->interrupt;
}

/* Calls the tick when its time has come. */
static void tick(pump *p, uint64_t now)
{
    p->end->wall_ns = now - p->start_ns;
    if (now < p->next_tick_ns)
        return;
    if (p->o->tick)
        p->o->tick(p->o->tick_ctx, p->src->offset, now - p->start_ns);
    p->next_tick_ns += p->tick_ns;
    if (p->next_tick_ns <= now)     /* a slow tick: skip, do not catch up */
        p->next_tick_ns = now + p->tick_ns;
}

static int idle_over(const pump *p, uint64_t now)
{
    return p->o->idle_timeout > 0 &&
           now - p->last_growth_ns >= (uint64_t)(p->o->idle_timeout * 1e9);
}

/* Every complete event of what was fed. Returns EV_NEED_INPUT when the
 * chunk is used up, EV_STOPPED when the callback or the interrupt stopped
 * the read, or the decoder's status. `live` is a constant where it is
 * inlined, so that a file's read pays nothing for the clock. */
static inline __attribute__((always_inline)) ev_status drain_with(pump *p, int live)
{
    const volatile sig_atomic_t *poisoned = p->src->poisoned;
    el_event ev;
    ev_status st;

    while ((st = el_decoder_next(p->dec, &ev)) == EV_OK) {
        if (poisoned && *poisoned)
            return EV_ERR_IO;   /* the event may hold bytes not the file's: not handed out */
        p->r->events++;
        if (p->fn(p->ctx, &ev, p->dec)) {
            p->end->stopped = 1;
            return EV_STOPPED;
        }
        if (live && ++p->since_clock >= CLOCK_EVERY) {
            p->since_clock = 0;
            if (interrupted(p)) {
                p->end->interrupted = 1;
                return EV_STOPPED;
            }
            tick(p, now_ns());
        }
    }
    return st;
}

static ev_status drain(pump *p)
{
    return p->live ? drain_with(p, 1) : drain_with(p, 0);
}

/* The decoder's facts into the result (time span, capabilities, damage). */
static void decoder_facts(pump *p)
{
    el_read_result *r = p->r;
    r->has_time_span = el_decoder_time_span(p->dec, &r->first_time, &r->last_time);
    el_decoder_caps(p->dec, &r->caps);
    r->damage = *el_decoder_damage(p->dec);
    r->ipe_len_off = el_decoder_ipe_len_off(p->dec);
}

/* A live read that stopped at the end marker in the chunk just fed (buf,
 * len; `fed` bytes fed in all): keeps what came after the marker. */
static void keep_after_end(const pump *p, const uint8_t *buf, size_t len, uint64_t fed)
{
    uint64_t at;
    if (!p->live || p->end->after_end || !el_decoder_end_marker(p->dec, &at) ||
        at + 2 >= fed || at + 2 < fed - len)
        return;
    size_t n = (size_t)(fed - (at + 2));
    if ((p->end->after_end = malloc(n))) {
        memcpy(p->end->after_end, buf + (len - n), n);
        p->end->after_end_len = n;
    }
}

void el_pump(el_source *src, el_decoder *dec, const el_pump_opts *opts, el_pump_fn fn,
             void *ctx, el_read_result *r, el_pump_end *end)
{
    static const el_pump_opts none;
    pump p = { src, dec, opts ? opts : &none, fn, ctx, r, end, 0, 0, 0, 0, 0, 0 };
    ev_status st = EV_NEED_INPUT;
    int failed = 0;         /* the source failed: its error is the read's */

    memset(r, 0, sizeof *r);
    memset(end, 0, sizeof *end);
    uint64_t fed = 0;       /* bytes fed to the decoder: the prefix, then the source's */
    p.live = src->live || p.o->tick || p.o->interrupt;
    if (p.live) {
        p.tick_ns = p.o->tick_ns ? p.o->tick_ns : 1000000000u;
        p.start_ns = p.last_growth_ns = now_ns();
        p.next_tick_ns = p.start_ns + p.tick_ns;
    }
    if (p.o->prefix_len) {
        if (p.o->on_bytes)
            p.o->on_bytes(p.o->bytes_ctx, p.o->prefix, p.o->prefix_len);
        el_decoder_feed(dec, p.o->prefix, p.o->prefix_len);
        fed = p.o->prefix_len;
        st = drain(&p);
        el_decoder_feed(dec, NULL, 0);
        if (st == EV_END)
            keep_after_end(&p, p.o->prefix, p.o->prefix_len, fed);
    }
    for (;;) {
        if (st != EV_NEED_INPUT && (st != EV_END || p.live))
            break;      /* the prefix held the end, or an error */
        if (p.live) {
            tick(&p, now_ns());
            if (interrupted(&p)) {
                end->interrupted = 1;
                if (src->ops->give_up && src->ops->give_up(src, EL_SRC_INTERRUPT) != 0)
                    failed = 1;
                break;
            }
        }
        const uint8_t *buf;
        size_t len;
        el_src_status ss = src->ops->read(src, &buf, &len);
        if (ss == EL_SRC_WAIT) {
            uint64_t now = now_ns();
            if (idle_over(&p, now)) {
                end->idle_timed_out = 1;
                if (src->ops->give_up && src->ops->give_up(src, EL_SRC_IDLE) != 0)
                    failed = 1;
                break;
            }
            uint64_t left = p.next_tick_ns > now ? (p.next_tick_ns - now) / 1000000u : 0;
            int ms = left < 1 ? 1 : left > MAX_WAIT_MS ? MAX_WAIT_MS : (int)left;
            if (src->ops->wait(src, ms) != 0) {
                failed = 1;
                break;
            }
            continue;
        }
        if (ss == EL_SRC_END)
            break;
        if (ss == EL_SRC_ERROR) {
            failed = 1;
            break;
        }
        if (p.live)
            p.last_growth_ns = now_ns();
        if (p.o->on_bytes)
            p.o->on_bytes(p.o->bytes_ctx, buf, len);
        r->bytes = src->offset;
        el_decoder_feed(dec, buf, len);
        fed += len;
        st = drain(&p);
        /* the decoder has copied any record split by the chunk's end: the
         * source may reuse or unmap the chunk */
        el_decoder_feed(dec, NULL, 0);
        if (src->poisoned && *src->poisoned) {
            uint64_t at = el_decoder_offset(dec);
            src->ops->poison_error(src, at);
            r->bytes = at;
            decoder_facts(&p);
            r->status = EV_ERR_IO;
            r->error = src->error;
            return;
        }
        /* a live read stops at the end marker (a followed file would wait
         * for ever), keeping what came after it in this chunk; a finished
         * one reads the rest: a block after the end marker is damage */
        if (st == EV_END)
            keep_after_end(&p, buf, len, fed);
        if (st != EV_NEED_INPUT && (st != EV_END || p.live))
            break;
    }
    if (p.live)
        end->wall_ns = now_ns() - p.start_ns;
    r->bytes = src->offset;
    if (failed) {
        /* the source's error; a file that shrank between two windows
         * keeps what the decoder found before */
        if (src->error_has_facts)
            decoder_facts(&p);
        r->status = EV_ERR_IO;
        r->error = src->error;
        if (src->error.offset < r->bytes || src->error_has_facts)
            r->bytes = src->error.offset;
        return;
    }
    if (st == EV_NEED_INPUT || st == EV_END || end->interrupted)
        st = el_decoder_finish(dec);
    decoder_facts(&p);
    r->status = st;
    r->missing_end = st != EV_STOPPED && el_decoder_missing_end(dec);
    if (st != EV_OK && st != EV_END && st != EV_STOPPED)
        r->error = *el_decoder_error(dec);
}

/* ---- el_read_*: a source, a decoder, the loop ------------------------------------- */

el_decoder *el_decoder_create_opts(const el_read_opts *opts)
{
    el_decoder *d = el_decoder_create();
    if (!d)
        return NULL;
    if (opts && opts->fields)
        el_decoder_only_fields(d, opts->fields, opts->num_fields);
    if (opts)
        el_decoder_only_selected(d, opts->only_selected);
    el_decoder_set_resync(d, !(opts && opts->no_resync));
    if (opts && el_decoder_count_types(d, opts->count_types) != 0) {
        el_decoder_destroy(d);
        return NULL;
    }
    return d;
}

typedef struct user_fn {
    el_event_fn fn;
    void *ctx;
} user_fn;

static int call_user(void *ctx, el_event *ev, const el_decoder *d)
{
    const user_fn *u = ctx;
    return u->fn ? u->fn(u->ctx, ev, d) : 0;
}

static el_read_result read_source(el_source *src, const ev_error *open_err,
                                  const el_read_opts *opts, el_event_fn on_event, void *ctx,
                                  el_decoder **keep)
{
    el_read_result r;
    el_pump_end end;
    user_fn u = { on_event, ctx };

    memset(&r, 0, sizeof r);
    if (keep)
        *keep = NULL;
    if (!src) {
        r.status = open_err->status;
        r.error = *open_err;
        return r;
    }
    el_decoder *d = el_decoder_create_opts(opts);
    if (!d) {
        el_source_close(src);
        r.status = r.error.status = EV_ERR_NOMEM;
        r.error.type = -1;
        strcpy(r.error.msg, "out of memory");
        return r;
    }
    el_pump(src, d, NULL, call_user, &u, &r, &end);
    el_source_close(src);
    if (keep)
        *keep = d;
    else
        el_decoder_destroy(d);
    return r;
}

el_read_result el_read_path_opts(const char *path, const el_read_opts *opts,
                                 el_event_fn on_event, void *ctx, el_decoder **keep)
{
    ev_error err;
    el_source *src = el_source_open_path(path, NULL, &err);
    return read_source(src, &err, opts, on_event, ctx, keep);
}

el_read_result el_read_path(const char *path, el_event_fn on_event, void *ctx,
                            el_decoder **keep)
{
    return el_read_path_opts(path, NULL, on_event, ctx, keep);
}

el_read_result el_read_mem_opts(const void *buf, size_t len, const el_read_opts *opts,
                                el_event_fn on_event, void *ctx, el_decoder **keep)
{
    ev_error err;
    el_source *src = el_source_open_mem(buf, len, &err);
    return read_source(src, &err, opts, on_event, ctx, keep);
}

el_read_result el_read_mem(const void *buf, size_t len, el_event_fn on_event, void *ctx,
                           el_decoder **keep)
{
    return el_read_mem_opts(buf, len, NULL, on_event, ctx, keep);
}
