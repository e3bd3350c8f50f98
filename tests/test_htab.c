/* The general hash table (util/htab.h) and the hash family (util/hash.h):
 * find and insert over the caller's array, growth at half full, keys told
 * apart by the callback when hashes collide, the callback run only when
 * the stored hash bits match, and hashes that tell chained strings and
 * stacks apart. The id map (util/idmap.h) against a plain array of every
 * id: dense and sparse ids, sparse ones moving into the array, values
 * replaced, cleared, and its memory charged to an account. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/hash.h"
#include "evprof/budget.h"
#include "util/account.h"
#include "util/htab.h"
#include "util/idmap.h"

static unsigned eq_calls;

static int u64_eq(const void *items, uint32_t i, const void *key)
{
    eq_calls++;
    return ((const uint64_t *)items)[i] == *(const uint64_t *)key;
}

static void find_insert_grow(void **state)
{
    (void)state;
    enum { N = 100000 };
    uint64_t *keys = malloc(N * sizeof *keys);
    assert_non_null(keys);
    tx_htab t = { 0 };
    uint64_t absent = 12345;
    assert_int_equal(tx_htab_find(&t, hash_mix64(absent), u64_eq, keys, &absent), TX_HTAB_NONE);
    for (uint32_t i = 0; i < N; i++) {
        keys[i] = (uint64_t)i * 7919 + 3;
        assert_int_equal(tx_htab_find(&t, hash_mix64(keys[i]), u64_eq, keys, &keys[i]),
                         TX_HTAB_NONE);
        assert_int_equal(tx_htab_insert(&t, hash_mix64(keys[i]), i), 0);
        assert_true(t.count * 2 <= t.cap);     /* at most half full */
    }
    assert_int_equal(t.count, N);
    eq_calls = 0;
    for (uint32_t i = 0; i < N; i++)
        assert_int_equal(tx_htab_find(&t, hash_mix64(keys[i]), u64_eq, keys, &keys[i]), i);
    /* distinct hashes: the callback runs about once per find, only on the
     * slot whose stored hash matches (a few 32-bit collisions at most) */
    assert_true(eq_calls < N + N / 1000);
    for (uint64_t k = 1; k < 1000; k++) {
        uint64_t key = (uint64_t)N * 7919 + 3 + k * 7919;   /* never inserted */
        assert_int_equal(tx_htab_find(&t, hash_mix64(key), u64_eq, keys, &key), TX_HTAB_NONE);
    }
    tx_htab_free(&t);
    assert_null(t.slots);
    assert_int_equal(t.cap, 0);
    assert_int_equal(tx_htab_find(&t, hash_mix64(keys[0]), u64_eq, keys, &keys[0]), TX_HTAB_NONE);
    free(keys);
}

/* Every key under one hash: the callback alone tells them apart, through
 * growth too. */
static void colliding_hashes(void **state)
{
    (void)state;
    uint64_t keys[300];
    tx_htab t = { 0 };
    for (uint32_t i = 0; i < 300; i++) {
        keys[i] = i * 2 + 1;
        assert_int_equal(tx_htab_insert(&t, 42, i), 0);
    }
    for (uint32_t i = 0; i < 300; i++)
        assert_int_equal(tx_htab_find(&t, 42, u64_eq, keys, &keys[i]), i);
    uint64_t even = 2;
    assert_int_equal(tx_htab_find(&t, 42, u64_eq, keys, &even), TX_HTAB_NONE);
    /* the same low 32 bits, other high bits: same slot, same stored bits */
    assert_int_equal(tx_htab_find(&t, 42 | (uint64_t)1 << 40, u64_eq, keys, &keys[7]), 7);
    tx_htab_free(&t);
}

static void reserve_keeps_slots(void **state)
{
    (void)state;
    uint64_t keys[1000];
    tx_htab t = { 0 };
    assert_int_equal(tx_htab_reserve(&t, 1000), 0);
    assert_true(t.cap >= 2000);
    const tx_htab_slot *slots = t.slots;
    for (uint32_t i = 0; i < 1000; i++) {
        keys[i] = i;
        assert_int_equal(tx_htab_insert(&t, hash_mix64(i), i), 0);
    }
    assert_ptr_equal(t.slots, slots);           /* no growth after reserve */
    for (uint32_t i = 0; i < 1000; i++)
        assert_int_equal(tx_htab_find(&t, hash_mix64(i), u64_eq, keys, &keys[i]), i);
    tx_htab_free(&t);
}

