/* Time-ordered replay in bounded memory: see order.h. */
#include "driver/order.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "eventlog/bytes.h"

/* ---- the index of runs (pass 1) ------------------------------------------ */

typedef struct order_cursor {
    uint8_t *buf;
    size_t cap;
    uint64_t off;               /* file offset of buf[0] */
    size_t len;                 /* bytes valid in buf */
} order_cursor;

/* A run of wanted events whose times never decrease; in the merge, its head. */
typedef struct order_run {
    uint64_t time;              /* time of the head (a wanted record) */
    uint64_t pos;               /* offset of the head record */
    uint64_t end;               /* offset after the run's last wanted record */
    uint64_t block_end;         /* the enclosing block at pos: its end, */
    uint64_t block_limit;       /* its end time (UINT64_MAX: none; an IPE
                                   record's length may depend on it) */
    uint16_t block_cap;         /* and its capability */
    order_cursor *cur;          /* NULL until the merge reaches the run */
} order_run;

struct ev_order {
    order_run *runs;
    size_t n_runs, cap_runs;
    uint64_t last_time;
    uint64_t last_damage;
    uint64_t n_events;
    uint64_t block_end;         /* the block the read is in (pass 1) */
    uint64_t block_limit;
    uint16_t block_cap;
};

ev_order *ev_order_create(void)
{
    ev_order *o = calloc(1, sizeof(ev_order));
    if (o) {
        o->block_cap = EL_NO_CAP;
        o->block_limit = UINT64_MAX;
    }
    return o;
}

static void cursor_free(order_cursor *c)
{
    if (c) {
        free(c->buf);
        free(c);
    }
}

void ev_order_destroy(ev_order *o)
{
    if (!o)
        return;
    for (size_t i = 0; i < o->n_runs; i++)
        cursor_free(o->runs[i].cur);
    free(o->runs);
    free(o);
}

uint64_t ev_order_count(const ev_order *o) { return o->n_events; }
uint64_t ev_order_runs(const ev_order *o) { return o->n_runs; }

int ev_order_note(ev_order *o, const el_event *ev, int wanted, uint64_t damage_blocks)
{
    uint64_t block_end = o->block_end, block_limit = o->block_limit;
    uint16_t block_cap = o->block_cap;

    if (ev->type == EL_BLOCK_MARKER) {
        o->block_cap = ev->u.block.cap;
        o->block_end = ev->offset + ev->u.block.size;
        o->block_limit = el_block_limit(ev->time, ev->u.block.end_time);
    }
    if (!wanted)
        return 0;
    if (o->n_runs > 0 && ev->time >= o->last_time && damage_blocks == o->last_damage) {
        o->runs[o->n_runs - 1].end = ev->offset + ev->size;
    } else {
        if (o->n_runs == o->cap_runs) {
            size_t cap = o->cap_runs ? o->cap_runs * 2 : 256;
            order_run *r = realloc(o->runs, cap * sizeof *r);
            if (!r)
                return -1;
            o->runs = r;
            o->cap_runs = cap;
        }
        order_run *r = &o->runs[o->n_runs++];
        r->time = ev->time;
        r->pos = ev->offset;
        r->end = ev->offset + ev->size;
        r->block_end = block_end;
        r->block_limit = block_limit;
        r->block_cap = block_cap;
        r->cur = NULL;
    }
    o->last_time = ev->time;
    o->last_damage = damage_blocks;
    o->n_events++;
    return 0;
}

/* ---- the merge (pass 2) --------------------------------------------------- */

typedef struct replay {
    const el_decoder *header;
    const ev_spool *src;
    ev_order_wants_fn wants;
    void *ctx;
} replay;

/* n bytes of the run at r->pos (n <= bytes left in the run): a pointer to
 * them, or NULL (errno-like code in *rc: -1 memory, -3 read). */
static const uint8_t *run_bytes(const replay *rp, order_run *r, size_t n, int *rc)
{
    const ev_spool *s = rp->src;

    if (s->fd < 0) {
        if (r->pos + n > s->size) {
            *rc = -3;
            return NULL;
        }
        return s->mem + r->pos;
    }
    order_cursor *c = r->cur;
    if (!c && !(c = r->cur = calloc(1, sizeof *c))) {
        *rc = -1;
        return NULL;
    }
    if (c->len > 0 && r->pos >= c->off && r->pos + n <= c->off + c->len)
        return c->buf + (r->pos - c->off);

    uint64_t left = r->end - r->pos;
    size_t want = left < EV_ORDER_BUF ? (size_t)left : EV_ORDER_BUF;
    if (want < n)
        want = n;
    if (c->cap < want) {
        uint8_t *b = realloc(c->buf, want);
        if (!b) {
            *rc = -1;
            return NULL;
        }
        c->buf = b;
        c->cap = want;
    }
    size_t got = 0;
    while (got < want) {
        ssize_t k = pread(s->fd, c->buf + got, want - got, (off_t)(r->pos + got));
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        got += (size_t)k;
    }
    c->off = r->pos;
    c->len = got;
    if (got < n) {
        *rc = -3;
        return NULL;
    }
    return c->buf;
}

