/* evprof: a memory budget that analyses charge as their aggregates grow.
 *
 * One budget is shared by every analysis of a read (and by the worker
 * threads of a parallel read: charges are C11 atomics). An analysis
 * charges where its aggregate grows (an array doubled, a table resized, a
 * new arena chunk), never per event, and gives the bytes back when it
 * frees them. A charge that would pass the limit fails, charges nothing
 * and marks the budget as reached; the analysis then returns non-zero
 * from its `event` and the driver stops the read (ev_stream.stopped). The
 * front end says what the aggregate holds and exits: never an OOM kill.
 *
 *     ev_budget *b = ev_budget_create(256u << 20);
 *     ev_driver_opts o; ev_driver_opts_init(&o); o.budget = b;
 *     ... ev_driver_create(&o), attach, run ...
 *     if (ev_budget_reached(b)) ... the read stopped at the limit ...
 *     ev_budget_destroy(b);     // after the analyses that charged it
 *
 * A NULL budget is no limit: every charge succeeds.
 */
#ifndef EVPROF_BUDGET_H
#define EVPROF_BUDGET_H

#include <stddef.h>
#include <stdint.h>

#include "evprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ev_budget ev_budget;

/* limit: bytes; 0 is no limit. NULL when out of memory. */
EVPROF_API ev_budget *ev_budget_create(uint64_t limit);
EVPROF_API void ev_budget_destroy(ev_budget *b);      /* accepts NULL */

/* Adds `bytes` to what is used. Returns 0, or -1 when that would pass the
 * limit: nothing is charged and the budget is marked reached (sticky). */
EVPROF_API int ev_budget_charge(ev_budget *b, size_t bytes);
/* The same for memory the analysis can do without (a cache): a charge
 * that does not fit returns -1 and leaves the budget unmarked. */
EVPROF_API int ev_budget_try(ev_budget *b, size_t bytes);
/* Gives back bytes charged before. */
EVPROF_API void ev_budget_release(ev_budget *b, size_t bytes);

EVPROF_API uint64_t ev_budget_limit(const ev_budget *b);   /* 0: none (also for NULL) */
EVPROF_API uint64_t ev_budget_used(const ev_budget *b);    /* bytes charged now */
EVPROF_API uint64_t ev_budget_peak(const ev_budget *b);    /* the most charged at once */
EVPROF_API int ev_budget_reached(const ev_budget *b);      /* a charge has failed */

/* The default limit: half of the physical memory (sysconf), or 0 when
 * unknown. */
EVPROF_API uint64_t ev_budget_default_limit(void);

/* A size as people write it: decimal digits, optionally followed by K, M
 * or G (binary: 1024, 1024^2, 1024^3; either case, an optional trailing
 * "B" or "iB": "256M", "256MiB", "1g"). Returns 0 with *bytes set, or -1
 * (empty, a sign, a fraction, another suffix, an overflow, or 0). */
EVPROF_API int ev_budget_parse_size(const char *text, uint64_t *bytes);

#ifdef __cplusplus
}
#endif
#endif
