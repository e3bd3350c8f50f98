/* The snapshot: a result made from the profile at this moment (a copy of
 * the tree, or the tree itself for the last one), in named steps:
 *
 *   result_create    the result, the facts and (taken) the cost centres
 *   copy_ccs         the cost centres, MAIN found or made
 *   copy_nodes       the nodes, copied or taken
 *   drop_builtins    GHC's built-in stacks (without `all`)
 *   resolve_ids      GHC's ids -> table indices, placeholders for the
 *                    undefined ones; each node's own ticks and the total
 *   refocus          --focus/--ignore (focus.c) and the total again
 *   count_children   inherited ticks up the tree, children per parent,
 *                    subtree sizes; the cost centres' ranks by name
 *   list_children    each parent's children gathered (a counting sort)
 *   sort_children    each list ordered and linked, on two threads when long
 *   preorder         the print order
 *   number_synthetic evprof's own frames get ids above GHC's
 *   run_facts        capabilities, the selected one, and the runs summed
 *
 * Few passes over the big node table, in table order (a parent before
 * its children), rather than walks of the tree. */
#include "prof/internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The least children whose sorting a snapshot shares with a thread. */
#define SORT_SPLIT_MIN ((size_t)1 << 16)

/* Children are ordered by inherited ticks descending, then by label,
 * module and id of their cost centres. The names are compared once, in a
 * sort of the cost centres that gives each its rank (equal names and ids:
 * equal ranks), so that ordering children compares two integers. */
typedef struct kid {
    uint64_t inherited;
    uint32_t rank;
    uint32_t node;
} kid;

static int cmp_cc_names(const prof_cc *cx, const prof_cc *cy)
{
    int c = strcmp(cx->label, cy->label);
    if (c)
        return c;
    c = strcmp(cx->module, cy->module);
    if (c)
        return c;
    return cx->id < cy->id ? -1 : cx->id > cy->id;
}

typedef struct named {
    const prof_cc *cc;
    uint32_t index;
} named;

