/* The call graph of cost centres, from the cost-centre-stack tree.
 *
 * Every tree node with ticks is a stack (the path from its root), weighted
 * by its ticks. A graph node stands for the cost centres of one label,
 * module and source location: namesakes (one label and module at several
 * places, prof_namesakes) are nodes of their own, drawn with their
 * places. Two depth-first walks of the tree, no memory per tree node:
 *
 * 1. self and cum of every graph node. A subtree's (focus/ignore-kept)
 *    ticks are summed on the way up; a graph node takes the subtree's sum
 *    at its topmost occurrence on the path only (a counter per graph node
 *    says how often it is on the current path), so a stack through f
 *    twice counts once for f.
 * 2. after pruning the nodes (node fraction, then the max-nodes best by
 *    cum), the edges among the nodes kept: on each path the hidden nodes
 *    are skipped, so a kept node's edge comes from the nearest kept
 *    ancestor. A direct call (the ancestor is the parent) and a call
 *    through hidden nodes (residual, drawn dotted) are two different
 *    edges, each with its own weight: a solid edge carries exactly the
 *    direct calls w(a->b), so hiding a node never moves ticks onto, nor
 *    takes a solid edge away from, a visible caller. Edge weights use the
 *    same topmost-occurrence rule per (caller, callee, kind).
 *
 * Memory: per cost centre a group index; per graph node its sums and
 * counter; per depth (at most 257) a few words; the edges among the kept
 * nodes in an open-addressing table.
 */
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/hash.h"
#include "util/htab.h"
#include "graph/internal.h"

#define NONE UINT32_MAX

enum { MATCH_FOCUS = 1, MATCH_IGNORE = 2 };

typedef struct group {
    const char *label, *module, *srcloc;
    uint32_t num_ccs;
    uint8_t namesake;
    uint8_t match;              /* MATCH_* */
    uint32_t active;            /* occurrences on the current path */
    uint64_t self, cum;
    uint32_t kept;              /* index among the nodes drawn, or NONE */
} group;

typedef struct edge_acc {
    uint32_t from, to;          /* node indices (kept order) */
    uint32_t active;            /* occurrences on the current (pruned) path */
    uint8_t residual;           /* part of the key: through hidden nodes */
    uint64_t ticks;
} edge_acc;

typedef struct builder {
    const prof_result *p;
    const prof_node *nodes;     /* p's, in table order */
    int has_focus;
    uint32_t *gid;              /* per cost centre */
    group *groups;
    uint32_t num_groups;

    /* per depth of the current path */
    uint8_t *state;             /* MATCH_* seen on the path so far */
    uint64_t *acc;              /* kept ticks of the subtree so far */
    uint32_t *anc;              /* nearest kept node at or above, NONE */
    uint32_t *anc_depth;
    uint32_t *edge_at;          /* edge entered at this depth, NONE */

    edge_acc *edges;
    size_t num_edges, cap_edges;
    tx_htab edge_tab;           /* (from, to, residual) -> index into edges */

    uint64_t shown;
    int failed;
} builder;

void cg_opts_init(cg_opts *o)
{
    o->node_fraction = 0.005;
    o->edge_fraction = 0.001;
    o->max_nodes = 80;
    o->max_edges = 0;
    o->focus = NULL;
    o->ignore = NULL;
}

/* ---- cost centres -> graph nodes ------------------------------------- */

static int group_eq(const void *items, uint32_t i, const void *key)
{
    const group *g = &((const group *)items)[i];
    const prof_cc *cc = key;
    return strcmp(g->label, cc->label) == 0 && strcmp(g->module, cc->module) == 0 &&
           strcmp(g->srcloc, cc->srcloc) == 0;
}

