/* The page's timeline: the run in bins of time (see html/internal.h).
 * Events come in file order: each capability's in time order (its blocks
 * are), so its state changes are intervals spread over the bins; the
 * rest are counts and maxima per bin, in any order. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "html/internal.h"
#include "sched/machine.h"
#include "util/hash.h"

#define SEED 0x7a3c1f5e9b2d4c81ull
#define SEED_CUT 0x1d9e6b3f5a7c2e49ull  /* stacks GHC cut at 255 frames */

/* The hash of a stack's path as the cells key it, from the root (cut:
 * the synthetic parent of stacks GHC cut at 255 frames) one
 * hash_path_step per frame. */
static uint64_t root_hash(int cut)
{
    return cut ? SEED_CUT : SEED;
}

/* ---- bins ---------------------------------------------------------------- */

/* Every per-bin array of sums (a) and of maxima (m), for merging. */
typedef struct bin_arrays {
    /* the timeline's own, the sparks', per capability (mutator, GC, spark
     * counters), per lane */
    uint64_t **sum[8 + 2 * TL_SPARK_KINDS + TL_CAPS * (2 + TL_SPARK_COUNTED) + 2 * TL_LABELLED];
    uint64_t **max[8 + TL_CAPS];
    size_t nsum, nmax;
} bin_arrays;

static void arrays_of(html_timeline *t, bin_arrays *b)
{
    b->nsum = b->nmax = 0;
    uint64_t **sums[] = { &t->gc_count, &t->created, &t->finished, &t->blocked, &t->woken,
                          &t->alloc, &t->samples };
    for (size_t i = 0; i < sizeof sums / sizeof sums[0]; i++)
        b->sum[b->nsum++] = sums[i];
    for (int k = 0; k < TL_SPARK_KINDS; k++) {
        b->sum[b->nsum++] = &t->spark_ev[k];
        b->sum[b->nsum++] = &t->spark_cnt[k];
    }
    for (uint32_t c = 0; c < t->ncaps; c++) {
        b->sum[b->nsum++] = &t->caps[c].mut;
        b->sum[b->nsum++] = &t->caps[c].gc;
        for (int k = 0; k < TL_SPARK_COUNTED; k++)
            b->sum[b->nsum++] = &t->caps[c].spark_grow[k];
        b->max[b->nmax++] = &t->caps[c].spark_pool;
    }
    for (uint32_t l = 0; l < t->nlanes; l++) {
        b->sum[b->nsum++] = &t->lane_run[l];
        b->sum[b->nsum++] = &t->lane_blocked[l];
    }
    uint64_t **maxs[] = { &t->gc_pause, &t->pool, &t->heap_size, &t->heap_live };
    for (size_t i = 0; i < sizeof maxs / sizeof maxs[0]; i++)
        b->max[b->nmax++] = maxs[i];
    assert(b->nsum <= sizeof b->sum / sizeof b->sum[0]);
    assert(b->nmax <= sizeof b->max / sizeof b->max[0]);
}

static uint64_t *bins_alloc(void)
{
    return calloc(TL_BINS, sizeof(uint64_t));
}

/* ---- the profile's cells ---------------------------------------------------- */

static size_t cell_slot(const tl_bincells *b, uint64_t hash)
{
    size_t mask = b->cap - 1, k = (size_t)hash_mix64(hash) & mask;
    while (b->slots[k].count && b->slots[k].hash != hash)
        k = (k + 1) & mask;
    return k;
}

static void cells_drop(html_timeline *t, tl_cellset *cs)
{
    for (uint32_t i = 0; i < TL_BINS; i++) {
        tl_bincells *b = &cs->bins[i];
        if (b->slots)
            ev_account_release(&t->mem, (size_t)b->cap * sizeof *b->slots);
        free(b->slots);
        memset(b, 0, sizeof *b);
    }
    cs->n = 0;
    cs->dropped = 1;
}

/* The cells are a cache of the page's: they never stand in the way of
 * the aggregates that share the budget. The others (the profile, what
 * reading takes) may double what they hold (an array grown), so the cells
 * keep `more` bytes more only while the limit leaves room for that and
 * for three times the cells; past it sets are given up (the whole
 * stacks' first) and a limit the profile fits in still gives a page. */
static int cells_room(const html_timeline *t, size_t more)
{
    uint64_t limit = ev_budget_limit(t->mem.budget);
    if (!limit)
        return 1;
    uint64_t used = ev_budget_used(t->mem.budget), mine = t->mem.charged + more;
    uint64_t others = used > t->mem.charged ? used - t->mem.charged : 0;
    return limit >= 2 * others + 3 * mine;
}

static void cells_yield(html_timeline *t)
{
    for (int k = 0; k < TL_CELL_SETS && t->mem.charged; k++) {
        if (cells_room(t, 0))
            return;
        if (!t->sets[k].dropped) {
            cells_drop(t, &t->sets[k]);
            t->cells_yielded = 1;
        }
    }
}

/* A bin's table with room for `cap` slots (a power of two). 0, or -1:
 * no memory, or the budget said no (the set is then given up). */
static int bin_grow(html_timeline *t, tl_cellset *cs, tl_bincells *b, uint32_t cap)
{
    size_t bytes = (size_t)cap * sizeof *b->slots;
    if (!cells_room(t, bytes) || ev_account_try(&t->mem, bytes) != 0) {
        t->cells_yielded = 1;
        cells_drop(t, cs);      /* the timeline does without this set */
        return -1;
    }
    tl_cell *nt = calloc(cap, sizeof *nt);
    if (!nt) {
        ev_account_release(&t->mem, (size_t)cap * sizeof *b->slots);
        cells_drop(t, cs);
        return -1;
    }
    tl_bincells nb = { nt, cap, 0, 0 };
    for (uint32_t i = 0; i < b->cap; i++)
        if (b->slots[i].count) {
            size_t k = cell_slot(&nb, b->slots[i].hash);
            nt[k] = b->slots[i];
            nb.n++;
        }
    if (b->slots)
        ev_account_release(&t->mem, (size_t)b->cap * sizeof *b->slots);
    free(b->slots);
    *b = nb;
    return 0;
}

