/* The `+RTS -s` summary from GC events: aggregation.
 *
 * Events arrive in the order the log stores them: block by block, each
 * block one capability's buffer in the order that capability wrote it.
 * Across capabilities the stream is not in time order (the global block
 * with HEAP_INFO_GHC may even come last), so everything here is either
 * per capability (state machines that only need that capability's own
 * order) or an order-free aggregate (sums, maxima, counters compared by
 * value). Nothing is kept per event.
 *
 * A collection is led by the capability that writes its GC_STATS_GHC
 * (GHC 9.0: GC_START, ..., GC_GLOBAL_SYNC, GC_STATS_GHC, GC_END, all on the
 * leader, GC_END stamped with the time GHC's statistics use). Its pause is
 * the leader's GC_START .. GC_END; the other capabilities' own
 * GC_START .. GC_END go to their per-capability figures only.
 *
 * A partial of the parallel read (gc_fork) starts in the middle of the
 * log, where a capability may be running a thread or collecting. Each
 * capability has two state machines: the scheduler's (sched/machine.h:
 * RUN_THREAD, STOP_THREAD, GC_START, GC_END; its running intervals are
 * the mutator time) and the collection's (GC_START, GC_END,
 * GC_STATS_GHC). The first needs only the time of the range's first such
 * event, to close an interval the ranges before left open. The second is
 * unknown until the range's first GC_START: its events up to that one
 * (normally none to three) are held and replayed by gc_merge into the
 * state the ranges before left. Everything else is a sum, a maximum, or
 * the last value in file order.
 */
#include "evprof/gc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nonmoving.h"
#include "sched/machine.h"
#include "series.h"
#include "util/account.h"

const uint16_t gc_event_types[] = {
    EL_GC_START, EL_GC_END, EL_GC_STATS_GHC, EL_HEAP_ALLOCATED, EL_HEAP_SIZE,
    EL_HEAP_LIVE, EL_HEAP_INFO_GHC, EL_SPARK_COUNTERS, EL_RUN_THREAD, EL_STOP_THREAD,
    EL_RTS_IDENTIFIER, EL_CAP_CREATE, EL_GC_GLOBAL_SYNC, EL_MEM_RETURN,
    /* the non-moving collector and the tasks (nonmoving.h) */
    EL_CONC_MARK_BEGIN, EL_CONC_MARK_END, EL_CONC_SYNC_BEGIN, EL_CONC_SYNC_END,
    EL_CONC_SWEEP_BEGIN, EL_CONC_SWEEP_END, EL_CONC_UPD_REM_SET_FLUSH, EL_TASK_CREATE,
    EL_TASK_DELETE, EL_OSPROCESS_PID, EL_PROGRAM_ARGS,
};
const size_t gc_num_event_types = sizeof gc_event_types / sizeof gc_event_types[0];

enum { N_SPARK = 6, N_CTR = 1 + N_SPARK };

/* A GC_STATS_GHC waiting for its collection's GC_END. */
typedef struct pending_stats {
    uint64_t time;
    uint16_t gen;
    uint64_t copied, slop, frag, balanced;
    uint32_t par_n_threads;
} pending_stats;

/* A collection event held by a partial for the merge. */
typedef struct held_ev {
    uint64_t time;
    uint16_t cap;
    uint16_t type;              /* EL_GC_START, EL_GC_END, EL_GC_STATS_GHC */
    uint32_t stats;             /* GC_STATS_GHC: index into held_stats */
} held_ev;

/* A real log holds at most a few per capability and range; past this
 * many (a hostile log), the parallel read is dropped for a sequential one. */
#define GC_HELD_MAX 65536

typedef struct cap_state {
    uint8_t seen;
    /* a partial: its first mutator event (at run_first), its first
     * GC_START seen; before it, collection events are held */
    uint8_t run_synced, gc_synced;
    uint64_t run_first;
    uint8_t in_gc, has_pending;
    uint8_t last_valid, last_had_stats;   /* the last finished GC on this cap */
    uint8_t has_alloc, has_sparks;        /* any sample before the selection's end */
    sched_cap sched;                      /* running, GC, idle (sched/machine.h) */
    uint64_t gc_start;
    uint64_t last_start, last_end;
    pending_stats pending;
    /* monotone counters (allocation, then the sparks'): per counter the
     * largest value seen in each slot of the selection (ev_select_slot),
     * N_CTR x slots; NULL until the capability's first one */
    uint64_t *ctr;
    /* window sums */
    uint64_t mut_ns, gc_ns, max_pause_ns, led_ns;
    uint32_t gcs, led;
    /* the kept series: its HEAP_ALLOCATED counter, the last value in file
     * order; a partial's first value and time (its growth is known only
     * when merged after the ranges before) */
    uint8_t s_seen;
    uint64_t s_alloc, s_first, s_first_t;
} cap_state;

struct gc_summary {
    const ev_select *sel;           /* the read's selection (the driver's; NULL: all) */
    int nomem;
    int finished;
    cap_state *caps;                /* by capability number */
    uint32_t ncaps;                 /* slots allocated */
    cap_state nocap;                /* events outside any capability block */
    gc_gen *gens;
    uint32_t ngens;                 /* slots allocated */
    uint32_t max_gen_seen;          /* + 1; 0 when none */
    uint32_t heap_info_gens;
    uint64_t mblock_size;           /* HEAP_INFO_GHC's; 0 until seen */
    uint32_t max_mblocks;           /* MEM_RETURN's largest `current`, in the window */
    int mem_return_declared;        /* the header declares MEM_RETURN (GHC 9.2+) */
    uint64_t last_time_seen;
    int has_span;
    uint64_t span_last;
    uint64_t gc_ns;                 /* leaders' pauses, clipped */
    gc_result r;
    gc_cap *out_caps;
    ev_span *out_windows;
    gc_collection_fn on_collection;
    void *on_collection_ctx;
    /* the heap over time (gc_keep_series; series.b NULL: not kept), its
     * buckets charged to the budget; the points of a finished summary */
    gc_series series;
    uint32_t series_points;
    ev_account mem;
    ev_budget *budget;              /* the read's (the driver's; NULL: none) */
    gc_point *points;
    int took_events;
    /* a partial of the parallel read (gc_fork) */
    int partial;
    int seen_rts;                   /* an RTS_IDENTIFIER: the last one wins */
    held_ev *held;                  /* collection events before a cap's first GC_START */
    size_t n_held, cap_held;
    int held_overflow;              /* more than GC_HELD_MAX: no merge */
    pending_stats *held_stats;
    size_t n_held_stats, cap_held_stats;
    /* the non-moving collector, the tasks; the capabilities created
     * (their largest number + 1: GHC's -N), --nonmoving-gc among the
     * program's RTS options */
    gc_nonmoving nm;
    gc_tasks tasks;
    uint32_t caps_created;
    int nonmoving_option;
};

