/* The general hash table (util/htab.h) and the hash family (util/hash.h):
 * find and insert over the caller's array, growth at half full, keys told
 * apart by the callback when hashes collide, the callback run only when
 * the stored hash bits match, and hashes that tell chained strings and
 * stacks apart. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/hash.h"
#include "util/htab.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(find_insert_grow),
        cmocka_unit_test(colliding_hashes),
        cmocka_unit_test(reserve_keeps_slots),
        cmocka_unit_test(hash_family),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