static int make_groups(builder *b)
{
    size_t n = prof_num_ccs(b->p);
    tx_htab table = { 0 };      /* (label, module, srcloc) -> group */
    b->gid = malloc((n ? n : 1) * sizeof *b->gid);
    b->groups = calloc(n ? n : 1, sizeof *b->groups);
    uint8_t *ns = malloc(n ? n : 1);
    if (!b->gid || !b->groups || !ns || prof_namesakes(b->p, ns) < 0 ||
        tx_htab_reserve(&table, n) != 0) {
        free(ns);
        tx_htab_free(&table);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        const prof_cc *cc = prof_cc_at(b->p, i);
        uint64_t h = hash_bytes(cc->label, strlen(cc->label), 0);
        h = hash_bytes(cc->module, strlen(cc->module), h);
        h = hash_bytes(cc->srcloc, strlen(cc->srcloc), h);
        uint32_t k = tx_htab_find(&table, h, group_eq, b->groups, cc);
        if (k == TX_HTAB_NONE) {
            group *g = &b->groups[b->num_groups];
            g->label = cc->label;
            g->module = cc->module;
            g->srcloc = cc->srcloc;
            g->num_ccs = 1;
            g->kept = NONE;
            tx_htab_insert(&table, h, b->num_groups);     /* reserved: cannot fail */
            b->gid[i] = b->num_groups++;
        } else {
            b->groups[k].num_ccs++;         /* one in all three: one to any view */
            b->gid[i] = k;
        }
        b->groups[b->gid[i]].namesake |= ns[i];
    }
    free(ns);
    tx_htab_free(&table);
    return 0;
}

/* Marks the groups whose "Module.label" the focus/ignore regex matches:
 * the profile's matcher (prof_match_ccs) per cost centre, then its group. */
static ev_status match_groups(builder *b, const char *pattern, uint8_t bit, ev_error *err)
{
    size_t n = prof_num_ccs(b->p);
    uint8_t *m = calloc(n ? n : 1, 1);
    if (!m)
        return EV_ERR_NOMEM;
    ev_status st = prof_match_ccs(b->p, pattern, m, bit, err);
    if (st == EV_OK)
        for (size_t i = 0; i < n; i++)
            b->groups[b->gid[i]].match |= m[i];
    free(m);
    return st;
}

/* ---- walking the tree ------------------------------------------------- */

/* MAIN, and the marker under which stacks cut at 255 frames hang: their
 * stacks start there (the cut stacks lost their outer frames, MAIN too). */
static int is_root(const prof_result *p, const prof_node *nd)
{
    return nd->parent == PROF_NONE ||
           (nd->parent == 0 && prof_cc_at(p, nd->cc)->synthetic);
}

/* The path state of node n entered at depth d; returns its group. */
static inline uint32_t enter_common(builder *b, const prof_node *nd, int root)
{
    uint32_t d = nd->depth, g = b->gid[nd->cc];
    b->state[d] = (uint8_t)((root ? 0 : b->state[d - 1]) | b->groups[g].match);
    b->acc[d] = 0;
    return g;
}

/* The kept ticks of node n's subtree, added to its parent's. */
static inline uint64_t leave_common(builder *b, const prof_node *nd, int root)
{
    uint32_t d = nd->depth;
    uint8_t st = b->state[d];
    uint64_t own = (!b->has_focus || (st & MATCH_FOCUS)) && !(st & MATCH_IGNORE) ? nd->ticks : 0;
    uint64_t inh = b->acc[d] + own;
    if (!root)
        b->acc[d - 1] += inh;
    return inh;
}

static inline __attribute__((always_inline)) int nodes_enter(void *ctx, uint32_t n)
{
    builder *b = ctx;
    const prof_node *nd = &b->nodes[n];
    uint32_t g = enter_common(b, nd, is_root(b->p, nd));
    b->groups[g].active++;
    return 0;
}

static inline __attribute__((always_inline)) int nodes_leave(void *ctx, uint32_t n)
{
    builder *b = ctx;
    const prof_node *nd = &b->nodes[n];
    int root = is_root(b->p, nd);
    uint64_t below = b->acc[nd->depth];    /* the children's, before its own */
    uint64_t inh = leave_common(b, nd, root);
    group *g = &b->groups[b->gid[nd->cc]];
    g->self += inh - below;
    b->shown += inh - below;
    if (g->active == 1)
        g->cum += inh;
    g->active--;
    return 0;
}

static uint64_t edge_key(uint32_t from, uint32_t to, uint8_t residual)
{
    return hash_mix64(((uint64_t)from << 32 | to) ^ (uint64_t)residual << 63);
}

