/* Callers and callees of chosen cost centres ("sandwich"), from the
 * finished tree: see prof_callers in include/evprof/prof.h.
 *
 * Cost centres are grouped by module, label and source location (the
 * call graph's nodes, graph/callgraph.c): namesakes, one Module.label at
 * several places (prof_namesakes), are groups of their own, and the text
 * names them with their source location. One depth-first walk: a group matched by the
 * pattern takes a node's inherited ticks at its topmost occurrence on the
 * path only (a counter per group says how often it is on the path), and
 * so does each call edge (caller group, callee group) that has a matched
 * end: a stack counts once for a group and once for an edge however often
 * they recur in it. Memory: per cost centre a group, per group a few
 * words, the edges touching a matched group in a table. */
#include <stdlib.h>
#include <string.h>

#include "evprof/prof.h"
#include "evprof/textout.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/htab.h"

typedef struct cgroup {
    uint32_t cc;                /* the first cost centre of the group */
    uint32_t active;            /* occurrences on the current path */
    uint8_t matched;
    uint64_t inherited, self;
} cgroup;

typedef struct cedge {
    uint32_t from, to;          /* groups */
    uint32_t active;
    uint64_t ticks;
} cedge;

typedef struct walker {
    const prof_result *r;
    uint32_t *gid;              /* per cost centre */
    cgroup *g;
    uint32_t ng;
    cedge *e;
    size_t ne, cap_e;
    tx_htab etab;
    int nomem;
} walker;

static int group_eq(const void *items, uint32_t i, const void *key)
{
    const walker *w = items;
    const prof_cc *a = prof_cc_at(w->r, w->g[i].cc), *b = key;
    return strcmp(a->label, b->label) == 0 && strcmp(a->module, b->module) == 0 &&
           strcmp(a->srcloc, b->srcloc) == 0;
}

static int edge_eq(const void *items, uint32_t i, const void *key)
{
    const cedge *e = &((const cedge *)items)[i];
    const uint32_t *k = key;
    return e->from == k[0] && e->to == k[1];
}

/* The edge from -> to, made when new; NULL without memory. */
static cedge *edge(walker *w, uint32_t from, uint32_t to)
{
    uint32_t key[2] = { from, to };
    uint64_t h = hash_mix64((uint64_t)from << 32 | to);
    uint32_t i = tx_htab_find(&w->etab, h, edge_eq, w->e, key);
    if (i != TX_HTAB_NONE)
        return &w->e[i];
    if (w->ne == w->cap_e) {
        size_t n = w->cap_e ? 2 * w->cap_e : 64;
        cedge *e = realloc(w->e, n * sizeof *e);
        if (!e)
            return NULL;
        w->e = e;
        w->cap_e = n;
    }
    if (tx_htab_insert(&w->etab, h, (uint32_t)w->ne) != 0)
        return NULL;
    w->e[w->ne] = (cedge){ from, to, 0, 0 };
    return &w->e[w->ne++];
}

static int enter(void *ctx, uint32_t n)
{
    walker *w = ctx;
    const prof_node *nd = prof_node_at(w->r, n);
    uint32_t g = w->gid[nd->cc];
    if (w->g[g].matched) {
        if (w->g[g].active++ == 0)
            w->g[g].inherited += nd->inherited;
        w->g[g].self += nd->ticks;
    }
    if (nd->parent == PROF_NONE)
        return 0;
    uint32_t pg = w->gid[prof_node_at(w->r, nd->parent)->cc];
    if (!w->g[g].matched && !w->g[pg].matched)
        return 0;
    cedge *e = edge(w, pg, g);
    if (!e) {
        w->nomem = 1;
        return -1;
    }
    if (e->active++ == 0)
        e->ticks += nd->inherited;
    return 0;
}

static int leave(void *ctx, uint32_t n)
{
    walker *w = ctx;
    const prof_node *nd = prof_node_at(w->r, n);
    uint32_t g = w->gid[nd->cc];
    if (w->g[g].matched)
        w->g[g].active--;
    if (nd->parent == PROF_NONE)
        return 0;
    uint32_t pg = w->gid[prof_node_at(w->r, nd->parent)->cc];
    if (!w->g[g].matched && !w->g[pg].matched)
        return 0;
    uint32_t key[2] = { pg, g };
    uint32_t i = tx_htab_find(&w->etab, hash_mix64((uint64_t)pg << 32 | g), edge_eq, w->e, key);
    w->e[i].active--;
    return 0;
}

/* Rows by ticks descending, then name (module, label), then cost
 * centre: the names' order as a rank per cost centre, computed once. */
typedef struct named {
    const prof_cc *cc;
    uint32_t i;
} named;

static int named_cmp(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = strcmp(x->cc->module, y->cc->module);
    if (!c)
        c = strcmp(x->cc->label, y->cc->label);
    return c ? c : (x->i > y->i) - (x->i < y->i);
}

typedef struct keyed {
    uint64_t ticks;
    uint32_t rank, row;
} keyed;

