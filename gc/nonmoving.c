/* The non-moving collector's syncs and concurrent collections, and the
 * RTS's tasks (gc/nonmoving.h). */
#include "nonmoving.h"

#include <stdlib.h>
#include <string.h>

#include "evprof/eventlog.h"

static int in_window(const ev_select *sel, uint64_t t)
{
    return !sel || ev_select_has(sel, t);
}

/* Room for one more of `size` bytes in *arr (n used, *cap allocated). */
static int grow(void **arr, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return 0;
    size_t m = *cap ? 2 * *cap : 16;
    void *a = realloc(*arr, m * size);
    if (!a)
        return -1;
    *arr = a;
    *cap = m;
    return 0;
}

/* ---- the non-moving collector ------------------------------------------ */

void gc_nonmoving_init_(gc_nonmoving *n, int partial)
{
    memset(n, 0, sizeof *n);
    n->partial = partial;
    n->known = !partial;
}

void gc_nonmoving_free_(gc_nonmoving *n)
{
    free(n->held);
    n->held = NULL;
    n->n_held = n->cap_held = 0;
}

int gc_nonmoving_copy_(gc_nonmoving *n, const gc_nonmoving *from)
{
    *n = *from;
    n->held = NULL;
    n->cap_held = 0;
    if (from->n_held) {
        if (!(n->held = malloc(from->n_held * sizeof *n->held)))
            return -1;
        memcpy(n->held, from->held, from->n_held * sizeof *n->held);
        n->cap_held = from->n_held;
    }
    return 0;
}

static void nm_hold(gc_nonmoving *n, uint16_t type, uint64_t t)
{
    if (n->n_held >= GC_NM_HELD_MAX) {
        n->overflow = 1;
        return;
    }
    if (grow((void **)&n->held, n->n_held, &n->cap_held, sizeof *n->held) != 0) {
        n->nomem = 1;
        return;
    }
    n->held[n->n_held++] = (gc_nm_held){ t, type };
}

/* The state machine, on a known state. A mark pass opens a collection;
 * the first of a sync's (doubled) begins opens the sync and the first
 * end closes it, as GHC's clock readings sit next to the first pair; the
 * sweep's end closes the collection. */
static void nm_apply(gc_nonmoving *n, const ev_select *sel, uint16_t type, uint64_t t)
{
    switch (type) {
    case EL_CONC_MARK_BEGIN:
        if (!n->in_coll) {
            n->in_coll = 1;
            n->synced = 0;
            n->coll_start = t;
        }
        break;
    case EL_CONC_SYNC_BEGIN:
        n->synced = 1;
        if (!n->in_sync) {
            n->in_sync = 1;
            n->sync_start = t;
        }
        break;
    case EL_CONC_SYNC_END:
        if (n->in_sync) {
            uint64_t d = t > n->sync_start ? t - n->sync_start : 0;
            n->in_sync = 0;
            if (in_window(sel, t)) {
                n->n_syncs++;
                n->sync_ns += d;
                if (d > n->sync_max_ns)
                    n->sync_max_ns = d;
            }
        }
        break;
    case EL_CONC_SWEEP_END:
        if (n->in_coll && n->synced) {
            uint64_t d = t > n->coll_start ? t - n->coll_start : 0;
            if (in_window(sel, t)) {
                n->n_colls++;
                n->coll_ns += d;
                if (d > n->coll_max_ns)
                    n->coll_max_ns = d;
            }
        }
        n->in_coll = n->synced = n->in_sync = 0;
        break;
    default:
        break;
    }
}

void gc_nonmoving_event_(gc_nonmoving *n, const ev_select *sel, uint16_t type, uint64_t t)
{
    n->n_events++;
    if (type == EL_CONC_MARK_BEGIN)
        n->n_mark_begin++;
    if (type != EL_CONC_MARK_BEGIN && type != EL_CONC_SYNC_BEGIN && type != EL_CONC_SYNC_END &&
        type != EL_CONC_SWEEP_END)
        return;
    if (!n->known) {
        /* a partial before its first sweep's end: what came before is
         * another range's */
        nm_hold(n, type, t);
        if (type == EL_CONC_SWEEP_END)
            n->known = 1;           /* from here on: no collection open */
        return;
    }
    nm_apply(n, sel, type, t);
}