gc_summary *gc_create(void)
{
    gc_summary *s = calloc(1, sizeof(gc_summary));
    if (s) {
        gc_nonmoving_init_(&s->nm, 0);
        gc_tasks_init_(&s->tasks, 0);
    }
    return s;
}

void gc_destroy(gc_summary *s)
{
    if (!s)
        return;
    for (uint32_t i = 0; s->caps && i < s->ncaps; i++)
        free(s->caps[i].ctr);
    free(s->nocap.ctr);
    free(s->out_windows);
    free(s->caps);
    free(s->gens);
    free(s->out_caps);
    free(s->held);
    free(s->held_stats);
    gc_nonmoving_free_(&s->nm);
    gc_tasks_free_(&s->tasks);
    gc_series_free_(&s->series);
    free(s->points);
    ev_budget_release(s->mem.budget, s->mem.charged);
    free(s);
}

int gc_keep_series(gc_summary *s, uint32_t points)
{
    if (!s || s->took_events || s->finished || s->series.b)
        return -1;
    if (ev_account_charge(&s->mem, gc_series_bytes_(points)) != 0)
        return -1;
    if (gc_series_init_(&s->series, points) != 0) {
        ev_account_release(&s->mem, gc_series_bytes_(points));
        return -1;
    }
    s->series_points = points;
    return 0;
}

/* A capability's HEAP_ALLOCATED counter at t into the series: its growth
 * since the capability's previous one (a partial's first waits for the
 * merge). */
static void series_alloc(gc_summary *s, cap_state *c, uint64_t t, uint64_t v)
{
    uint64_t grew = 0;
    if (s->partial && !c->s_seen) {
        c->s_first = v;
        c->s_first_t = t;
    } else if (v > c->s_alloc) {
        grew = v - c->s_alloc;
    }
    c->s_seen = 1;
    c->s_alloc = v;
    gc_series_alloc_(&s->series, t, grew);
}

/* ---- the selection ------------------------------------------------------
 *
 * The driver's selection stage marks the events; the figures here are
 * mostly about spans of time and states that run across a window's edges,
 * so they ask the selection itself: whether a time is inside, how much of
 * a span is, and which slot (between two edges) a counter's value falls
 * in. */

static inline int in_window(const gc_summary *s, uint64_t t)
{
    return !s->sel || ev_select_has(s->sel, t);
}

/* Length of [a, b] inside the windows (no selection, the usual case: all
 * of it, without a call per event). */
static inline uint64_t overlap(const gc_summary *s, uint64_t a, uint64_t b)
{
    if (!s->sel)
        return b > a ? b - a : 0;
    return ev_select_overlap(s->sel, a, b);
}

/* ---- tables ------------------------------------------------------------ */

/* Capability slots 0 .. n - 1 in s (new ones not marked seen). */
static int reserve_caps(gc_summary *s, uint32_t n)
{
    if (n <= s->ncaps)
        return 0;
    cap_state *c = realloc(s->caps, (size_t)n * sizeof *c);
    if (!c) {
        s->nomem = 1;
        return -1;
    }
    memset(c + s->ncaps, 0, (size_t)(n - s->ncaps) * sizeof *c);
    s->caps = c;
    s->ncaps = n;
    return 0;
}

static cap_state *cap_slot_grow(gc_summary *s, uint16_t cap)
{
    if (cap == EL_NO_CAP)
        return &s->nocap;
    if (cap >= s->ncaps) {
        uint32_t n = s->ncaps ? s->ncaps : 4;
        while (n <= cap)
            n *= 2;
        if (reserve_caps(s, n) != 0)
            return NULL;
    }
    s->caps[cap].seen = 1;
    return &s->caps[cap];
}

/* The state of a capability (EL_NO_CAP: events outside blocks), made
 * when new; NULL when out of memory. Inline: every RUN_THREAD and
 * STOP_THREAD, most of a -l log, comes here. */
static inline cap_state *cap_slot(gc_summary *s, uint16_t cap)
{
    if (cap < s->ncaps && cap != EL_NO_CAP) {
        s->caps[cap].seen = 1;
        return &s->caps[cap];
    }
    return cap_slot_grow(s, cap);
}

static gc_gen *gen_slot(gc_summary *s, uint32_t gen)
{
    if (gen >= s->ngens) {
        uint32_t n = s->ngens ? s->ngens : 4;
        while (n <= gen)
            n *= 2;
        gc_gen *g = realloc(s->gens, (size_t)n * sizeof *g);
        if (!g) {
            s->nomem = 1;
            return NULL;
        }
        memset(g + s->ngens, 0, (size_t)(n - s->ngens) * sizeof *g);
        s->gens = g;
        s->ngens = n;
    }
    return &s->gens[gen];
}

/* ---- collections ------------------------------------------------------- */

