#include "ghcprof.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "corpus.h"

static void copy_field(char *dst, size_t size, const char *s, size_t n)
{
    if (n >= size)
        n = size - 1;
    memcpy(dst, s, n);
    dst[n] = '\0';
}

static gp_row *new_row(gp_profile *p)
{
    gp_row *r = realloc(p->rows, (p->nrows + 1) * sizeof *r);
    if (!r)
        abort();
    p->rows = r;
    memset(&r[p->nrows], 0, sizeof r[0]);
    return &r[p->nrows++];
}

/* ---- .prof text ------------------------------------------------------- */

/* Splits `line` on single spaces (labels have no spaces: GHC rejects
 * them in SCC names) into at most `max` tokens. A SRC may have spaces
 * (-fprof-late's "<no location info>"): src_of joins it back. */
static size_t tokens(char *line, char **tok, size_t max)
{
    size_t n = 0;
    char *s = line;
    while (*s && n < max) {
        while (*s == ' ')
            s++;
        if (!*s || *s == '\n')
            break;
        tok[n++] = s;
        while (*s && *s != ' ' && *s != '\n')
            s++;
        if (*s)
            *s++ = '\0';
    }
    return n;
}

/* The SRC column: tokens 2 .. n - tail - 1 (the numbers come last),
 * joined by single spaces. */
static void src_of(char *dst, size_t size, char **tok, size_t n, size_t tail)
{
    size_t len = 0;
    dst[0] = '\0';
    for (size_t i = 2; i + tail < n; i++)
        len += (size_t)snprintf(dst + len, len < size ? size - len : 0, "%s%s",
                                i > 2 ? " " : "", tok[i]);
}

int gp_read_prof(const char *path, gp_profile *out)
{
    size_t len;
    char *buf = (char *)test_read_file(path, &len);
    if (!buf)
        return -1;
    buf = realloc(buf, len + 1);
    buf[len] = '\0';
    memset(out, 0, sizeof *out);
    out->initial_caps = -1;

    int32_t stack[GP_MAX_PATH];
    enum { HEAD, SUMMARY, TREE } where = HEAD;
    size_t extra = 0;           /* +RTS -P: ticks and bytes end each row */
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *t;
        if (where == HEAD && (t = strstr(line, "total time  ="))) {
            sscanf(t, "total time  = %31s", out->total_time);
            t = strchr(t, '(');
            unsigned long long ticks;
            unsigned us, procs;
            if (t && sscanf(t, "(%llu ticks @ %u us, %u processor", &ticks, &us, &procs) == 3) {
                out->total_ticks = ticks;
                out->interval_us = us;
                out->processors = procs;
            }
            continue;
        }
        if (strncmp(line, "COST CENTRE", 11) == 0) {
            where = strstr(line, "no.") ? TREE : SUMMARY;
            size_t l = strlen(line);
            while (l && line[l - 1] == ' ')
                l--;
            extra = l >= 5 && strncmp(line + l - 5, "bytes", 5) == 0 ? 2 : 0;
            out->prof_ticks = extra != 0;
            continue;
        }
        if (where == HEAD || strspn(line, " ") == strlen(line) ||
            strstr(line, "individual"))
            continue;
        size_t indent = strspn(line, " ");
        char copy[2048];
        copy_field(copy, sizeof copy, line, strlen(line));
        char *tok[16];
        size_t n = tokens(copy, tok, 16);
        if (where == SUMMARY && n >= 5 + extra) {
            gp_summary_row *r = realloc(out->summary, (out->nsummary + 1) * sizeof *r);
            if (!r)
                abort();
            out->summary = r;
            r = &r[out->nsummary++];
            copy_field(r->label, sizeof r->label, tok[0], strlen(tok[0]));
            copy_field(r->module, sizeof r->module, tok[1], strlen(tok[1]));
            src_of(r->src, sizeof r->src, tok, n, 2 + extra);
            copy_field(r->time, sizeof r->time, tok[n - 2 - extra], strlen(tok[n - 2 - extra]));
        } else if (where == TREE && n >= 9 + extra) {
            if (indent >= GP_MAX_PATH)
                continue;
            gp_row *r = new_row(out);
            r->depth = (uint32_t)indent;
            copy_field(r->label, sizeof r->label, tok[0], strlen(tok[0]));
            copy_field(r->module, sizeof r->module, tok[1], strlen(tok[1]));
            src_of(r->src, sizeof r->src, tok, n, 6 + extra);
            r->id = (uint32_t)strtoul(tok[n - 6 - extra], NULL, 10);
            copy_field(r->ind_time, sizeof r->ind_time, tok[n - 4 - extra],
                       strlen(tok[n - 4 - extra]));
            copy_field(r->inh_time, sizeof r->inh_time, tok[n - 2 - extra],
                       strlen(tok[n - 2 - extra]));
            if (extra)
                r->ticks = strtoull(tok[n - 2], NULL, 10);
            r->parent = indent ? stack[indent - 1] : -1;
            stack[indent] = (int32_t)(out->nrows - 1);
        }
    }
    free(buf);
    return out->total_ticks || out->nrows ? 0 : -1;
}

