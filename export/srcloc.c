/* Splitting GHC's SRC field (see srcloc.h). */
#include "export/srcloc.h"

#include <stdio.h>
#include <string.h>

#include "evprof/prof.h"

/* Digits at s[*i..n) as a number >= 1; advances *i. Returns 0 if none. */
static uint32_t number(const char *s, size_t n, size_t *i)
{
    uint64_t v = 0;
    size_t start = *i;
    while (*i < n && s[*i] >= '0' && s[*i] <= '9' && v <= UINT32_MAX)
        v = v * 10 + (uint64_t)(s[(*i)++] - '0');
    if (*i == start || v == 0 || v > UINT32_MAX)
        return 0;
    return (uint32_t)v;
}

/* "(L,C)-(L2,C2)" or "(L,C)" exactly at s[i..n) */
static int paren_span(const char *s, size_t n, size_t i, uint32_t *line, uint32_t *col)
{
    if (i >= n || s[i++] != '(')
        return 0;
    uint32_t l = number(s, n, &i);
    if (!l || i >= n || s[i++] != ',')
        return 0;
    uint32_t c = number(s, n, &i);
    if (!c || i >= n || s[i++] != ')')
        return 0;
    if (i < n) {
        if (s[i++] != '-' || i >= n || s[i++] != '(' || !number(s, n, &i) || i >= n ||
            s[i++] != ',' || !number(s, n, &i) || i >= n || s[i++] != ')' || i != n)
            return 0;
    }
    *line = l;
    *col = c;
    return 1;
}

/* "L:C-C2", "L:C" exactly at s[i..n) */
static int plain_span(const char *s, size_t n, size_t i, uint32_t *line, uint32_t *col)
{
    uint32_t l = number(s, n, &i);
    if (!l || i >= n || s[i++] != ':')
        return 0;
    uint32_t c = number(s, n, &i);
    if (!c)
        return 0;
    if (i < n && (s[i++] != '-' || !number(s, n, &i) || i != n))
        return 0;
    *line = l;
    *col = c;
    return 1;
}

int export_srcloc_parse(const char *src, ex_srcloc *out)
{
    memset(out, 0, sizeof *out);
    if (!src)
        return 0;
    size_t n = strlen(src);
    /* the span follows the last ':' that starts one; the file is before */
    for (size_t k = n; k-- > 0;) {
        if (src[k] != ':' || k == 0)
            continue;
        uint32_t line, col;
        if (paren_span(src, n, k + 1, &line, &col) || plain_span(src, n, k + 1, &line, &col)) {
            out->file = src;
            out->file_len = k;
            out->line = line;
            out->col = col;
            return 1;
        }
    }
    return 0;
}

size_t export_frame_name(const prof_cc *cc, int namesake, char *buf, size_t size)
{
    const char *label = cc->label ? cc->label : "";
    /* GHC's built-ins (MAIN, GC, IDLE, ...) and evprof's own frames go by
     * their label alone, as in the folded stacks */
    int bare = cc->synthetic || (cc->srcloc && strcmp(cc->srcloc, "<built-in>") == 0);
    int len = bare       ? snprintf(buf, size, "%s", label)
              : namesake ? snprintf(buf, size, "%s.%s (%s)", cc->module ? cc->module : "", label,
                                    cc->srcloc ? cc->srcloc : "")
                         : snprintf(buf, size, "%s.%s", cc->module ? cc->module : "", label);
    return len < 0 ? 0 : (size_t)len;
}
