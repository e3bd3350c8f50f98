/* The one map from u32 ids to u32 values (private to the library): GHC's
 * cost-centre ids to a table's indices, a later log's ids to the first
 * log's, thread ids to rows.
 *
 * GHC numbers what it names from 1 up, so an id below a few times the
 * number of ids mapped (TX_IDMAP_DENSE) gets a slot in a plain array: a
 * lookup is one load, 4 bytes an id. Other ids (hand-made or hostile
 * logs) go to an open-addressing table of (id, value) slots, at most half
 * full; when the array grows past some of them they move into it. With
 * 10M cost-centre definitions a hash table took 23 % of the read in cache
 * misses; the array takes none of them.
 *
 *     tx_idmap m = { 0 };
 *     if (tx_idmap_put(&m, id, index, &account) != 0) ...    // out of memory
 *     uint32_t i = tx_idmap_get(&m, id);                       // TX_IDMAP_NONE
 *     tx_idmap_free(&m);
 */
#ifndef EVPROF_UTIL_IDMAP_H
#define EVPROF_UTIL_IDMAP_H

#include <stddef.h>
#include <stdint.h>

#include "util/hash.h"

#define TX_IDMAP_NONE UINT32_MAX

/* An id below 4 x (ids mapped + 1) + TX_IDMAP_DENSE goes to the array. */
#define TX_IDMAP_DENSE 4096u

typedef struct tx_idmap_slot {
    uint32_t id;
    uint32_t value;             /* value + 1; 0: empty */
} tx_idmap_slot;

/* Zero-initialised: empty, no memory. The fields are the map's own. */
typedef struct tx_idmap {
    uint32_t *dense;            /* id -> value + 1, 0: none */
    size_t dense_cap;           /* ids below it are in dense[] only */
    tx_idmap_slot *slots;       /* the other ids */
    size_t cap, sparse;         /* slots (a power of two, or 0), ids in them */
    size_t count;               /* ids mapped */
} tx_idmap;

/* The value of `id`, or TX_IDMAP_NONE. */
static inline uint32_t tx_idmap_get(const tx_idmap *m, uint32_t id)
{
    if (id < m->dense_cap)
        return m->dense[id] - 1;        /* 0 - 1: TX_IDMAP_NONE */
    if (!m->sparse)
        return TX_IDMAP_NONE;
    size_t mask = m->cap - 1;
    for (size_t k = (size_t)hash_mix64(id) & mask;; k = (k + 1) & mask) {
        tx_idmap_slot s = m->slots[k];
        if (!s.value)
            return TX_IDMAP_NONE;
        if (s.id == id)
            return s.value - 1;
    }
}

struct ev_account;

/* Maps `id` to `value` (< TX_IDMAP_NONE), replacing its value if mapped.
 * The map's growth is charged to `a` (util/account.h; NULL: nothing
 * charged): a new array or table before it is made, the old one
 * released after. 0, or -1 without memory or when `a` refuses (the map
 * is then unchanged). */
int tx_idmap_put(tx_idmap *m, uint32_t id, uint32_t value, struct ev_account *a);

/* Room for `n` ids up to `max_id` when they are known beforehand (a
 * result's cost centres): when n such ids are dense (max_id below 4n +
 * TX_IDMAP_DENSE), the array is made to hold exactly ids 0..max_id, not
 * a power of two, and no id goes to the table. 0, or -1 without memory. */
int tx_idmap_reserve(tx_idmap *m, uint32_t max_id, size_t n, struct ev_account *a);

/* Every id unmapped; the memory stays for the next ones. */
void tx_idmap_clear(tx_idmap *m);

/* Frees the memory; the map is empty again. Charges are the account's to
 * release (as the aggregates release theirs whole). */
void tx_idmap_free(tx_idmap *m);

#endif
