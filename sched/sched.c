/* What GHC's scheduler did: the capabilities' and threads' states
 * (sched/machine.h) as an analysis of the driver (include/evprof/sched.h).
 *
 * Events come in file order: each capability's in time order, so its
 * intervals are exact; a running interval is charged to the thread the
 * capability's RUN_THREAD named. Everything else is a count or the last
 * value in file order. Per thread a row, found by its id through the one
 * id map (util/idmap.h); the rows are an array grown by doubling, charged
 * to the read's budget with the map and the labels.
 *
 * A partial of the parallel read starts in the middle of the log: a
 * capability's first event there only notes its time (the interval it
 * closes began in an earlier range); sched_merge closes it with the state
 * the ranges before left, as gc/summary.c does for the mutator time. */
#include "evprof/sched.h"

#include <stdlib.h>
#include <string.h>

#include "sched/machine.h"
#include "util/account.h"
#include "util/idmap.h"
#include "util/strpool.h"

#define NO_ROW UINT32_MAX

typedef struct cap_slot {
    sched_cap m;
    uint32_t row;               /* running: its thread's row */
    uint8_t seen;               /* a scheduler event */
    uint8_t synced;             /* a partial: its first event seen, at `first` */
    uint64_t first;
    uint64_t running_ns, gc_ns, runs;
} cap_slot;

typedef struct thread_slot {
    sched_thread_row r;         /* label: into the summary's pool */
    sched_thread m;
    uint8_t inside;             /* an event or running time inside the selection */
} thread_slot;

struct sched_summary {
    const ev_select *sel;       /* the read's (the driver's; NULL: everything) */
    ev_account mem;
    int nomem;
    int partial;
    int has_events;
    uint64_t last_time;         /* the latest event time seen */
    uint64_t span_last;         /* the stream's last event time (end) */
    cap_slot *caps;             /* by capability number */
    uint32_t ncaps;
    cap_slot nocap;             /* events outside capability blocks */
    thread_slot *threads;       /* in the order first seen */
    size_t nthreads, cap_threads;
    tx_idmap ids;               /* thread id -> row */
    strpool labels;
};

/* ---- names ---------------------------------------------------------------- */

static const struct {
    const char *name, *words;
} stop_names[] = {
    [SCHED_STOP_HEAP] = { "heap", "heap overflow (a heap check: the nursery is full)" },
    [SCHED_STOP_STACK] = { "stack", "stack overflow (the stack grows)" },
    [SCHED_STOP_YIELD] = { "yield", "yielding (end of the time slice, a context switch)" },
    [SCHED_STOP_FOREIGN] = { "ffi", "a safe foreign call" },
    [SCHED_STOP_MVAR] = { "mvar", "blocked on an MVar" },
    [SCHED_STOP_BLACK_HOLE] = { "blackhole", "blocked on a black hole (a thunk another "
                                              "thread is evaluating)" },
    [SCHED_STOP_STM] = { "stm", "blocked in an STM retry" },
    [SCHED_STOP_DELAY] = { "delay", "blocked in threadDelay" },
    [SCHED_STOP_IO] = { "io", "blocked on I/O" },
    [SCHED_STOP_THROW_TO] = { "throwto", "blocked in throwTo" },
    [SCHED_STOP_FINISHED] = { "finished", "finished" },
    [SCHED_STOP_OTHER] = { "other", "another status" },
};
_Static_assert(sizeof stop_names / sizeof stop_names[0] == SCHED_STOPS,
               "a name for every sched_stop");

static const char *const state_names[] = {
    [SCHED_UNKNOWN] = "unknown", [SCHED_IDLE] = "idle", [SCHED_RUNNING] = "running",
    [SCHED_GC] = "gc", [SCHED_RUNNABLE] = "runnable", [SCHED_BLOCKED] = "blocked",
    [SCHED_FINISHED] = "finished",
};
_Static_assert(sizeof state_names / sizeof state_names[0] == SCHED_STATES,
               "a name for every sched_state");

