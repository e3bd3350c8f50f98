/* evprof: what GHC's scheduler did (`evprof threads`).
 *
 * Per capability: running a Haskell thread (RUN_THREAD .. STOP_THREAD),
 * collecting (GC_START .. GC_END) or idle. Per Haskell thread: created,
 * running on a capability, stopped for a reason (STOP_THREAD's status:
 * a heap check, a stack overflow, a yield, blocked on an MVar, an STM
 * retry, a black hole, a delay, I/O, a throwTo, a foreign call, ...),
 * woken, migrated, finished, and its label (THREAD_LABEL). The states
 * and their moves are described once (sched/machine.h); the GC summary's
 * mutator time and the page's timeline lanes step the same machines.
 *
 *     sched_summary *s = sched_create();
 *     attach &sched_analysis_ops (s) to a driver and run it
 *     sched_result *r = sched_snapshot(s);         // a copy; s goes on
 *     sched_report_text(r, stdout);
 *     sched_result_destroy(r);
 *     sched_destroy(s);
 *
 * A thread's running time is its capabilities' running intervals: the
 * interval a capability's RUN_THREAD opens is the thread's until the
 * capability's next scheduler event (its STOP_THREAD), so the threads'
 * running times add up to the capabilities' (the GC summary's per
 * capability MUT time) exactly. Counts and times are those inside the
 * driver's selection (time windows: a running interval clipped to them;
 * a capability: only its intervals and events). GHC's eventlog carries no
 * allocation per thread (only per capability, HEAP_ALLOCATED): there is
 * none here.
 *
 * Memory: about 120 bytes a thread, its label once; charged to the
 * read's budget, the table grown by doubling (nothing allocated per
 * event).
 */
#ifndef EVPROF_SCHED_H
#define EVPROF_SCHED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evprof/driver.h"
#include "evprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The states of a capability (idle, running, GC) and of a thread
 * (runnable, running, blocked, finished); UNKNOWN before the first
 * event that says. */
typedef enum sched_state {
    SCHED_UNKNOWN = 0,
    SCHED_IDLE,             /* a capability with no thread and no collection */
    SCHED_RUNNING,          /* a capability running a thread; a thread running */
    SCHED_GC,               /* a capability collecting */
    SCHED_RUNNABLE,         /* a thread created, stopped by a heap check, a stack
                               overflow or a yield, or woken */
    SCHED_BLOCKED,          /* a thread blocked (or in a foreign call) */
    SCHED_FINISHED,         /* a thread finished */
    SCHED_STATES
} sched_state;

/* STOP_THREAD's status as GHC writes it (rts/Schedule.c: 1-5 StgRun's
 * return codes, 6 a safe foreign call, 6 + the TSO's why_blocked of
 * rts/include/rts/Constants.h for a thread that blocked). ghc-events
 * names 14-18 after an older numbering. */
enum {
    SCHED_STATUS_NONE = 0,
    SCHED_STATUS_HEAP_OVERFLOW = 1,
    SCHED_STATUS_STACK_OVERFLOW = 2,
    SCHED_STATUS_YIELDING = 3,
    SCHED_STATUS_BLOCKED = 4,           /* not written since GHC 7.2: 6 + why */
    SCHED_STATUS_FINISHED = 5,
    SCHED_STATUS_FOREIGN_CALL = 6,
    SCHED_STATUS_MVAR = 7,              /* BlockedOnMVar (why 1) */
    SCHED_STATUS_BLACK_HOLE = 8,        /* BlockedOnBlackHole (2): the owner in the event */
    SCHED_STATUS_READ = 9,              /* BlockedOnRead (3) */
    SCHED_STATUS_WRITE = 10,            /* BlockedOnWrite (4) */
    SCHED_STATUS_DELAY = 11,            /* BlockedOnDelay (5) */
    SCHED_STATUS_STM = 12,              /* BlockedOnSTM (6): retry */
    SCHED_STATUS_DO_PROC = 13,          /* BlockedOnDoProc (7, Windows) */
    SCHED_STATUS_CCALL = 16,            /* BlockedOnCCall (10) */
    SCHED_STATUS_CCALL_INTERRUPTIBLE = 17,
    SCHED_STATUS_THROW_TO = 18,         /* BlockedOnMsgThrowTo (12) */
    SCHED_STATUS_MIGRATING = 19,        /* ThreadMigrating (13) */
    SCHED_STATUS_MVAR_READ = 20,        /* BlockedOnMVarRead (14) */
};

#ifdef __cplusplus
}
#endif
#endif