static int edge_eq(const void *items, uint32_t i, const void *key)
{
    const edge_acc *x = &((const edge_acc *)items)[i], *k = key;
    return x->from == k->from && x->to == k->to && x->residual == k->residual;
}

static uint32_t edge_of(builder *b, uint32_t from, uint32_t to, uint8_t residual)
{
    uint64_t h = edge_key(from, to, residual);
    edge_acc key = { .from = from, .to = to, .residual = residual };
    uint32_t found = tx_htab_find(&b->edge_tab, h, edge_eq, b->edges, &key);
    if (found != TX_HTAB_NONE)
        return found;
    if (b->num_edges == b->cap_edges) {
        size_t cap = b->cap_edges ? b->cap_edges * 2 : 256;
        edge_acc *ne = realloc(b->edges, cap * sizeof *ne);
        if (!ne)
            return NONE;
        b->edges = ne;
        b->cap_edges = cap;
    }
    if (tx_htab_insert(&b->edge_tab, h, (uint32_t)b->num_edges) != 0)
        return NONE;
    edge_acc *e = &b->edges[b->num_edges];
    memset(e, 0, sizeof *e);
    e->from = from;
    e->to = to;
    e->residual = residual;
    return (uint32_t)b->num_edges++;
}

static inline __attribute__((always_inline)) int edges_enter(void *ctx, uint32_t n)
{
    builder *b = ctx;
    const prof_node *nd = &b->nodes[n];
    int root = is_root(b->p, nd);
    uint32_t d = nd->depth, g = enter_common(b, nd, root);
    uint32_t up = root ? NONE : b->anc[d - 1], up_depth = root ? NONE : b->anc_depth[d - 1];
    uint32_t k = b->groups[g].kept;

    b->edge_at[d] = NONE;
    if (k == NONE) {
        b->anc[d] = up;
        b->anc_depth[d] = up_depth;
        return 0;
    }
    if (up != NONE) {
        uint32_t e = edge_of(b, up, k, up_depth != d - 1);
        if (e == NONE)
            return -1;
        b->edges[e].active++;
        b->edge_at[d] = e;
    }
    b->anc[d] = k;
    b->anc_depth[d] = d;
    return 0;
}

static inline __attribute__((always_inline)) int edges_leave(void *ctx, uint32_t n)
{
    builder *b = ctx;
    const prof_node *nd = &b->nodes[n];
    uint32_t d = nd->depth;
    uint64_t inh = leave_common(b, nd, is_root(b->p, nd));
    uint32_t e = b->edge_at[d];
    if (e != NONE) {
        edge_acc *ea = &b->edges[e];
        if (ea->active == 1)
            ea->ticks += inh;
        ea->active--;
    }
    return 0;
}

/* One walk down the print order (prof_preorder), as prof_walk makes it: a
 * node is left when the next one is no deeper. Written out here so that
 * enter and leave are inlined: through prof_walk's callbacks, four
 * indirect calls per node were most of the graph's build on deep trees
 * (hard quick: 177 M instructions of which 51 M the walks' own). -1
 * when enter or leave fails. */
static inline __attribute__((always_inline)) int walk(builder *b, int (*enter)(void *, uint32_t),
                                                      int (*leave)(void *, uint32_t))
{
    size_t num;
    const uint32_t *order = prof_preorder(b->p, &num);
    uint32_t path[EL_MAX_STACK + 3];
    size_t top = 0;
    for (size_t i = 0; i < num; i++) {
        if (i + 16 < num)
            TX_PREFETCH(&b->nodes[order[i + 16]]);
        uint32_t v = order[i], d = b->nodes[v].depth;
        while (top > d)
            if (leave(b, path[--top]) != 0)
                return -1;
        if (d != top || top == sizeof path / sizeof *path)
            return -1;      /* never: depth is the parent's + 1 */
        if (enter(b, v) != 0)
            return -1;
        path[top++] = v;
    }
    while (top)
        if (leave(b, path[--top]) != 0)
            return -1;
    return 0;
}

/* ---- ordering --------------------------------------------------------- */

static int cmp_groups(const void *x, const void *y)
{
    const group *a = *(const group *const *)x, *b = *(const group *const *)y;
    if (a->cum != b->cum)
        return a->cum > b->cum ? -1 : 1;
    if (a->self != b->self)
        return a->self > b->self ? -1 : 1;
    int c = strcmp(a->module, b->module);
    return c ? c : strcmp(a->label, b->label);
}