int gc_nonmoving_merge_(gc_nonmoving *p, const gc_nonmoving *q, const ev_select *sel)
{
    if (p->nomem || p->overflow || q->nomem || q->overflow)
        return -1;
    for (size_t i = 0; i < q->n_held; i++) {
        if (p->known)
            nm_apply(p, sel, q->held[i].type, q->held[i].time);
        else
            nm_hold(p, q->held[i].type, q->held[i].time);
    }
    if (q->known) {
        /* q's held events ended with a sweep's end: p is where q began
         * knowing, and q's state is the one after its events */
        p->known = 1;
        p->in_coll = q->in_coll;
        p->synced = q->synced;
        p->in_sync = q->in_sync;
        p->coll_start = q->coll_start;
        p->sync_start = q->sync_start;
    }
    p->n_syncs += q->n_syncs;
    p->n_colls += q->n_colls;
    p->sync_ns += q->sync_ns;
    p->coll_ns += q->coll_ns;
    if (q->sync_max_ns > p->sync_max_ns)
        p->sync_max_ns = q->sync_max_ns;
    if (q->coll_max_ns > p->coll_max_ns)
        p->coll_max_ns = q->coll_max_ns;
    p->n_events += q->n_events;
    p->n_mark_begin += q->n_mark_begin;
    return p->nomem || p->overflow ? -1 : 0;
}

/* ---- tasks -------------------------------------------------------------- */

void gc_tasks_init_(gc_tasks *t, int partial)
{
    memset(t, 0, sizeof *t);
    t->partial = partial;
}

void gc_tasks_free_(gc_tasks *t)
{
    free(t->held);
    t->held = NULL;
    t->n_held = t->cap_held = 0;
}

int gc_tasks_copy_(gc_tasks *t, const gc_tasks *from)
{
    *t = *from;
    t->held = NULL;
    t->cap_held = 0;
    if (from->n_held) {
        if (!(t->held = malloc(from->n_held * sizeof *t->held)))
            return -1;
        memcpy(t->held, from->held, from->n_held * sizeof *t->held);
        t->cap_held = from->n_held;
    }
    return 0;
}

static void task_apply(gc_tasks *t, uint16_t type, uint64_t task, uint64_t tid)
{
    switch (type) {
    case EL_OSPROCESS_PID:
        if (!t->has_pid) {          /* the first process's (a merged log holds several) */
            t->has_pid = 1;
            t->pid = tid;
        }
        break;
    case EL_TASK_CREATE:
        if (t->has_pid && tid == t->pid) {
            /* the main thread calling into Haskell: its bound task */
            t->has_main = 1;
            t->main_task = task;
            t->main_creates++;
        } else {
            t->workers++;
            if (++t->live > t->peak)
                t->peak = t->live;
        }
        break;
    case EL_TASK_DELETE:
        if (!(t->has_main && task == t->main_task) && t->live > 0)
            t->live--;
        break;
    default:
        break;
    }
}

static void task_hold(gc_tasks *t, uint16_t type, uint64_t task, uint64_t tid)
{
    if (t->n_held >= GC_NM_HELD_MAX) {
        t->overflow = 1;
        return;
    }
    if (grow((void **)&t->held, t->n_held, &t->cap_held, sizeof *t->held) != 0) {
        t->nomem = 1;
        return;
    }
    t->held[t->n_held++] = (gc_task_held){ task, tid, type };
}

void gc_tasks_event_(gc_tasks *t, uint16_t type, uint64_t task, uint64_t tid)
{
    t->n_events += type != EL_OSPROCESS_PID;
    if (t->partial)
        task_hold(t, type, task, tid);
    else
        task_apply(t, type, task, tid);
}

int gc_tasks_merge_(gc_tasks *p, const gc_tasks *q)
{
    if (p->nomem || p->overflow || q->nomem || q->overflow)
        return -1;
    p->n_events += q->n_events;
    for (size_t i = 0; i < q->n_held; i++) {
        const gc_task_held *h = &q->held[i];
        if (p->partial)
            task_hold(p, h->type, h->task, h->tid);
        else
            task_apply(p, h->type, h->task, h->tid);
    }
    return p->nomem || p->overflow ? -1 : 0;
}
