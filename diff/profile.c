/* Two time profiles paired: cost centres by (module, label, source) and
 * stacks by their path of those names.
 *
 * Each run's tree is walked from MAIN; a node of the merged tree is found
 * by (merged parent, paired cost centre) in an open-addressing table, so
 * building costs time in proportion to the two trees. Nothing here prints.
 */
#include "diff/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/hash.h"
#include "util/htab.h"

void diff_opts_init(diff_opts *o)
{
    o->normalize = 0;
}

/* ---- building ----------------------------------------------------------- */

static uint64_t cc_hash(const prof_cc *cc)
{
    uint64_t h = hash_bytes(cc->module, strlen(cc->module), 0);
    h = hash_bytes(cc->label, strlen(cc->label), h);
    return hash_bytes(cc->srcloc, strlen(cc->srcloc), h);
}

static int cc_eq(const void *ccs, uint32_t i, const void *key)
{
    const diff_cc *c = &((const diff_cc *)ccs)[i];
    const prof_cc *k = key;
    return strcmp(c->module, k->module) == 0 && strcmp(c->label, k->label) == 0 &&
           strcmp(c->srcloc, k->srcloc) == 0;
}

/* The paired cost centre of `cc`, made when new; PROF_NONE without memory. */
static uint32_t pair_cc(diff_prof *d, tx_htab *t, const prof_cc *cc, int side)
{
    uint64_t h = cc_hash(cc);
    uint32_t i = tx_htab_find(t, h, cc_eq, d->ccs, cc);
    if (i == TX_HTAB_NONE) {
        if (d->num_ccs == d->cap_ccs) {
            size_t cap = d->cap_ccs ? d->cap_ccs * 2 : 64;
            diff_cc *n = realloc(d->ccs, cap * sizeof *n);
            if (!n)
                return PROF_NONE;
            d->ccs = n;
            d->cap_ccs = cap;
        }
        if (tx_htab_insert(t, h, (uint32_t)d->num_ccs) != 0)
            return PROF_NONE;
        i = (uint32_t)d->num_ccs++;
        memset(&d->ccs[i], 0, sizeof d->ccs[i]);
        d->ccs[i].label = cc->label;
        d->ccs[i].module = cc->module;
        d->ccs[i].srcloc = cc->srcloc;
    }
    if (side == 0 && !d->ccs[i].base_cc)
        d->ccs[i].base_cc = cc;
    if (side == 1 && !d->ccs[i].new_cc)
        d->ccs[i].new_cc = cc;
    return i;
}

static uint32_t new_node(diff_prof *d, uint32_t cc, uint32_t parent)
{
    if (d->num_nodes == d->cap_nodes) {
        size_t cap = d->cap_nodes ? d->cap_nodes * 2 : 256;
        diff_node *n = realloc(d->nodes, cap * sizeof *n);
        if (!n)
            return PROF_NONE;
        d->nodes = n;
        d->cap_nodes = cap;
    }
    uint32_t i = (uint32_t)d->num_nodes++;
    diff_node *nd = &d->nodes[i];
    memset(nd, 0, sizeof *nd);
    nd->cc = cc;
    nd->parent = parent;
    nd->first_child = nd->next_sibling = PROF_NONE;
    nd->depth = parent == PROF_NONE ? 0 : d->nodes[parent].depth + 1;
    return i;
}

typedef struct merge_ctx {
    diff_prof *d;
    const prof_result *r;
    int side;
    uint32_t *map;              /* the run's node -> merged node */
    uint32_t *ccmap;            /* the run's cost centre -> paired one */
    tx_htab *stacks;            /* (merged parent, paired cc) -> merged node */
    int failed;
} merge_ctx;

static int node_eq(const void *nodes, uint32_t i, const void *key)
{
    const diff_node *nd = &((const diff_node *)nodes)[i], *k = key;
    return nd->parent == k->parent && nd->cc == k->cc;
}

