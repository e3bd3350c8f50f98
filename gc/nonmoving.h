/* gc/: the non-moving collector and the RTS's tasks, private to summary.c.
 *
 * Both come from events GHC writes outside the capability blocks, in one
 * buffer and so in time order in the file (docs/GC.md says how each of
 * GHC's figures follows from them):
 *
 * - the non-moving collector's mark thread (+RTS --nonmoving-gc):
 *   CONC_MARK_BEGIN/END for each mark pass, CONC_SYNC_BEGIN/END around
 *   each post-mark synchronisation (GHC writes each twice, nested), and
 *   CONC_SWEEP_BEGIN/END. A concurrent collection runs from its first
 *   mark pass to its sweep's end; it is concurrent when it synchronised.
 * - TASK_CREATE/TASK_DELETE: a worker task's thread writes TASK_CREATE
 *   when it starts and TASK_DELETE when it stops; a thread that calls
 *   into Haskell (the program's main thread, whose kernel thread id is
 *   the process id, OSPROCESS_PID) writes them at each outermost call.
 *
 * A partial of the parallel read does not know the collector's state
 * before its first sweep's end: it holds the collector's events until
 * then (a collection's worth), and gc_nonmoving_merge_ replays them.
 * It holds every task event (a run has a few per worker): a log can hold
 * several processes, and which one is the main thread's is the first
 * process id's, known only in file order. */
#ifndef EVPROF_GC_NONMOVING_H
#define EVPROF_GC_NONMOVING_H

#include <stddef.h>
#include <stdint.h>

#include "evprof/select.h"

/* events a partial may hold (a real log holds far fewer): past it, the
 * merge fails and the read is sequential */
#define GC_NM_HELD_MAX 65536

typedef struct gc_nm_held {
    uint64_t time;
    uint16_t type;
} gc_nm_held;

typedef struct gc_nonmoving {
    int partial;
    int known;                      /* the state below (a partial: after its first sweep) */
    uint8_t in_coll, synced, in_sync;
    uint64_t coll_start, sync_start;
    /* in the windows: a sync by its end, a concurrent collection by its
     * sweep's end */
    uint32_t n_syncs, n_colls;
    uint64_t sync_ns, sync_max_ns, coll_ns, coll_max_ns;
    uint64_t n_events, n_mark_begin;    /* the whole log */
    gc_nm_held *held;
    size_t n_held, cap_held;
    int overflow, nomem;
} gc_nonmoving;

void gc_nonmoving_init_(gc_nonmoving *n, int partial);
void gc_nonmoving_free_(gc_nonmoving *n);
/* A copy of from into n (its held events too). 0, or -1 without memory. */
int gc_nonmoving_copy_(gc_nonmoving *n, const gc_nonmoving *from);
/* One event of types 200..206 at time t (sel: the read's selection). */
void gc_nonmoving_event_(gc_nonmoving *n, const ev_select *sel, uint16_t type, uint64_t t);
/* q's events after p's. 0, or -1 (no memory, too many held). */
int gc_nonmoving_merge_(gc_nonmoving *p, const gc_nonmoving *q, const ev_select *sel);

typedef struct gc_task_held {
    uint64_t task, tid;             /* OSPROCESS_PID: tid is the pid */
    uint16_t type;
} gc_task_held;

typedef struct gc_tasks {
    int partial;
    int has_pid, has_main;
    uint64_t pid, main_task;
    uint32_t workers, main_creates;
    uint64_t n_events;
    uint32_t live, peak;            /* workers alive, the most alive at once */
    gc_task_held *held;
    size_t n_held, cap_held;
    int overflow, nomem;
} gc_tasks;

void gc_tasks_init_(gc_tasks *t, int partial);
void gc_tasks_free_(gc_tasks *t);
int gc_tasks_copy_(gc_tasks *t, const gc_tasks *from);
/* OSPROCESS_PID (tid: the pid), TASK_CREATE, TASK_DELETE. */
void gc_tasks_event_(gc_tasks *t, uint16_t type, uint64_t task, uint64_t tid);
int gc_tasks_merge_(gc_tasks *p, const gc_tasks *q);

#endif