sched_stop sched_stop_of(uint16_t status)
{
    switch (status) {
    case SCHED_STATUS_HEAP_OVERFLOW: return SCHED_STOP_HEAP;
    case SCHED_STATUS_STACK_OVERFLOW: return SCHED_STOP_STACK;
    case SCHED_STATUS_YIELDING: return SCHED_STOP_YIELD;
    case SCHED_STATUS_FINISHED: return SCHED_STOP_FINISHED;
    case SCHED_STATUS_FOREIGN_CALL: return SCHED_STOP_FOREIGN;
    case SCHED_STATUS_MVAR:
    case SCHED_STATUS_MVAR_READ: return SCHED_STOP_MVAR;
    case SCHED_STATUS_BLACK_HOLE: return SCHED_STOP_BLACK_HOLE;
    case SCHED_STATUS_STM: return SCHED_STOP_STM;
    case SCHED_STATUS_DELAY: return SCHED_STOP_DELAY;
    case SCHED_STATUS_READ:
    case SCHED_STATUS_WRITE:
    case SCHED_STATUS_DO_PROC: return SCHED_STOP_IO;
    case SCHED_STATUS_THROW_TO: return SCHED_STOP_THROW_TO;
    default: return SCHED_STOP_OTHER;
    }
}

const char *sched_stop_name(sched_stop k)
{
    return (unsigned)k < SCHED_STOPS ? stop_names[k].name : NULL;
}

const char *sched_stop_words(sched_stop k)
{
    return (unsigned)k < SCHED_STOPS ? stop_names[k].words : NULL;
}

const char *sched_state_name(sched_state s)
{
    return (unsigned)s < SCHED_STATES ? state_names[s] : NULL;
}

/* ---- tables ----------------------------------------------------------------- */

sched_summary *sched_create(void)
{
    sched_summary *s = calloc(1, sizeof *s);
    if (s) {
        tx_strpool_init(&s->labels);
        s->nocap.row = NO_ROW;
    }
    return s;
}

void sched_destroy(sched_summary *s)
{
    if (!s)
        return;
    free(s->caps);
    free(s->threads);
    tx_idmap_free(&s->ids);
    tx_strpool_destroy(&s->labels);
    ev_budget_release(s->mem.budget, s->mem.charged);
    free(s);
}

/* Capability slots 0 .. n - 1 (a few: grown by doubling, not charged,
 * as the GC summary's). */
static int reserve_caps(sched_summary *s, uint32_t n)
{
    if (n <= s->ncaps)
        return 0;
    cap_slot *c = realloc(s->caps, (size_t)n * sizeof *c);
    if (!c) {
        s->nomem = 1;
        return -1;
    }
    memset(c + s->ncaps, 0, (size_t)(n - s->ncaps) * sizeof *c);
    for (uint32_t i = s->ncaps; i < n; i++)
        c[i].row = NO_ROW;
    s->caps = c;
    s->ncaps = n;
    return 0;
}

static cap_slot *cap_of(sched_summary *s, uint16_t cap)
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
    return &s->caps[cap];
}

/* The row of thread `id`, made when new: its index, or NO_ROW when out
 * of memory or past the budget. */
static uint32_t thread_row(sched_summary *s, uint32_t id)
{
    uint32_t i = tx_idmap_get(&s->ids, id);
    if (i != TX_IDMAP_NONE)
        return i;
    if (s->nthreads == s->cap_threads) {
        size_t n = s->cap_threads ? 2 * s->cap_threads : 64;
        if (n >= NO_ROW || ev_account_charge(&s->mem, n * sizeof *s->threads) != 0) {
            s->nomem = 1;
            return NO_ROW;
        }
        thread_slot *t = realloc(s->threads, n * sizeof *t);
        if (!t) {
            ev_account_release(&s->mem, n * sizeof *s->threads);
            s->nomem = 1;
            return NO_ROW;
        }
        ev_account_release(&s->mem, s->cap_threads * sizeof *s->threads);
        s->threads = t;
        s->cap_threads = n;
    }
    i = (uint32_t)s->nthreads;
    if (tx_idmap_put(&s->ids, id, i, &s->mem) != 0) {
        s->nomem = 1;
        return NO_ROW;
    }
    thread_slot *t = &s->threads[s->nthreads++];
    memset(t, 0, sizeof *t);
    t->r.id = id;
    t->r.created_ns = t->r.finished_ns = SCHED_NO_TIME;
    return i;
}

