/* Big-endian loads. Callers check bounds first. (The writer has its own
 * stores.) */
#ifndef EVPROF_EVENTLOG_BYTES_H
#define EVPROF_EVENTLOG_BYTES_H

#include <stdint.h>

static inline uint16_t be16(const uint8_t *p)
{
    return (uint16_t)((uint16_t)p[0] << 8 | p[1]);
}

static inline uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t be64(const uint8_t *p)
{
    return (uint64_t)be32(p) << 32 | be32(p + 4);
}

/* n big-endian u32s to host order; a loop compilers vectorize. */
static inline void be32_array(uint32_t *restrict dst, const uint8_t *restrict src,
                              unsigned n)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (unsigned i = 0; i < n; i++) {
        uint32_t v;
        __builtin_memcpy(&v, src + 4 * i, 4);
        dst[i] = __builtin_bswap32(v);
    }
#else
    for (unsigned i = 0; i < n; i++)
        dst[i] = be32(src + 4 * i);
#endif
}

#endif