/* The record at r->pos: its bytes and size. Returns 0 or a replay code. */
static int run_record(const replay *rp, order_run *r, const uint8_t **rec, uint32_t *size)
{
    int rc = -2;
    uint64_t left = r->end - r->pos;
    const uint8_t *p = run_bytes(rp, r, left < 12 ? (size_t)left : 12, &rc);

    if (!p)
        return rc;
    if (left < 10)
        return -2;
    const el_event_type *et = el_decoder_type(rp->header, be16(p));
    if (!et)
        return -2;
    if (et->size == EL_VARIABLE_SIZE) {
        if (left < 12)
            return -2;
        *size = 12u + be16(p + 10);
        if (be16(p) == EL_IPE) {
            /* by its strings or its declared length, as the decoder chose
             * (el_decoder_record_size_in): at most the run's rest, which
             * ends with a whole record, but for the head of the record
             * after it, which the decoder had at hand to choose */
            size_t n = left < EL_RECORD_MAX ? (size_t)left : EL_RECORD_MAX, need;
            uint64_t to_end = r->pos < r->block_end ? r->block_end - r->pos : 0;
            if (!(p = run_bytes(rp, r, n, &rc)))
                return rc;
            *size = (uint32_t)el_decoder_record_size_in(rp->header, p, n, to_end,
                                                        r->block_limit, &need);
            if (!*size && need > n) {
                if (!(p = run_bytes(rp, r, need, &rc)))
                    return rc;
                *size = (uint32_t)el_decoder_record_size_in(rp->header, p, need, to_end,
                                                            r->block_limit, NULL);
            }
            if (!*size)
                return -2;
        }
    } else {
        *size = 10u + (uint32_t)et->size;
    }
    if (*size > left)
        return -2;
    if (!(*rec = run_bytes(rp, r, *size, &rc)))
        return rc;
    return 0;
}

/* A block marker moves the run into its block. */
static void enter_block(order_run *r, const uint8_t *rec, uint32_t size)
{
    if (be16(rec) == EL_BLOCK_MARKER && size >= 24) {
        r->block_end = r->pos + be32(rec + 10);
        r->block_limit = el_block_limit(be64(rec + 2), be64(rec + 14));
        r->block_cap = be16(rec + 22);
    }
}

/* Moves the run to its next wanted record (from r->pos on), skipping the
 * others. Returns 1 found (r->time set), 0 the run is over, or a code. */
static int run_seek(const replay *rp, order_run *r)
{
    while (r->pos < r->end) {
        const uint8_t *rec;
        uint32_t size;
        int rc = run_record(rp, r, &rec, &size);
        if (rc != 0)
            return rc;
        if (rp->wants(rp->ctx, be16(rec))) {
            r->time = be64(rec + 2);
            return 1;
        }
        enter_block(r, rec, size);
        r->pos += size;
    }
    return 0;
}

/* Heap order: earlier time first, then earlier in the file. */
static int run_before(const order_run *x, const order_run *y)
{
    return x->time < y->time || (x->time == y->time && x->pos < y->pos);
}

static void sift_down(order_run *h, size_t n, size_t i)
{
    order_run top = h[i];

    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && run_before(&h[c + 1], &h[c]))
            c++;
        if (!run_before(&h[c], &top))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = top;
}

int ev_order_replay(ev_order *o, const el_decoder *header, const ev_spool *src,
                    ev_order_wants_fn wants, ev_order_fn fn, void *ctx)
{
    replay rp = { header, src, wants, ctx };
    el_event ev;
    int rc = 0;

    if (o->n_events == 0)
        return 0;
    el_decoder *rd = el_decoder_create_for_records(header);
    if (!rd)
        return -1;
    /* each record alone, out of file order, checked in pass 1 */
    el_decoder_records_checked(rd, 1);

    order_run *heap = o->runs;
    size_t n = o->n_runs;
    for (size_t i = n / 2; i-- > 0;)
        sift_down(heap, n, i);
    while (n > 0) {
        order_run *r = &heap[0];
        const uint8_t *rec = NULL;
        uint32_t size = 0;
        if ((rc = run_record(&rp, r, &rec, &size)) != 0)
            break;
        uint16_t cap = r->pos < r->block_end ? r->block_cap : EL_NO_CAP;
        enter_block(r, rec, size);
        if (be16(rec) == EL_BLOCK_MARKER)
            cap = r->block_cap;
        /* at its file offset: block markers then set their ends in file
         * terms, which bound an IPE record's strings (el_decoder_record_size) */
        el_decoder_set_offset(rd, r->pos);
        el_decoder_feed(rd, rec, size);
        if (el_decoder_next(rd, &ev) != EV_OK) {
            rc = -2;
            break;
        }
        ev.cap = cap;
        ev.offset = r->pos;
        rc = fn(ctx, &ev);
        if (rc != 0)
            break;
        if (el_decoder_next(rd, &ev) != EV_NEED_INPUT) {
            rc = -2;
            break;
        }
        r->pos += size;
        int more = run_seek(&rp, r);
        if (more < 0) {
            rc = more;
            break;
        }
        if (!more) {
            cursor_free(r->cur);
            heap[0] = heap[--n];
            heap[n].cur = NULL;
        }
        sift_down(heap, n, 0);
    }
    /* the runs are consumed (or abandoned): their cursors go */
    for (size_t i = 0; i < o->n_runs; i++) {
        cursor_free(o->runs[i].cur);
        o->runs[i].cur = NULL;
    }
    o->n_runs = 0;
    el_decoder_destroy(rd);
    return rc;
}
