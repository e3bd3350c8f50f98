/* The scheduler's states, described once (private to the library): what
 * a capability and a Haskell thread are doing, as GHC's scheduler events
 * move them. The GC summary's mutator time (gc/summary.c), the page's
 * timeline lanes (html/timeline.c) and `evprof threads` (sched/sched.c)
 * step these machines and take the interval each step closes; each
 * decides what an interval is worth (a sum clipped to the selection, a
 * spread over bins, a thread's running time).
 *
 * A capability:      RUN_THREAD   -> running (that thread)
 *                    STOP_THREAD  -> idle
 *                    GC_START     -> GC
 *                    GC_END       -> idle
 * A thread:          CREATE_THREAD -> runnable
 *                    RUN_THREAD    -> running
 *                    STOP_THREAD   -> finished (status 5), blocked (4, 6
 *                                     and up: a foreign call, 6 + GHC's
 *                                     why_blocked), else runnable (heap or
 *                                     stack overflow, a yield)
 *                    THREAD_WAKEUP, THREAD_RUNNABLE -> runnable, when blocked
 * Before its first event a machine is in no state (SCHED_UNKNOWN): a
 * partial of the parallel read starts there, in the middle of the log.
 *
 * Each step closes the interval [from, t) of the state left, and the
 * state starts at t, whatever the order of the two times (an interval
 * that would go back in time is empty). A capability writes its own
 * blocks, so its events come in time order and its intervals are exact
 * in file order. A thread's events come from several capabilities (its
 * STOP_THREAD on one, the wake-up from another, RUN_THREAD on a third),
 * which file order does not interleave by time: its running intervals
 * are exact (RUN_THREAD and STOP_THREAD on one capability), its blocked
 * and runnable intervals only in a time-ordered read (EV_ORDERED).
 *
 * Inline: every RUN_THREAD and STOP_THREAD of a log comes here, most of
 * a -l log's events. */
#ifndef EVPROF_SCHED_MACHINE_H
#define EVPROF_SCHED_MACHINE_H

#include <stdint.h>

#include "evprof/eventlog.h"
#include "evprof/sched.h"

/* What a step left: the state, its start, and (a capability running)
 * the thread. state SCHED_UNKNOWN: nothing to count (the machine's
 * first event, or an event that moved nothing). */
typedef struct sched_span {
    uint64_t from;
    uint32_t thread;
    uint8_t state;
} sched_span;

typedef struct sched_cap {
    uint64_t since;
    uint32_t thread;        /* SCHED_RUNNING: the thread it runs */
    uint8_t state;          /* enum sched_cap_state */
} sched_cap;

typedef struct sched_thread {
    uint64_t since;
    uint8_t state;          /* enum sched_thread_state */
} sched_thread;

/* The state the event of `type` moves its capability to, or
 * SCHED_UNKNOWN when it moves none. */
static inline uint8_t sched_cap_next(uint16_t type)
{
    switch (type) {
    case EL_RUN_THREAD:
        return SCHED_RUNNING;
    case EL_GC_START:
        return SCHED_GC;
    case EL_STOP_THREAD:
    case EL_GC_END:
        return SCHED_IDLE;
    default:
        return SCHED_UNKNOWN;
    }
}

/* A capability's event at t (`thread`: RUN_THREAD's). */
static inline sched_span sched_cap_step(sched_cap *c, uint16_t type, uint64_t t,
                                        uint32_t thread)
{
    sched_span was = { c->since, c->thread, c->state };
    uint8_t next = sched_cap_next(type);
    if (next == SCHED_UNKNOWN) {
        was.state = SCHED_UNKNOWN;
        return was;
    }
    c->state = next;
    c->thread = next == SCHED_RUNNING ? thread : 0;
    c->since = t;
    return was;
}

/* The log ends at t: the interval open on c, which stays in its state
 * (from t on). */
static inline sched_span sched_cap_close(sched_cap *c, uint64_t t)
{
    sched_span was = { c->since, c->thread, c->state };
    c->since = t;
    return was;
}

/* The state STOP_THREAD's status leaves its thread in (GHC's
 * rts/Schedule.c writes 1-5, the StgRun return codes; 6 for a safe
 * foreign call; 6 + why_blocked for a thread that blocked). */
static inline uint8_t sched_stop_state(uint16_t status)
{
    if (status == SCHED_STATUS_FINISHED)
        return SCHED_FINISHED;
    if (status == SCHED_STATUS_BLOCKED || status >= SCHED_STATUS_FOREIGN_CALL)
        return SCHED_BLOCKED;
    return SCHED_RUNNABLE;
}

/* A thread's event at t (`status`: STOP_THREAD's). */
static inline sched_span sched_thread_step(sched_thread *th, uint16_t type, uint64_t t,
                                           uint16_t status)
{
    sched_span was = { th->since, 0, th->state };
    uint8_t next;
    switch (type) {
    case EL_CREATE_THREAD:
        next = SCHED_RUNNABLE;
        break;
    case EL_RUN_THREAD:
        next = SCHED_RUNNING;
        break;
    case EL_STOP_THREAD:
        next = sched_stop_state(status);
        break;
    case EL_THREAD_WAKEUP:
    case EL_THREAD_RUNNABLE:
        /* woken while not blocked moves nothing */
        next = th->state == SCHED_BLOCKED ? SCHED_RUNNABLE : SCHED_UNKNOWN;
        break;
    default:
        next = SCHED_UNKNOWN;
        break;
    }
    if (next == SCHED_UNKNOWN) {
        was.state = SCHED_UNKNOWN;
        return was;
    }
    th->state = next;
    th->since = t;
    return was;
}

static inline sched_span sched_thread_close(sched_thread *th, uint64_t t)
{
    sched_span was = { th->since, 0, th->state };
    th->since = t;
    return was;
}

#endif
