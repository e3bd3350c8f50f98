/* util/idmap.h: ids to values, an array for the dense ids and a table for
 * the others. */
#include "util/idmap.h"

#include <stdlib.h>
#include <string.h>

#include "util/account.h"
#include "util/htab.h"

static int charge(struct ev_account *a, size_t bytes)
{
    return a ? ev_account_charge(a, bytes) : 0;
}

static void release(struct ev_account *a, size_t bytes)
{
    if (a)
        ev_account_release(a, bytes);
}

static void place(tx_idmap_slot *s, size_t cap, tx_idmap_slot e)
{
    size_t k = (size_t)hash_mix64(e.id) & (cap - 1);
    while (s[k].value)
        k = (k + 1) & (cap - 1);
    s[k] = e;
}

/* The table made anew with `cap` slots from the old one's ids that are
 * not below the array's end (the others went into the array). */
static int rebuild(tx_idmap *m, size_t cap, struct ev_account *a)
{
    tx_idmap_slot *s = NULL;
    if (cap) {
        if (charge(a, cap * sizeof *s) != 0)
            return -1;
        if (!(s = tx_table_alloc(cap, sizeof *s))) {
            release(a, cap * sizeof *s);
            return -1;
        }
    }
    size_t n = 0;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].value && m->slots[i].id >= m->dense_cap) {
            place(s, cap, m->slots[i]);
            n++;
        }
    free(m->slots);
    release(a, m->cap * sizeof *s);
    m->slots = s;
    m->cap = cap;
    m->sparse = n;
    return 0;
}

/* The array grown to `cap` ids; the table's ids below its new end move in. */
static int grow_dense(tx_idmap *m, size_t cap, struct ev_account *a)
{
    size_t more = cap - m->dense_cap;
    if (charge(a, more * sizeof *m->dense) != 0)
        return -1;
    uint32_t *d = realloc(m->dense, cap * sizeof *d);
    if (!d) {
        release(a, more * sizeof *d);
        return -1;
    }
    memset(d + m->dense_cap, 0, more * sizeof *d);
    size_t moved = 0;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].value && m->slots[i].id < cap) {
            d[m->slots[i].id] = m->slots[i].value;
            moved++;
        }
    m->dense = d;
    m->dense_cap = cap;
    /* the table without them (refused, it keeps them too, never read) */
    if (moved)
        (void)rebuild(m, m->sparse > moved ? m->cap : 0, a);
    return 0;
}

int tx_idmap_put(tx_idmap *m, uint32_t id, uint32_t value, struct ev_account *a)
{
    if (value == TX_IDMAP_NONE)
        return -1;
    if (id >= m->dense_cap && id < 4 * ((uint64_t)m->count + 1) + TX_IDMAP_DENSE) {
        size_t cap = m->dense_cap ? 2 * m->dense_cap : TX_IDMAP_DENSE;
        while (cap <= id)
            cap *= 2;
        if (grow_dense(m, cap, a) != 0)
            return -1;
    }
    if (id < m->dense_cap) {
        m->count += !m->dense[id];
        m->dense[id] = value + 1;
        return 0;
    }
    if (m->sparse) {
        size_t mask = m->cap - 1;
        for (size_t k = (size_t)hash_mix64(id) & mask; m->slots[k].value; k = (k + 1) & mask)
            if (m->slots[k].id == id) {
                m->slots[k].value = value + 1;
                return 0;
            }
    }
    if ((m->sparse + 1) * 2 > m->cap && rebuild(m, m->cap ? 2 * m->cap : 16, a) != 0)
        return -1;
    place(m->slots, m->cap, (tx_idmap_slot){ id, value + 1 });
    m->sparse++;
    m->count++;
    return 0;
}

int tx_idmap_reserve(tx_idmap *m, uint32_t max_id, size_t n, struct ev_account *a)
{
    if (max_id < m->dense_cap || max_id >= 4 * (uint64_t)n + TX_IDMAP_DENSE)
        return 0;
    return grow_dense(m, (size_t)max_id + 1, a);
}

void tx_idmap_clear(tx_idmap *m)
{
    if (m->dense)
        memset(m->dense, 0, m->dense_cap * sizeof *m->dense);
    if (m->slots)
        memset(m->slots, 0, m->cap * sizeof *m->slots);
    m->sparse = m->count = 0;
}

void tx_idmap_free(tx_idmap *m)
{
    free(m->dense);
    free(m->slots);
    memset(m, 0, sizeof *m);
}