static void set_label(sched_summary *s, thread_slot *t, const char *str, uint32_t len)
{
    size_t grow = tx_strpool_growth(&s->labels, len);
    if (grow && ev_account_charge(&s->mem, grow) != 0) {
        s->nomem = 1;
        return;
    }
    const char *l = tx_strpool_add(&s->labels, str, len);
    if (!l) {
        s->nomem = 1;
        return;
    }
    t->r.label = l;
    t->r.label_len = len;
}

/* ---- events ------------------------------------------------------------------- */

static inline int cap_selected(const sched_summary *s, uint16_t cap)
{
    int32_t sel = ev_select_cap(s->sel);
    return sel < 0 || (cap != EL_NO_CAP && (uint32_t)sel == cap);
}

static inline uint64_t overlap(const sched_summary *s, uint64_t a, uint64_t b)
{
    if (!s->sel)
        return b > a ? b - a : 0;
    return ev_select_overlap(s->sel, a, b);
}

/* The interval [was.from, t) that capability `capno` (slot c) leaves:
 * running time of the capability and of its thread, or GC time. */
static void cap_span(sched_summary *s, cap_slot *c, uint16_t capno, sched_span was,
                     uint64_t t)
{
    if (was.state != SCHED_RUNNING && was.state != SCHED_GC)
        return;
    uint64_t d = overlap(s, was.from, t);
    if (was.state == SCHED_GC) {
        c->gc_ns += d;
        return;
    }
    c->running_ns += d;
    if (c->row != NO_ROW && d && cap_selected(s, capno)) {
        s->threads[c->row].r.running_ns += d;
        s->threads[c->row].inside = 1;
    }
}

static void cap_ran(thread_slot *t, uint16_t cap)
{
    if (cap < 64)
        t->r.caps |= 1ull << cap;
    else
        t->r.caps_over = 1;
}

/* A thread's event. Its events come from several capabilities, which file
 * order does not interleave by time: an event older than the one its
 * state comes from is left out, so that the state is that of its latest
 * event (its intervals are not counted here: the running ones are the
 * capabilities'). */
static inline void thread_step(thread_slot *th, uint16_t type, uint64_t t, uint16_t status)
{
    if (th->m.state == SCHED_UNKNOWN || t >= th->m.since)
        sched_thread_step(&th->m, type, t, status);
}

/* RUN_THREAD, STOP_THREAD, GC_START, GC_END. */
static void cap_event(sched_summary *s, const el_event *ev)
{
    cap_slot *c = cap_of(s, ev->cap);
    if (!c)
        return;
    uint64_t t = ev->time;
    uint32_t tid = ev->type == EL_RUN_THREAD    ? ev->u.thread.thread
                   : ev->type == EL_STOP_THREAD ? ev->u.stop_thread.thread
                                                : 0;
    sched_span was = sched_cap_step(&c->m, ev->type, t, tid);
    cap_span(s, c, ev->cap, was, t);
    if (was.state == SCHED_UNKNOWN && s->partial && !c->synced) {
        c->synced = 1;
        c->first = t;
    }
    c->seen = 1;
    if (ev->type != EL_RUN_THREAD && ev->type != EL_STOP_THREAD) {
        c->row = NO_ROW;
        return;
    }
    uint32_t row = thread_row(s, tid);
    c->row = ev->type == EL_RUN_THREAD ? row : NO_ROW;
    if (row == NO_ROW)
        return;
    thread_slot *th = &s->threads[row];
    uint16_t status = ev->type == EL_STOP_THREAD ? ev->u.stop_thread.status : 0;
    thread_step(th, ev->type, t, status);
    if (ev->type == EL_STOP_THREAD && status == SCHED_STATUS_FINISHED)
        th->r.finished_ns = t;
    if (ev->outside)
        return;
    th->inside = 1;
    if (ev->type == EL_RUN_THREAD) {
        th->r.runs++;
        c->runs++;
        cap_ran(th, ev->cap);
    } else {
        th->r.stops[sched_stop_of(status)]++;
    }
}