/* c's cells added into b (made big enough for both at once). 0 or -1. */
static int bin_merge(html_timeline *t, tl_cellset *cs, tl_bincells *b, const tl_bincells *c)
{
    uint32_t cap = b->cap ? b->cap : 64;
    while ((size_t)(b->n + c->n) * 2 > cap)
        cap *= 2;
    if (c->n && cap != b->cap && bin_grow(t, cs, b, cap) != 0)
        return -1;
    for (uint32_t i = 0; i < c->cap; i++) {
        if (!c->slots[i].count)
            continue;
        size_t k = cell_slot(b, c->slots[i].hash);
        if (b->slots[k].count) {
            b->slots[k].count += c->slots[i].count;
            cs->n--;
        } else {
            b->slots[k] = c->slots[i];
            b->n++;
        }
    }
    return 0;
}

/* Pairs of the set's bins merge: bin k takes 2k and 2k + 1. */
static void cells_halve(html_timeline *t, tl_cellset *cs)
{
    for (uint32_t k = 0; k < TL_BINS / 2 && !cs->dropped; k++) {
        tl_bincells a = cs->bins[2 * k], b = cs->bins[2 * k + 1];
        memset(&cs->bins[2 * k], 0, sizeof a);
        memset(&cs->bins[2 * k + 1], 0, sizeof b);
        /* the bigger table takes the smaller one */
        if (b.n > a.n) {
            tl_bincells x = a;
            a = b;
            b = x;
        }
        int rc = bin_merge(t, cs, &a, &b);
        if (b.slots)
            ev_account_release(&t->mem, (size_t)b.cap * sizeof *b.slots);
        free(b.slots);
        if (rc != 0) {
            if (a.slots)
                ev_account_release(&t->mem, (size_t)a.cap * sizeof *a.slots);
            free(a.slots);
            return;     /* the set was given up */
        }
        cs->bins[k] = a;
    }
}

static void cell_add(html_timeline *t, tl_cellset *cs, uint32_t lane_bin, uint64_t hash)
{
    if (cs->dropped)
        return;
    for (;;) {
        tl_bincells *b = &cs->bins[lane_bin >> cs->kshift];
        if (b->cap) {
            /* the same cell as the bin's last sample's: no probe */
            tl_cell *c = &b->slots[b->last];
            if (c->count && c->hash == hash) {
                c->count++;
                return;
            }
            size_t k = cell_slot(b, hash);
            if (b->slots[k].count) {
                b->slots[k].count++;
                b->last = (uint32_t)k;
                return;
            }
            if ((b->n + 1) * 2 <= b->cap && cs->n < cs->limit) {
                b->slots[k] = (tl_cell){ hash, 1 };
                b->n++;
                cs->n++;
                b->last = (uint32_t)k;
                return;
            }
        }
        if (cs->n < cs->limit) {            /* room: a bigger table */
            if (bin_grow(t, cs, b, b->cap ? 2 * b->cap : 64) != 0)
                return;
            continue;
        }
        /* full: the set's bins merge in pairs (at most log2(TL_BINS) times
         * in a read, each O(cells)), down to a few */
        if ((TL_BINS >> (cs->kshift + 1)) < TL_CELL_BINS_MIN) {
            cells_drop(t, cs);
            return;
        }
        cs->kshift++;
        cells_halve(t, cs);
        if (cs->dropped)
            return;
    }
}

/* Every pair of bins merges: the width doubles. */
static void coarsen(html_timeline *t)
{
    bin_arrays b;
    arrays_of(t, &b);
    for (size_t i = 0; i < b.nsum; i++) {
        uint64_t *a = *b.sum[i];
        if (!a)
            continue;
        for (uint32_t k = 0; k < TL_BINS / 2; k++)
            a[k] = a[2 * k] + a[2 * k + 1];
        memset(a + TL_BINS / 2, 0, TL_BINS / 2 * sizeof *a);
    }
    for (size_t i = 0; i < b.nmax; i++) {
        uint64_t *a = *b.max[i];
        if (!a)
            continue;
        for (uint32_t k = 0; k < TL_BINS / 2; k++)
            a[k] = a[2 * k] > a[2 * k + 1] ? a[2 * k] : a[2 * k + 1];
        memset(a + TL_BINS / 2, 0, TL_BINS / 2 * sizeof *a);
    }
    t->w *= 2;
    t->wshift++;
    t->n = (t->n + 1) / 2;
    /* the cells' bins keep their width: one shift less, or merged too */
    for (int k = 0; k < TL_CELL_SETS; k++) {
        tl_cellset *cs = &t->sets[k];
        if (cs->kshift)
            cs->kshift--;
        else if (!cs->dropped)
            cells_halve(t, cs);
    }
}

/* The bin of time t, the bins made to reach it. */
static uint32_t bin_of(html_timeline *t, uint64_t time)
{
    /* the width is a power of two: a shift, not a division per event */
    while ((time >> t->wshift) >= TL_BINS && t->w <= (UINT64_MAX / 4) / TL_BINS)
        coarsen(t);
    uint64_t b = time >> t->wshift;
    if (b >= TL_BINS)
        b = TL_BINS - 1;
    if (b + 1 > t->n)
        t->n = (uint32_t)b + 1;
    return (uint32_t)b;
}