static int cmp_edges(const void *x, const void *y)
{
    const cg_edge *a = x, *b = y;
    if (a->ticks != b->ticks)
        return a->ticks > b->ticks ? -1 : 1;
    if (a->from != b->from)
        return a->from < b->from ? -1 : 1;
    if (a->to != b->to)
        return a->to < b->to ? -1 : 1;
    return a->residual - b->residual;       /* the solid twin first */
}

/* ---- redundant residual edges ---------------------------------------- */

/* A dotted edge a -> b says "a reaches b through hidden nodes". When a
 * path of drawn edges through other drawn nodes already leads from a to b,
 * it adds nothing but clutter (and dense graphs make dot's layout slow),
 * so it goes. Its solid twin a -> b alone does not imply it (nor does a
 * cycle back to a that ends with the twin): the two carry different ticks,
 * direct calls and calls through hidden nodes, and the dotted one is what
 * keeps the latter visible.
 *
 * The dotted edges are decided heaviest first, each against the solid
 * edges and the dotted edges already kept, so that every edge removed is
 * implied by edges that stay drawn (checking against all the edges still
 * there would let two dotted edges each justify dropping the other). Each
 * check is a search; a work budget bounds the rare huge case (thousands of
 * nodes kept): past it, the rest are kept. Edges are ordered heaviest
 * first. Returns the number removed, or -1 when memory ran out. */
#define REDUNDANCY_BUDGET 200000000ull

static long drop_redundant(cg_graph *g)
{
    size_t nn = g->num_nodes, ne = g->num_edges, nres = 0;
    for (size_t i = 0; i < ne; i++)
        nres += g->edges[i].residual != 0;
    if (!nres)
        return 0;
    uint32_t *start = calloc(nn + 1, sizeof *start);
    uint32_t *adj = malloc(ne * sizeof *adj);            /* edge indices by source */
    uint8_t *alive = malloc(ne);
    uint8_t *seen = malloc(nn ? nn : 1);
    uint32_t *queue = malloc((nn ? nn : 1) * sizeof *queue);
    long removed = -1;
    if (!start || !adj || !alive || !seen || !queue)
        goto done;
    for (size_t i = 0; i < ne; i++)
        start[g->edges[i].from + 1]++;
    for (size_t i = 0; i < nn; i++)
        start[i + 1] += start[i];
    for (size_t i = 0; i < ne; i++)      /* start[v] runs to v's end */
        adj[start[g->edges[i].from]++] = (uint32_t)i;
    for (size_t i = nn; i > 0; i--)         /* start[] was advanced: shift back */
        start[i] = start[i - 1];
    start[0] = 0;
    for (size_t i = 0; i < ne; i++)
        alive[i] = !g->edges[i].residual;

    uint64_t work = 0;
    removed = 0;
    for (size_t e = 0; e < ne; e++) {
        if (!g->edges[e].residual)
            continue;
        alive[e] = 1;                       /* kept unless implied */
        if (work >= REDUNDANCY_BUDGET)
            continue;
        uint32_t from = g->edges[e].from, to = g->edges[e].to;
        memset(seen, 0, nn);
        size_t head = 0, tail = 0;
        int found = 0;
        queue[tail++] = from;       /* paths through other drawn nodes */
        while (head < tail && !found) {
            uint32_t v = queue[head++];
            for (uint32_t j = start[v]; j < start[v + 1]; j++) {
                work++;
                const cg_edge *x = &g->edges[adj[j]];
                if (!alive[adj[j]] || seen[x->to] || (v == from && x->to == to))
                    continue;           /* the twin is no path through others */
                if (x->to == to) {
                    found = 1;
                    break;
                }
                seen[x->to] = 1;
                queue[tail++] = x->to;
            }
        }
        if (found) {
            alive[e] = 0;
            removed++;
        }
    }
    size_t out = 0;
    for (size_t i = 0; i < ne; i++)
        if (alive[i])
            g->edges[out++] = g->edges[i];
    g->num_edges = out;

done:
    free(start);
    free(adj);
    free(alive);
    free(seen);
    free(queue);
    return removed;
}

