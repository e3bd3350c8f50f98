/* What a result answers: its nodes and cost centres, walks of the tree
 * in print order, totals per cost centre. */
#include "prof/internal.h"

#include <stdlib.h>
#include <string.h>

#include "util/namesakes.h"

void prof_result_destroy(prof_result *r)
{
    if (!r)
        return;
    free(r->nodes);
    free(r->order);
    free(r->ccs);
    free(r->argv_store);
    free(r->run_cmds);
    tx_strpool_destroy(&r->strings);
    free(r);
}

/* ---- totals per cost centre ------------------------------------------------ */

typedef struct totals_walk {
    const prof_result *r;
    prof_cc_total *t;
    uint32_t *on_path;          /* per cost centre: frames of it on the current path */
} totals_walk;

static int totals_enter(void *ctx, uint32_t n)
{
    totals_walk *w = ctx;
    const prof_node *nd = &w->r->nodes[n];
    prof_cc_total *t = &w->t[nd->cc];
    t->ticks += nd->ticks;
    /* inherited: once per stack, however often the cost centre recurs in it */
    if (w->on_path[nd->cc]++ == 0)
        t->inherited += nd->inherited;
    return 0;
}

static int totals_leave(void *ctx, uint32_t n)
{
    totals_walk *w = ctx;
    w->on_path[w->r->nodes[n].cc]--;
    return 0;
}

static int by_ticks(const void *a, const void *b)
{
    const prof_cc_total *x = a, *y = b;
    if (x->ticks != y->ticks)
        return x->ticks > y->ticks ? -1 : 1;
    if (x->inherited != y->inherited)
        return x->inherited > y->inherited ? -1 : 1;
    return (x->cc > y->cc) - (x->cc < y->cc);
}

prof_cc_total *prof_cc_totals(const prof_result *r, size_t *n)
{
    totals_walk w = { r, calloc(r->num_ccs ? r->num_ccs : 1, sizeof *w.t),
                      calloc(r->num_ccs ? r->num_ccs : 1, sizeof *w.on_path) };
    *n = 0;
    if (!w.t || !w.on_path) {
        free(w.t);
        free(w.on_path);
        return NULL;
    }
    for (size_t i = 0; i < r->num_ccs; i++)
        w.t[i].cc = (uint32_t)i;
    prof_walk(r, totals_enter, totals_leave, &w);
    free(w.on_path);
    size_t k = 0;
    for (size_t i = 0; i < r->num_ccs; i++)
        if (w.t[i].inherited)
            w.t[k++] = w.t[i];
    qsort(w.t, k, sizeof *w.t, by_ticks);
    *n = k;
    return w.t;
}

int prof_walk(const prof_result *p, prof_visit_fn enter, prof_visit_fn leave, void *ctx)
{
    /* down the print order, fetching nodes ahead; a node is left when
     * the next one is no deeper (the tree is at most EL_MAX_STACK + 2
     * deep: the root, the cut marker, 255 frames) */
    uint32_t path[EL_MAX_STACK + 3];
    size_t top = 0;
    for (size_t i = 0; i < p->num_order; i++) {
        if (i + 16 < p->num_order)
            TX_PREFETCH(&p->nodes[p->order[i + 16]]);
        uint32_t v = p->order[i], d = p->nodes[v].depth;
        while (top > d) {
            top--;
            if (leave && leave(ctx, path[top]) != 0)
                return -1;
        }
        if (d != top || top == sizeof path / sizeof *path)
            return -1;      /* never: depth is the parent's + 1 */
        if (enter(ctx, v) != 0)
            return -1;
        path[top++] = v;
    }
    while (top) {
        top--;
        if (leave && leave(ctx, path[top]) != 0)
            return -1;
    }
    return 0;
}

size_t prof_num_nodes(const prof_result *p) { return p->num_nodes; }
const uint32_t *prof_preorder(const prof_result *p, size_t *n)
{
    *n = p->num_order;
    return p->order;
}
const prof_node *prof_node_at(const prof_result *p, uint32_t i)
{
    return i < p->num_nodes ? &p->nodes[i] : NULL;
}
const prof_node *prof_nodes(const prof_result *p) { return p->nodes; }
size_t prof_num_ccs(const prof_result *p) { return p->num_ccs; }
const prof_cc *prof_cc_at(const prof_result *p, uint32_t i)
{
    return i < p->num_ccs ? &p->ccs[i] : NULL;
}
const prof_info *prof_get_info(const prof_result *p) { return &p->info; }

/* ---- namesakes ------------------------------------------------------------- */

static const char *cc_field(const void *items, size_t i, int which)
{
    const prof_cc *cc = &((const prof_cc *)items)[i];
    return which == 0 ? cc->label : which == 1 ? cc->module : cc->srcloc;
}

long prof_namesakes(const prof_result *r, uint8_t *out)
{
    /* the cost centres the tree names: a log may define millions */
    uint8_t *in_tree = calloc(r->num_ccs ? r->num_ccs : 1, 1);
    if (!in_tree) {
        memset(out, 0, r->num_ccs);
        return -1;
    }
    for (size_t i = 0; i < r->num_nodes; i++)
        in_tree[r->nodes[i].cc] = 1;
    long n = tx_namesakes(r->ccs, r->num_ccs, cc_field, in_tree, out);
    free(in_tree);
    return n;
}