/* A collection led by `c`: its statistics, and its pause when known. */
static void record_collection(gc_summary *s, cap_state *c, const pending_stats *p,
                              int has_pause, uint64_t start, uint64_t end)
{
    if (has_pause)
        s->gc_ns += overlap(s, start, end);
    if ((uint32_t)p->gen + 1 > s->max_gen_seen)
        s->max_gen_seen = (uint32_t)p->gen + 1;
    if (!in_window(s, p->time))
        return;
    if (s->on_collection) {
        gc_collection col = {
            .time_ns = p->time, .has_pause = has_pause,
            .start_ns = has_pause ? start : 0, .end_ns = has_pause ? end : 0,
            .gen = p->gen,
            .leader = c == &s->nocap ? EL_NO_CAP : (uint32_t)(c - s->caps),
            .copied_bytes = p->copied, .par_threads = p->par_n_threads,
        };
        s->on_collection(s->on_collection_ctx, &col);
    }
    gc_gen *g = gen_slot(s, p->gen);
    if (!g)
        return;
    g->collections++;
    g->copied_bytes += p->copied;
    if (p->slop > g->max_slop_bytes)
        g->max_slop_bytes = p->slop;
    if (p->par_n_threads > 1) {
        g->par_collections++;
        s->r.par_copied_bytes += p->copied;
        s->r.par_balanced_copied_bytes += p->balanced;
    }
    if (has_pause) {
        uint64_t pause = end > start ? end - start : 0;
        g->elapsed_ns += pause;
        c->led_ns += pause;
        if (pause > g->max_pause_ns)
            g->max_pause_ns = pause;
    } else {
        s->r.collections_without_pause++;
    }
    if (p->frag > s->r.max_frag_bytes)
        s->r.max_frag_bytes = p->frag;
    s->r.copied_bytes += p->copied;
    c->led++;
}

/* RUN_THREAD, STOP_THREAD, GC_START or GC_END at t: the capability's
 * state moves (sched/machine.h), and a running interval it closes is
 * mutator time. A partial's first such event only notes its time: the
 * interval it ends began in an earlier range (gc_merge closes it). */
static inline void mutator_event(gc_summary *s, cap_state *c, const el_event *ev)
{
    uint64_t t = ev->time;
    sched_span was = sched_cap_step(&c->sched, ev->type, t, 0);
    if (was.state == SCHED_RUNNING) {
        c->mut_ns += overlap(s, was.from, t);
    } else if (was.state == SCHED_UNKNOWN && s->partial && !c->run_synced) {
        c->run_synced = 1;
        c->run_first = t;
    }
}

/* GC_START's part in the collection's state machine. */
static void gc_begin(gc_summary *s, cap_state *c, uint64_t t)
{
    if (c->in_gc && c->has_pending) /* GC_END lost: the collection ends here */
        record_collection(s, c, &c->pending, 1, c->gc_start, t);
    c->in_gc = 1;
    c->has_pending = 0;
    c->gc_start = t;
}

static void gc_end(gc_summary *s, cap_state *c, uint64_t t)
{
    if (!c->in_gc)
        return;                     /* an end without a start: nothing to measure */
    uint64_t start = c->gc_start;
    uint64_t pause = t > start ? t - start : 0;
    c->gc_ns += overlap(s, start, t);
    if (in_window(s, t)) {
        c->gcs++;
        if (pause > c->max_pause_ns)
            c->max_pause_ns = pause;
    }
    if (c->has_pending)
        record_collection(s, c, &c->pending, 1, start, t);
    c->last_valid = 1;
    c->last_had_stats = c->has_pending;
    c->last_start = start;
    c->last_end = t;
    c->in_gc = 0;
    c->has_pending = 0;
}

static void gc_stats(gc_summary *s, cap_state *c, const pending_stats *p)
{
    if (c->in_gc) {
        if (c->has_pending)         /* two in one GC: keep the first's pause */
            record_collection(s, c, &c->pending, 0, 0, 0);
        c->pending = *p;
        c->has_pending = 1;
    } else if (c->last_valid && !c->last_had_stats) {
        /* older GHC wrote the statistics after GC_END */
        record_collection(s, c, p, 1, c->last_start, c->last_end);
        c->last_had_stats = 1;
    } else {
        record_collection(s, c, p, 0, 0, 0);
    }
}

/* A partial holds a collection event of a capability whose collection
 * state is not known yet (before its first GC_START in the range). */
static void hold(gc_summary *s, uint16_t cap, uint16_t type, uint64_t t,
                 const pending_stats *p)
{
    if (s->n_held >= GC_HELD_MAX) {
        s->held_overflow = 1;
        return;
    }
    if (s->n_held == s->cap_held) {
        size_t n = s->cap_held ? 2 * s->cap_held : 16;
        held_ev *h = realloc(s->held, n * sizeof *h);
        if (!h) {
            s->nomem = 1;
            return;
        }
        s->held = h;
        s->cap_held = n;
    }
    held_ev *h = &s->held[s->n_held++];
    *h = (held_ev){ t, cap, type, 0 };
    if (p) {
        if (s->n_held_stats == s->cap_held_stats) {
            size_t n = s->cap_held_stats ? 2 * s->cap_held_stats : 8;
            pending_stats *ps = realloc(s->held_stats, n * sizeof *ps);
            if (!ps) {
                s->nomem = 1;
                return;
            }
            s->held_stats = ps;
            s->cap_held_stats = n;
        }
        h->stats = (uint32_t)s->n_held_stats;
        s->held_stats[s->n_held_stats++] = *p;
    }
}

/* A collection event on c: applied, or held by a partial that does not
 * know c's collection state yet. */
static int gc_unknown(const gc_summary *s, const cap_state *c)
{
    return s->partial && !c->gc_synced;
}

/* ---- counters ---------------------------------------------------------- */

/* Counter k of c's (0: allocation, 1..: the sparks') at time t: the
 * largest value of its slot. */
static void counter(gc_summary *s, cap_state *c, int k, uint64_t t, uint64_t v)
{
    size_t slots = ev_select_num_slots(s->sel);
    if (!c->ctr && !(c->ctr = calloc((size_t)N_CTR * slots, sizeof *c->ctr))) {
        s->nomem = 1;
        return;
    }
    uint64_t *m = &c->ctr[(size_t)k * slots + (s->sel ? ev_select_slot(s->sel, t) : 1)];
    if (v > *m)
        *m = v;
}