static int keyed_cmp(const void *a, const void *b)
{
    const keyed *x = a, *y = b;
    if (x->ticks != y->ticks)
        return x->ticks > y->ticks ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Sorts n rows of `size` bytes by (ticks desc, rank of their cc); tmp
 * holds n keyed and n * size bytes. */
static void sort_rows(void *rows, size_t n, size_t size, const uint64_t *ticks_of,
                      const uint32_t *cc_of, size_t stride, const uint32_t *rank, keyed *k,
                      char *tmp)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t t = *(const uint64_t *)((const char *)ticks_of + i * stride);
        uint32_t cc = *(const uint32_t *)((const char *)cc_of + i * stride);
        k[i] = (keyed){ t, rank[cc], (uint32_t)i };
    }
    qsort(k, n, sizeof *k, keyed_cmp);
    for (size_t i = 0; i < n; i++)
        memcpy(tmp + i * size, (char *)rows + (size_t)k[i].row * size, size);
    memcpy(rows, tmp, n * size);
}

void prof_callers_free(prof_callers_of *p, size_t n)
{
    if (!p)
        return;
    for (size_t i = 0; i < n; i++) {
        free(p[i].callers);
        free(p[i].callees);
    }
    free(p);
}

ev_status prof_callers(const prof_result *r, const char *pattern, prof_callers_of **out,
                       size_t *n, ev_error *err)
{
    ev_error_clear(err);
    *out = NULL;
    *n = 0;
    size_t nc = prof_num_ccs(r);
    uint8_t *match = calloc(nc ? nc : 1, 1);
    walker w = { .r = r };
    w.gid = malloc((nc ? nc : 1) * sizeof *w.gid);
    w.g = calloc(nc ? nc : 1, sizeof *w.g);
    tx_htab groups = { 0 };
    prof_callers_of *res = NULL;
    size_t nres = 0;
    ev_status rc = EV_ERR_NOMEM;
    if (!match || !w.gid || !w.g || tx_htab_reserve(&groups, nc) != 0)
        goto done;
    ev_status m = prof_match_ccs(r, pattern, match, 1, err);
    if (m != EV_OK) {
        rc = m;
        goto done;
    }
    /* groups by (module, label, source location), numbered in
     * cost-centre order */
    for (uint32_t i = 0; i < nc; i++) {
        const prof_cc *cc = prof_cc_at(r, i);
        uint64_t h = hash_bytes(cc->label, strlen(cc->label), 0);
        h = hash_bytes(cc->module, strlen(cc->module), h);
        h = hash_bytes(cc->srcloc, strlen(cc->srcloc), h);
        uint32_t k = tx_htab_find(&groups, h, group_eq, &w, cc);
        if (k == TX_HTAB_NONE) {
            k = w.ng++;
            w.g[k].cc = i;
            tx_htab_insert(&groups, h, k);      /* reserved: cannot fail */
        }
        w.gid[i] = k;
        w.g[k].matched |= match[i];
    }
    if (prof_num_nodes(r) && prof_walk(r, enter, leave, &w) != 0 && w.nomem)
        goto done;
    for (uint32_t k = 0; k < w.ng; k++)
        nres += w.g[k].matched && w.g[k].inherited > 0;
    res = calloc(nres ? nres : 1, sizeof *res);
    if (!res)
        goto done;
    uint32_t *slot = w.gid;     /* reused: group -> its row, for the edges */
    size_t j = 0;
    for (uint32_t k = 0; k < w.ng; k++) {
        slot[k] = UINT32_MAX;
        if (w.g[k].matched && w.g[k].inherited > 0) {
            res[j] = (prof_callers_of){ .cc = w.g[k].cc, .inherited = w.g[k].inherited,
                                         .self = w.g[k].self };
            slot[k] = (uint32_t)j++;
        }
    }
    /* count, then fill each row's callers and callees */
    for (size_t i = 0; i < w.ne; i++) {
        const cedge *e = &w.e[i];
        if (!e->ticks)
            continue;
        if (slot[e->to] != UINT32_MAX)
            res[slot[e->to]].num_callers++;
        if (slot[e->from] != UINT32_MAX)
            res[slot[e->from]].num_callees++;
    }
    for (size_t i = 0; i < nres; i++) {
        res[i].callers = malloc((res[i].num_callers ? res[i].num_callers : 1) * sizeof(prof_call_row));
        res[i].callees = malloc((res[i].num_callees ? res[i].num_callees : 1) * sizeof(prof_call_row));
        if (!res[i].callers || !res[i].callees)
            goto done;
        res[i].num_callers = res[i].num_callees = 0;
    }
    for (size_t i = 0; i < w.ne; i++) {
        const cedge *e = &w.e[i];
        if (!e->ticks)
            continue;
        if (slot[e->to] != UINT32_MAX) {
            prof_callers_of *p = &res[slot[e->to]];
            p->callers[p->num_callers++] = (prof_call_row){ w.g[e->from].cc, e->ticks };
        }
        if (slot[e->from] != UINT32_MAX) {
            prof_callers_of *p = &res[slot[e->from]];
            p->callees[p->num_callees++] = (prof_call_row){ w.g[e->to].cc, e->ticks };
        }
    }
    /* the order: ticks descending, then the names' order */
    size_t most = nres;
    for (size_t i = 0; i < nres; i++) {
        if (res[i].num_callers > most)
            most = res[i].num_callers;
        if (res[i].num_callees > most)
            most = res[i].num_callees;
    }
    named *nm = malloc((nc ? nc : 1) * sizeof *nm);
    uint32_t *rank = malloc((nc ? nc : 1) * sizeof *rank);
    keyed *k = malloc((most ? most : 1) * sizeof *k);
    char *tmp = malloc((most ? most : 1) * sizeof *res);
    if (!nm || !rank || !k || !tmp) {
        free(nm);
        free(rank);
        free(k);
        free(tmp);
        goto done;
    }
    for (uint32_t i = 0; i < nc; i++)
        nm[i] = (named){ prof_cc_at(r, i), i };
    qsort(nm, nc, sizeof *nm, named_cmp);
    for (uint32_t i = 0; i < nc; i++)
        rank[nm[i].i] = i;
    for (size_t i = 0; i < nres; i++) {
        prof_callers_of *p = &res[i];
        sort_rows(p->callers, p->num_callers, sizeof *p->callers, &p->callers[0].ticks,
                  &p->callers[0].cc, sizeof *p->callers, rank, k, tmp);
        sort_rows(p->callees, p->num_callees, sizeof *p->callees, &p->callees[0].ticks,
                  &p->callees[0].cc, sizeof *p->callees, rank, k, tmp);
    }
    sort_rows(res, nres, sizeof *res, &res[0].inherited, &res[0].cc, sizeof *res, rank, k, tmp);
    free(nm);
    free(rank);
    free(k);
    free(tmp);
    *out = res;
    *n = nres;
    res = NULL;
    rc = EV_OK;
done:
    if (rc == EV_ERR_NOMEM)
        ev_error_set(err, EV_ERR_NOMEM, "out of memory");
    prof_callers_free(res, nres);
    tx_htab_free(&groups);
    tx_htab_free(&w.etab);
    free(w.e);
    free(w.g);
    free(w.gid);
    free(match);
    return rc;
}