static void hash_family(void **state)
{
    (void)state;
    /* chained strings: the length is part of each step */
    uint64_t ab_c = hash_bytes("c", 1, hash_bytes("ab", 2, 0));
    uint64_t a_bc = hash_bytes("bc", 2, hash_bytes("a", 1, 0));
    assert_true(ab_c != a_bc);
    assert_true(hash_bytes("", 0, 0) != hash_bytes("", 0, hash_bytes("", 0, 0)));
    assert_int_equal(hash_bytes("GC", 2, 0), hash_bytes("GC", 2, 0));
    /* stacks: order, depth and seed all count, in every lane */
    uint32_t s[9] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 }, r[9] = { 2, 1, 3, 4, 5, 6, 7, 8, 9 };
    assert_true(hash_u32s(s, 9, 0) != hash_u32s(r, 9, 0));
    assert_true(hash_u32s(s, 9, 0) != hash_u32s(s, 8, 0));
    assert_true(hash_u32s(s, 9, 0) != hash_u32s(s, 9, 256));
    for (int lane = 0; lane < 8; lane++) {
        uint32_t t[9];
        memcpy(t, s, sizeof t);
        t[lane] ^= 1;
        assert_true(hash_u32s(s, 9, 0) != hash_u32s(t, 9, 0));
    }
    uint32_t zero = 0;
    assert_true(hash_u32s(&zero, 1, 0) != hash_u32s(&zero, 0, 0));
}

/* A map and the truth it must hold (an array of every id's value). */
static void idmap_check(const tx_idmap *m, const uint32_t *ids, const uint32_t *vals, size_t n)
{
    for (size_t i = 0; i < n; i++)
        assert_int_equal(tx_idmap_get(m, ids[i]), vals[i]);
}

static void idmap_dense_sparse(void **state)
{
    (void)state;
    enum { N = 50000 };
    uint32_t *ids = malloc(N * sizeof *ids), *vals = malloc(N * sizeof *vals);
    assert_non_null(ids);
    assert_non_null(vals);
    tx_idmap m = { 0 };
    assert_int_equal(tx_idmap_get(&m, 0), TX_IDMAP_NONE);
    assert_int_equal(tx_idmap_get(&m, UINT32_MAX), TX_IDMAP_NONE);
    /* GHC's way: ids from 1 up, but defined newest first in blocks, plus a
     * few far ones (hand-made logs) that stay in the table, and sparse ids
     * that the array later reaches (they move into it) */
    size_t n = 0;
    for (uint32_t i = 0; i < N - 100; i++) {
        uint32_t id = (i / 1000) * 1000 + (999 - i % 1000) + 1;
        if (i % 7000 == 3) {
            ids[n] = UINT32_MAX - i;            /* far: the table */
            vals[n] = i;
            assert_int_equal(tx_idmap_put(&m, ids[n], vals[n], NULL), 0);
            n++;
        }
        if (i == 10) {
            ids[n] = 30000;                     /* sparse now, dense later */
            vals[n] = 77;
            assert_int_equal(tx_idmap_put(&m, ids[n], vals[n], NULL), 0);
            assert_true(m.sparse > 0);
            n++;
        }
        if (id == 30000)
            continue;
        ids[n] = id;
        vals[n] = i * 3;
        assert_int_equal(tx_idmap_put(&m, id, vals[n], NULL), 0);
        n++;
    }
    idmap_check(&m, ids, vals, n);
    assert_true(m.dense_cap > 30000);           /* 30000 moved into the array */
    assert_int_equal(m.dense[30000], 78);
    assert_int_equal(m.count, n);
    assert_true(m.sparse > 0 && m.sparse * 2 <= m.cap);
    for (size_t i = 0; i < m.cap; i++)          /* the table holds only far ids */
        assert_true(!m.slots[i].value || m.slots[i].id >= m.dense_cap);
    /* absent ids, both sides */
    assert_int_equal(tx_idmap_get(&m, 0), TX_IDMAP_NONE);
    assert_int_equal(tx_idmap_get(&m, UINT32_MAX - 1), TX_IDMAP_NONE);
    /* a value replaced, in the array and in the table */
    vals[0] = 5;
    assert_int_equal(tx_idmap_put(&m, ids[0], 5, NULL), 0);
    for (size_t i = 0; i < n; i++)
        if (ids[i] > m.dense_cap) {
            vals[i] = 9;
            assert_int_equal(tx_idmap_put(&m, ids[i], 9, NULL), 0);
            break;
        }
    assert_int_equal(m.count, n);
    idmap_check(&m, ids, vals, n);
    assert_int_equal(tx_idmap_put(&m, 1, TX_IDMAP_NONE, NULL), -1);   /* not a value */
    /* cleared: nothing mapped, and it maps again */
    tx_idmap_clear(&m);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(tx_idmap_get(&m, ids[i]), TX_IDMAP_NONE);
    assert_int_equal(m.count, 0);
    assert_int_equal(tx_idmap_put(&m, ids[1], 4, NULL), 0);
    assert_int_equal(tx_idmap_get(&m, ids[1]), 4);
    tx_idmap_free(&m);
    assert_int_equal(tx_idmap_get(&m, ids[1]), TX_IDMAP_NONE);
    free(ids);
    free(vals);
}