/* [a, b) added to a's bins, each its part. */
static void spread(html_timeline *t, uint64_t *arr, uint64_t a, uint64_t b)
{
    if (!arr || b <= a)
        return;
    uint32_t last = bin_of(t, b - 1), k = bin_of(t, a);
    for (; k <= last; k++) {
        uint64_t lo = (uint64_t)k * t->w, hi = lo + t->w;
        if (k == TL_BINS - 1)
            hi = UINT64_MAX;
        uint64_t x = a > lo ? a : lo, y = b < hi ? b : hi;
        if (y > x)
            arr[k] += y - x;
    }
}

/* ---- capabilities ---------------------------------------------------------- */

static tl_cap *cap_of(html_timeline *t, uint32_t capno)
{
    if (capno < TL_CAPS && t->cap_slot[capno])
        return &t->caps[t->cap_slot[capno] - 1];
    for (uint32_t i = 0; i < t->ncaps; i++)
        if (t->caps[i].capno == capno)
            return &t->caps[i];
    if (t->ncaps == TL_CAPS) {
        t->caps_over++;
        return NULL;
    }
    tl_cap *c = &t->caps[t->ncaps];
    memset(c, 0, sizeof *c);
    c->capno = capno;
    c->mut = bins_alloc();
    c->gc = bins_alloc();
    if (!c->mut || !c->gc) {
        free(c->mut);
        free(c->gc);
        t->nomem = 1;
        return NULL;
    }
    t->ncaps++;
    if (capno < TL_CAPS)
        t->cap_slot[capno] = (uint8_t)t->ncaps;
    return c;
}

/* The interval a capability's state change closes at time: its bins. */
static void cap_spread(html_timeline *t, tl_cap *c, sched_span was, uint64_t time)
{
    if (was.state == SCHED_RUNNING)
        spread(t, c->mut, was.from, time);
    else if (was.state == SCHED_GC)
        spread(t, c->gc, was.from, time);
}

/* ---- labelled threads --------------------------------------------------------- */

static tl_thread *thread_of(html_timeline *t, uint32_t tid)
{
    if (!t->nthreads)
        return NULL;
    uint32_t i = tx_idmap_get(&t->thread_ids, tid);
    return i == TX_IDMAP_NONE ? NULL : &t->threads[i];
}

static void thread_label(html_timeline *t, const el_event *ev)
{
    uint32_t tid = ev->u.text.thread;
    if (thread_of(t, tid))
        return;                     /* relabelled: the first label stays */
    if (t->nthreads == TL_THREADS) {
        t->threads_over++;
        return;
    }
    if (!t->threads && !(t->threads = calloc(TL_THREADS, sizeof *t->threads))) {
        t->nomem = 1;
        return;
    }
    uint32_t len = ev->u.text.str.len < TL_LABEL_BYTES ? ev->u.text.str.len : TL_LABEL_BYTES;
    tl_thread *th = &t->threads[t->nthreads];
    memset(th, 0, sizeof *th);
    th->tid = tid;
    th->label = malloc(len + 1);
    if (!th->label || tx_idmap_put(&t->thread_ids, tid, (uint32_t)t->nthreads, NULL) != 0) {
        free(th->label);
        t->nomem = 1;
        return;
    }
    memcpy(th->label, ev->u.text.str.ptr, len);
    th->label[len] = '\0';
    th->label_len = len;
    th->labelled_ns = ev->time;
    th->finished_ns = UINT64_MAX;
    th->lane = -1;
    if (t->nlanes < TL_LABELLED) {
        uint32_t l = t->nlanes;
        t->lane_run[l] = bins_alloc();
        t->lane_blocked[l] = bins_alloc();
        if (!t->lane_run[l] || !t->lane_blocked[l]) {
            free(t->lane_run[l]);
            free(t->lane_blocked[l]);
            t->lane_run[l] = t->lane_blocked[l] = NULL;
        } else {
            th->lane = (int)t->nlanes++;
        }
    }
    t->nthreads++;
}

/* The interval a labelled thread's state change closes at time. */
static void thread_spread(html_timeline *t, tl_thread *th, sched_span was, uint64_t time)
{
    if (was.state != SCHED_RUNNING && was.state != SCHED_BLOCKED)
        return;
    uint64_t d = time > was.from ? time - was.from : 0;
    if (was.state == SCHED_RUNNING) {
        th->run_ns += d;
        if (th->lane >= 0)
            spread(t, t->lane_run[th->lane], was.from, time);
    } else {
        th->blocked_ns += d;
        if (th->lane >= 0)
            spread(t, t->lane_blocked[th->lane], was.from, time);
    }
}

/* A labelled thread's event (sched/machine.h); inline: most logs label
 * no thread, and every RUN_THREAD and STOP_THREAD asks. */
static inline void thread_event(html_timeline *t, uint32_t tid, const el_event *ev,
                                uint16_t status)
{
    if (!t->nthreads)
        return;
    tl_thread *th = thread_of(t, tid);
    if (!th)
        return;
    thread_spread(t, th, sched_thread_step(&th->sched, ev->type, ev->time, status), ev->time);
    if (th->sched.state == SCHED_FINISHED && ev->type == EL_STOP_THREAD)
        th->finished_ns = ev->time;
}

/* ---- events ------------------------------------------------------------------ */

static int is_builtin(const html_timeline *t, uint32_t id)
{
    for (uint32_t i = 0; i < t->nbuiltin; i++)
        if (t->builtin[i] == id)
            return 1;
    return 0;
}