/* CREATE_THREAD, THREAD_WAKEUP, THREAD_RUNNABLE, MIGRATE_THREAD, THREAD_LABEL. */
static void thread_event(sched_summary *s, const el_event *ev)
{
    uint32_t tid = ev->type == EL_CREATE_THREAD || ev->type == EL_THREAD_RUNNABLE
                       ? ev->u.thread.thread
                   : ev->type == EL_THREAD_LABEL ? ev->u.text.thread
                                                 : ev->u.thread_cap.thread;
    uint32_t row = thread_row(s, tid);
    if (row == NO_ROW)
        return;
    thread_slot *th = &s->threads[row];
    switch (ev->type) {
    case EL_CREATE_THREAD:
        if (th->r.created_ns == SCHED_NO_TIME)
            th->r.created_ns = ev->time;
        break;
    case EL_THREAD_LABEL:
        if (!th->r.label)           /* relabelled: the first stays, as on the page */
            set_label(s, th, ev->u.text.str.ptr, ev->u.text.str.len);
        return;                     /* a label alone puts no thread in the selection */
    case EL_MIGRATE_THREAD:
        if (!ev->outside)
            th->r.migrations++;
        break;
    default:
        break;
    }
    thread_step(th, ev->type, ev->time, 0);
    if (!ev->outside)
        th->inside = 1;
}

static int sched_op_event(void *self, const el_event *ev, const ev_stream *st)
{
    sched_summary *s = self;
    if (st) {
        s->sel = st->select;
        if (s->mem.budget != st->budget && ev_account_move(&s->mem, st->budget) != 0)
            return 1;
    }
    if (!ev->decoded)
        return 0;
    if (ev->time > s->last_time)
        s->last_time = ev->time;
    switch (ev->type) {
    case EL_RUN_THREAD:
    case EL_STOP_THREAD:
    case EL_GC_START:
    case EL_GC_END:
        s->has_events = 1;
        cap_event(s, ev);
        break;
    case EL_CREATE_THREAD:
        s->has_events = 1;
        thread_event(s, ev);
        break;
    default:
        thread_event(s, ev);
        break;
    }
    return s->nomem;
}

static void sched_op_end(void *self, const ev_stream *st)
{
    sched_summary *s = self;
    s->sel = st->select;
    if (st->read.has_time_span && st->read.last_time > s->span_last)
        s->span_last = st->read.last_time;
}

/* ---- snapshots ------------------------------------------------------------------ */

struct sched_result_own {
    sched_result r;
    sched_thread_row *threads;
    sched_cap_row *caps;
    char *labels;
};

static int by_id(const void *a, const void *b)
{
    uint32_t x = ((const sched_thread_row *)a)->id, y = ((const sched_thread_row *)b)->id;
    return x < y ? -1 : x > y;
}

static void cap_row(const sched_summary *s, const cap_slot *c, uint32_t no, uint64_t end,
                    uint64_t total, sched_cap_row *o)
{
    memset(o, 0, sizeof *o);
    o->cap = no;
    o->running_ns = c->running_ns;
    o->gc_ns = c->gc_ns;
    /* the interval open at the end */
    if (c->m.state == SCHED_RUNNING)
        o->running_ns += overlap(s, c->m.since, end);
    else if (c->m.state == SCHED_GC)
        o->gc_ns += overlap(s, c->m.since, end);
    uint64_t busy = o->running_ns + o->gc_ns;
    o->idle_ns = total > busy ? total - busy : 0;
    o->runs = c->runs;
    o->state = (sched_state)c->m.state;
    o->thread = c->m.state == SCHED_RUNNING ? c->m.thread : 0;
}

/* The threads inside the selection: rows copied, labels into one
 * buffer, the running intervals still open added, sorted by id. */
