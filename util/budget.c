/* The memory budget (include/evprof/budget.h): a limit and two atomic
 * counters, so that the worker threads of a parallel read may charge the
 * same budget. */
#include "evprof/budget.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

struct ev_budget {
    uint64_t limit;                 /* 0: none */
    _Atomic uint64_t used;
    _Atomic uint64_t peak;
    atomic_int reached;
};

ev_budget *ev_budget_create(uint64_t limit)
{
    ev_budget *b = malloc(sizeof *b);

    if (!b)
        return NULL;
    b->limit = limit;
    atomic_init(&b->used, 0);
    atomic_init(&b->peak, 0);
    atomic_init(&b->reached, 0);
    return b;
}

void ev_budget_destroy(ev_budget *b)
{
    free(b);
}

static int charge(ev_budget *b, size_t bytes, int mark)
{
    if (!b)
        return 0;
    uint64_t old = atomic_load_explicit(&b->used, memory_order_relaxed), now;
    do {
        now = old + bytes;
        if (now < old || (b->limit && now > b->limit)) {
            if (mark)
                atomic_store(&b->reached, 1);
            return -1;
        }
    } while (!atomic_compare_exchange_weak(&b->used, &old, now));
    uint64_t peak = atomic_load_explicit(&b->peak, memory_order_relaxed);
    while (now > peak && !atomic_compare_exchange_weak(&b->peak, &peak, now))
        ;
    return 0;
}

int ev_budget_charge(ev_budget *b, size_t bytes) { return charge(b, bytes, 1); }
int ev_budget_try(ev_budget *b, size_t bytes) { return charge(b, bytes, 0); }

void ev_budget_release(ev_budget *b, size_t bytes)
{
    if (b)
        atomic_fetch_sub(&b->used, (uint64_t)bytes);
}

uint64_t ev_budget_limit(const ev_budget *b) { return b ? b->limit : 0; }

uint64_t ev_budget_used(const ev_budget *b)
{
    return b ? atomic_load(&((ev_budget *)b)->used) : 0;
}

uint64_t ev_budget_peak(const ev_budget *b)
{
    return b ? atomic_load(&((ev_budget *)b)->peak) : 0;
}

int ev_budget_reached(const ev_budget *b)
{
    return b ? atomic_load(&((ev_budget *)b)->reached) : 0;
}

uint64_t ev_budget_default_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || size <= 0)
        return 0;
    return (uint64_t)pages * (uint64_t)size / 2;
}

int ev_budget_parse_size(const char *text, uint64_t *bytes)
{
    const char *c = text;
    uint64_t v = 0;

    if (!c || *c < '0' || *c > '9')
        return -1;
    for (; *c >= '0' && *c <= '9'; c++) {
        if (v > (UINT64_MAX - 9) / 10)
            return -1;
        v = v * 10 + (uint64_t)(*c - '0');
    }
    unsigned shift = 0;
    switch (*c) {
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    default: break;
    }
    if (shift) {
        c++;
        if (*c == 'i' && c[1] == 'B')
            c += 2;
        else if (*c == 'B' || *c == 'b')
            c++;
    } else if (*c == 'B' || *c == 'b') {
        c++;
    }
    if (*c != '\0' || v == 0 || v > (UINT64_MAX >> shift))
        return -1;
    *bytes = v << shift;
    return 0;
}