/* Counter k's growth inside the windows. */
static uint64_t counter_sum(const gc_summary *s, const cap_state *c, int k)
{
    return c->ctr ? ev_select_counter_sum(s->sel, &c->ctr[(size_t)k * ev_select_num_slots(s->sel)])
                  : 0;
}

/* Before the selection's end: a counter sampled there is shown. */
static int before_end(const gc_summary *s, uint64_t t)
{
    return t < ev_select_hull(s->sel).to_ns;
}

static void rts_identifier(gc_summary *s, const el_event *ev)
{
    size_t n = ev->u.text.str.len;
    if (n >= sizeof s->r.rts_version)
        n = sizeof s->r.rts_version - 1;
    memcpy(s->r.rts_version, ev->u.text.str.ptr, n);
    s->r.rts_version[n] = '\0';
    /* the flavour after the version: rts_thr_p_l, rts_l, rts_thr_debug, ... */
    const char *fl = strchr(s->r.rts_version, ' ');
    fl = fl ? fl + 1 : s->r.rts_version;
    int threaded = 0, profiled = 0;
    const char *p = fl;
    while (*p && *p != ' ') {
        size_t len = strcspn(p, "_ ");
        if (len == 3 && strncmp(p, "thr", 3) == 0)
            threaded = 1;
        if (len == 1 && *p == 'p')
            profiled = 1;
        p += len;
        if (*p == '_')
            p++;
    }
    s->r.threaded = threaded;
    s->r.profiled = profiled;
}

/* --nonmoving-gc or -xn among the program's RTS options (between +RTS and
 * -RTS; --RTS ends them), in PROGRAM_ARGS' NUL-separated list. */
static int asks_nonmoving(el_str args)
{
    int rts = 0;
    const char *p = args.ptr, *end = args.ptr + args.len;
    while (p < end) {
        const char *nul = memchr(p, '\0', (size_t)(end - p));
        size_t n = nul ? (size_t)(nul - p) : (size_t)(end - p);
#define IS(lit) (n == sizeof lit - 1 && memcmp(p, lit, n) == 0)
        if (IS("--RTS"))
            return 0;
        if (IS("+RTS"))
            rts = 1;
        else if (IS("-RTS"))
            rts = 0;
        else if (rts && (IS("--nonmoving-gc") || IS("-xn")))
            return 1;
#undef IS
        p += n + 1;
    }
    return 0;
}

void gc_on_collection(gc_summary *s, gc_collection_fn fn, void *ctx)
{
    s->on_collection = fn;
    s->on_collection_ctx = ctx;
}

int gc_add_event(gc_summary *s, const el_event *ev)
{
    if (s->nomem || s->finished)
        return -1;
    s->took_events = 1;
    if (s->series.b && s->budget != s->mem.budget && ev_account_move(&s->mem, s->budget) != 0) {
        s->nomem = 1;               /* the budget refused the series */
        return -1;
    }
    if (ev->time > s->last_time_seen)
        s->last_time_seen = ev->time;
    if (!ev->decoded)
        return 0;
    uint64_t t = ev->time;
    cap_state *c;
    switch (ev->type) {
    case EL_BLOCK_MARKER:
        if (ev->u.block.cap != EL_NO_CAP && !cap_slot(s, ev->u.block.cap))
            return -1;
        return 0;
    case EL_CAP_CREATE:
        if (!cap_slot(s, ev->u.cap.cap))
            return -1;
        if ((uint32_t)ev->u.cap.cap + 1 > s->caps_created)
            s->caps_created = (uint32_t)ev->u.cap.cap + 1;
        return 0;
    case EL_CONC_MARK_BEGIN: case EL_CONC_MARK_END: case EL_CONC_SYNC_BEGIN:
    case EL_CONC_SYNC_END: case EL_CONC_SWEEP_BEGIN: case EL_CONC_SWEEP_END:
    case EL_CONC_UPD_REM_SET_FLUSH:
        gc_nonmoving_event_(&s->nm, s->sel, ev->type, t);
        if (s->nm.nomem)
            s->nomem = 1;
        return s->nomem ? -1 : 0;
    case EL_TASK_CREATE: case EL_TASK_DELETE:
        gc_tasks_event_(&s->tasks, ev->type, ev->u.task.task, ev->u.task.tid);
        if (s->tasks.nomem)
            s->nomem = 1;
        return s->nomem ? -1 : 0;
    case EL_OSPROCESS_PID:
        gc_tasks_event_(&s->tasks, ev->type, 0, ev->u.pid.pid);
        if (s->tasks.nomem)
            s->nomem = 1;
        return s->nomem ? -1 : 0;
    case EL_PROGRAM_ARGS:
        if (asks_nonmoving(ev->u.text.str))
            s->nonmoving_option = 1;
        return 0;
    case EL_RTS_IDENTIFIER:
        rts_identifier(s, ev);
        s->seen_rts = 1;
        return 0;
    case EL_HEAP_INFO_GHC:
        s->r.has_heap_info = 1;
        s->heap_info_gens = ev->u.heap_info.gens;
        s->mblock_size = ev->u.heap_info.mblock_size;
        return 0;
    case EL_MEM_RETURN:
        s->r.n_mem_return++;
        if (in_window(s, t) && ev->u.mem_return.current > s->max_mblocks)
            s->max_mblocks = ev->u.mem_return.current;
        return 0;
    case EL_HEAP_SIZE:
        s->r.n_heap_size++;
        if (s->series.b)
            gc_series_size_(&s->series, t, ev->u.heap.bytes);
        if (in_window(s, t)) {
            if (ev->u.heap.bytes > s->r.max_mem_in_use_bytes)
                s->r.max_mem_in_use_bytes = ev->u.heap.bytes;
            s->r.heap_size_bytes = ev->u.heap.bytes;
            s->r.has_heap_size = 1;
        }
        return 0;
    case EL_HEAP_LIVE:
        s->r.n_heap_live++;
        if (s->series.b)
            gc_series_live_(&s->series, t, ev->u.heap.bytes);
        if (in_window(s, t)) {
            if (ev->u.heap.bytes > s->r.max_live_bytes)
                s->r.max_live_bytes = ev->u.heap.bytes;
            s->r.live_bytes = ev->u.heap.bytes;
            s->r.has_live = 1;
        }
        return 0;
    default:
        break;
    }

    if (!(c = cap_slot(s, ev->cap)))
        return -1;
    switch (ev->type) {
    case EL_GC_START:
        s->r.n_gc_start++;
        mutator_event(s, c, ev);
        if (gc_unknown(s, c)) {
            /* held; from here on the collection state is this range's */
            hold(s, ev->cap, EL_GC_START, t, NULL);
            c->gc_synced = 1;
            c->in_gc = 1;
            c->has_pending = 0;
            c->gc_start = t;
        } else {
            gc_begin(s, c, t);
        }
        break;
    case EL_GC_END:
        s->r.n_gc_end++;
        mutator_event(s, c, ev);
        if (gc_unknown(s, c))
            hold(s, ev->cap, EL_GC_END, t, NULL);
        else
            gc_end(s, c, t);
        break;
    case EL_GC_STATS_GHC: {
        s->r.n_gc_stats++;
        pending_stats p = {
            .time = t,
            .gen = ev->u.gc_stats.gen,
            .copied = ev->u.gc_stats.copied,
            .slop = ev->u.gc_stats.slop,
            .frag = ev->u.gc_stats.frag,
            .balanced = ev->u.gc_stats.par_balanced_copied,
            .par_n_threads = ev->u.gc_stats.par_n_threads,
        };
        if (!ev->u.gc_stats.has_balanced)
            s->r.old_gc_stats = 1;
        if (gc_unknown(s, c))
            hold(s, ev->cap, EL_GC_STATS_GHC, t, &p);
        else
            gc_stats(s, c, &p);
        break;
    }
    case EL_HEAP_ALLOCATED:
        s->r.n_heap_alloc++;
        counter(s, c, 0, t, ev->u.heap.bytes);
        if (s->series.b)
            series_alloc(s, c, t, ev->u.heap.bytes);
        if (before_end(s, t))
            c->has_alloc = 1;
        if (t > s->r.last_alloc_ns && (!s->sel || !ev_select_outside(s->sel, t, ev->cap)))
            s->r.last_alloc_ns = t;
        break;
    case EL_SPARK_COUNTERS: {
        s->r.n_spark_counters++;
        const uint64_t v[N_SPARK] = {
            ev->u.spark_counters.created, ev->u.spark_counters.dud,
            ev->u.spark_counters.overflowed, ev->u.spark_counters.converted,
            ev->u.spark_counters.gcd, ev->u.spark_counters.fizzled,
        };
        for (int i = 0; i < N_SPARK; i++)
            counter(s, c, 1 + i, t, v[i]);
        if (before_end(s, t))
            c->has_sparks = 1;
        break;
    }
    case EL_RUN_THREAD:
    case EL_STOP_THREAD:
        mutator_event(s, c, ev);
        break;
    default:
        break;
    }
    return s->nomem ? -1 : 0;
}