/* ---- -pj JSON ---------------------------------------------------------- */

typedef struct jp {
    const char *s, *end;
    int bad;
} jp;

static void ws(jp *j)
{
    while (j->s < j->end && isspace((unsigned char)*j->s))
        j->s++;
}

static int lit(jp *j, const char *l)
{
    ws(j);
    size_t n = strlen(l);
    if ((size_t)(j->end - j->s) >= n && memcmp(j->s, l, n) == 0) {
        j->s += n;
        return 1;
    }
    return 0;
}

static uint64_t num(jp *j)
{
    ws(j);
    char *e;
    uint64_t v = strtoull(j->s, &e, 10);
    if (e == j->s)
        j->bad = 1;
    j->s = e;
    return v;
}

/* {"id": N, "entries": N, "alloc": N, "ticks": N, "children": [ ... ]} */
static void node(jp *j, gp_profile *p, int32_t parent, uint32_t depth)
{
    if (!lit(j, "{") || !lit(j, "\"id\":")) { j->bad = 1; return; }
    gp_row *r = new_row(p);
    int32_t me = (int32_t)(p->nrows - 1);
    r->id = (uint32_t)num(j);
    r->parent = parent;
    r->depth = depth;
    if (!lit(j, ",") || !lit(j, "\"entries\":")) { j->bad = 1; return; }
    num(j);
    if (!lit(j, ",") || !lit(j, "\"alloc\":")) { j->bad = 1; return; }
    num(j);
    if (!lit(j, ",") || !lit(j, "\"ticks\":")) { j->bad = 1; return; }
    uint64_t ticks = num(j);
    p->rows[me].ticks = ticks;
    if (!lit(j, ",") || !lit(j, "\"children\":") || !lit(j, "[")) { j->bad = 1; return; }
    if (!lit(j, "]")) {
        do
            node(j, p, me, depth + 1);
        while (!j->bad && lit(j, ","));
        if (!lit(j, "]"))
            j->bad = 1;
    }
    if (!lit(j, "}"))
        j->bad = 1;
}

/* Cost centres: each record on the line is {"id": N, "label": "...",
 * "module": "...", "src_loc": "...", "is_caf": B}. Labels may hold raw
 * quotes (GHC 9.0.2 escapes only backslashes), so fields are delimited
 * by the next key rather than by the closing quote. */
static void cost_centres(const char *s, const char *end, gp_profile *p)
{
    while ((s = strstr(s, "{\"id\": ")) && s < end) {
        uint32_t id = (uint32_t)strtoul(s + 7, NULL, 10);
        const char *l = strstr(s, "\"label\": \""), *m = strstr(s, "\", \"module\": \""),
                   *sl = strstr(s, "\", \"src_loc\": \""), *c = strstr(s, "\", \"is_caf\"");
        if (!l || !m || !sl || !c || c > end)
            break;
        p->ccs = realloc(p->ccs, (p->nccs + 1) * sizeof *p->ccs);
        if (!p->ccs)
            abort();
        p->ccs[p->nccs].id = id;
        char *dst = p->ccs[p->nccs].label;
        size_t k = 0;
        for (const char *q = l + 10; q < m && k < 255; q++) {
            if (*q == '\\' && q + 1 < m)
                q++;   /* GHC escapes backslashes only */
            dst[k++] = *q;
        }
        dst[k] = '\0';
        copy_field(p->ccs[p->nccs].module, 256, m + 14, (size_t)(sl - (m + 14)));
        copy_field(p->ccs[p->nccs].src, 256, sl + 15, (size_t)(c - (sl + 15)));
        p->nccs++;
        s = c;
    }
}

int gp_read_json(const char *path, gp_profile *out)
{
    size_t len;
    char *buf = (char *)test_read_file(path, &len);
    if (!buf)
        return -1;
    char *nb = realloc(buf, len + 1);   /* strstr needs the NUL */
    if (!nb) {
        free(buf);
        return -1;
    }
    buf = nb;
    buf[len] = '\0';
    memset(out, 0, sizeof *out);
    const char *t = strstr(buf, "\"total_ticks\":");
    const char *iv = strstr(buf, "\"tick_interval\":");
    const char *cc = strstr(buf, "\"cost_centres\":");
    const char *prof = strstr(buf, "\"profile\":");
    if (!t || !prof || !cc || !iv) {
        free(buf);
        return -1;
    }
    out->total_ticks = strtoull(t + 14, NULL, 10);
    out->interval_us = (uint32_t)strtoul(iv + 16, NULL, 10);
    const char *ic = strstr(buf, "\"initial_capabilities\":");
    const char *tt = strstr(buf, "\"total_time\":");
    out->initial_caps = ic ? (int32_t)strtol(ic + 23, NULL, 10) : -1;
    if (tt)
        sscanf(tt + 13, " %31[0-9.]", out->total_time);
    cost_centres(cc, prof, out);
    jp j = { prof + 10, buf + len, 0 };
    node(&j, out, -1, 0);
    free(buf);
    return j.bad ? -1 : 0;
}

void gp_free(gp_profile *p)
{
    free(p->rows);
    free(p->summary);
    free(p->ccs);
    memset(p, 0, sizeof *p);
}
