/* The one parser of format names and file extensions
 * (include/evprof/format.h). */
#include "evprof/format.h"

#include <string.h>
#include <strings.h>

/* Whether the blank-separated list of extensions holds `word` without its
 * leading dot (any case). */
static int has_ext(const char *list, const char *word, size_t len)
{
    while (list && *list) {
        size_t n = strcspn(list, " ");
        const char *e = list;
        if (n > 0 && *e == '.') {
            e++;
            n--;
        }
        if (n == len && strncasecmp(e, word, len) == 0)
            return 1;
        list += strcspn(list, " ");
        list += strspn(list, " ");
    }
    return 0;
}

/* The length of the longest extension of `list` that ends `base` (and is
 * shorter than it: ".svg" names no format); 0: none. */
static size_t ext_match(const char *list, const char *base)
{
    size_t best = 0, blen = strlen(base);
    while (list && *list) {
        size_t n = strcspn(list, " ");
        if (n > best && n < blen && strncasecmp(base + blen - n, list, n) == 0)
            best = n;
        list += n;
        list += strspn(list, " ");
    }
    return best;
}

const ev_format *ev_format_find(const ev_format *list, size_t count, const char *name)
{
    size_t len = name ? strlen(name) : 0;
    if (!list || len == 0)
        return NULL;
    for (size_t i = 0; i < count; i++)
        if (list[i].name && ((strlen(list[i].name) == len &&
                              strcasecmp(list[i].name, name) == 0) ||
                             has_ext(list[i].exts, name, len)))
            return &list[i];
    return NULL;
}

const ev_format *ev_format_for_path(const ev_format *list, size_t count, const char *path)
{
    if (!list || !path)
        return NULL;
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const ev_format *best = NULL;
    size_t best_len = 0;
    for (size_t i = 0; i < count; i++) {
        if (!list[i].name)
            continue;
        size_t n = ext_match(list[i].exts, base);
        if (n > best_len) {
            best_len = n;
            best = &list[i];
        }
    }
    return best;
}
