/* The one general hash table of evprof (private to the library): open
 * addressing over u32 indices into the caller's own array of items.
 *
 * Each slot keeps the low 32 bits of the item's hash next to its index, so
 * a probe rarely touches the caller's data: the caller's equality callback
 * runs only when those bits match. The table grows at half full. Keys live
 * in the caller's items; the table never copies them. Usage:
 *
 *     uint64_t h = hash_bytes(name, len, 0);
 *     uint32_t i = tx_htab_find(&t, h, name_eq, items, &key);
 *     if (i == TX_HTAB_NONE) { i = append_item(...); tx_htab_insert(&t, h, i); }
 *
 * Hashes must be mixed (util/hash.h): the slot is the hash's low bits.
 * The time profile's child table and stack cache are not built on it:
 * see prof/tree.c. */
#ifndef EVPROF_UTIL_HTAB_H
#define EVPROF_UTIL_HTAB_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TX_HTAB_NONE UINT32_MAX

/* A hint to fetch what a table probe will read soon (random places in
 * big arrays: nodes, slots), so that several misses overlap. */
#if defined(__GNUC__)
#define TX_PREFETCH(p) __builtin_prefetch(p)
#else
#define TX_PREFETCH(p) ((void)(p))
#endif

/* Asks for huge pages (2 MiB) under the big arrays that are read at random
 * (tables, the node array): with 4 KiB pages nearly every probe of a
 * table of tens of MB also misses the TLB, and a miss walks the page
 * tables twice over in a virtual machine; the faults that map the array
 * are 512 times fewer. Only the whole 2 MiB pages inside [p, p + bytes);
 * a hint: without transparent huge pages nothing changes. */
void tx_huge_hint(void *p, size_t bytes);

/* A zeroed array for an open-addressing table, every page written now.
 * Not calloc: calloc's fresh pages are the shared zero page until first
 * written, and a table's probes read before they write. Each first write
 * then replaces a read-only mapping, which flushes the TLB of every CPU
 * running a thread of the process: on a parallel read that cost a fifth
 * of the run (perf: do_wp_page, flush_tlb_mm_range). NULL when out of
 * memory or when n * size overflows. */
static inline void *tx_table_alloc(size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    size_t bytes = n * size;
    void *t = malloc(bytes > 0 ? bytes : 1);
    if (t) {
        tx_huge_hint(t, bytes);
        memset(t, 0, bytes);
    }
    return t;
}

typedef struct tx_htab_slot {
    uint32_t hash;          /* the item's hash, low 32 bits */
    uint32_t item;          /* index + 1; 0 empty */
} tx_htab_slot;

/* Zero-initialised: empty, no memory. */
typedef struct tx_htab {
    tx_htab_slot *slots;
    size_t cap;             /* a power of two, or 0 */
    size_t count;
} tx_htab;

/* Is item `item` of `items` the one `key` names? */
typedef int (*tx_htab_eq_fn)(const void *items, uint32_t item, const void *key);

/* The index of the item equal to `key`, or TX_HTAB_NONE. Inline, so that
 * a constant `eq` is inlined into the probe loop. */
static inline uint32_t tx_htab_find(const tx_htab *t, uint64_t hash, tx_htab_eq_fn eq,
                                    const void *items, const void *key)
{
    if (!t->cap)
        return TX_HTAB_NONE;
    size_t mask = t->cap - 1;
    for (size_t k = (size_t)hash & mask;; k = (k + 1) & mask) {
        tx_htab_slot s = t->slots[k];
        if (!s.item)
            return TX_HTAB_NONE;
        if (s.hash == (uint32_t)hash && eq(items, s.item - 1, key))
            return s.item - 1;
    }
}

/* Adds item `item` (not yet in the table, < TX_HTAB_NONE) under `hash`;
 * 0, or -1 without memory (the table is then unchanged). */
int tx_htab_insert(tx_htab *t, uint64_t hash, uint32_t item);

/* The bytes of the table the next insert makes (it doubles at half full),
 * or 0 when it does not grow. */
static inline size_t tx_htab_growth(const tx_htab *t)
{
    if ((t->count + 1) * 2 <= t->cap)
        return 0;
    return (t->cap ? 2 * t->cap : 16) * sizeof(tx_htab_slot);
}

struct ev_account;

/* tx_htab_insert with the table's memory charged to `a` (util/account.h):
 * a new table is charged before it is made and the old one released
 * after. With `optional` set the charge is ev_account_try's (a cache: a
 * refusal marks nothing). *grown (may be NULL) gets the net bytes
 * charged. 0, or -1 (nothing charged, the table unchanged). */
int tx_htab_insert_charged(tx_htab *t, uint64_t hash, uint32_t item, struct ev_account *a,
                           int optional, size_t *grown);

/* Room for `n` items without growing; 0, or -1 without memory. */
int tx_htab_reserve(tx_htab *t, size_t n);

/* Frees the slots; the table is empty again. */
void tx_htab_free(tx_htab *t);

#endif
