/* The general hash table: see htab.h. */
#define _DEFAULT_SOURCE /* MADV_HUGEPAGE */
#include "util/htab.h"

#include "util/account.h"

#include <stdint.h>
#include <stdlib.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define HUGE_PAGE ((uintptr_t)2 << 20)

void tx_huge_hint(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes < 2 * HUGE_PAGE)
        return;
    uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t hi = ((uintptr_t)p + bytes) & ~(HUGE_PAGE - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

static void place(tx_htab_slot *slots, size_t cap, tx_htab_slot s)
{
    size_t k = s.hash & (cap - 1);
    while (slots[k].item)
        k = (k + 1) & (cap - 1);
    slots[k] = s;
}

/* Rehashes into `cap` slots from the stored hashes: no item is visited. */
static int resize(tx_htab *t, size_t cap)
{
    tx_htab_slot *s = tx_table_alloc(cap, sizeof *s);
    if (!s)
        return -1;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].item)
            place(s, cap, t->slots[i]);
    free(t->slots);
    t->slots = s;
    t->cap = cap;
    return 0;
}

int tx_htab_insert_charged(tx_htab *t, uint64_t hash, uint32_t item, ev_account *a,
                           int optional, size_t *grown)
{
    size_t now = tx_htab_growth(t), old = now ? t->cap * sizeof(tx_htab_slot) : 0;
    if (grown)
        *grown = 0;
    if (now && (optional ? ev_account_try(a, now) : ev_account_charge(a, now)) != 0)
        return -1;
    if (tx_htab_insert(t, hash, item) != 0) {
        if (now)
            ev_account_release(a, now);
        return -1;
    }
    if (now) {
        ev_account_release(a, old);
        if (grown)
            *grown = now - old;
    }
    return 0;
}

int tx_htab_reserve(tx_htab *t, size_t n)
{
    size_t cap = t->cap ? t->cap : 16;
    while (cap < 2 * n)
        cap *= 2;
    return cap == t->cap ? 0 : resize(t, cap);
}

int tx_htab_insert(tx_htab *t, uint64_t hash, uint32_t item)
{
    if ((t->count + 1) * 2 > t->cap && tx_htab_reserve(t, t->count + 1) != 0)
        return -1;
    place(t->slots, t->cap, (tx_htab_slot){ (uint32_t)hash, item + 1 });
    t->count++;
    return 0;
}

void tx_htab_free(tx_htab *t)
{
    free(t->slots);
    t->slots = NULL;
    t->cap = t->count = 0;
}