static int merge_visit(void *ctx, uint32_t n)
{
    merge_ctx *m = ctx;
    diff_prof *d = m->d;
    const prof_node *nd = prof_node_at(m->r, n);
    uint32_t cc = m->ccmap[nd->cc], at;

    if (nd->parent == PROF_NONE) {
        at = 0;
        if (d->num_nodes == 0 && new_node(d, cc, PROF_NONE) == PROF_NONE)
            goto nomem;
    } else {
        uint32_t parent = m->map[nd->parent];
        uint64_t h = hash_mix64((uint64_t)parent << 32 | cc);
        diff_node key = { .cc = cc, .parent = parent };
        at = tx_htab_find(m->stacks, h, node_eq, d->nodes, &key);
        if (at == TX_HTAB_NONE) {
            if ((at = new_node(d, cc, parent)) == PROF_NONE ||
                tx_htab_insert(m->stacks, h, at) != 0)
                goto nomem;
        }
    }
    m->map[n] = at;
    if (m->side == 0) {
        d->nodes[at].base_ticks += nd->ticks;
        d->ccs[cc].base_ticks += nd->ticks;
    } else {
        d->nodes[at].new_ticks += nd->ticks;
        d->ccs[cc].new_ticks += nd->ticks;
    }
    return 0;
nomem:
    m->failed = 1;
    return -1;
}

static int merge(diff_prof *d, const prof_result *r, int side, uint32_t *ccmap, tx_htab *stacks)
{
    size_t nn = prof_num_nodes(r);
    merge_ctx m = { d, r, side, malloc((nn ? nn : 1) * sizeof(uint32_t)), ccmap, stacks, 0 };
    int rc = -1;
    if (m.map && (!nn || prof_walk(r, merge_visit, NULL, &m) == 0))
        rc = m.failed ? -1 : 0;
    free(m.map);
    return rc;
}

static int same_name(const diff_cc *a, const diff_cc *b)
{
    return strcmp(a->module, b->module) == 0 && strcmp(a->label, b->label) == 0;
}

/* A cost centre whose source location moved between the builds (an edit
 * above it, or of it) is still the same one when its module and label
 * name exactly one unpaired cost centre on each side: those are paired.
 * Returns 0, or -1 without memory. */
