/* Time-ordered replay: see order.h. */
#include "driver/order.h"

#include <stdlib.h>
#include <string.h>

#include "eventlog/bytes.h"

#define CHUNK_SHIFT 20
#define CHUNK_SIZE ((size_t)1 << CHUNK_SHIFT)
#define PREFIX_SIZE 6u          /* u16 cap, u32 record length (host order) */

/* A run of records whose times never decrease; in the merge, its head. */
typedef struct order_run {
    uint64_t time;              /* time of the head record */
    uint64_t pos;               /* head: chunk << CHUNK_SHIFT | offset */
    uint64_t left;              /* records after the head */
} order_run;

struct ev_order {
    uint8_t **chunks;
    size_t *chunk_used;         /* bytes used in each chunk */
    size_t n_chunks, cap_chunks;
    order_run *runs;
    size_t n_runs, cap_runs;
    uint64_t last_time;
    uint64_t n_events;
};

ev_order *ev_order_create(void)
{
    return calloc(1, sizeof(ev_order));
}

void ev_order_destroy(ev_order *o)
{
    if (!o)
        return;
    for (size_t i = 0; i < o->n_chunks; i++)
        free(o->chunks[i]);
    free(o->chunks);
    free(o->chunk_used);
    free(o->runs);
    free(o);
}

uint64_t ev_order_count(const ev_order *o) { return o->n_events; }

/* n bytes (n <= CHUNK_SIZE) after the last record, in its chunk or at the
 * start of a new one; NULL when out of memory. */
static uint8_t *order_alloc(ev_order *o, size_t n, uint64_t *pos)
{
    if (o->n_chunks == 0 || CHUNK_SIZE - o->chunk_used[o->n_chunks - 1] < n) {
        if (o->n_chunks == o->cap_chunks) {
            size_t cap = o->cap_chunks ? o->cap_chunks * 2 : 16;
            uint8_t **c = realloc(o->chunks, cap * sizeof *c);
            if (!c)
                return NULL;
            o->chunks = c;
            size_t *u = realloc(o->chunk_used, cap * sizeof *u);
            if (!u)
                return NULL;
            o->chunk_used = u;
            o->cap_chunks = cap;
        }
        uint8_t *chunk = malloc(CHUNK_SIZE);
        if (!chunk)
            return NULL;
        o->chunks[o->n_chunks] = chunk;
        o->chunk_used[o->n_chunks] = 0;
        o->n_chunks++;
    }
    size_t last = o->n_chunks - 1;
    *pos = (uint64_t)last << CHUNK_SHIFT | o->chunk_used[last];
    uint8_t *p = o->chunks[last] + o->chunk_used[last];
    o->chunk_used[last] += n;
    return p;
}

static const uint8_t *order_at(const ev_order *o, uint64_t pos)
{
    return o->chunks[pos >> CHUNK_SHIFT] + (pos & (CHUNK_SIZE - 1));
}

/* Position of the record after the one at pos (which is not the last). */
static uint64_t order_next(const ev_order *o, uint64_t pos)
{
    uint32_t len;
    size_t chunk = pos >> CHUNK_SHIFT;
    size_t off = (size_t)(pos & (CHUNK_SIZE - 1));

    memcpy(&len, o->chunks[chunk] + off + 2, 4);
    off += PREFIX_SIZE + len;
    if (off >= o->chunk_used[chunk])
        return (uint64_t)(chunk + 1) << CHUNK_SHIFT;
    return (uint64_t)chunk << CHUNK_SHIFT | off;
}

static uint64_t record_time(const ev_order *o, uint64_t pos)
{
    return be64(order_at(o, pos) + PREFIX_SIZE + 2);
}

int ev_order_add(ev_order *o, const el_event *ev)
{
    uint32_t len = ev->size;
    uint64_t pos;

    if (len > CHUNK_SIZE - PREFIX_SIZE)
        return -1;      /* cannot happen: records are at most 64 KiB + header */
    uint8_t *p = order_alloc(o, PREFIX_SIZE + len, &pos);
    if (!p)
        return -1;
    memcpy(p, &ev->cap, 2);
    memcpy(p + 2, &len, 4);
    memcpy(p + PREFIX_SIZE, ev->record, len);

    if (o->n_runs > 0 && ev->time >= o->last_time) {
        o->runs[o->n_runs - 1].left++;
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
        r->pos = pos;
        r->left = 0;
    }
    o->last_time = ev->time;
    o->n_events++;
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

int ev_order_replay(ev_order *o, const el_decoder *header, ev_order_fn fn, void *ctx)
{
    el_event ev;
    int rc = 0;

    if (o->n_events == 0)
        return 0;
    el_decoder *rd = el_decoder_create_for_records(header);
    if (!rd)
        return -1;

    order_run *heap = o->runs;
    size_t n = o->n_runs;
    for (size_t i = n / 2; i-- > 0;)
        sift_down(heap, n, i);
    while (n > 0) {
        const uint8_t *rec = order_at(o, heap[0].pos);
        uint16_t cap;
        uint32_t len;
        memcpy(&cap, rec, 2);
        memcpy(&len, rec + 2, 4);
        el_decoder_feed(rd, rec + PREFIX_SIZE, len);
        if (el_decoder_next(rd, &ev) != EL_OK) {
            rc = -2;
            break;
        }
        ev.cap = cap;
        rc = fn(ctx, &ev);
        if (rc != 0)
            break;
        if (el_decoder_next(rd, &ev) != EL_NEED_INPUT) {
            rc = -2;
            break;
        }
        if (heap[0].left > 0) {
            heap[0].pos = order_next(o, heap[0].pos);
            heap[0].time = record_time(o, heap[0].pos);
            heap[0].left--;
        } else {
            heap[0] = heap[--n];
        }
        sift_down(heap, n, 0);
    }
    o->n_runs = 0;
    el_decoder_destroy(rd);
    return rc;
}
