/* What one aggregate has charged to a memory budget (budget.h): the
 * budget, the bytes charged, and whether a charge was refused. The time
 * profile, the heap profile and the ticky counters each keep one. */
#ifndef EVPROF_UTIL_ACCOUNT_H
#define EVPROF_UTIL_ACCOUNT_H

#include <stddef.h>

#include "evprof/budget.h"

typedef struct ev_account {
    ev_budget *budget;          /* NULL: no limit */
    size_t charged;
    int refused;                /* a charge failed: the aggregate is cut */
} ev_account;

/* Charges bytes about to be allocated; -1 (and refused) when the budget
 * refuses them. */
static inline int ev_account_charge(ev_account *a, size_t bytes)
{
    if (ev_budget_charge(a->budget, bytes) != 0) {
        a->refused = 1;
        return -1;
    }
    a->charged += bytes;
    return 0;
}

/* A charge the aggregate can do without (a cache): refused, it is only
 * not made, and neither the account nor the budget is marked. */
static inline int ev_account_try(ev_account *a, size_t bytes)
{
    if (ev_budget_try(a->budget, bytes) != 0)
        return -1;
    a->charged += bytes;
    return 0;
}

static inline void ev_account_release(ev_account *a, size_t bytes)
{
    ev_budget_release(a->budget, bytes);
    a->charged -= bytes;
}

/* Moves everything charged to budget b. -1 when b refuses it: then
 * nothing is charged anywhere (no budget, refused set). */
static inline int ev_account_move(ev_account *a, ev_budget *b)
{
    if (a->budget == b)
        return 0;
    ev_budget_release(a->budget, a->charged);
    a->budget = b;
    if (ev_budget_charge(b, a->charged) != 0) {
        a->budget = NULL;
        a->refused = 1;
        return -1;
    }
    return 0;
}

#endif