static void sample(html_timeline *t, const el_event *ev, uint32_t b)
{
    if ((++t->sample_events & 1023) == 0)
        cells_yield(t);
    if (ev->outside)    /* outside the selection (the driver's stage) */
        return;
    unsigned depth = ev->u.prof_sample.depth;
    const uint32_t *st = ev->u.prof_sample.stack;
    if (depth == 1 && !t->f.all && is_builtin(t, st[0]))
        return;                     /* MAIN/GC, MAIN/IDLE, ...: not counted (-p) */
    t->samples[b]++;
    t->samples_counted++;
    /* one walk down the stack gives every set its key */
    uint64_t h = root_hash(depth == EL_MAX_STACK), hp[TL_CELL_SETS];
    for (int k = 1; k < TL_CELL_SETS; k++)
        hp[k] = 0;
    for (unsigned i = depth, n = 1; i-- > 0; n++) {
        h = hash_path_step(h, st[i]);
        for (int k = 1; k < TL_CELL_SETS; k++)
            if (n == t->sets[k].prefix)
                hp[k] = h;
    }
    hp[0] = h;
    for (int k = 0; k < TL_CELL_SETS; k++)
        cell_add(t, &t->sets[k], b, k && depth < t->sets[k].prefix ? h : hp[k]);
}

/* The capability's per-bin spark arrays, made at its first SPARK_COUNTERS
 * (a run without sparks pays nothing for them). 0, or -1 without memory. */
static int cap_sparks(tl_cap *c)
{
    if (c->spark_pool)
        return 0;
    for (int k = 0; k < TL_SPARK_COUNTED; k++)
        if (!c->spark_grow[k] && !(c->spark_grow[k] = bins_alloc()))
            return -1;
    return (c->spark_pool = bins_alloc()) ? 0 : -1;
}

static void spark_counters(html_timeline *t, tl_cap *c, const el_event *ev, uint32_t b)
{
    const uint64_t v[TL_SPARK_KINDS] = {
        ev->u.spark_counters.created, ev->u.spark_counters.dud,
        ev->u.spark_counters.overflowed, ev->u.spark_counters.converted,
        ev->u.spark_counters.gcd, ev->u.spark_counters.fizzled, 0,
    };
    if (cap_sparks(c) != 0) {
        t->nomem = 1;
        return;
    }
    for (int k = 0; k < TL_SPARK_COUNTED; k++) {
        if (v[k] > c->spark[k]) {
            t->spark_cnt[k][b] += v[k] - c->spark[k];
            c->spark_grow[k][b] += v[k] - c->spark[k];
            c->spark[k] = v[k];
        }
    }
    c->pool = ev->u.spark_counters.remaining;
    if (c->pool < UINT64_MAX && c->pool + 1 > c->spark_pool[b])
        c->spark_pool[b] = c->pool + 1;
    uint64_t pool = 0;
    for (uint32_t i = 0; i < t->ncaps; i++)
        pool += t->caps[i].pool;
    if (pool > t->pool[b])
        t->pool[b] = pool;
    t->has_spark_cnt = 1;
}

static int tl_event(void *self, const el_event *ev, const ev_stream *s)
{
    html_timeline *t = self;
    if (s && s->budget && t->mem.budget != s->budget)
        ev_account_move(&t->mem, s->budget);
    if (!ev->decoded)
        return 0;
    uint64_t time = ev->time;
    if (time > t->end)
        t->end = time;
    uint32_t b = bin_of(t, time);
    tl_cap *c = NULL;
    switch (ev->type) {
    case EL_PROF_SAMPLE_COST_CENTRE:
        sample(t, ev, b);
        break;
    case EL_HEAP_PROF_COST_CENTRE:
        if (t->nbuiltin < sizeof t->builtin / sizeof t->builtin[0]) {
            char l[16], m[16], src[16];
            const el_str *ls = &ev->u.cost_centre.label, *ms = &ev->u.cost_centre.module,
                         *ss = &ev->u.cost_centre.srcloc;
            if (ls->len < sizeof l && ms->len < sizeof m && ss->len < sizeof src) {
                memcpy(l, ls->ptr, ls->len);
                l[ls->len] = '\0';
                memcpy(m, ms->ptr, ms->len);
                m[ms->len] = '\0';
                memcpy(src, ss->ptr, ss->len);
                src[ss->len] = '\0';
                if (prof_cc_builtin(l, m, src))
                    t->builtin[t->nbuiltin++] = ev->u.cost_centre.id;
            }
        }
        break;
    case EL_RUN_THREAD:
    case EL_STOP_THREAD:
    case EL_GC_START:
    case EL_GC_END: {
        if (ev->cap == EL_NO_CAP || !(c = cap_of(t, ev->cap)))
            break;
        uint32_t tid = ev->type == EL_RUN_THREAD ? ev->u.thread.thread : 0;
        sched_span was = sched_cap_step(&c->sched, ev->type, time, tid);
        cap_spread(t, c, was, time);
        t->has_caps = 1;
        if (ev->type == EL_GC_END && was.state == SCHED_GC && time >= was.from &&
            time - was.from > t->gc_pause[b])
            t->gc_pause[b] = time - was.from;
        if (ev->type == EL_GC_START || ev->type == EL_GC_END)
            break;
        t->has_threads = 1;
        if (ev->type == EL_STOP_THREAD) {
            uint16_t st = ev->u.stop_thread.status;
            uint8_t next = sched_stop_state(st);
            t->finished[b] += next == SCHED_FINISHED;
            t->blocked[b] += next == SCHED_BLOCKED;
            thread_event(t, ev->u.stop_thread.thread, ev, st);
        } else {
            thread_event(t, tid, ev, 0);
        }
        break;
    }
    case EL_CREATE_THREAD:
        t->created[b]++;
        t->has_threads = 1;
        break;
    case EL_THREAD_WAKEUP:
        t->woken[b]++;
        thread_event(t, ev->u.thread_cap.thread, ev, 0);
        break;
    case EL_THREAD_RUNNABLE:        /* old GHC's wake-up */
        thread_event(t, ev->u.thread.thread, ev, 0);
        break;
    case EL_THREAD_LABEL:
        thread_label(t, ev);
        break;
    case EL_GC_STATS_GHC:
        t->gc_count[b]++;
        break;
    case EL_HEAP_SIZE:
        if (ev->u.heap.bytes > t->heap_size[b])
            t->heap_size[b] = ev->u.heap.bytes;
        t->has_heap = 1;
        break;
    case EL_HEAP_LIVE:
        if (ev->u.heap.bytes > t->heap_live[b])
            t->heap_live[b] = ev->u.heap.bytes;
        t->has_heap = 1;
        break;
    case EL_HEAP_ALLOCATED:
        if (ev->cap == EL_NO_CAP || !(c = cap_of(t, ev->cap)))
            break;
        if (ev->u.heap.bytes > c->alloc) {
            t->alloc[b] += ev->u.heap.bytes - c->alloc;
            c->alloc = ev->u.heap.bytes;
        }
        t->has_heap = 1;
        break;
    case EL_SPARK_COUNTERS:
        if (ev->cap != EL_NO_CAP && (c = cap_of(t, ev->cap)))
            spark_counters(t, c, ev, b);
        break;
    case EL_SPARK_CREATE:
    case EL_SPARK_DUD:
    case EL_SPARK_OVERFLOW:
    case EL_SPARK_RUN:
    case EL_SPARK_STEAL:
    case EL_SPARK_FIZZLE:
    case EL_SPARK_GC: {
        static const int kind[] = {
            [EL_SPARK_CREATE - EL_SPARK_CREATE] = TL_SPARK_CREATED,
            [EL_SPARK_DUD - EL_SPARK_CREATE] = TL_SPARK_DUD,
            [EL_SPARK_OVERFLOW - EL_SPARK_CREATE] = TL_SPARK_OVERFLOWED,
            [EL_SPARK_RUN - EL_SPARK_CREATE] = TL_SPARK_CONVERTED,
            [EL_SPARK_STEAL - EL_SPARK_CREATE] = TL_SPARK_STOLEN,
            [EL_SPARK_FIZZLE - EL_SPARK_CREATE] = TL_SPARK_FIZZLED,
            [EL_SPARK_GC - EL_SPARK_CREATE] = TL_SPARK_GCD,
        };
        t->spark_ev[kind[ev->type - EL_SPARK_CREATE]][b]++;
        t->has_spark_ev = 1;
        break;
    }
    default:
        break;
    }
    return t->nomem ? 1 : 0;
}