/* ---- at most max_edges edges ------------------------------------------ */

/* dot's layout time explodes on dense graphs (80 nodes: 400 edges take a
 * second, 800 take minutes), and such a graph is unreadable anyway. Keep
 * first each node's heaviest call from another node (so that no node
 * drawn loses all its callers), then the heaviest of the rest. Edges are
 * ordered heaviest first. Returns the number dropped, or -1 (memory). */
static long cap_edges(cg_graph *g, size_t max_edges)
{
    size_t ne = g->num_edges;
    if (ne <= max_edges)
        return 0;
    uint8_t *keep = calloc(ne, 1);
    uint8_t *has_in = calloc(g->num_nodes ? g->num_nodes : 1, 1);
    if (!keep || !has_in) {
        free(keep);
        free(has_in);
        return -1;
    }
    size_t budget = max_edges;
    for (size_t i = 0; i < ne && budget; i++) {
        const cg_edge *e = &g->edges[i];
        if (e->from != e->to && !has_in[e->to]) {
            has_in[e->to] = 1;
            keep[i] = 1;
            budget--;
        }
    }
    for (size_t i = 0; i < ne && budget; i++)
        if (!keep[i]) {
            keep[i] = 1;
            budget--;
        }
    size_t out = 0;
    for (size_t i = 0; i < ne; i++)
        if (keep[i])
            g->edges[out++] = g->edges[i];
    g->num_edges = out;
    free(keep);
    free(has_in);
    return (long)(ne - out);
}

/* ---- building --------------------------------------------------------- */

static void builder_free(builder *b)
{
    free(b->gid);
    free(b->groups);
    free(b->state);
    free(b->acc);
    free(b->anc);
    free(b->anc_depth);
    free(b->edge_at);
    free(b->edges);
    tx_htab_free(&b->edge_tab);
}

static char *dup_or_null(const char *s, int *failed)
{
    if (!s)
        return NULL;
    char *d = strdup(s);
    if (!d)
        *failed = 1;
    return d;
}