static int snapshot_threads(const sched_summary *s, struct sched_result_own *o, uint64_t end)
{
    sched_result *r = &o->r;
    size_t label_bytes = 0;
    for (size_t i = 0; i < s->nthreads; i++)
        label_bytes += s->threads[i].r.label ? s->threads[i].r.label_len + 1 : 0;
    uint64_t *open_ns = calloc(s->nthreads ? s->nthreads : 1, sizeof *open_ns);
    o->threads = malloc((s->nthreads ? s->nthreads : 1) * sizeof *o->threads);
    o->labels = malloc(label_bytes ? label_bytes : 1);
    if (!open_ns || !o->threads || !o->labels) {
        free(open_ns);
        return -1;
    }
    for (uint32_t i = 0; i <= s->ncaps; i++) {
        const cap_slot *c = i < s->ncaps ? &s->caps[i] : &s->nocap;
        uint16_t capno = i < s->ncaps ? (uint16_t)i : EL_NO_CAP;
        if (c->m.state == SCHED_RUNNING && c->row != NO_ROW && cap_selected(s, capno))
            open_ns[c->row] += overlap(s, c->m.since, end);
    }
    char *lp = o->labels;
    size_t n = 0;
    for (size_t i = 0; i < s->nthreads; i++) {
        const thread_slot *t = &s->threads[i];
        if (!t->inside && !open_ns[i])
            continue;
        sched_thread_row *row = &o->threads[n++];
        *row = t->r;
        row->running_ns += open_ns[i];
        row->state = (sched_state)t->m.state;
        if (t->r.label) {
            memcpy(lp, t->r.label, t->r.label_len);
            lp[t->r.label_len] = '\0';
            row->label = lp;
            lp += t->r.label_len + 1;
        }
        for (int k = 0; k < SCHED_STOPS; k++)
            r->stops[k] += row->stops[k];
    }
    free(open_ns);
    qsort(o->threads, n, sizeof *o->threads, by_id);
    r->threads = o->threads;
    r->n_threads = n;
    r->threads_seen = s->nthreads;
    return 0;
}

sched_result *sched_snapshot(const sched_summary *s)
{
    if (!s || s->nomem)
        return NULL;
    struct sched_result_own *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    sched_result *r = &o->r;
    uint64_t end = s->span_last > s->last_time ? s->span_last : s->last_time;
    int32_t sel_cap = ev_select_cap(s->sel);
    r->log_end_ns = end;
    r->total_ns = ev_select_length(s->sel, end);
    r->has_events = s->has_events;
    size_t nw;
    ev_span hull = ev_select_hull(s->sel);
    ev_select_spans(s->sel, &nw);
    r->selected = sel_cap >= 0 || nw != 1 || hull.from_ns != 0 || hull.to_ns <= end;
    if (snapshot_threads(s, o, end) != 0 ||
        !(o->caps = calloc((size_t)s->ncaps + 1, sizeof *o->caps))) {
        sched_result_destroy(r);
        return NULL;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i <= s->ncaps; i++) {
        const cap_slot *c = i < s->ncaps ? &s->caps[i] : &s->nocap;
        uint32_t capno = i < s->ncaps ? i : EL_NO_CAP;
        if (!c->seen || (sel_cap >= 0 && (uint32_t)sel_cap != capno))
            continue;
        cap_row(s, c, capno, end, r->total_ns, &o->caps[k]);
        r->running_ns += o->caps[k].running_ns;
        k++;
    }
    r->caps = o->caps;
    r->n_caps = k;
    return r;
}

void sched_result_destroy(sched_result *r)
{
    if (!r)
        return;
    struct sched_result_own *o = (struct sched_result_own *)r;
    free(o->threads);
    free(o->caps);
    free(o->labels);
    free(o);
}

/* ---- partials (the parallel read) ------------------------------------------------ */

static sched_summary *sched_fork(const sched_summary *s)
{
    if (!s || s->nomem)
        return NULL;
    sched_summary *q = sched_create();
    if (q) {
        q->partial = 1;
        q->sel = s->sel;
    }
    return q;
}

/* q's thread rows into p's: sums, the first label and creation, the last
 * finish and state in file order. to_p[i]: the row in p of q's row i. */