/* The intervals still open end at the log's last event. */
static void tl_end(void *self, const ev_stream *s)
{
    html_timeline *t = self;
    uint64_t end = t->end;
    if (s && s->read.has_time_span && s->read.last_time > end)
        end = s->read.last_time;
    t->end = end;
    for (uint32_t i = 0; i < t->ncaps; i++)
        cap_spread(t, &t->caps[i], sched_cap_close(&t->caps[i].sched, end), end);
    for (size_t i = 0; i < t->nthreads; i++) {
        tl_thread *th = &t->threads[i];
        thread_spread(t, th, sched_thread_close(&th->sched, end), end);
    }
    if (end)
        bin_of(t, end);
}

static const uint16_t tl_types[] = {
    EL_PROF_SAMPLE_COST_CENTRE, EL_HEAP_PROF_COST_CENTRE, EL_RUN_THREAD, EL_STOP_THREAD,
    EL_GC_START, EL_GC_END, EL_CREATE_THREAD, EL_THREAD_WAKEUP, EL_THREAD_RUNNABLE,
    EL_THREAD_LABEL,
    EL_GC_STATS_GHC, EL_HEAP_SIZE, EL_HEAP_LIVE, EL_HEAP_ALLOCATED, EL_SPARK_COUNTERS,
    EL_SPARK_CREATE, EL_SPARK_DUD, EL_SPARK_OVERFLOW, EL_SPARK_RUN, EL_SPARK_STEAL,
    EL_SPARK_FIZZLE, EL_SPARK_GC,
};
/* not mergeable: each capability's states in order */
const ev_analysis_ops html_timeline_ops = {
    .name = "timeline",
    .types = tl_types,
    .num_types = sizeof tl_types / sizeof tl_types[0],
    .event = tl_event,
    .end = tl_end,
};

/* ---- create ------------------------------------------------------------------- */

int html_timeline_init(html_timeline *t, const prof_filter *f)
{
    memset(t, 0, sizeof *t);
    if (f)
        t->f = *f;
    else
        prof_filter_init(&t->f);
    t->f.focus = t->f.ignore = NULL;    /* applied when the cells meet the tree */
    t->w = TL_BIN0;
    while ((1ull << t->wshift) < TL_BIN0)
        t->wshift++;
    _Static_assert((TL_BIN0 & (TL_BIN0 - 1)) == 0, "TL_BIN0 is a power of two");
    static const uint32_t prefix[TL_CELL_SETS] = { 0, TL_PREFIX_MID, TL_PREFIX_LOW };
    static const size_t limit[TL_CELL_SETS] = { TL_CELLS_FULL, TL_CELLS_MID, TL_CELLS_LOW };
    for (int k = 0; k < TL_CELL_SETS; k++) {
        t->sets[k].prefix = prefix[k];
        t->sets[k].limit = limit[k];
        /* a prefix mixes stacks that focus/ignore would part */
        t->sets[k].dropped = k && (f && (f->focus || f->ignore));
    }
    uint64_t **all[] = { &t->gc_count, &t->gc_pause, &t->created, &t->finished, &t->blocked,
                         &t->woken, &t->pool, &t->heap_size, &t->heap_live, &t->alloc,
                         &t->samples };
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        if (!(*all[i] = bins_alloc()))
            return -1;
    for (int k = 0; k < TL_SPARK_KINDS; k++)
        if (!(t->spark_ev[k] = bins_alloc()) || !(t->spark_cnt[k] = bins_alloc()))
            return -1;
    return 0;
}