static void idmap_charged(void **state)
{
    (void)state;
    ev_budget *b = ev_budget_create(64 << 10);
    ev_account a = { b, 0, 0 };
    tx_idmap m = { 0 };
    /* the array: 4 bytes an id, charged as it grows */
    assert_int_equal(tx_idmap_put(&m, 1, 0, &a), 0);
    assert_int_equal(a.charged, TX_IDMAP_DENSE * sizeof(uint32_t));
    assert_int_equal(ev_budget_used(b), a.charged);
    /* the table: its slots, the old table released when it grows */
    uint32_t id = 1u << 30;
    size_t i = 0;
    for (; i < 100; i++)
        assert_int_equal(tx_idmap_put(&m, id + (uint32_t)i * 977, (uint32_t)i, &a), 0);
    assert_int_equal(a.charged, (m.dense_cap + 2 * m.cap) * 4);
    /* refused: the map unchanged, refused marked */
    for (;; i++) {
        size_t cap = m.cap, count = m.count;
        if (tx_idmap_put(&m, id + (uint32_t)i * 977, (uint32_t)i, &a) != 0) {
            assert_int_equal(m.cap, cap);
            assert_int_equal(m.count, count);
            assert_int_equal(tx_idmap_get(&m, id + (uint32_t)i * 977), TX_IDMAP_NONE);
            break;
        }
    }
    assert_true(a.refused);
    assert_int_equal(tx_idmap_get(&m, id + 977), 1);
    assert_int_equal(ev_budget_used(b), a.charged);
    tx_idmap_free(&m);
    ev_budget_release(b, a.charged);
    ev_budget_destroy(b);
}

static void idmap_reserve(void **state)
{
    (void)state;
    tx_idmap m = { 0 };
    /* dense: exactly ids 0..max_id, every id in the array */
    assert_int_equal(tx_idmap_reserve(&m, 9999, 5000, NULL), 0);
    assert_int_equal(m.dense_cap, 10000);
    for (uint32_t i = 0; i < 5000; i++)
        assert_int_equal(tx_idmap_put(&m, 9999 - 2 * i, i, NULL), 0);
    assert_int_equal(m.sparse, 0);
    assert_int_equal(m.dense_cap, 10000);
    for (uint32_t i = 0; i < 5000; i++)
        assert_int_equal(tx_idmap_get(&m, 9999 - 2 * i), i);
    assert_int_equal(tx_idmap_get(&m, 9998), TX_IDMAP_NONE);
    assert_int_equal(tx_idmap_get(&m, 10000), TX_IDMAP_NONE);
    tx_idmap_free(&m);
    /* sparse: no array made for them */
    assert_int_equal(tx_idmap_reserve(&m, 1u << 30, 10, NULL), 0);
    assert_int_equal(m.dense_cap, 0);
    tx_idmap_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(find_insert_grow),
        cmocka_unit_test(colliding_hashes),
        cmocka_unit_test(reserve_keeps_slots),
        cmocka_unit_test(hash_family),
        cmocka_unit_test(idmap_dense_sparse),
        cmocka_unit_test(idmap_charged),
        cmocka_unit_test(idmap_reserve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