static int cmp_named(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = cmp_cc_names(x->cc, y->cc);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* rank[i] of cost centre i in ccs[0..n): on entry 1 for the ones some
 * node names, 0 for the rest; on return the named ones' places in name
 * order (equal names, equal places; the others stay 0 and are never
 * compared): a log may define millions of cost centres and sample a few
 * (the hostile-ccs bench log: sorting all 10M names took most of its
 * 12 s). -1 when out of memory. */
static int rank_used(const prof_cc *ccs, size_t n, uint32_t *rank)
{
    size_t used = 0;
    for (size_t i = 0; i < n; i++)
        used += rank[i];
    named *by = malloc((used ? used : 1) * sizeof *by);
    if (!by)
        return -1;
    for (size_t i = 0, k = 0; i < n; i++)
        if (rank[i])
            by[k++] = (named){ &ccs[i], (uint32_t)i };
    qsort(by, used, sizeof *by, cmp_named);
    uint32_t r = 0;
    for (size_t i = 0; i < used; i++) {
        if (i > 0 && cmp_cc_names(by[i - 1].cc, by[i].cc) != 0)
            r++;
        rank[by[i].index] = r;
    }
    free(by);
    return 0;
}

/* keyed: inherited holds one key, ascending (see the snapshot's fill) */
static inline int kid_before(const kid *x, const kid *y, int keyed)
{
    if (keyed)
        return x->inherited < y->inherited;
    return x->inherited != y->inherited ? x->inherited > y->inherited : x->rank < y->rank;
}

/* Stable sort of a[0..n) with scratch tmp[0..n): insertion for short
 * runs, merging above. */
static void sort_kids(kid *a, kid *tmp, size_t n, int keyed)
{
    if (n <= 16) {
        for (size_t i = 1; i < n; i++) {
            kid x = a[i];
            size_t j = i;
            for (; j > 0 && kid_before(&x, &a[j - 1], keyed); j--)
                a[j] = a[j - 1];
            a[j] = x;
        }
        return;
    }
    size_t h = n / 2;
    sort_kids(a, tmp, h, keyed);
    sort_kids(a + h, tmp, n - h, keyed);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = kid_before(&a[j], &a[i], keyed) ? a[j++] : a[i++];
    while (i < h)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

/* The children of parents [lo, hi) sorted and linked (the snapshot's
 * lists: kids, end; tmp: scratch for the longest list). */
typedef struct sort_part {
    prof_node *nodes;
    kid *kids, *tmp;
    const uint32_t *end;
    size_t lo, hi;
    int keyed;
} sort_part;

static void sort_range(const sort_part *sp)
{
    prof_node *nodes = sp->nodes;
    const uint32_t *end = sp->end;
    kid *kids = sp->kids;
    /* pf: the children whose nodes are fetched ahead, for the links (the
     * sort permutes a parent's children only) */
    size_t from = sp->lo ? end[sp->lo - 1] : 0, pf = from;
    size_t stop = sp->hi > sp->lo ? end[sp->hi - 1] : from;    /* this part's own */
    for (size_t i = sp->lo; i < sp->hi; from = end[i], i++) {
        size_t n = end[i] - from;
        kid *k = kids + from;
        if (n == 0) {
            nodes[i].first_child = PROF_NONE;
            continue;
        }
        for (; pf < stop && pf < end[i] + 16; pf++)
            TX_PREFETCH(&nodes[kids[pf].node]);
        sort_kids(k, sp->tmp, n, sp->keyed);
        nodes[i].first_child = k[0].node;
        for (size_t j = 0; j + 1 < n; j++)
            nodes[k[j].node].next_sibling = k[j + 1].node;
        nodes[k[n - 1].node].next_sibling = PROF_NONE;
    }
}

static void *sort_thread(void *arg)
{
    sort_range(arg);
    return NULL;
}

/* Whether a node of the snapshot leaves its parent's list (its inherited
 * ticks final): without --all, a built-in stack under MAIN left without
 * ticks; under focus/ignore, any stack left without ticks. */
static inline int leaves_tree(const prof_result *r, const prof_node *nd, int focused)
{
    return nd->inherited == 0 &&
           (focused || (nd->parent == 0 && !r->filter.all && r->ccs[nd->cc].builtin));
}

/* A cost centre appended to the result's table; NULL when out of memory. */
static prof_cc *result_cc(prof_result *r, uint32_t id, const char *label, const char *module,
                          const char *src)
{
    if (r->num_ccs == r->cap_ccs) {
        size_t cap = r->cap_ccs ? r->cap_ccs * 2 : 256;
        prof_cc *n = realloc(r->ccs, cap * sizeof *n);
        if (!n)
            return NULL;
        r->ccs = n;
        r->cap_ccs = cap;
    }
    prof_cc *cc = &r->ccs[r->num_ccs];
    memset(cc, 0, sizeof *cc);
    cc->id = id;
    cc->label = tx_strpool_add(&r->strings, label, (uint32_t)strlen(label));
    cc->module = tx_strpool_add(&r->strings, module, (uint32_t)strlen(module));
    cc->srcloc = tx_strpool_add(&r->strings, src, (uint32_t)strlen(src));
    if (!cc->label || !cc->module || !cc->srcloc)
        return NULL;
    r->num_ccs++;
    return cc;
}

static const char *copy_str(prof_result *r, const char *s)
{
    return s ? tx_strpool_add(&r->strings, s, (uint32_t)strlen(s)) : NULL;
}

/* The facts, with every string copied into the result. */
static int copy_info(prof_result *r, const prof_profile *p)
{
    r->info = p->info;
    r->info.program = copy_str(r, p->info.program);
    r->info.rts_version = copy_str(r, p->info.rts_version);
    if (!r->info.program || !r->info.rts_version)
        return -1;
    r->info.run_cmds = NULL;
    r->info.num_run_cmds = 0;
    if (p->num_run_cmds) {
        if (!(r->run_cmds = calloc(p->num_run_cmds, sizeof *r->run_cmds)))
            return -1;
        for (uint32_t i = 0; i < p->num_run_cmds; i++)
            if (!(r->run_cmds[i] = copy_str(r, p->run_cmds[i])))
                return -1;
        r->info.run_cmds = r->run_cmds;
        r->info.num_run_cmds = p->num_run_cmds;
    }
    uint32_t argc = p->info.argc;
    if (!p->argv_store)
        return 0;
    const char **v = calloc(argc ? 3 * (size_t)argc : 1, sizeof *v);
    if (!v)
        return -1;
    r->argv_store = v;
    for (uint32_t i = 0; i < 3 * argc; i++)
        if (p->argv_store[i] && !(v[i] = copy_str(r, p->argv_store[i])))
            return -1;
    r->info.argv = v;
    r->info.rts_args = v + argc;
    r->info.args = v + 2 * argc;
    if (argc) {
        const char *slash = strrchr(v[0], '/');
        r->info.program = slash ? slash + 1 : v[0];
    }
    return 0;
}

/* r->order: the nodes in print order, from the sorted child lists kids
 * (the children of node i at kids[end[i - 1] .. end[i]), of the root at
 * kids[0 .. end[0])) and sz, each node's subtree size (1 + its listed
 * children's: counted by the snapshot's pass up). Not a walk (a random
 * access per node, in big arrays): one pass down the lists in table
 * order, in which a parent comes before its children: a parent's first
 * child comes right after it in print order, each next child after the
 * subtree of the one before. sz[] then holds a node's place once its
 * parent has placed it; a node no list reaches from the root (in[] 0) is
 * never placed. The printers then go down this list in order and fetch
 * the nodes ahead. sz is the caller's, used up here. */
static int preorder(prof_result *r, const kid *kids, const uint32_t *end, uint32_t *sz)
{
    size_t nn = r->num_nodes;
    uint8_t *in = calloc(nn ? nn : 1, 1);

    r->order = malloc((nn ? nn : 1) * sizeof *r->order);
    if (!in || !r->order) {
        free(in);
        return -1;
    }
    tx_huge_hint(in, nn);
    tx_huge_hint(r->order, nn * sizeof *r->order);
    r->num_order = sz[0];
    sz[0] = 0;
    in[0] = 1;
    r->order[0] = 0;
    for (size_t i = 0; i < nn; i++) {
        if (!in[i])
            continue;
        uint32_t at = sz[i] + 1;
        for (uint32_t j = i ? end[i - 1] : 0; j < end[i]; j++) {
            uint32_t k = kids[j].node;
            if (j + 8 < end[i])
                TX_PREFETCH(&sz[kids[j + 8].node]);
            uint32_t size = sz[k];
            sz[k] = at;
            in[k] = 1;
            r->order[at] = k;
            at += size;
        }
    }
    free(in);
    return 0;
}

/* ---- the steps -------------------------------------------------------- */

/* One snapshot's work: the result, the profile, and the per-node arrays
 * of the passes (freed by snap_free). */
typedef struct snap {
    prof_profile *p;
    prof_result *r;
    int take;                   /* the last snapshot: the tree moves */
    int focused;                /* focus or ignore */
    uint32_t main_index;        /* MAIN's cost centre */
    uint64_t total;             /* the counted ticks */
    uint32_t *rank;             /* per cost centre: named by a node, then its rank */
    uint32_t *end;              /* per parent: where its children end in kids */
    uint32_t *sz;               /* per node: its subtree's size, then its place */
    kid *kids;                  /* the children lists, then 2 x max_kids scratch */
    size_t num_kids, max_kids;
    int keyed;                  /* kids' order is one number (kid_before) */
} snap;

/* The profile's cost centres: p's, or the result's once taken (a result
 * cost centre added since may have moved them). */
static inline const prof_cc *profile_ccs(const snap *s)
{
    return s->take ? s->r->ccs : s->p->ccs;
}

static void snap_free(snap *s)
{
    free(s->kids);
    free(s->rank);
    free(s->end);
    free(s->sz);
    s->kids = NULL;
    s->rank = s->end = s->sz = NULL;
}

/* The result with the facts; take: the profile's lookup tables go first,
 * and its cost centres and strings move into the result (every string of
 * the profile is in its pool, which the result then owns), so that the
 * peak memory is the tree's once, as without snapshots. NULL when out of
 * memory. */
static prof_result *result_create(prof_profile *p, int all, int take)
{
    prof_result *r = calloc(1, sizeof *r);

    if (!r)
        return NULL;
    if (take) {
        prof_tree_drop_slots(p);
        prof_sc_drop(p);
        p->status = EV_ERR_FINISHED;   /* no events after this */
    }
    r->filter = p->filter;
    r->filter.all = all;
    tx_strpool_init(&r->strings);
    if (take) {
        r->strings = p->strings;
        tx_strpool_init(&p->strings);
        r->ccs = p->ccs;
        r->num_ccs = p->num_ccs;
        r->cap_ccs = p->cap_ccs;
        p->ccs = NULL;
        p->cap_ccs = 0;     /* num_ccs stays: the id table indexes r->ccs now */
    }
    if (copy_info(r, p) != 0) {
        prof_result_destroy(r);
        return NULL;
    }
    return r;
}

/* The profile's cost centres, in its order (indices stay), and MAIN's
 * index (a synthetic MAIN when the log defined none). */
static int copy_ccs(snap *s)
{
    prof_result *r = s->r;
    const prof_profile *p = s->p;

    s->main_index = PROF_NONE;
    for (size_t i = 0; i < p->num_ccs; i++) {
        prof_cc *cc;
        if (s->take) {
            cc = &r->ccs[i];
        } else {
            const prof_cc *src = &p->ccs[i];
            cc = result_cc(r, src->id, src->label, src->module, src->srcloc);
            if (!cc)
                return -1;
            cc->is_caf = src->is_caf;
            cc->builtin = src->builtin;
            cc->defined = src->defined;
        }
        if (strcmp(cc->label, "MAIN") == 0 && strcmp(cc->module, "MAIN") == 0)
            s->main_index = (uint32_t)i;
    }
    if (s->main_index == PROF_NONE) {
        prof_cc *cc = result_cc(r, 0, "MAIN", "MAIN", "<built-in>");
        if (!cc)
            return -1;
        cc->synthetic = cc->defined = 1;
        s->main_index = (uint32_t)(r->num_ccs - 1);
    }
    return 0;
}

/* The nodes: copied, or taken from the profile. */
static int copy_nodes(snap *s)
{
    prof_result *r = s->r;
    prof_profile *p = s->p;

    r->num_nodes = p->num_nodes;
    if (s->take) {
        r->nodes = p->nodes;
        p->nodes = NULL;
        p->num_nodes = p->cap_nodes = 0;
        return 0;
    }
    if (!(r->nodes = malloc(p->num_nodes * sizeof *r->nodes)))
        return -1;
    memcpy(r->nodes, p->nodes, p->num_nodes * sizeof *r->nodes);
    return 0;
}

/* GHC's -p drops the built-in stacks MAIN/GC, MAIN/SYSTEM, ...: their
 * ticks go before the passes below add them up (the root's children,
 * their ids not yet table indices; the cut marker is none of them). */
static void drop_builtins(snap *s)
{
    prof_result *r = s->r;

    if (r->filter.all)
        return;
    for (uint32_t c = r->nodes[0].first_child; c != PROF_NONE; c = r->nodes[c].next_sibling) {
        prof_node *nd = &r->nodes[c];
        if (c == s->p->cut_node)
            continue;
        uint32_t k = prof_ccs_index(s->p, nd->cc);
        if (k == TX_IDMAP_NONE || !profile_ccs(s)[k].builtin)
            continue;
        r->info.ignored_ticks += nd->ticks;
        nd->ticks = 0;
    }
}

/* The pass down: GHC's ids -> table indices (an id no 161 defined gets a
 * placeholder of its own), the cost centres some node names (rank 1, for
 * their ranks), each node's inherited = its ticks, and the total. The
 * root is MAIN; the cut marker gets its own cost centre. */
static int resolve_ids(snap *s)
{
    prof_result *r = s->r;
    const prof_profile *p = s->p;
    size_t nn = r->num_nodes;
    tx_idmap undef = { 0 };     /* undefined ids met: id -> index into r->ccs */
    uint64_t total = 0;

    if (!(s->rank = calloc(r->num_ccs + 2, sizeof *s->rank)))   /* + placeholders, cut */
        return -1;
    for (size_t i = 1; i < nn; i++) {
        prof_node *nd = &r->nodes[i];
        if ((uint32_t)i == p->cut_node)
            continue;
        uint32_t k = prof_ccs_index(p, nd->cc);
        if (k == TX_IDMAP_NONE) {
            k = tx_idmap_get(&undef, nd->cc);
            if (k == TX_IDMAP_NONE) {
                char label[48];
                snprintf(label, sizeof label, "<undefined cc %u>", nd->cc);
                prof_cc *cc = result_cc(r, nd->cc, label, "<unknown>", "<no 161 event: GHC #24148>");
                k = (uint32_t)(r->num_ccs - 1);
                if (!cc || tx_idmap_put(&undef, nd->cc, k, NULL) != 0) {
                    tx_idmap_free(&undef);
                    return -1;
                }
                r->info.undefined_ccs++;
                uint32_t *nr = realloc(s->rank, (r->num_ccs + 2) * sizeof *s->rank);
                if (!nr) {
                    tx_idmap_free(&undef);
                    return -1;
                }
                s->rank = nr;
                s->rank[k] = s->rank[k + 1] = s->rank[k + 2] = 0;
            }
        }
        nd->cc = k;
        s->rank[k] = 1;
        nd->inherited = nd->ticks;
        total += nd->ticks;
    }
    tx_idmap_free(&undef);
    r->nodes[0].cc = s->main_index;
    s->rank[s->main_index] = 1;
    r->nodes[0].inherited = r->nodes[0].ticks;
    total += r->nodes[0].ticks;
    if (p->cut_node != PROF_NONE) {
        prof_cc *cc = result_cc(r, 0, "<stack cut at 255 frames>", "<evprof>", "<root frames lost>");
        if (!cc)
            return -1;
        cc->synthetic = cc->defined = 1;
        prof_node *nd = &r->nodes[p->cut_node];
        nd->cc = (uint32_t)(r->num_ccs - 1);
        s->rank[nd->cc] = 1;
        nd->inherited = nd->ticks;
        total += nd->ticks;
    }
    s->total = total;
    return 0;
}

/* focus/ignore zero ticks by the names: a pass of their own, and the
 * sums again. */
static int refocus(snap *s)
{
    prof_result *r = s->r;

    if (prof_apply_focus(r, s->p->mem.budget) != 0)
        return -1;
    s->total = 0;
    for (size_t i = 0; i < r->num_nodes; i++) {
        r->nodes[i].inherited = r->nodes[i].ticks;
        s->total += r->nodes[i].ticks;
    }
    return 0;
}

/* The pass up: inherited ticks into the parent; a node's own are then
 * final, so whether it stays a child (leaves_tree) is known there and its
 * parent's count of children (end[parent + 1]) and subtree size (sz)
 * taken. Then the ranks of the named cost centres. */
static int count_children(snap *s)
{
    prof_result *r = s->r;
    size_t nn = r->num_nodes;

    if (!(s->end = calloc(nn + 1, sizeof *s->end)) ||
        !(s->sz = calloc(nn ? nn : 1, sizeof *s->sz)))
        return -1;
    tx_huge_hint(s->end, (nn + 1) * sizeof *s->end);
    tx_huge_hint(s->sz, nn * sizeof *s->sz);
    uint32_t *end = s->end, *sz = s->sz;
    for (size_t i = nn; i-- > 1;) {
        prof_node *nd = &r->nodes[i];
        r->nodes[nd->parent].inherited += nd->inherited;
        int goes = leaves_tree(r, nd, s->focused);
        sz[i]++;            /* its listed children's are in: its subtree's size */
        if (!goes) {
            end[nd->parent + 1]++;
            sz[nd->parent] += sz[i];
        }
    }
    if (nn)
        sz[0]++;
    return rank_used(r->ccs, r->num_ccs, s->rank);
}

/* Children are listed afresh, in order: inherited ticks descending, then
 * label, module, id. Each node is its parent's child (the tree links
 * every node), except those that go: without --all, the built-in stacks
 * under MAIN left without ticks; under focus/ignore, every stack left
 * without ticks. The children of each parent are gathered by a counting
 * sort on the parent, one pass in table order rather than a walk of
 * every sibling list through a big table: end[] becomes each parent's
 * end in kids. */
static int list_children(snap *s)
{
    const prof_result *r = s->r;
    size_t nn = r->num_nodes;
    uint32_t *end = s->end;

    for (size_t i = 0; i < nn; i++) {
        if (end[i + 1] > s->max_kids)
            s->max_kids = end[i + 1];
        end[i + 1] += end[i];
    }
    s->num_kids = end[nn];
    size_t len = s->num_kids + 2 * s->max_kids + 1;     /* + 2 scratch */
    if (!(s->kids = malloc(len * sizeof *s->kids)))
        return -1;
    tx_huge_hint(s->kids, len * sizeof *s->kids);
    /* Below 2^32 ticks in all (every log yet) the order is one number,
     * compared once: (2^32 - 1 - inherited) above the rank. */
    s->keyed = s->total <= UINT32_MAX;
    for (size_t i = 1; i < nn; i++) {       /* end[p] moves to p's end */
        const prof_node *nd = &r->nodes[i];
        if (leaves_tree(r, nd, s->focused))
            continue;
        s->kids[end[nd->parent]++] =
            s->keyed ? (kid){ (uint64_t)(UINT32_MAX - (uint32_t)nd->inherited) << 32 |
                                  s->rank[nd->cc],
                              0, (uint32_t)i }
                     : (kid){ nd->inherited, s->rank[nd->cc], (uint32_t)i };
    }
    return 0;
}

/* Each list sorted and linked, on two threads when the profile may use
 * them and the lists are long enough to pay for one: the parents cut
 * where half the children are (each parent's list and its children's
 * links are its own). */
static void sort_children(snap *s)
{
    prof_result *r = s->r;
    size_t nn = r->num_nodes;
    const uint32_t *end = s->end;
    sort_part parts[2] = {
        { r->nodes, s->kids, s->kids + s->num_kids, end, 0, nn, s->keyed },
        { r->nodes, s->kids, s->kids + s->num_kids + s->max_kids, end, nn, nn, s->keyed },
    };
    pthread_t sorter;
    int sorting = 0;

    if (s->p->jobs > 1 && s->num_kids >= SORT_SPLIT_MIN) {
        size_t lo = 0, hi = nn;     /* the first parent whose list ends past half */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (end[mid] < s->num_kids / 2)
                lo = mid + 1;
            else
                hi = mid;
        }
        parts[0].hi = parts[1].lo = lo;
        sorting = pthread_create(&sorter, NULL, sort_thread, &parts[1]) == 0;
        if (!sorting)
            parts[0].hi = nn;
    }
    sort_range(&parts[0]);
    if (sorting)
        pthread_join(sorter, NULL);
}

/* Synthetic frames get ids above GHC's, so JSON ids stay unique. */
static void number_synthetic(prof_result *r)
{
    uint32_t max_id = 0;
    for (size_t i = 0; i < r->num_ccs; i++)
        if (!r->ccs[i].synthetic && r->ccs[i].id > max_id)
            max_id = r->ccs[i].id;
    for (size_t i = 0; i < r->num_ccs; i++)
        if (r->ccs[i].synthetic)
            r->ccs[i].id = ++max_id;
}

/* The facts of the runs: processors, and several logs summed. */
static void run_facts(prof_result *r, const prof_profile *p)
{
    prof_run_caps(p, &r->info.min_capabilities, &r->info.capabilities);
    r->info.initial_capabilities = prof_run_initial_caps(p);
    r->info.selected_cap = ev_select_cap(p->sel);
    prof_runs_info(p, &r->info);
    if (r->info.first_time == UINT64_MAX)
        r->info.first_time = 0;
}

/* take: the last snapshot (result_create). */
static prof_result *snapshot(prof_profile *p, int all, int take)
{
    if (p && !p->status)
        prof_sc_flush(p);   /* the ticks as they are: not a change to p */
    if (!p || p->status)
        return NULL;

    snap s = { .p = p, .take = take };
    if (!(s.r = result_create(p, all, take)))
        return NULL;
    s.focused = s.r->filter.focus || s.r->filter.ignore;
    int ok = copy_ccs(&s) == 0 && copy_nodes(&s) == 0;
    if (ok) {
        drop_builtins(&s);
        ok = resolve_ids(&s) == 0 && (!s.focused || refocus(&s) == 0);
    }
    if (ok) {
        s.r->info.total_ticks = s.total;
        ok = count_children(&s) == 0 && list_children(&s) == 0;
    }
    if (ok) {
        sort_children(&s);
        ok = preorder(s.r, s.kids, s.end, s.sz) == 0;
    }
    snap_free(&s);
    if (!ok) {
        prof_result_destroy(s.r);
        return NULL;
    }
    number_synthetic(s.r);
    run_facts(s.r, p);
    return s.r;
}

prof_result *prof_snapshot(const prof_profile *p)
{
    return p ? prof_snapshot_all(p, p->filter.all) : NULL;
}

prof_result *prof_snapshot_all(const prof_profile *p, int all)
{
    return snapshot((prof_profile *)p, all, 0);   /* take = 0: p is only read */
}

prof_result *prof_snapshot_take(prof_profile *p, int all)
{
    return snapshot(p, all, 1);
}