void html_timeline_free(html_timeline *t)
{
    bin_arrays b;
    arrays_of(t, &b);
    for (size_t i = 0; i < b.nsum; i++) {
        free(*b.sum[i]);
        *b.sum[i] = NULL;
    }
    for (size_t i = 0; i < b.nmax; i++) {
        free(*b.max[i]);
        *b.max[i] = NULL;
    }
    for (size_t i = 0; i < t->nthreads; i++)
        free(t->threads[i].label);
    free(t->threads);
    t->threads = NULL;
    t->nthreads = 0;
    tx_idmap_free(&t->thread_ids);
    for (int k = 0; k < TL_CELL_SETS; k++)
        cells_drop(t, &t->sets[k]);
}

/* ---- the page's timeline ---------------------------------------------------------- */

typedef struct pcell {
    uint32_t bin, node;
    uint64_t count;
} pcell;

static int pcell_cmp(const void *a, const void *b)
{
    const pcell *x = a, *y = b;
    if (x->bin != y->bin)
        return x->bin < y->bin ? -1 : 1;
    return (x->node > y->node) - (x->node < y->node);
}

/* c[0..n) in bin order: each bin's run sorted by node, equal ones summed;
 * returns the new count. */
static size_t pcells_sort(pcell *c, size_t n)
{
    size_t k = 0;
    for (size_t lo = 0; lo < n;) {
        size_t hi = lo;
        while (hi < n && c[hi].bin == c[lo].bin)
            hi++;
        qsort(c + lo, hi - lo, sizeof *c, pcell_cmp);
        for (size_t i = lo; i < hi; i++) {
            if (k && c[k - 1].bin == c[i].bin && c[k - 1].node == c[i].node)
                c[k - 1].count += c[i].count;
            else
                c[k++] = c[i];
        }
        lo = hi;
    }
    return k;
}

/* Sorted cells with their bins halved: the runs of bins 2b and 2b + 1
 * merged into bin b (through tmp, room for n). Returns the new count. */
static size_t pcells_halve(pcell *c, size_t n, pcell *tmp)
{
    size_t k = 0, i = 0;
    while (i < n) {
        uint32_t b = c[i].bin / 2;
        size_t a0 = i, a1 = i;
        while (a1 < n && c[a1].bin == 2 * b)
            a1++;
        size_t b1 = a1;
        while (b1 < n && c[b1].bin == 2 * b + 1)
            b1++;
        size_t x = a0, y = a1;
        while (x < a1 || y < b1) {
            pcell p = y >= b1 || (x < a1 && c[x].node <= c[y].node) ? c[x++] : c[y++];
            p.bin = b;
            if (k && tmp[k - 1].bin == b && tmp[k - 1].node == p.node)
                tmp[k - 1].count += p.count;
            else
                tmp[k++] = p;
        }
        i = b1;
    }
    memcpy(c, tmp, k * sizeof *c);
    return k;
}

typedef struct hslot {
    uint64_t hash;
    uint32_t node;          /* sent index + 1; 0: no node (yet) */
    uint32_t used;
} hslot;

static size_t hslot_find(const hslot *tab, size_t cap, uint64_t hash)
{
    size_t k = (size_t)hash_mix64(hash) & (cap - 1);
    while (tab[k].used && tab[k].hash != hash)
        k = (k + 1) & (cap - 1);
    return k;
}

/* The cells onto the page's tree: (profile bin, sent node, samples),
 * sorted; *n_out cells, or NULL without memory. The keys the cells use
 * go into a table; one walk of the tree (a path of hashes by depth, no
 * memory per node) finds each key's node: the stack's node (nodes with
 * ticks), or for a set of prefixes the node of the first `prefix` frames;
 * then its nearest sent ancestor. *unmatched: samples of keys without a
 * node (stacks the profile dropped: focus/ignore). */
static pcell *map_cells(const tl_cellset *cs, const prof_result *r, const uint8_t *kept,
                        const uint32_t *sent_of, size_t *n_out, uint64_t *unmatched)
{
    size_t np = 0;
    const uint32_t *pre = prof_preorder(r, &np);
    size_t cap = 16;
    while (cap < 2 * cs->n + 2)
        cap *= 2;
    hslot *tab = tx_table_alloc(cap, sizeof *tab);
    pcell *out = malloc((cs->n ? cs->n : 1) * sizeof *out);
    if (!tab || !out) {
        free(tab);
        free(out);
        return NULL;
    }
    for (uint32_t bi = 0; bi < TL_BINS; bi++)
        for (uint32_t i = 0; i < cs->bins[bi].cap; i++) {
            const tl_cell *c = &cs->bins[bi].slots[i];
            if (!c->count)
                continue;
            size_t k = hslot_find(tab, cap, c->hash);
            tab[k].hash = c->hash;
            tab[k].used = 1;
        }
    /* per depth of the current path: its hash, frames and nearest sent node */
    uint64_t hd[EL_MAX_STACK + 3];
    uint32_t pd[EL_MAX_STACK + 3], ad[EL_MAX_STACK + 3];
    for (size_t i = 0; i < np; i++) {
        uint32_t n = pre[i];
        const prof_node *nd = prof_node_at(r, n);
        uint32_t d = nd->depth;
        if (d > EL_MAX_STACK + 2)
            continue;       /* deeper than any stack: cannot be */
        if (nd->parent == PROF_NONE) {
            hd[d] = root_hash(0);
            pd[d] = 0;
            ad[d] = kept && kept[n] ? sent_of[n] : 0;
        } else {
            const prof_cc *cc = prof_cc_at(r, nd->cc);
            hd[d] = cc->synthetic ? root_hash(1) : hash_path_step(hd[d - 1], cc->id);
            pd[d] = pd[d - 1] + !cc->synthetic;
            ad[d] = kept && kept[n] ? sent_of[n] : ad[d - 1];
        }
        if (cs->prefix ? pd[d] > cs->prefix : !nd->ticks)
            continue;
        size_t k = hslot_find(tab, cap, hd[d]);
        if (tab[k].used)
            tab[k].node = ad[d] + 1;
    }
    size_t n = 0;
    *unmatched = 0;
    for (uint32_t bi = 0; bi < TL_BINS; bi++)
        for (uint32_t i = 0; i < cs->bins[bi].cap; i++) {
            const tl_cell *c = &cs->bins[bi].slots[i];
            if (!c->count)
                continue;
            size_t k = hslot_find(tab, cap, c->hash);
            if (!tab[k].node) {
                *unmatched += c->count; /* a stack the profile dropped (focus/ignore) */
                continue;
            }
            out[n++] = (pcell){ bi, tab[k].node - 1, c->count };
        }
    free(tab);
    *n_out = pcells_sort(out, n);
    return out;
}