void gc_set_time_span(gc_summary *s, uint64_t first, uint64_t last)
{
    (void)first;
    s->has_span = 1;
    s->span_last = last;
}

/* ---- finish ------------------------------------------------------------ */

static void close_cap(gc_summary *s, cap_state *c, uint64_t end)
{
    sched_span was = sched_cap_close(&c->sched, end);
    if (was.state == SCHED_RUNNING)
        c->mut_ns += overlap(s, was.from, end);
    if (c->in_gc)
        gc_end(s, c, end < c->gc_start ? c->gc_start : end);
}

/* GHC's `+RTS -s` lines of the non-moving collector, when the log shows
 * it ran (its events) or was asked for (--nonmoving-gc). */
static void nonmoving_result(const gc_summary *s, gc_result *r)
{
    const gc_nonmoving *n = &s->nm;
    r->nonmoving = n->n_events > 0 || s->nonmoving_option;
    /* GHC's count of syncs is its count of major collections */
    r->nonmoving_syncs = r->generations ? s->gens[r->generations - 1].collections : 0;
    r->nonmoving_sync_pairs = n->n_syncs;
    r->nonmoving_sync_ns = n->sync_ns;
    r->nonmoving_sync_max_ns = n->sync_max_ns;
    r->nonmoving_collections = n->n_colls;
    r->nonmoving_elapsed_ns = n->coll_ns;
    r->nonmoving_max_elapsed_ns = n->coll_max_ns;
    /* GHC before 9.4 reads the process's CPU clock for this "elapsed"
     * time (GHC #20751, fixed by !7086): not in the events */
    unsigned major = 0, minor = 0;
    int old = sscanf(r->rts_version, "GHC-%u.%u", &major, &minor) == 2 &&
              (major < 9 || (major == 9 && minor < 4));
    r->has_nonmoving_elapsed = !old;
}

static void cap_result(const gc_summary *s, const cap_state *c, uint32_t no, gc_cap *o)
{
    memset(o, 0, sizeof *o);
    o->cap = no;
    o->allocated_bytes = counter_sum(s, c, 0);
    o->has_alloc = c->has_alloc;
    o->has_sparks = c->has_sparks;
    uint64_t d[N_SPARK];
    for (int i = 0; i < N_SPARK; i++)
        d[i] = counter_sum(s, c, 1 + i);
    o->sparks = (gc_sparks){ d[0], d[1], d[2], d[3], d[4], d[5] };
    o->mutator_ns = c->mut_ns;
    o->gc_ns = c->gc_ns;
    uint64_t busy = c->mut_ns + c->gc_ns;
    o->idle_ns = s->r.total_ns > busy ? s->r.total_ns - busy : 0;
    o->gcs = c->gcs;
    o->led = c->led;
    o->led_ns = c->led_ns;
    o->max_pause_ns = c->max_pause_ns;
}

/* Something to show: a capability's block or creation, or any figure. */
static int has_data(const cap_state *c)
{
    return c->seen || c->has_alloc || c->has_sparks || c->gcs || c->led || c->mut_ns ||
           c->gc_ns;
}

