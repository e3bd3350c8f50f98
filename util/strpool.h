/* An append-only pool of NUL-terminated strings, freed all at once. */
#ifndef EVPROF_UTIL_STRPOOL_H
#define EVPROF_UTIL_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

typedef struct strpool_chunk strpool_chunk;

typedef struct strpool {
    strpool_chunk *head;
    size_t used, cap;       /* of the head chunk */
} strpool;

void tx_strpool_init(strpool *sp);
void tx_strpool_destroy(strpool *sp);
/* The bytes a new chunk takes if adding `len` bytes needs one, else 0
 * (for a memory budget: charge before adding). */
size_t tx_strpool_growth(const strpool *sp, uint32_t len);
/* A copy of `len` bytes plus a NUL, owned by the pool; NULL if out of memory. */
const char *tx_strpool_add(strpool *sp, const char *s, uint32_t len);

#endif