ev_status cg_build(const prof_result *p, const cg_opts *o, cg_graph **out, ev_error *err)
{
    cg_opts defaults;
    builder b;
    ev_status st = EV_ERR_NOMEM;
    group **order = NULL;

    *out = NULL;
    ev_error_clear(err);
    if (!o) {
        cg_opts_init(&defaults);
        o = &defaults;
    }
    memset(&b, 0, sizeof b);
    b.p = p;
    b.nodes = prof_nodes(p);
    b.has_focus = o->focus != NULL;

    cg_graph *g = calloc(1, sizeof *g);
    if (!g || make_groups(&b) != 0)
        goto fail;
    g->p = p;
    g->opts = *o;
    int dup_failed = 0;
    g->focus = dup_or_null(o->focus, &dup_failed);
    g->ignore = dup_or_null(o->ignore, &dup_failed);
    g->opts.focus = g->focus;
    g->opts.ignore = g->ignore;
    if (g->opts.max_nodes == 0)
        g->opts.max_nodes = 1;
    if (dup_failed)
        goto fail;
    if (o->focus && (st = match_groups(&b, o->focus, MATCH_FOCUS, err)) != EV_OK)
        goto fail;
    if (o->ignore && (st = match_groups(&b, o->ignore, MATCH_IGNORE, err)) != EV_OK)
        goto fail;
    st = EV_ERR_NOMEM;

    uint32_t max_depth = 0;
    for (size_t i = 0, n = prof_num_nodes(p); i < n; i++)
        if (b.nodes[i].depth > max_depth)
            max_depth = b.nodes[i].depth;
    size_t nd = (size_t)max_depth + 1;
    b.state = malloc(nd);
    b.acc = malloc(nd * sizeof *b.acc);
    b.anc = malloc(nd * sizeof *b.anc);
    b.anc_depth = malloc(nd * sizeof *b.anc_depth);
    b.edge_at = malloc(nd * sizeof *b.edge_at);
    if (!b.state || !b.acc || !b.anc || !b.anc_depth || !b.edge_at)
        goto fail;

    /* 1: self and cum */
    walk(&b, nodes_enter, nodes_leave);         /* cannot fail */

    /* the nodes drawn: cum >= node_fraction x shown, then the best by cum */
    cg_summary *sum = &g->sum;
    sum->profile_ticks = prof_get_info(p)->total_ticks;
    sum->shown_ticks = b.shown;
    sum->node_cutoff = o->node_fraction * (double)b.shown;
    sum->edge_cutoff = o->edge_fraction * (double)b.shown;
    order = malloc((b.num_groups ? b.num_groups : 1) * sizeof *order);
    if (!order)
        goto fail;
    size_t n_order = 0;
    for (uint32_t i = 0; i < b.num_groups; i++) {
        group *gr = &b.groups[i];
        if (!gr->cum)
            continue;
        sum->all_nodes++;
        if ((double)gr->cum < sum->node_cutoff)
            sum->dropped_nodes_fraction++;
        else
            order[n_order++] = gr;
    }
    qsort(order, n_order, sizeof *order, cmp_groups);
    if (n_order > g->opts.max_nodes) {
        sum->dropped_nodes_max = (uint32_t)(n_order - g->opts.max_nodes);
        n_order = g->opts.max_nodes;
    }
    g->nodes = calloc(n_order ? n_order : 1, sizeof *g->nodes);
    if (!g->nodes)
        goto fail;
    for (size_t i = 0; i < n_order; i++) {
        group *gr = order[i];
        gr->kept = (uint32_t)i;
        cg_node *cn = &g->nodes[i];
        cn->label = gr->label;
        cn->module = gr->module;
        cn->srcloc = gr->srcloc;
        cn->num_ccs = gr->num_ccs;
        cn->namesake = gr->namesake;
        cn->self = gr->self;
        cn->cum = gr->cum;
        sum->node_ticks += gr->self;
        if (gr->self > sum->max_self)
            sum->max_self = gr->self;
    }
    g->num_nodes = n_order;

    /* 2: the edges among them */
    if (n_order && walk(&b, edges_enter, edges_leave) != 0)
        goto fail;
    g->edges = malloc((b.num_edges ? b.num_edges : 1) * sizeof *g->edges);
    if (!g->edges)
        goto fail;
    for (size_t i = 0; i < b.num_edges; i++) {
        const edge_acc *e = &b.edges[i];
        if (!e->ticks)
            continue;
        sum->all_edges++;
        if ((double)e->ticks < sum->edge_cutoff) {
            sum->dropped_edges++;
            continue;
        }
        cg_edge *ce = &g->edges[g->num_edges++];
        ce->from = e->from;
        ce->to = e->to;
        ce->ticks = e->ticks;
        ce->residual = e->residual;
    }
    qsort(g->edges, g->num_edges, sizeof *g->edges, cmp_edges);
    long redundant = drop_redundant(g);
    if (redundant < 0)
        goto fail;
    sum->dropped_edges_redundant = (uint32_t)redundant;
    size_t max_edges = g->opts.max_edges ? g->opts.max_edges : 3 * (size_t)g->opts.max_nodes;
    long capped = cap_edges(g, max_edges);
    if (capped < 0)
        goto fail;
    sum->dropped_edges_max = (uint32_t)capped;

    free(order);
    builder_free(&b);
    *out = g;
    return EV_OK;

fail:
    free(order);
    builder_free(&b);
    cg_destroy(g);
    if (st == EV_ERR_NOMEM)
        ev_error_set(err, EV_ERR_NOMEM, "out of memory");
    return st;
}

void cg_destroy(cg_graph *g)
{
    if (!g)
        return;
    free(g->nodes);
    free(g->edges);
    free(g->focus);
    free(g->ignore);
    free(g);
}

size_t cg_num_nodes(const cg_graph *g) { return g->num_nodes; }
const cg_node *cg_node_at(const cg_graph *g, size_t i)
{
    return i < g->num_nodes ? &g->nodes[i] : NULL;
}
size_t cg_num_edges(const cg_graph *g) { return g->num_edges; }
const cg_edge *cg_edge_at(const cg_graph *g, size_t i)
{
    return i < g->num_edges ? &g->edges[i] : NULL;
}
const cg_summary *cg_get_summary(const cg_graph *g) { return &g->sum; }
