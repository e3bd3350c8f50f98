/* Namesakes among a table of cost centres (see namesakes.h): a hash
 * table of the (module, label) groups of the items wanted, each
 * remembering its first source location; one pass over every item marks
 * the groups that have another. */
#include "util/namesakes.h"

#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/htab.h"

typedef struct nm_ctx {
    const void *items;
    tx_cc_field_fn field;
    const uint32_t *first;      /* per group: its first item */
} nm_ctx;

static const char *str(const nm_ctx *c, size_t i, int which)
{
    const char *s = c->field(c->items, i, which);
    return s ? s : "";
}

static int group_eq(const void *ctx, uint32_t g, const void *key)
{
    const nm_ctx *c = ctx;
    size_t a = c->first[g], b = *(const size_t *)key;
    /* most names are one cost centre's: the group's own first item */
    return a == b ||
           (strcmp(str(c, a, 0), str(c, b, 0)) == 0 && strcmp(str(c, a, 1), str(c, b, 1)) == 0);
}

static uint64_t name_hash(const nm_ctx *c, size_t i)
{
    const char *label = str(c, i, 0), *module = str(c, i, 1);
    return hash_bytes(module, strlen(module), hash_bytes(label, strlen(label), 0));
}

long tx_namesakes(const void *items, size_t n, tx_cc_field_fn field, const uint8_t *want,
                  uint8_t *out)
{
    memset(out, 0, n);
    size_t wanted = 0;
    for (size_t i = 0; i < n; i++)
        wanted += !want || want[i];
    if (n < 2 || !wanted)
        return 0;
    if (n > UINT32_MAX)
        return -1;
    uint32_t *first = malloc(wanted * sizeof *first);   /* per group */
    uint8_t *mixed = calloc(wanted, 1);                 /* per group */
    tx_htab t = { 0 };
    long found = -1;
    nm_ctx c = { items, field, first };
    if (!first || !mixed || tx_htab_reserve(&t, wanted) != 0)
        goto done;
    /* the groups of the items wanted */
    uint32_t groups = 0;
    for (size_t i = 0; i < n; i++) {
        if (want && !want[i])
            continue;
        uint64_t h = name_hash(&c, i);
        if (tx_htab_find(&t, h, group_eq, &c, &i) == TX_HTAB_NONE) {
            first[groups] = (uint32_t)i;
            tx_htab_insert(&t, h, groups++);    /* reserved: cannot fail */
        }
    }
    /* every item: another place of a group's name mixes it */
    for (size_t i = 0; i < n; i++) {
        uint32_t g = tx_htab_find(&t, name_hash(&c, i), group_eq, &c, &i);
        if (g != TX_HTAB_NONE && !mixed[g] && first[g] != i &&
            strcmp(str(&c, first[g], 2), str(&c, i, 2)) != 0)
            mixed[g] = 1;
    }
    found = 0;
    for (size_t i = 0; i < n; i++) {
        if (want && !want[i])
            continue;
        uint32_t g = tx_htab_find(&t, name_hash(&c, i), group_eq, &c, &i);
        found += out[i] = mixed[g];
    }
done:
    tx_htab_free(&t);
    free(first);
    free(mixed);
    return found;
}