static int pair_moved(diff_prof *d, uint32_t *map[2], const size_t nc[2])
{
    size_t n = d->num_ccs;
    uint32_t *to = malloc((n ? n : 1) * sizeof *to);
    if (!to)
        return -1;
    for (size_t i = 0; i < n; i++)
        to[i] = (uint32_t)i;
    for (size_t i = 0; i < n; i++) {
        const diff_cc *c = &d->ccs[i];
        if (!c->new_cc || c->base_cc)
            continue;
        size_t base_only = 0, new_only = 0, j_at = 0;
        for (size_t j = 0; j < n; j++) {
            const diff_cc *x = &d->ccs[j];
            if (!same_name(c, x) || (x->base_cc && x->new_cc))
                continue;
            if (x->base_cc) {
                base_only++;
                j_at = j;
            } else {
                new_only++;
            }
        }
        if (base_only == 1 && new_only == 1)
            to[i] = (uint32_t)j_at;
    }
    /* fold the moved ones into their BASE twins, then close the gaps */
    size_t m = 0;
    uint32_t *at = malloc((n ? n : 1) * sizeof *at);
    if (!at) {
        free(to);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (to[i] != i) {
            d->ccs[to[i]].new_cc = d->ccs[i].new_cc;
            d->ccs[to[i]].srcloc = d->ccs[i].srcloc;     /* NEW's location */
        }
    for (size_t i = 0; i < n; i++)
        if (to[i] == i) {
            at[i] = (uint32_t)m;
            d->ccs[m++] = d->ccs[i];
        }
    for (int side = 0; side < 2; side++)
        for (size_t k = 0; k < nc[side]; k++)
            map[side][k] = at[to[map[side][k]]];
    d->num_ccs = m;
    free(to);
    free(at);
    return 0;
}

/* Pairs every cost centre of both runs; map[side][its index] = the pair. */
static int pair_all(diff_prof *d, uint32_t *map[2])
{
    tx_htab t = { 0 };          /* (module, label, srcloc) -> paired cc */
    size_t nc[2] = { prof_num_ccs(d->base), prof_num_ccs(d->cur) };
    int rc = -1;
    for (int side = 0; side < 2; side++) {
        const prof_result *r = side ? d->cur : d->base;
        for (size_t i = 0; i < nc[side]; i++)
            if ((map[side][i] = pair_cc(d, &t, prof_cc_at(r, (uint32_t)i), side)) == PROF_NONE)
                goto out;
    }
    rc = pair_moved(d, map, nc);
out:
    tx_htab_free(&t);
    return rc;
}

/* What the orders compare, copied so that qsort needs no context. */
typedef struct sort_key {
    uint64_t a, b;              /* descending */
    double delta;               /* absolute, descending (cost centres) */
    const char *label, *module, *srcloc;
    uint32_t i;
} sort_key;

static int cmp_keys(const void *p, const void *q)
{
    const sort_key *x = p, *y = q;
    if (x->delta != y->delta)
        return x->delta > y->delta ? -1 : 1;
    if (x->a != y->a)
        return x->a > y->a ? -1 : 1;
    if (x->b != y->b)
        return x->b > y->b ? -1 : 1;
    int c = strcmp(x->label, y->label);
    if (!c)
        c = strcmp(x->module, y->module);
    if (!c)
        c = strcmp(x->srcloc, y->srcloc);
    if (!c)
        c = x->i < y->i ? -1 : x->i > y->i;
    return c;
}

/* Inherited ticks (children come after their parents in the node array)
 * and ordered child lists. */
static int finish_tree(diff_prof *d)
{
    for (size_t i = d->num_nodes; i-- > 0;) {
        diff_node *nd = &d->nodes[i];
        nd->base_inherited += nd->base_ticks;
        nd->new_inherited += nd->new_ticks;
        if (nd->parent != PROF_NONE) {
            d->nodes[nd->parent].base_inherited += nd->base_inherited;
            d->nodes[nd->parent].new_inherited += nd->new_inherited;
        }
    }
    /* order: all nodes sorted once, then threaded onto their parents in
     * reverse, so each child list comes out in order */
    sort_key *order = malloc((d->num_nodes ? d->num_nodes : 1) * sizeof *order);
    if (!order)
        return -1;
    for (size_t i = 0; i < d->num_nodes; i++) {
        const diff_node *nd = &d->nodes[i];
        const diff_cc *c = &d->ccs[nd->cc];
        order[i] = (sort_key){ nd->new_inherited, nd->base_inherited, 0.0, c->label, c->module,
                               c->srcloc, (uint32_t)i };
    }
    qsort(order, d->num_nodes, sizeof *order, cmp_keys);
    for (size_t i = d->num_nodes; i-- > 0;) {
        diff_node *nd = &d->nodes[order[i].i];
        if (nd->parent == PROF_NONE)
            continue;
        nd->next_sibling = d->nodes[nd->parent].first_child;
        d->nodes[nd->parent].first_child = order[i].i;
    }
    free(order);
    return 0;
}

/* Namesakes in either run: a paired cost centre is one when its
 * cost centre is in BASE or in NEW. 0, or -1 without memory. */
static int mark_namesakes(diff_prof *d)
{
    const prof_result *run[2] = { d->base, d->cur };
    uint8_t *ns[2] = { malloc(prof_num_ccs(d->base) + 1), malloc(prof_num_ccs(d->cur) + 1) };
    int rc = -1;
    if (!ns[0] || !ns[1] || prof_namesakes(run[0], ns[0]) < 0 ||
        prof_namesakes(run[1], ns[1]) < 0)
        goto out;
    for (size_t i = 0; i < d->num_ccs; i++) {
        diff_cc *c = &d->ccs[i];
        const prof_cc *side[2] = { c->base_cc, c->new_cc };
        for (int k = 0; k < 2; k++)
            if (side[k] && ns[k][side[k] - prof_cc_at(run[k], 0)])
                c->namesake = 1;
    }
    rc = 0;
out:
    free(ns[0]);
    free(ns[1]);
    return rc;
}

ev_status diff_prof_create(const prof_result *base, const prof_result *cur, const diff_opts *o,
                             diff_prof **out)
{
    diff_opts defaults;
    if (!o) {
        diff_opts_init(&defaults);
        o = &defaults;
    }
    *out = NULL;
    diff_prof *d = calloc(1, sizeof *d);
    tx_htab stacks = { 0 };
    if (!d)
        return EV_ERR_NOMEM;
    d->base = base;
    d->cur = cur;
    uint32_t *map[2] = { malloc((prof_num_ccs(base) + 1) * sizeof(uint32_t)),
                         malloc((prof_num_ccs(cur) + 1) * sizeof(uint32_t)) };
    int rc = map[0] && map[1] && pair_all(d, map) == 0 &&
             merge(d, base, 0, map[0], &stacks) == 0 && merge(d, cur, 1, map[1], &stacks) == 0 &&
             finish_tree(d) == 0 ? 0 : -1;
    free(map[0]);
    free(map[1]);
    tx_htab_free(&stacks);
    if (rc == 0)
        rc = mark_namesakes(d);
    if (rc != 0) {
        diff_prof_destroy(d);
        return EV_ERR_NOMEM;
    }

    diff_info *in = &d->info;
    in->base_total = prof_get_info(base)->total_ticks;
    in->new_total = prof_get_info(cur)->total_ticks;
    in->normalized = o->normalize && in->base_total && in->new_total;
    in->scale = in->normalized ? (double)in->new_total / (double)in->base_total : 1.0;
    for (size_t i = 0; i < d->num_ccs; i++) {
        diff_cc *c = &d->ccs[i];
        c->base = (double)c->base_ticks * in->scale;
        c->delta = (double)c->new_ticks - c->base;
        /* added or removed: not in the other build at all */
        c->change = !c->base_cc ? DIFF_ADDED : !c->new_cc ? DIFF_REMOVED : DIFF_SAME;
        if (!c->base_ticks && !c->new_ticks)
            continue;
        if (c->change == DIFF_ADDED)
            in->added++;
        else if (c->change == DIFF_REMOVED)
            in->removed++;
        else
            in->same++;
    }
    *out = d;
    return EV_OK;
}

void diff_prof_destroy(diff_prof *d)
{
    if (!d)
        return;
    free(d->ccs);
    free(d->nodes);
    free(d);
}

const diff_info *diff_get_info(const diff_prof *d)
{
    return &d->info;
}

size_t diff_num_ccs(const diff_prof *d)
{
    return d->num_ccs;
}

const diff_cc *diff_cc_at(const diff_prof *d, uint32_t i)
{
    return i < d->num_ccs ? &d->ccs[i] : NULL;
}

size_t diff_num_nodes(const diff_prof *d)
{
    return d->num_nodes;
}

const diff_node *diff_node_at(const diff_prof *d, uint32_t i)
{
    return i < d->num_nodes ? &d->nodes[i] : NULL;
}

double diff_pct(double base, double cur)
{
    if (base == 0.0)
        return cur == 0.0 ? 0.0 : INFINITY;
    return 100.0 * (cur - base) / base;
}

uint32_t *diff_ccs_by_delta(const diff_prof *d, size_t *n)
{
    sort_key *k = malloc((d->num_ccs ? d->num_ccs : 1) * sizeof *k);
    uint32_t *v = malloc((d->num_ccs ? d->num_ccs : 1) * sizeof *v);
    *n = 0;
    if (!k || !v) {
        free(k);
        free(v);
        return NULL;
    }
    for (size_t i = 0; i < d->num_ccs; i++) {
        const diff_cc *c = &d->ccs[i];
        if (c->base_ticks || c->new_ticks)
            k[(*n)++] = (sort_key){ c->new_ticks, 0, fabs(c->delta), c->label, c->module,
                                    c->srcloc, (uint32_t)i };
    }
    qsort(k, *n, sizeof *k, cmp_keys);
    for (size_t i = 0; i < *n; i++)
        v[i] = k[i].i;
    free(k);
    return v;
}

double diff_cc_growth(const diff_prof *d, const diff_cc *c)
{
    double total = (double)d->info.base_total * d->info.scale;
    if (c->delta <= 0.0)
        return 0.0;
    return total > 0.0 ? 100.0 * c->delta / total : INFINITY;
}

int diff_grew_above(const diff_prof *d, double pct, double min_share, uint32_t *cc)
{
    const diff_info *in = &d->info;
    if (diff_pct((double)in->base_total * in->scale, (double)in->new_total) > pct) {
        *cc = PROF_NONE;
        return 1;
    }
    for (size_t i = 0; i < d->num_ccs; i++) {
        const diff_cc *c = &d->ccs[i];
        if (!c->new_ticks || diff_cc_growth(d, c) <= pct)
            continue;
        /* too small in both runs to be judged */
        if (min_share > 0.0 &&
            (!in->base_total || 100.0 * (double)c->base_ticks / (double)in->base_total < min_share) &&
            100.0 * (double)c->new_ticks / (double)in->new_total < min_share)
            continue;
        *cc = (uint32_t)i;
        return 1;
    }
    return 0;
}