int gc_finish(gc_summary *s)
{
    if (s->nomem)
        return -1;
    if (s->finished)
        return 0;
    s->finished = 1;
    gc_result *r = &s->r;
    uint64_t end = s->has_span ? s->span_last : s->last_time_seen;
    if (s->last_time_seen > end)
        end = s->last_time_seen;
    r->log_end_ns = end;

    for (uint32_t i = 0; i < s->ncaps; i++)
        if (s->caps[i].seen)
            close_cap(s, &s->caps[i], end);
    close_cap(s, &s->nocap, end);
    if (s->nomem)
        return -1;

    /* the windows, clipped to the log's end */
    size_t nw;
    const ev_span *w = ev_select_spans(s->sel, &nw);
    ev_span hull = ev_select_hull(s->sel);
    int32_t cap = ev_select_cap(s->sel);
    r->to_ns = hull.to_ns < end ? hull.to_ns : end;
    r->from_ns = hull.from_ns < r->to_ns ? hull.from_ns : r->to_ns;
    r->cap = cap;
    r->whole_run = nw == 1 && hull.from_ns == 0 && hull.to_ns > end && cap < 0;
    r->total_ns = ev_select_length(s->sel, end);
    free(s->out_windows);
    if (!(s->out_windows = malloc(nw * sizeof *s->out_windows))) {
        s->nomem = 1;
        return -1;
    }
    r->n_windows = 0;
    for (size_t i = 0; i < nw && w[i].from_ns < end; i++)
        s->out_windows[r->n_windows++] =
            (ev_span){ w[i].from_ns, w[i].to_ns < end ? w[i].to_ns : end };
    r->windows = s->out_windows;
    r->gc_ns = s->gc_ns < r->total_ns ? s->gc_ns : r->total_ns;
    r->mutator_ns = r->total_ns - r->gc_ns;
    r->has_gc_events = r->n_gc_start || r->n_gc_end || r->n_gc_stats || r->n_heap_alloc ||
                       r->n_heap_size || r->n_heap_live || r->has_heap_info;
    /* the peak of megablocks: MEM_RETURN's count before each return (the
     * megablock size is 1 MiB on every GHC, when HEAP_INFO_GHC is missing) */
    uint64_t peak = (uint64_t)s->max_mblocks * (s->mblock_size ? s->mblock_size : 1u << 20);
    if (peak > r->max_mem_in_use_bytes)
        r->max_mem_in_use_bytes = peak;
    r->mem_in_use_lower_bound = r->n_heap_size && !s->mem_return_declared && !r->n_mem_return;
    if (r->n_spark_counters)
        r->threaded = 1;

    /* generations: GHC prints a row for each, collected or not */
    uint32_t ngen = r->has_heap_info ? s->heap_info_gens : 0;
    if (s->max_gen_seen > ngen)
        ngen = s->max_gen_seen;
    if (ngen && !gen_slot(s, ngen - 1))
        return -1;
    r->generations = ngen;
    r->gens = s->gens;
    for (uint32_t g = 0; g < ngen; g++) {
        gc_gen *gg = &s->gens[g];
        gg->avg_pause_ns = gg->collections ? gg->elapsed_ns / gg->collections : 0;
        r->collections += gg->collections;
    }
    if (ngen) {
        r->major_gcs = s->gens[ngen - 1].collections;
        r->max_slop_bytes = s->gens[ngen - 1].max_slop_bytes;
    }
    r->work_balance = r->par_copied_bytes
                          ? (double)r->par_balanced_copied_bytes / (double)r->par_copied_bytes
                          : 0.0;
    nonmoving_result(s, r);

    /* capabilities */
    uint32_t n = 0;
    for (uint32_t i = 0; i < s->ncaps; i++)
        if (has_data(&s->caps[i]))
            n++;
    r->caps_in_log = n;
    int nocap = has_data(&s->nocap);   /* events outside blocks (very old logs) */
    s->out_caps = calloc((size_t)n + 1, sizeof *s->out_caps);
    if (!s->out_caps) {
        s->nomem = 1;
        return -1;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < s->ncaps; i++) {
        if (!has_data(&s->caps[i]) || (cap >= 0 && (uint32_t)cap != i))
            continue;
        cap_result(s, &s->caps[i], i, &s->out_caps[k++]);
    }
    if (nocap && cap < 0)
        cap_result(s, &s->nocap, EL_NO_CAP, &s->out_caps[k++]);
    r->caps = s->out_caps;
    r->n_caps = k;
    r->has_tasks = s->tasks.n_events > 0 && s->tasks.has_pid;
    r->bound_tasks = s->tasks.has_main ? 1 : 0;
    r->bound_tasks_lower_bound = s->nm.n_mark_begin > 0;
    r->workers = s->tasks.workers;
    r->peak_workers = s->tasks.peak;
    r->n_capabilities = s->caps_created ? s->caps_created : r->caps_in_log;

    for (uint32_t i = 0; i < k; i++) {
        const gc_cap *c = &s->out_caps[i];
        r->allocated_bytes += c->allocated_bytes;
        if (c->has_sparks) {
            r->has_sparks = 1;
            r->sparks.created += c->sparks.created;
            r->sparks.dud += c->sparks.dud;
            r->sparks.overflowed += c->sparks.overflowed;
            r->sparks.converted += c->sparks.converted;
            r->sparks.gcd += c->sparks.gcd;
            r->sparks.fizzled += c->sparks.fizzled;
        }
    }
    if (s->series.b) {
        if (!(s->points = malloc(s->series.cap * sizeof *s->points))) {
            s->nomem = 1;
            return -1;
        }
        r->n_points = gc_series_points_(&s->series, s->points);
        r->points = s->points;
    }
    double mut_s = (double)r->mutator_ns / 1e9;
    r->alloc_rate = r->mutator_ns ? (uint64_t)((double)r->allocated_bytes / mut_s) : 0;
    r->productivity = r->total_ns ? (double)r->mutator_ns / (double)r->total_ns : 0.0;
    return 0;
}

