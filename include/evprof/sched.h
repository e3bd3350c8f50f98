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
 * Memory: about 150 bytes a thread, its label once; charged to the
 * read's budget, the table grown by doubling (nothing allocated per
 * event).
 */
#ifndef EVPROF_SCHED_H
#define EVPROF_SCHED_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evprof/format.h"
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

/* Why threads stopped, the statuses grouped as the table's columns. */
typedef enum sched_stop {
    SCHED_STOP_HEAP,        /* heap overflow: a heap check (nursery full, GC) */
    SCHED_STOP_STACK,       /* stack overflow: the stack grows */
    SCHED_STOP_YIELD,       /* yielding: the time slice or a context switch */
    SCHED_STOP_FOREIGN,     /* a safe foreign call */
    SCHED_STOP_MVAR,        /* blocked on an MVar (take, put, read) */
    SCHED_STOP_BLACK_HOLE,  /* blocked on a black hole (a thunk another thread evaluates) */
    SCHED_STOP_STM,         /* blocked in an STM retry */
    SCHED_STOP_DELAY,       /* blocked in threadDelay */
    SCHED_STOP_IO,          /* blocked on I/O (read, write, a Windows process) */
    SCHED_STOP_THROW_TO,    /* blocked in throwTo */
    SCHED_STOP_FINISHED,    /* finished */
    SCHED_STOP_OTHER,       /* any other status (0, 4, a foreign call's blocked
                               variants, migrating, unknown) */
    SCHED_STOPS
} sched_stop;

/* The column a STOP_THREAD status counts in. */
EVPROF_API sched_stop sched_stop_of(uint16_t status);
/* Short name ("heap", "mvar", "stm", ...: the table's header, JSON's key),
 * and the words for it ("blocked in an STM retry"); NULL out of range. */
EVPROF_API const char *sched_stop_name(sched_stop k);
EVPROF_API const char *sched_stop_words(sched_stop k);
/* "idle", "running", ...; NULL out of range. */
EVPROF_API const char *sched_state_name(sched_state s);

typedef struct sched_summary sched_summary;

EVPROF_API sched_summary *sched_create(void);           /* NULL: no memory */
EVPROF_API void sched_destroy(sched_summary *s);        /* accepts NULL */

/* As an analysis of the driver (mergeable: the parallel read); its
 * snapshot is a sched_result (release: sched_result_destroy). */
EVPROF_API extern const ev_analysis_ops sched_analysis_ops;

#define SCHED_NO_TIME UINT64_MAX

/* One capability, its times inside the selection. */
typedef struct sched_cap_row {
    uint32_t cap;                   /* EL_NO_CAP: events outside capability blocks */
    uint64_t running_ns;            /* running threads */
    uint64_t gc_ns;                 /* GC_START .. GC_END */
    uint64_t idle_ns;               /* the rest of the selection */
    uint64_t runs;                  /* RUN_THREAD events */
    sched_state state;              /* now: idle, running, GC (unknown: no event) */
    uint32_t thread;                /* now running */
} sched_cap_row;

/* One Haskell thread. */
typedef struct sched_thread_row {
    uint32_t id;
    const char *label;              /* THREAD_LABEL's (the first), NUL-terminated;
                                       NULL: none */
    uint32_t label_len;
    uint64_t caps;                  /* bit c: it ran on capability c (c < 64) */
    int caps_over;                  /* it ran on a capability 64 or above, or outside
                                       capability blocks */
    uint64_t created_ns;            /* CREATE_THREAD's time; SCHED_NO_TIME: not in the log */
    uint64_t finished_ns;           /* its STOP_THREAD with status finished; SCHED_NO_TIME */
    uint64_t running_ns;            /* inside the selection */
    uint64_t runs;                  /* RUN_THREAD events inside the selection */
    uint32_t stops[SCHED_STOPS];    /* STOP_THREAD events inside, by reason */
    uint32_t migrations;            /* MIGRATE_THREAD events inside */
    sched_state state;              /* now */
} sched_thread_row;

typedef struct sched_result {
    /* the threads with an event or running time inside the selection, by id */
    const sched_thread_row *threads;
    size_t n_threads;
    size_t threads_seen;            /* every thread the log names */
    /* the capabilities with a scheduler event, by number (EL_NO_CAP last);
     * with a capability selected, only that one */
    const sched_cap_row *caps;
    uint32_t n_caps;
    uint64_t running_ns;            /* the capabilities' running time, summed */
    uint64_t total_ns;              /* the selection's length, clipped to the log */
    uint64_t log_end_ns;            /* the last event's time */
    uint64_t stops[SCHED_STOPS];    /* the threads' stops, summed */
    int has_events;                 /* any scheduler event at all (a -l log has them;
                                       -l-s turns them off) */
    int selected;                   /* a selection (time windows or a capability) */
} sched_result;

EVPROF_API sched_result *sched_snapshot(const sched_summary *s);   /* NULL: no memory */
EVPROF_API void sched_result_destroy(sched_result *r);             /* accepts NULL */

/* `evprof threads`: the text table (one row a thread, then one a
 * capability) and its JSON. `source` names the log in the JSON (NULL:
 * none). 0, or -1 on a write error. */
EVPROF_API int sched_report_text(const sched_result *r, FILE *out);
EVPROF_API int sched_report_json(const sched_result *r, const char *source, FILE *out);
/* The formats (evprof/format.h): "text" and "json"; a row's writer takes
 * a sched_result and, as its options, the log's name (const char *, NULL:
 * none). */
EVPROF_API const ev_format *sched_formats(size_t *count);

#ifdef __cplusplus
}
#endif
#endif
