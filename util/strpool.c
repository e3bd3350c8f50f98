#include "util/strpool.h"

#include <stdlib.h>
#include <string.h>

#define CHUNK_SIZE 65536u

struct strpool_chunk {
    strpool_chunk *next;
    char data[];
};

void tx_strpool_init(strpool *sp)
{
    sp->head = NULL;
    sp->used = sp->cap = 0;
}

void tx_strpool_destroy(strpool *sp)
{
    strpool_chunk *c = sp->head;
    while (c) {
        strpool_chunk *next = c->next;
        free(c);
        c = next;
    }
    tx_strpool_init(sp);
}

size_t tx_strpool_growth(const strpool *sp, uint32_t len)
{
    size_t need = (size_t)len + 1;
    if (sp->head && sp->cap - sp->used >= need)
        return 0;
    return sizeof(strpool_chunk) + (need > CHUNK_SIZE ? need : CHUNK_SIZE);
}

const char *tx_strpool_add(strpool *sp, const char *s, uint32_t len)
{
    size_t need = (size_t)len + 1;

    if (!sp->head || sp->cap - sp->used < need) {
        size_t cap = need > CHUNK_SIZE ? need : CHUNK_SIZE;
        strpool_chunk *c = malloc(sizeof *c + cap);
        if (!c)
            return NULL;
        c->next = sp->head;
        sp->head = c;
        sp->used = 0;
        sp->cap = cap;
    }
    char *dst = sp->head->data + sp->used;
    if (len)
        memcpy(dst, s, len);
    dst[len] = '\0';
    sp->used += need;
    return dst;
}