const gc_result *gc_get_result(const gc_summary *s)
{
    return s->finished && !s->nomem ? &s->r : NULL;
}

/* ---- snapshots and the driver --------------------------------------------- */

gc_summary *gc_snapshot(const gc_summary *s)
{
    if (!s || s->nomem)
        return NULL;
    gc_summary *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    *c = *s;
    c->caps = NULL;
    c->ncaps = 0;
    c->gens = NULL;
    c->out_caps = NULL;
    c->out_windows = NULL;
    c->nocap.ctr = NULL;
    c->held = NULL;
    c->held_stats = NULL;
    c->on_collection = NULL;    /* collections closed by finishing are not news */
    c->series.b = NULL;
    c->points = NULL;
    c->mem = (ev_account){ 0 };  /* a snapshot is not charged */
    c->nm.held = NULL;
    c->tasks.held = NULL;
    if (gc_nonmoving_copy_(&c->nm, &s->nm) != 0 || gc_tasks_copy_(&c->tasks, &s->tasks) != 0) {
        gc_destroy(c);
        return NULL;
    }
    if (s->series.b && gc_series_copy_(&c->series, &s->series) != 0) {
        gc_destroy(c);
        return NULL;
    }
    if ((s->ncaps && !(c->caps = malloc((size_t)s->ncaps * sizeof *c->caps))) ||
        (s->ngens && !(c->gens = malloc((size_t)s->ngens * sizeof *c->gens)))) {
        gc_destroy(c);
        return NULL;
    }
    if (s->ncaps)
        memcpy(c->caps, s->caps, (size_t)s->ncaps * sizeof *c->caps);
    for (uint32_t i = 0; i < s->ncaps; i++)
        c->caps[i].ctr = NULL;
    c->ncaps = s->ncaps;
    size_t ctr_bytes = (size_t)N_CTR * ev_select_num_slots(s->sel) * sizeof *s->caps[0].ctr;
    for (uint32_t i = 0; i <= s->ncaps; i++) {
        const cap_state *from = i < s->ncaps ? &s->caps[i] : &s->nocap;
        cap_state *to = i < s->ncaps ? &c->caps[i] : &c->nocap;
        if (from->ctr) {
            if (!(to->ctr = malloc(ctr_bytes))) {
                gc_destroy(c);
                return NULL;
            }
            memcpy(to->ctr, from->ctr, ctr_bytes);
        }
    }
    if (s->ngens)
        memcpy(c->gens, s->gens, (size_t)s->ngens * sizeof *c->gens);
    if (!s->finished && gc_finish(c) != 0) {
        gc_destroy(c);
        return NULL;
    }
    return c;
}

/* ---- partials (the parallel read) --------------------------------------- */

gc_summary *gc_fork(const gc_summary *s)
{
    /* collections reported as they complete must come in file order */
    if (!s || s->nomem || s->finished || s->on_collection)
        return NULL;
    gc_summary *q = gc_create();
    if (q) {
        q->partial = 1;
        gc_nonmoving_init_(&q->nm, 1);
        gc_tasks_init_(&q->tasks, 1);
        q->sel = s->sel;
        if (s->series.b && gc_keep_series(q, s->series_points) != 0) {
            gc_destroy(q);
            return NULL;
        }
    }
    return q;
}

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* q's capability after p's: the mutator's interval p left open ends at
 * q's first mutator event; q's states follow p's where q knows them. */
static void merge_cap(gc_summary *p, cap_state *pc, const cap_state *qc)
{
    size_t n = (size_t)N_CTR * ev_select_num_slots(p->sel);
    if (qc->s_seen && p->series.b) {
        /* q's first counter follows p's last, or becomes p's first */
        if (p->partial && !pc->s_seen) {
            pc->s_first = qc->s_first;
            pc->s_first_t = qc->s_first_t;
        } else if (qc->s_first > pc->s_alloc) {
            gc_series_alloc_(&p->series, qc->s_first_t, qc->s_first - pc->s_alloc);
        }
        pc->s_seen = 1;
        pc->s_alloc = qc->s_alloc;
    }
    if (qc->run_synced) {
        if (!p->partial || pc->run_synced) {
            if (pc->sched.state == SCHED_RUNNING)
                pc->mut_ns += overlap(p, pc->sched.since, qc->run_first);
        } else {
            pc->run_synced = 1;
            pc->run_first = qc->run_first;
        }
        pc->sched = qc->sched;
    }
    if (qc->gc_synced) {
        pc->gc_synced = 1;
        pc->in_gc = qc->in_gc;
        pc->gc_start = qc->gc_start;
        pc->has_pending = qc->has_pending;
        pc->pending = qc->pending;
        if (qc->last_valid) {
            pc->last_valid = 1;
            pc->last_had_stats = qc->last_had_stats;
            pc->last_start = qc->last_start;
            pc->last_end = qc->last_end;
        }
    }
    pc->seen |= qc->seen;
    pc->has_alloc |= qc->has_alloc;
    pc->has_sparks |= qc->has_sparks;
    if (qc->ctr && !pc->ctr && !(pc->ctr = calloc(n, sizeof *pc->ctr)))
        p->nomem = 1;
    else if (qc->ctr)
        for (size_t i = 0; i < n; i++)
            pc->ctr[i] = max_u64(pc->ctr[i], qc->ctr[i]);
    pc->mut_ns += qc->mut_ns;
    pc->gc_ns += qc->gc_ns;
    pc->max_pause_ns = max_u64(pc->max_pause_ns, qc->max_pause_ns);
    pc->gcs += qc->gcs;
    pc->led += qc->led;
    pc->led_ns += qc->led_ns;
}