static int merge_threads(sched_summary *p, const sched_summary *q, uint32_t *to_p)
{
    for (size_t i = 0; i < q->nthreads; i++) {
        const thread_slot *qt = &q->threads[i];
        uint32_t row = thread_row(p, qt->r.id);
        if (row == NO_ROW)
            return -1;
        to_p[i] = row;
        thread_slot *pt = &p->threads[row];
        if (!pt->r.label && qt->r.label) {
            set_label(p, pt, qt->r.label, qt->r.label_len);
            if (p->nomem)
                return -1;
        }
        pt->r.caps |= qt->r.caps;
        pt->r.caps_over |= qt->r.caps_over;
        if (pt->r.created_ns == SCHED_NO_TIME)
            pt->r.created_ns = qt->r.created_ns;
        if (qt->r.finished_ns != SCHED_NO_TIME)
            pt->r.finished_ns = qt->r.finished_ns;
        pt->r.running_ns += qt->r.running_ns;
        pt->r.runs += qt->r.runs;
        for (int k = 0; k < SCHED_STOPS; k++)
            pt->r.stops[k] += qt->r.stops[k];
        pt->r.migrations += qt->r.migrations;
        if (qt->m.state != SCHED_UNKNOWN &&
            (pt->m.state == SCHED_UNKNOWN || qt->m.since >= pt->m.since))
            pt->m = qt->m;
        pt->inside |= qt->inside;
    }
    return 0;
}

/* q's capability after p's: the interval p left open ends at q's first
 * event, and q's state follows. */
static void merge_cap(sched_summary *p, cap_slot *pc, uint16_t capno, const cap_slot *qc,
                      const uint32_t *to_p)
{
    if (qc->synced) {
        if (!p->partial || pc->synced) {
            sched_span was = { pc->m.since, pc->m.thread, pc->m.state };
            cap_span(p, pc, capno, was, qc->first);
        } else {
            pc->synced = 1;
            pc->first = qc->first;
        }
        pc->m = qc->m;
        pc->row = qc->row == NO_ROW ? NO_ROW : to_p[qc->row];
    }
    pc->seen |= qc->seen;
    pc->running_ns += qc->running_ns;
    pc->gc_ns += qc->gc_ns;
    pc->runs += qc->runs;
}

static int sched_merge(sched_summary *p, const sched_summary *q)
{
    if (p->nomem || q->nomem)
        return -1;
    if (!p->sel)
        p->sel = q->sel;
    if (reserve_caps(p, q->ncaps) != 0)
        return -1;
    uint32_t *to_p = malloc((q->nthreads ? q->nthreads : 1) * sizeof *to_p);
    if (!to_p || merge_threads(p, q, to_p) != 0) {
        free(to_p);
        p->nomem = 1;
        return -1;
    }
    for (uint32_t i = 0; i < q->ncaps; i++)
        merge_cap(p, &p->caps[i], (uint16_t)i, &q->caps[i], to_p);
    merge_cap(p, &p->nocap, EL_NO_CAP, &q->nocap, to_p);
    free(to_p);
    p->has_events |= q->has_events;
    if (q->last_time > p->last_time)
        p->last_time = q->last_time;
    if (q->span_last > p->span_last)
        p->span_last = q->span_last;
    return 0;
}

/* ---- the driver --------------------------------------------------------------- */

static void *sched_op_snapshot(void *self) { return sched_snapshot(self); }
static void sched_op_release(void *snap) { sched_result_destroy(snap); }
static void *sched_op_fork(void *self) { return sched_fork(self); }
static int sched_op_merge(void *self, void *part) { return sched_merge(self, part); }
static void sched_op_drop(void *part) { sched_destroy(part); }

static int sched_op_holds(const void *self, char *buf, size_t size)
{
    const sched_summary *s = self;
    snprintf(buf, size, "the thread table holds %zu threads", s->nthreads);
    return s->nthreads != 0;
}

static const uint16_t sched_types[] = {
    EL_RUN_THREAD, EL_STOP_THREAD, EL_GC_START, EL_GC_END, EL_CREATE_THREAD,
    EL_THREAD_WAKEUP, EL_THREAD_RUNNABLE, EL_MIGRATE_THREAD, EL_THREAD_LABEL,
};

const ev_analysis_ops sched_analysis_ops = {
    .name = "threads",
    .types = sched_types,
    .num_types = sizeof sched_types / sizeof sched_types[0],
    .event = sched_op_event,
    .end = sched_op_end,
    .snapshot = sched_op_snapshot,
    .release = sched_op_release,
    .fork = sched_op_fork,
    .merge = sched_op_merge,
    .drop = sched_op_drop,
    .holds = sched_op_holds,
};
