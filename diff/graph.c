/* The differential call graph: NEW's graph (cg_build), each node and edge
 * coloured by its change from BASE, pprof's -diff_base convention: red
 * grew, green shrank, grey unchanged; the deeper the colour, the larger the
 * change as a share of the run (full colour from 5% of the total up).
 *
 * BASE's figures come from BASE's own graph built without pruning (same
 * --focus/--ignore), nodes paired as the diff pairs their cost centres (by
 * label, module and source location, or moved: diff/profile.c), edges by
 * their two ends. */
#include "diff/internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

static int same_place(const char *label, const char *module, const char *srcloc,
                      const cg_node *n)
{
    return strcmp(label, n->label) == 0 && strcmp(module, n->module) == 0 &&
           strcmp(srcloc, n->srcloc) == 0;
}

/* BASE's node of NEW's node n (g: BASE's graph): the node of the cost
 * centre the diff paired with n's; NULL when none. */
static const cg_node *find_node(const diff_prof *d, const cg_graph *g, const cg_node *n,
                                size_t *at)
{
    const prof_cc *base = NULL;
    for (size_t i = 0; i < diff_num_ccs(d) && !base; i++) {
        const diff_cc *c = diff_cc_at(d, (uint32_t)i);
        if (c->new_cc && c->base_cc &&
            same_place(c->new_cc->label, c->new_cc->module, c->new_cc->srcloc, n))
            base = c->base_cc;
    }
    if (!base)
        return NULL;
    for (size_t i = 0; i < cg_num_nodes(g); i++) {
        const cg_node *m = cg_node_at(g, i);
        if (same_place(base->label, base->module, base->srcloc, m)) {
            *at = i;
            return m;
        }
    }
    return NULL;
}

/* The colour of a change: `delta` of `total`, `fill` for a node's fill. */
static void change_colour(double delta, double total, int fill, char *buf)
{
    double t = total > 0 ? fmin(1.0, 20.0 * fabs(delta) / total) : 0.0;
    /* grey when unchanged; towards red (#cc0000, fill #ffb3b3) or green
     * (#008800, fill #b3e6b3) */
    int r0 = fill ? 0xf8 : 0xb2, g0 = r0, b0 = r0;
    int r1, g1, b1;
    if (delta > 0) {
        r1 = fill ? 0xff : 0xcc;
        g1 = fill ? 0xb3 : 0x00;
        b1 = fill ? 0xb3 : 0x00;
    } else {
        r1 = fill ? 0xb3 : 0x00;
        g1 = fill ? 0xe6 : 0x88;
        b1 = fill ? 0xb3 : 0x00;
    }
    if (delta == 0.0)
        t = 0.0;
    snprintf(buf, 8, "#%02x%02x%02x", (int)lround(r0 + (r1 - r0) * t),
             (int)lround(g0 + (g1 - g0) * t), (int)lround(b0 + (b1 - b0) * t));
}

typedef struct mark_text {
    char color[8], fill[8];
    char note[96];
} mark_text;

ev_status diff_graph_write(const diff_prof *d, const cg_opts *go, const cg_write_opts *wo,
                           const char *format, FILE *out, ev_error *err)
{
    cg_graph *g = NULL, *b = NULL;
    cg_opts all = *go;
    all.node_fraction = 0.0;
    all.edge_fraction = 0.0;
    all.max_nodes = UINT32_MAX;
    all.max_edges = UINT32_MAX;
    ev_status st = cg_build(d->cur, go, &g, err);
    if (st == EV_OK)
        st = cg_build(d->base, &all, &b, err);
    if (st != EV_OK) {
        cg_destroy(g);
        return st;
    }
    size_t nn = cg_num_nodes(g), ne = cg_num_edges(g);
    cg_mark *nm = calloc(nn ? nn : 1, sizeof *nm), *em = calloc(ne ? ne : 1, sizeof *em);
    mark_text *nt = calloc(nn ? nn : 1, sizeof *nt), *et = calloc(ne ? ne : 1, sizeof *et);
    size_t *base_of = malloc((nn ? nn : 1) * sizeof *base_of);
    if (!nm || !em || !nt || !et || !base_of) {
        st = ev_error_set(err, EV_ERR_NOMEM, "out of memory");
        goto out;
    }
    double scale = d->info.scale, total = (double)d->info.new_total;
    char delta[32], pct[32];
    for (size_t i = 0; i < nn; i++) {
        const cg_node *n = cg_node_at(g, i);
        const cg_node *m = find_node(d, b, n, &base_of[i]);
        if (!m)
            base_of[i] = SIZE_MAX;
        double self = m ? (double)m->self * scale : 0.0, cum = m ? (double)m->cum * scale : 0.0;
        double dc = (double)n->cum - cum;
        change_colour(dc, total, 0, nt[i].color);
        change_colour(dc, total, 1, nt[i].fill);
        diff_fmt_delta(delta, sizeof delta, dc);
        diff_fmt_pct(pct, sizeof pct, cum, (double)n->cum);
        if (m)
            snprintf(nt[i].note, sizeof nt[i].note, "base %.0f of %.0f: %s (%s)", round(self),
                     round(cum), delta, pct);
        else
            snprintf(nt[i].note, sizeof nt[i].note, "not in base: %s", delta);
        nm[i] = (cg_mark){ nt[i].color, nt[i].fill, nt[i].note };
    }
    for (size_t i = 0; i < ne; i++) {
        const cg_edge *e = cg_edge_at(g, i);
        double was = 0.0;
        if (e->residual)
            continue;           /* calls through hidden nodes: BASE has no such edge */
        for (size_t k = 0; k < cg_num_edges(b); k++) {
            const cg_edge *x = cg_edge_at(b, k);
            if (x->from == base_of[e->from] && x->to == base_of[e->to] &&
                x->residual == e->residual && base_of[e->from] != SIZE_MAX) {
                was = (double)x->ticks * scale;
                break;
            }
        }
        double de = (double)e->ticks - was;
        change_colour(de, total, 0, et[i].color);
        diff_fmt_delta(delta, sizeof delta, de);
        snprintf(et[i].note, sizeof et[i].note, "(base %.0f, %s)", round(was), delta);
        em[i] = (cg_mark){ et[i].color, NULL, et[i].note };
    }
    cg_write_opts w = *wo;
    w.node_marks = nm;
    w.edge_marks = em;
    st = cg_write(g, &w, format, out, err);
out:
    free(nm);
    free(em);
    free(nt);
    free(et);
    free(base_of);
    cg_destroy(g);
    cg_destroy(b);
    return st;
}
