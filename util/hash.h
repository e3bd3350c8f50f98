/* The one hash family of evprof: a 64-bit finaliser (MurmurHash3's fmix64
 * constants) that spreads keys over the bits the tables mask off, and
 * hashes of byte strings and of u32 sequences (stacks) built on it. */
#ifndef EVPROF_UTIL_HASH_H
#define EVPROF_UTIL_HASH_H

#include <stddef.h>
#include <stdint.h>

static inline uint64_t hash_mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    x ^= x >> 33;
    return x;
}

/* FNV-1a over the bytes, then mixed: names are short, so a byte loop is
 * enough; the mix gives FNV's weak low bits the spread a mask needs.
 * `seed` chains several strings into one key (0 for one string). */
static inline uint64_t hash_bytes(const void *p, size_t n, uint64_t seed)
{
    const unsigned char *s = p;
    uint64_t h = 0xcbf29ce484222325ull ^ seed;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 0x100000001b3ull;
    return hash_mix64(h ^ n);
}

/* A sequence of u32 (a stack of cost-centre ids). Four independent lanes,
 * so the multiplies overlap: this is the time profile's hot path (every
 * sample's stack is hashed once), measured against a one-lane loop. */
static inline uint64_t hash_u32s(const uint32_t *s, size_t n, uint64_t seed)
{
    uint64_t a = 0x9e3779b97f4a7c15ull ^ seed, b = 0xc2b2ae3d27d4eb4full,
             c = 0x165667b19e3779f9ull, e = 0x27d4eb2f165667c5ull ^ n;
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        a = (a ^ s[i]) * 0xff51afd7ed558ccdull;
        b = (b ^ s[i + 1]) * 0xc4ceb9fe1a85ec53ull;
        c = (c ^ s[i + 2]) * 0xff51afd7ed558ccdull;
        e = (e ^ s[i + 3]) * 0xc4ceb9fe1a85ec53ull;
    }
    for (; i < n; i++)
        a = (a ^ s[i]) * 0xff51afd7ed558ccdull;
    return hash_mix64(a ^ (b >> 1) ^ hash_mix64(c) ^ (e << 1));
}

/* A path of ids, one step at a time: the hash of a path is the hash of
 * its parent path stepped with the last id. Cheap enough to run down a
 * whole stack (one multiply per frame); a table index takes
 * hash_mix64 of it. */
static inline uint64_t hash_path_step(uint64_t h, uint32_t id)
{
    return ((h << 23 | h >> 41) ^ id) * 0x9e3779b97f4a7c15ull;
}

#endif
