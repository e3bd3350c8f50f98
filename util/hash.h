/* A 64-bit finaliser (MurmurHash3's fmix64 constants): spreads keys over
 * the bits that open-addressing tables mask off. */
#ifndef EVPROF_UTIL_HASH_H
#define EVPROF_UTIL_HASH_H

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

#endif