int gc_merge(gc_summary *p, const gc_summary *q)
{
    if (p->nomem || p->finished || q->nomem || q->held_overflow || p->held_overflow)
        return -1;
    if (!p->sel)
        p->sel = q->sel;    /* the attached summary has read nothing itself */
    if (reserve_caps(p, q->ncaps) != 0)
        return -1;
    if (!p->series.b != !q->series.b)
        return -1;                  /* not partials of one summary */
    if (p->series.b)
        gc_series_merge_(&p->series, &q->series);
    /* q's held collection events continue p's states, or p's own held
     * ones when p does not know that capability's state either */
    for (size_t i = 0; i < q->n_held; i++) {
        const held_ev *h = &q->held[i];
        cap_state *pc = h->cap == EL_NO_CAP ? &p->nocap : &p->caps[h->cap];
        const pending_stats *st =
            h->type == EL_GC_STATS_GHC ? &q->held_stats[h->stats] : NULL;
        if (gc_unknown(p, pc)) {
            hold(p, h->cap, h->type, h->time, st);
            continue;
        }
        if (h->type == EL_GC_START)
            gc_begin(p, pc, h->time);
        else if (h->type == EL_GC_END)
            gc_end(p, pc, h->time);
        else
            gc_stats(p, pc, st);
    }
    for (uint32_t i = 0; i < q->ncaps; i++)
        merge_cap(p, &p->caps[i], &q->caps[i]);
    merge_cap(p, &p->nocap, &q->nocap);

    if (q->ngens && !gen_slot(p, q->ngens - 1))
        return -1;
    for (uint32_t g = 0; g < q->ngens; g++) {
        gc_gen *pg = &p->gens[g];
        const gc_gen *qg = &q->gens[g];
        pg->collections += qg->collections;
        pg->par_collections += qg->par_collections;
        pg->elapsed_ns += qg->elapsed_ns;
        pg->max_pause_ns = max_u64(pg->max_pause_ns, qg->max_pause_ns);
        pg->copied_bytes += qg->copied_bytes;
        pg->max_slop_bytes = max_u64(pg->max_slop_bytes, qg->max_slop_bytes);
    }
    if (q->max_gen_seen > p->max_gen_seen)
        p->max_gen_seen = q->max_gen_seen;
    p->last_time_seen = max_u64(p->last_time_seen, q->last_time_seen);
    if (q->has_span) {
        p->has_span = 1;
        p->span_last = q->span_last;
    }
    p->gc_ns += q->gc_ns;
    if (gc_nonmoving_merge_(&p->nm, &q->nm, p->sel) != 0 ||
        gc_tasks_merge_(&p->tasks, &q->tasks) != 0)
        return -1;
    if (q->caps_created > p->caps_created)
        p->caps_created = q->caps_created;
    p->nonmoving_option |= q->nonmoving_option;

    gc_result *r = &p->r;
    const gc_result *qr = &q->r;
    r->n_gc_start += qr->n_gc_start;
    r->n_gc_end += qr->n_gc_end;
    r->n_gc_stats += qr->n_gc_stats;
    r->n_heap_alloc += qr->n_heap_alloc;
    r->n_heap_size += qr->n_heap_size;
    r->n_heap_live += qr->n_heap_live;
    r->n_spark_counters += qr->n_spark_counters;
    if (qr->has_heap_info) {        /* the last one in the log counts */
        r->has_heap_info = 1;
        p->heap_info_gens = q->heap_info_gens;
        p->mblock_size = q->mblock_size;
    }
    r->n_mem_return += qr->n_mem_return;
    if (q->max_mblocks > p->max_mblocks)
        p->max_mblocks = q->max_mblocks;
    if (q->seen_rts) {
        p->seen_rts = 1;
        memcpy(r->rts_version, qr->rts_version, sizeof r->rts_version);
        r->threaded = qr->threaded;
        r->profiled = qr->profiled;
    }
    r->old_gc_stats |= qr->old_gc_stats;
    r->copied_bytes += qr->copied_bytes;
    r->max_live_bytes = max_u64(r->max_live_bytes, qr->max_live_bytes);
    r->max_mem_in_use_bytes = max_u64(r->max_mem_in_use_bytes, qr->max_mem_in_use_bytes);
    r->max_frag_bytes = max_u64(r->max_frag_bytes, qr->max_frag_bytes);
    if (qr->has_heap_size) {        /* the latest in the log's order: q's */
        r->has_heap_size = 1;
        r->heap_size_bytes = qr->heap_size_bytes;
    }
    if (qr->has_live) {
        r->has_live = 1;
        r->live_bytes = qr->live_bytes;
    }
    r->last_alloc_ns = max_u64(r->last_alloc_ns, qr->last_alloc_ns);
    r->par_copied_bytes += qr->par_copied_bytes;
    r->par_balanced_copied_bytes += qr->par_balanced_copied_bytes;
    r->collections_without_pause += qr->collections_without_pause;
    return p->nomem || p->held_overflow ? -1 : 0;
}

static int gc_op_event(void *self, const el_event *ev, const ev_stream *st)
{
    gc_summary *s = self;
    s->sel = st->select;
    s->budget = st->budget;
    return gc_add_event(s, ev) != 0;
}

static void gc_op_end(void *self, const ev_stream *st)
{
    gc_summary *s = self;
    s->sel = st->select;
    if (st->decoder && el_decoder_type(st->decoder, EL_MEM_RETURN))
        s->mem_return_declared = 1;
    if (st->read.has_time_span)
        gc_set_time_span(self, st->read.first_time, st->read.last_time);
}

static void *gc_op_snapshot(void *self) { return gc_snapshot(self); }
static void gc_op_release(void *snap) { gc_destroy(snap); }
static void *gc_op_fork(void *self) { return gc_fork(self); }
static int gc_op_merge(void *self, void *part) { return gc_merge(self, part); }
static void gc_op_drop(void *part) { gc_destroy(part); }

const ev_analysis_ops gc_analysis_ops = {
    .name = "gc summary",
    .types = gc_event_types,
    .num_types = sizeof gc_event_types / sizeof gc_event_types[0],
    .event = gc_op_event,
    .end = gc_op_end,
    .snapshot = gc_op_snapshot,
    .release = gc_op_release,
    .fork = gc_op_fork,
    .merge = gc_op_merge,
    .drop = gc_op_drop,
};