/* A per-bin array of the first n bins, its runs of zeros as one negative
 * number (-k: k zeros), values divided into per mille of w when w > 0:
 * most lanes are zero in most bins. */
static void w_values(tx_json *j, const uint64_t *a, uint32_t n, uint64_t w)
{
    tx_json_array(j, TX_JSON_INLINE);
    int64_t zeros = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t v = !a ? 0 : !w ? a[i] : a[i] >= w ? 1000 : (a[i] * 1000 + w / 2) / w;
        if (!v) {
            zeros++;
            continue;
        }
        if (zeros)
            tx_json_int(j, -zeros);
        zeros = 0;
        tx_json_uint(j, v);
    }
    if (zeros)
        tx_json_int(j, -zeros);
    tx_json_end(j);
}

static void w_bins(tx_json *j, const char *key, const uint64_t *a, uint32_t n)
{
    tx_json_key(j, key);
    w_values(j, a, n, 0);
}

/* Per mille of the bin width. */
static void w_permille(tx_json *j, const uint64_t *a, uint32_t n, uint64_t w)
{
    w_values(j, a, n, w);
}

static int prof_cells(tx_json *j, const html_timeline *t, const prof_result *r,
                      const uint8_t *kept, const uint32_t *sent_of, size_t max_cells,
                      html_tl_out *o)
{
    /* the deepest set with bins enough, else the deepest left */
    const tl_cellset *cs = NULL;
    for (int k = 0; k < TL_CELL_SETS && !cs; k++)
        if (!t->sets[k].dropped && (t->n >> t->sets[k].kshift) >= 16)
            cs = &t->sets[k];
    for (int k = 0; k < TL_CELL_SETS && !cs; k++)
        if (!t->sets[k].dropped)
            cs = &t->sets[k];
    uint32_t kshift = cs ? cs->kshift : 0;
    uint64_t cbw = t->w << kshift;
    uint32_t cbins = (t->n + (1u << kshift) - 1) >> kshift;
    size_t n = 0;
    uint64_t unmatched = 0, sum = 0;
    pcell *c = NULL;
    o->prof_status = "ok";
    o->prof_prefix = cs ? cs->prefix : 0;
    if (!cs && t->cells_yielded)
        o->prof_status = "the memory limit (--memory-limit) left no room for the profile by "
                         "time: no profile of a range";
    else if (!cs)
        o->prof_status = "the run has more distinct stacks per stretch of time than the "
                         "page keeps: no profile of a range";
    else if (!r || !prof_get_info(r)->total_ticks)
        o->prof_status = "no ticks";
    else if (!(c = map_cells(cs, r, kept, sent_of, &n, &unmatched)))
        return -1;
    if (c) {
        /* fewer, wider bins until the cells fit the page */
        pcell *tmp = n > max_cells ? malloc(n * sizeof *tmp) : NULL;
        if (n > max_cells && !tmp) {
            free(c);
            return -1;
        }
        while (n > max_cells && cbins > TL_CELL_BINS_MIN) {
            n = pcells_halve(c, n, tmp);
            cbins = (cbins + 1) / 2;
            cbw *= 2;
        }
        free(tmp);
        for (size_t i = 0; i < n; i++)
            sum += c[i].count;
        if (sum != prof_get_info(r)->total_ticks)
            o->prof_status = "the samples by time do not add up to the profile's ticks "
                             "(a cost centre defined after its samples?): no profile of a range";
    }
    o->prof_bins = cbins;
    o->prof_bin_ns = cbw;
    o->cells = n;
    tx_json_key(j, "profile");
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_uint(j, "bin_ns", cbw);
    tx_json_kv_uint(j, "bins", cbins);
    tx_json_kv_cstr(j, "status", o->prof_status);
    tx_json_kv_uint(j, "prefix", o->prof_prefix);
    if (c && strcmp(o->prof_status, "ok") == 0) {
        /* per bin: node, samples, then the node's distance from the
         * previous one and its samples, ... (nodes ascending) */
        tx_json_key(j, "cells");
        tx_json_array(j, TX_JSON_INLINE);
        size_t i = 0;
        for (uint32_t b = 0; b < cbins; b++) {
            tx_json_array(j, TX_JSON_INLINE);
            uint32_t prev = 0;
            for (; i < n && c[i].bin == b; i++) {
                tx_json_uint(j, c[i].node - prev);
                tx_json_uint(j, c[i].count);
                prev = c[i].node;
            }
            tx_json_end(j);
        }
        tx_json_end(j);
    }
    tx_json_end(j);
    free(c);
    return 0;
}