/* ---- text ------------------------------------------------------------------ */

/* Module.label, and a namesake's source location: "Main.go (A.hs:3:5-9)" */
static void put_name(FILE *out, const prof_cc *cc, int namesake)
{
    tx_put(out, cc->module, strlen(cc->module));
    fputc('.', out);
    tx_put(out, cc->label, strlen(cc->label));
    if (namesake) {
        fputs(" (", out);
        tx_put(out, cc->srcloc, strlen(cc->srcloc));
        fputc(')', out);
    }
}

static double share(uint64_t part, uint64_t total)
{
    return total ? (double)part / (double)total * 100.0 : 0.0;
}

static void rows(FILE *out, const prof_result *r, const uint8_t *ns, const char *what,
                 const prof_call_row *row, size_t n, uint64_t total)
{
    fprintf(out, "  %12s  %6s  %s\n", "ticks", "%", what);
    if (!n)
        fprintf(out, "  %12s  %6s  (none)\n", "", "");
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "  %12llu  %6.1f  ", (unsigned long long)row[i].ticks,
                share(row[i].ticks, total));
        put_name(out, prof_cc_at(r, row[i].cc), ns && ns[row[i].cc]);
        fputc('\n', out);
    }
}

int prof_report_callers(const prof_result *r, const prof_callers_of *p, size_t n,
                        const char *pattern, FILE *out)
{
    const prof_info *in = prof_get_info(r);
    uint64_t total = in->total_ticks;
    /* without memory for it, namesakes as rows of one name: the same
     * figures, less clear */
    uint8_t *ns = malloc(prof_num_ccs(r) ? prof_num_ccs(r) : 1);
    if (ns && prof_namesakes(r, ns) < 0) {
        free(ns);
        ns = NULL;
    }
    fputs("Callers and callees of the cost centres matching '", out);
    tx_put(out, pattern, strlen(pattern));
    fprintf(out, "' (Module.label), of %llu ticks in all.\n"
            "Ticks of the stacks through the cost centre (inherited), or through the call;\n"
            "a stack counts once however often it passes there.\n",
            (unsigned long long)total);
    for (size_t i = 0; i < n; i++) {
        const prof_cc *cc = prof_cc_at(r, p[i].cc);
        fputc('\n', out);
        put_name(out, cc, 0);
        if (cc->srcloc && *cc->srcloc) {
            fputs("  ", out);
            tx_put(out, cc->srcloc, strlen(cc->srcloc));
        }
        fprintf(out, "\n  inherited %llu ticks (%.1f%%), individual %llu (%.1f%%)\n",
                (unsigned long long)p[i].inherited, share(p[i].inherited, total),
                (unsigned long long)p[i].self, share(p[i].self, total));
        rows(out, r, ns, "callers", p[i].callers, p[i].num_callers, total);
        rows(out, r, ns, "callees", p[i].callees, p[i].num_callees, total);
    }
    free(ns);
    return ferror(out) ? -1 : 0;
}