/* Per capability its SPARK_COUNTERS (ThreadScope's spark graphs are per
 * capability): {"cap": N, KIND: its growth per bin..., "pool": the largest
 * remaining + 1 per bin, 0 where no SPARK_COUNTERS}. A kind's running sum
 * is the counter's value at each bin's end. */
static void w_spark_caps(tx_json *j, const html_timeline *t, uint32_t n)
{
    static const char *const names[TL_SPARK_COUNTED] = {
        "created", "dud", "overflowed", "converted", "gcd", "fizzled",
    };
    tx_json_key(j, "spark_caps");
    tx_json_array(j, TX_JSON_INLINE);
    for (uint32_t i = 0; i < t->ncaps; i++) {
        const tl_cap *c = &t->caps[i];
        if (!c->spark_pool)
            continue;
        tx_json_object(j, TX_JSON_INLINE);
        tx_json_kv_uint(j, "cap", c->capno);
        for (int k = 0; k < TL_SPARK_COUNTED; k++)
            w_bins(j, names[k], c->spark_grow[k], n);
        w_bins(j, "pool", c->spark_pool, n);
        tx_json_end(j);
    }
    tx_json_end(j);
}

int html_timeline_write(tx_json *j, const html_timeline *t, const prof_result *r,
                        const uint8_t *kept, const uint32_t *sent_of, size_t max_cells,
                        html_tl_out *o)
{
    memset(o, 0, sizeof *o);
    uint32_t n = t->n;
    o->bins = n;
    o->bin_ns = t->w;
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_uint(j, "bin_ns", t->w);
    tx_json_kv_uint(j, "bins", n);
    tx_json_kv_uint(j, "end_ns", t->end);
    /* capabilities: [capno, mutator, GC] per mille of each bin */
    tx_json_key(j, "caps");
    tx_json_array(j, TX_JSON_INLINE);
    for (uint32_t i = 0; i < t->ncaps && t->has_caps; i++) {
        const tl_cap *c = &t->caps[i];
        if (c->sched.state == SCHED_UNKNOWN)
            continue;
        tx_json_array(j, TX_JSON_INLINE);
        tx_json_uint(j, c->capno);
        w_permille(j, c->mut, n, t->w);
        w_permille(j, c->gc, n, t->w);
        tx_json_end(j);
    }
    tx_json_end(j);
    tx_json_kv_uint(j, "caps_over", t->caps_over);
    w_bins(j, "gc_count", t->gc_count, n);
    w_bins(j, "gc_pause", t->gc_pause, n);
    if (t->has_threads) {
        tx_json_key(j, "threads");
        tx_json_object(j, TX_JSON_INLINE);
        w_bins(j, "created", t->created, n);
        w_bins(j, "finished", t->finished, n);
        w_bins(j, "blocked", t->blocked, n);
        w_bins(j, "woken", t->woken, n);
        tx_json_end(j);
    }
    /* labelled threads: [tid, label, labelled at, finished at (-1: not
     * seen), running ns, blocked ns, lane or -1]; lanes: [running, blocked]
     * per mille of each bin */
    tx_json_key(j, "labelled");
    tx_json_array(j, TX_JSON_INLINE);
    for (size_t i = 0; i < t->nthreads; i++) {
        const tl_thread *th = &t->threads[i];
        tx_json_array(j, TX_JSON_INLINE);
        tx_json_uint(j, th->tid);
        tx_json_string(j, th->label, th->label_len);
        tx_json_uint(j, th->labelled_ns);
        if (th->finished_ns == UINT64_MAX)
            tx_json_int(j, -1);
        else
            tx_json_uint(j, th->finished_ns);
        tx_json_uint(j, th->run_ns);
        tx_json_uint(j, th->blocked_ns);
        tx_json_int(j, th->lane);
        tx_json_end(j);
    }
    tx_json_end(j);
    tx_json_kv_uint(j, "labelled_over", t->threads_over);
    tx_json_key(j, "lanes");
    tx_json_array(j, TX_JSON_INLINE);
    for (uint32_t l = 0; l < t->nlanes; l++) {
        tx_json_array(j, TX_JSON_INLINE);
        w_permille(j, t->lane_run[l], n, t->w);
        w_permille(j, t->lane_blocked[l], n, t->w);
        tx_json_end(j);
    }
    tx_json_end(j);
    /* sparks: their events when the log has them (+RTS -lf), else the
     * growth of SPARK_COUNTERS */
    if (t->has_spark_ev || t->has_spark_cnt) {
        static const char *const names[TL_SPARK_KINDS] = {
            "created", "dud", "overflowed", "converted", "gcd", "fizzled", "stolen",
        };
        uint64_t *const *a = t->has_spark_ev ? t->spark_ev : t->spark_cnt;
        tx_json_key(j, "sparks");
        tx_json_object(j, TX_JSON_INLINE);
        tx_json_kv_cstr(j, "source", t->has_spark_ev ? "events" : "counters");
        for (int k = 0; k < TL_SPARK_KINDS; k++)
            if (t->has_spark_ev || k != TL_SPARK_STOLEN)
                w_bins(j, names[k], a[k], n);
        if (t->has_spark_cnt)
            w_bins(j, "pool", t->pool, n);
        tx_json_end(j);
    }
    w_spark_caps(j, t, n);
    if (t->has_heap) {
        tx_json_key(j, "heap");
        tx_json_object(j, TX_JSON_INLINE);
        w_bins(j, "size", t->heap_size, n);
        w_bins(j, "live", t->heap_live, n);
        w_bins(j, "alloc", t->alloc, n);
        tx_json_end(j);
    }
    w_bins(j, "samples", t->samples, n);
    int rc = prof_cells(j, t, r, kept, sent_of, max_cells, o);
    tx_json_end(j);
    return rc;
}
