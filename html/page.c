/* evprof html: one read, every analysis, one self-contained page.
 * See include/evprof/html.h and docs/HTML.md. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evprof/gc.h"
#include "evprof/graph.h"
#include "evprof/heap.h"
#include "evprof/info.h"
#include "evprof/json.h"
#include "evprof/markers.h"
#include "evprof/prof.h"
#include "evprof/ticky.h"
#include "html/internal.h"
#include "util/error.h"

/* html/page.html, page.css, page.js as NUL-terminated strings, made by
 * html/embed.cmake at build time */
extern const char html_page_src_html[];
extern const char html_page_src_css[];
extern const char html_page_src_js[];

struct html_page {
    html_opts o;
    prof_profile *prof;
    gc_summary *gc;
    heap_profile *heap;
    html_censuses cens;
    ticky_set *tk;          /* ticky counters, with points kept */
    info_log *info;         /* the run's facts (info_facts_ops) */
    html_timeline tl;       /* the run over time */
    ev_markers *marks;      /* traceMarker marks */
    uint8_t *kept;          /* the tree sent: per node of the snapshot, */
    uint32_t *sent_of;      /* sent or not, and its index in the page */
};

void html_opts_init(html_opts *o)
{
    memset(o, 0, sizeof *o);
    o->max_nodes = 20000;
    o->max_censuses = 400;
    o->max_bands = 20;
    o->max_points = 1000;
    o->max_counters = 5000;
    o->series_counters = 50;
    o->series_points = 64;
    o->graph_nodes = 80;
    o->timeline_cells = 100000;
}

html_page *html_page_create(const html_opts *o)
{
    html_page *pg = calloc(1, sizeof *pg);
    if (!pg)
        return NULL;
    if (o)
        pg->o = *o;
    else
        html_opts_init(&pg->o);
    if (pg->o.max_nodes < 1)
        pg->o.max_nodes = 1;
    heap_opts ho;
    heap_opts_init(&ho);
    ho.whole_names = 1;     /* the page's legend shows -hc stacks whole */
    ho.exe = pg->o.exe;
    int bad = html_censuses_init(&pg->cens, pg->o.max_censuses) != 0;
    pg->tk = ticky_create();
    bad |= !pg->tk || ticky_keep_series(pg->tk, pg->o.series_points) != 0;
    bad |= html_timeline_init(&pg->tl, pg->o.samples) != 0;
    pg->marks = ev_markers_create();
    bad |= !pg->marks;
    pg->prof = prof_create(pg->o.samples);
    pg->o.samples = NULL;      /* the profile keeps its own copy */
    pg->gc = gc_create();
    bad |= !pg->gc || gc_keep_series(pg->gc, pg->o.max_points) != 0;
    pg->heap = heap_create(&ho, html_censuses_sink, &pg->cens);
    pg->info = info_create();
    if (bad || !pg->prof || !pg->gc || !pg->heap || !pg->info) {
        html_page_destroy(pg);
        return NULL;
    }
    return pg;
}

const heap_info *html_page_heap_info(const html_page *pg) { return heap_get_info(pg->heap); }

void html_page_set_test_cells(html_page *pg, uint32_t cells)
{
    for (int k = 0; k < TL_CELL_SETS && cells; k++)
        pg->tl.sets[k].limit = cells;
}

void html_page_destroy(html_page *pg)
{
    if (!pg)
        return;
    prof_destroy(pg->prof);
    gc_destroy(pg->gc);
    heap_destroy(pg->heap);
    html_censuses_free(&pg->cens);
    ticky_destroy(pg->tk);
    info_destroy(pg->info);
    html_timeline_free(&pg->tl);
    ev_markers_destroy(pg->marks);
    free(pg->kept);
    free(pg->sent_of);
    free(pg);
}

int html_page_attach(html_page *pg, ev_driver *d)
{
    if (ev_driver_attach(d, &prof_analysis_ops, pg->prof) != 0 ||
        ev_driver_attach(d, &gc_analysis_ops, pg->gc) != 0 ||
        ev_driver_attach(d, &heap_analysis_ops, pg->heap) != 0 ||
        ev_driver_attach(d, &html_counts_ops, pg) != 0 ||
        ev_driver_attach(d, &ticky_analysis_ops, pg->tk) != 0 ||
        ev_driver_attach(d, &info_facts_ops, pg->info) != 0 ||
        ev_driver_attach(d, &html_timeline_ops, &pg->tl) != 0 ||
        ev_driver_attach(d, &ev_markers_ops, pg->marks) != 0)
        return -1;
    return 0;
}

/* ---- helpers ---------------------------------------------------------------- */

/* A FILE's bytes in memory (open_memstream), for Graphviz's SVG and the
 * GC report. */
typedef struct membuf {
    char *p;
    size_t n;
    FILE *f;
} membuf;

static int mem_open(membuf *m)
{
    m->p = NULL;
    m->n = 0;
    m->f = open_memstream(&m->p, &m->n);
    return m->f ? 0 : -1;
}

static int mem_close(membuf *m)
{
    int bad = ferror(m->f);
    bad |= fclose(m->f) != 0;
    m->f = NULL;
    return bad ? -1 : 0;
}

/* ---- summary ---------------------------------------------------------------- */

/* program, args, rts args from the NUL-separated argv as logged */
static void w_args(tx_json *j, const info_facts *fa)
{
    const char *p = fa->args, *end = p ? p + fa->args_len : NULL;
    int in_rts = 0, n = 0;
    tx_json_key(j, "program");
    if (!p || p == end) {
        tx_json_null(j);
        tx_json_key(j, "args");
        tx_json_array(j, TX_JSON_INLINE);
        tx_json_end(j);
        tx_json_key(j, "rts_args");
        tx_json_array(j, TX_JSON_INLINE);
        tx_json_end(j);
        return;
    }
    /* argv[0]'s base name, as GHC's reports name the program */
    size_t l0 = strnlen(p, (size_t)(end - p));
    const char *base = p;
    for (size_t i = 0; i < l0; i++)
        if (p[i] == '/')
            base = p + i + 1;
    tx_json_string(j, base, l0 - (size_t)(base - p));
    /* two passes: args then rts args */
    for (int pass = 0; pass < 2; pass++) {
        tx_json_key(j, pass == 0 ? "args" : "rts_args");
        tx_json_array(j, TX_JSON_INLINE);
        in_rts = 0;
        n = 0;
        for (const char *q = p; q < end; n++) {
            size_t l = strnlen(q, (size_t)(end - q));
            if (n > 0) {
                if (l == 4 && memcmp(q, "+RTS", 4) == 0) {
                    in_rts = 1;
                } else if (l == 4 && memcmp(q, "-RTS", 4) == 0) {
                    in_rts = 0;
                } else if (in_rts == pass) {
                    tx_json_string(j, q, l);
                }
            }
            q += l + 1;
        }
        tx_json_end(j);
    }
}

static void w_damage(tx_json *j, const ev_stream *s)
{
    const el_read_result *r = &s->read;
    char buf[sizeof r->error.msg + 200];     /* a message and the words around it */
    tx_json_array(j, TX_JSON_INLINE);
    if (r->status != EV_END && r->status != EV_OK) {
        if (r->error.type >= 0)
            snprintf(buf, sizeof buf, "%s at byte %llu (event type %d %s): the page shows "
                     "everything before it", r->error.msg, (unsigned long long)r->error.offset,
                     (int)r->error.type, el_type_name((uint16_t)r->error.type));
        else
            snprintf(buf, sizeof buf, "%s at byte %llu: the page shows everything before it",
                     r->error.msg, (unsigned long long)r->error.offset);
        tx_json_cstr(j, buf);
    }
    if (r->damage.blocks) {
        snprintf(buf, sizeof buf, "%llu damaged block%s (%llu bytes) skipped, the first at "
                 "byte %llu: %s", (unsigned long long)r->damage.blocks,
                 r->damage.blocks == 1 ? "" : "s", (unsigned long long)r->damage.bytes,
                 (unsigned long long)r->damage.first.offset, r->damage.first.msg);
        tx_json_cstr(j, buf);
    }
    if (r->status == EV_OK && r->missing_end) {
        snprintf(buf, sizeof buf, "no end marker: the program did not close its eventlog "
                 "(killed, or still running): the log may be cut");
        tx_json_cstr(j, buf);
    }
    if (s->stopped) {
        snprintf(buf, sizeof buf, "the read stopped early (%s)",
                 s->driver_stop ? s->driver_stop : s->stopped_by ? s->stopped_by : "?");
        tx_json_cstr(j, buf);
    }
    tx_json_end(j);
}

static void w_summary(tx_json *j, const html_page *pg, const ev_stream *s, const char *name,
                      const html_contents *c)
{
    info_facts facts;
    info_get_facts(pg->info, &facts);
    const info_facts *fa = &facts;
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_cstr(j, "source", name);
    w_args(j, fa);
    tx_json_key(j, "rts");
    if (fa->rts)
        tx_json_string(j, fa->rts, fa->rts_len);
    else
        tx_json_null(j);
    tx_json_kv_uint(j, "caps", fa->caps_created ? fa->caps_created : fa->startup_caps);
    if (fa->has_pid) {
        tx_json_kv_uint(j, "pid", fa->pid);
    }
    tx_json_kv_uint(j, "first_ns", s->read.has_time_span ? s->read.first_time : 0);
    tx_json_kv_uint(j, "last_ns", s->read.has_time_span ? s->read.last_time : 0);
    if (fa->has_wall) {
        /* the wall clock at the log's time 0 */
        double start = (double)fa->wall_sec + fa->wall_nsec / 1e9 - (double)fa->wall_event_time / 1e9;
        time_t t = (time_t)start;
        struct tm tm;
        char buf[64];
        if (gmtime_r(&t, &tm) && strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S UTC", &tm)) {
            tx_json_kv_cstr(j, "wall_start", buf);
        }
    }
    tx_json_kv_uint(j, "bytes", s->read.bytes);
    /* every event, as `info` counts them (the decoder's tally) */
    uint64_t events = ev_stream_events_read(s);
    tx_json_kv_uint(j, "events", events);
    tx_json_key(j, "damage");
    w_damage(j, s);
    tx_json_key(j, "holds");
    tx_json_object(j, TX_JSON_INLINE);
    static const char *const parts[] = { "prof", "heap", "gc", "ticky" };
    const int holds[] = { c->prof, c->heap, c->gc, c->ticky };
    for (int i = 0; i < 4; i++) {
        tx_json_kv_int(j, parts[i], holds[i]);
    }
    tx_json_end(j);
    tx_json_end(j);
}

/* ---- time profile ------------------------------------------------------------- */

typedef struct prof_walk_ctx {
    const prof_result *r;
    const uint8_t *keep;
    uint32_t *out;          /* node -> index sent */
    uint32_t next;
    uint32_t *active;       /* per cc: frames of it on the current stack */
    uint64_t *self, *inh;   /* per cc */
    int pass;               /* 0: flat totals; 1: write the parents; 2: ccs; ... */
    uint32_t *ccmap;        /* cc -> index sent, UINT32_MAX: none */
} prof_walk_ctx;

static int flat_enter(void *ctx, uint32_t n)
{
    prof_walk_ctx *w = ctx;
    const prof_node *nd = prof_node_at(w->r, n);
    w->self[nd->cc] += nd->ticks;
    if (w->active[nd->cc]++ == 0)
        w->inh[nd->cc] += nd->inherited;
    return 0;
}

static int flat_leave(void *ctx, uint32_t n)
{
    prof_walk_ctx *w = ctx;
    w->active[prof_node_at(w->r, n)->cc]--;
    return 0;
}

/* The first kept node of the sibling list starting at c, or PROF_NONE. */
static uint32_t kept_from(const prof_result *r, const uint8_t *keep, uint32_t c)
{
    while (c != PROF_NONE && !keep[c])
        c = prof_node_at(r, c)->next_sibling;
    return c;
}

/* out[n]: the place of kept node n in a walk of the tree (prof_walk's
 * order). A kept node's parent is kept, so this walks the kept subtree
 * alone: the kept nodes and their siblings, not the whole tree. */
static uint32_t order_kept(const prof_result *r, const uint8_t *keep, uint32_t *out)
{
    uint32_t next = 0, n = 0;
    out[0] = next++;
    for (;;) {
        uint32_t c = kept_from(r, keep, prof_node_at(r, n)->first_child);
        if (c != PROF_NONE) {
            n = c;
            out[n] = next++;
            continue;
        }
        for (;;) {
            if (n == 0)
                return next;
            const prof_node *nd = prof_node_at(r, n);
            c = kept_from(r, keep, nd->next_sibling);
            if (c != PROF_NONE) {
                n = c;
                out[n] = next++;
                break;
            }
            n = nd->parent;
        }
    }
}

typedef struct heavy {
    uint64_t inh;
    uint32_t depth, node;
} heavy;

static int heavy_cmp(const void *a, const void *b)
{
    const heavy *x = a, *y = b;
    if (x->inh != y->inh)
        return x->inh > y->inh ? -1 : 1;
    if (x->depth != y->depth)
        return x->depth < y->depth ? -1 : 1;
    return x->node < y->node ? -1 : x->node > y->node;
}

/* Moves the k first of h[0..n) in heavy_cmp's order into h[0..k), in no
 * particular order (quickselect: the page needs the set, not its order;
 * a full sort of a few million nodes cost more than the rest of the
 * page). Falls back to qsort on a range that does not shrink. */
static void select_heaviest(heavy *h, size_t n, size_t k)
{
    size_t lo = 0, hi = n;
    unsigned rounds = 0;
    while (hi - lo > 16 && k > lo && k < hi) {
        if (++rounds > 200) {
            qsort(h + lo, hi - lo, sizeof *h, heavy_cmp);
            return;
        }
        /* the median of three as the pivot, moved to h[lo] */
        size_t a = lo, b = lo + (hi - lo) / 2, c = hi - 1, m;
        if (heavy_cmp(&h[a], &h[b]) < 0)
            m = heavy_cmp(&h[b], &h[c]) < 0 ? b : heavy_cmp(&h[a], &h[c]) < 0 ? c : a;
        else
            m = heavy_cmp(&h[a], &h[c]) < 0 ? a : heavy_cmp(&h[b], &h[c]) < 0 ? c : b;
        heavy t = h[lo];
        h[lo] = h[m];
        h[m] = t;
        heavy pv = h[lo];
        /* Hoare: h[lo..j] <= pv <= h[j+1..hi), lo <= j < hi - 1 */
        size_t i = lo - 1, j = hi;
        for (;;) {
            do
                i++;
            while (heavy_cmp(&h[i], &pv) < 0);
            do
                j--;
            while (heavy_cmp(&h[j], &pv) > 0);
            if (i >= j)
                break;
            t = h[i];
            h[i] = h[j];
            h[j] = t;
        }
        if (k <= j + 1)
            hi = j + 1;
        else
            lo = j + 1;
    }
    if (k > lo && k < hi)
        qsort(h + lo, hi - lo, sizeof *h, heavy_cmp);
}

/* The tree sent: every node with ticks, or the max_nodes heaviest (a
 * node's parent is at least as heavy and shallower, so it is kept first:
 * the kept nodes are a tree). Returns -1 without memory. */
static int w_prof(tx_json *j, html_page *pg, const prof_result *r, html_contents *c)
{
    size_t nn = prof_num_nodes(r), nc = prof_num_ccs(r);
    const prof_info *in = prof_get_info(r);
    uint8_t *keep = calloc(nn ? nn : 1, 1);
    uint32_t *out = malloc((nn ? nn : 1) * sizeof *out);
    uint32_t *active = calloc(nc ? nc : 1, sizeof *active);
    uint64_t *self = calloc(nc ? nc : 1, sizeof *self);
    uint64_t *inh = calloc(nc ? nc : 1, sizeof *inh);
    uint32_t *ccmap = malloc((nc ? nc : 1) * sizeof *ccmap);
    uint8_t *ns = malloc(nc ? nc : 1);      /* namesakes: named with their place */
    heavy *h = NULL;
    int rc = -1;
    if (!keep || !out || !active || !self || !inh || !ccmap || !ns || prof_namesakes(r, ns) < 0)
        goto done;

    size_t cand = 0;
    for (size_t i = 0; i < nn; i++)
        cand += i == 0 || prof_node_at(r, (uint32_t)i)->inherited > 0;
    if (cand <= pg->o.max_nodes) {
        for (size_t i = 0; i < nn; i++)
            keep[i] = i == 0 || prof_node_at(r, (uint32_t)i)->inherited > 0;
    } else {
        h = malloc(cand * sizeof *h);
        if (!h)
            goto done;
        size_t k = 0;
        for (size_t i = 0; i < nn; i++) {
            const prof_node *nd = prof_node_at(r, (uint32_t)i);
            if (i == 0 || nd->inherited > 0)
                h[k++] = (heavy){ i == 0 ? UINT64_MAX : nd->inherited, nd->depth, (uint32_t)i };
        }
        select_heaviest(h, k, pg->o.max_nodes);
        for (size_t i = 0; i < pg->o.max_nodes; i++)
            keep[h[i].node] = 1;
        cand = pg->o.max_nodes;
    }
    c->nodes_sent = (uint32_t)cand;
    c->nodes_all = 0;
    for (size_t i = 0; i < nn; i++)
        c->nodes_all += i == 0 || prof_node_at(r, (uint32_t)i)->inherited > 0;

    prof_walk_ctx w = { r, keep, out, 0, active, self, inh, 0, ccmap };
    if (nn) {
        prof_walk(r, flat_enter, flat_leave, &w);
        w.next = order_kept(r, keep, out);
    }
    /* the nodes in walk order: index -> node */
    uint32_t *byout = malloc((cand ? cand : 1) * sizeof *byout);
    if (!byout)
        goto done;
    for (size_t i = 0; i < nn; i++)
        if (keep[i])
            byout[out[i]] = (uint32_t)i;
    /* cost centres sent: those of the nodes sent and of the flat table */
    uint32_t nsent = 0;
    for (size_t i = 0; i < nc; i++)
        ccmap[i] = UINT32_MAX;
    for (uint32_t i = 0; i < cand; i++) {
        uint32_t cc = prof_node_at(r, byout[i])->cc;
        if (ccmap[cc] == UINT32_MAX)
            ccmap[cc] = nsent++;
    }
    for (size_t i = 0; i < nc; i++)
        if (ccmap[i] == UINT32_MAX && (self[i] || inh[i]))
            ccmap[i] = nsent++;
    uint32_t *ccorder = malloc((nsent ? nsent : 1) * sizeof *ccorder);
    if (!ccorder) {
        free(byout);
        goto done;
    }
    for (size_t i = 0; i < nc; i++)
        if (ccmap[i] != UINT32_MAX)
            ccorder[ccmap[i]] = (uint32_t)i;

    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_uint(j, "total", in->total_ticks);
    tx_json_kv_uint(j, "interval_ns", in->interval_ns);
    tx_json_kv_uint(j, "samples", in->all_samples);
    tx_json_kv_uint(j, "ignored", in->ignored_ticks);
    tx_json_kv_uint(j, "nodes_all", c->nodes_all);
    tx_json_key(j, "ccs");
    tx_json_array(j, TX_JSON_INLINE);
    for (uint32_t i = 0; i < nsent; i++) {
        const prof_cc *cc = prof_cc_at(r, ccorder[i]);
        tx_json_array(j, TX_JSON_INLINE);
        tx_json_cstr(j, cc->label);
        tx_json_cstr(j, cc->module);
        tx_json_cstr(j, cc->srcloc);
        tx_json_int(j, cc->is_caf ? 1 : 0);
        tx_json_int(j, ns[ccorder[i]]);
        tx_json_end(j);
    }
    tx_json_end(j);
    /* the tree, column by column: parent (index sent, -1 root), cc, ticks,
     * inherited */
    for (int col = 0; col < 4; col++) {
        static const char *const names[] = { "parent", "cc", "ticks", "inh" };
        tx_json_key(j, names[col]);
        tx_json_array(j, TX_JSON_INLINE);
        for (uint32_t i = 0; i < cand; i++) {
            const prof_node *nd = prof_node_at(r, byout[i]);
            switch (col) {
            case 0:
                tx_json_int(j, nd->parent == PROF_NONE ? -1 : (int64_t)out[nd->parent]);
                break;
            case 1:
                tx_json_uint(j, ccmap[nd->cc]);
                break;
            case 2:
                tx_json_uint(j, nd->ticks);
                break;
            default:
                tx_json_uint(j, nd->inherited);
            }
        }
        tx_json_end(j);
    }
    /* flat: [cc sent, self, inherited (each stack once)] */
    tx_json_key(j, "flat");
    tx_json_array(j, TX_JSON_INLINE);
    for (size_t i = 0; i < nc; i++) {
        if (!self[i] && !inh[i])
            continue;
        tx_json_array(j, TX_JSON_INLINE);
        tx_json_uint(j, ccmap[i]);
        tx_json_uint(j, self[i]);
        tx_json_uint(j, inh[i]);
        tx_json_end(j);
    }
    tx_json_end(j);
    tx_json_end(j);
    free(ccorder);
    free(byout);
    rc = 0;
    /* kept for the timeline: its cells go onto the nodes sent */
    pg->kept = keep;
    pg->sent_of = out;
    keep = NULL;
    out = NULL;
done:
    free(h);
    free(keep);
    free(out);
    free(active);
    free(self);
    free(inh);
    free(ccmap);
    free(ns);
    return rc;
}

/* ---- heap --------------------------------------------------------------------- */

static int w_heap(tx_json *j, const html_page *pg)
{
    const heap_profile *h = pg->heap;
    const heap_info *in = heap_get_info(h);
    size_t nb = heap_num_bands(h), nby = 0;
    uint32_t *by = heap_bands_by_peak(h, &nby);
    int32_t *slot = malloc((nb ? nb : 1) * sizeof *slot);
    if ((!by && nb) || !slot) {
        free(by);
        free(slot);
        return -1;
    }
    size_t top = nby < pg->o.max_bands ? nby : pg->o.max_bands;
    for (size_t i = 0; i < nb; i++)
        slot[i] = -1;
    for (size_t i = 0; i < top; i++)
        slot[by[i]] = (int32_t)i;
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_cstr(j, "breakdown", heap_breakdown_name(in->breakdown));
    tx_json_kv_cstr(j, "flag", heap_breakdown_flag(in->breakdown));
    tx_json_kv_uint(j, "censuses", in->censuses);
    tx_json_kv_uint(j, "kept", pg->cens.n);
    tx_json_kv_uint(j, "dropped", in->dropped);
    tx_json_kv_uint(j, "all_bands", nby);
    tx_json_kv_uint(j, "peak_total", in->peak_total);
    tx_json_key(j, "bands");
    tx_json_array(j, TX_JSON_INLINE);
    for (size_t i = 0; i < top; i++) {
        const heap_band *b = heap_band_at(h, by[i]);
        tx_json_array(j, TX_JSON_INLINE);
        tx_json_string(j, b->title, b->title_len);
        tx_json_uint(j, b->peak);
        tx_json_uint(j, b->peak_time);
        tx_json_uint(j, in->censuses ? b->sum / in->censuses : 0);
        tx_json_end(j);
    }
    tx_json_end(j);
    tx_json_key(j, "times");
    tx_json_array(j, TX_JSON_INLINE);
    for (size_t k = 0; k < pg->cens.n; k++) {
        tx_json_uint(j, pg->cens.c[k].time);
    }
    tx_json_end(j);
    /* values[band][census]; the last row is every other band */
    uint64_t *row = calloc(pg->cens.n ? pg->cens.n : 1, sizeof *row);
    if (!row) {
        free(by);
        free(slot);
        return -1;
    }
    tx_json_key(j, "values");
    tx_json_array(j, TX_JSON_INLINE);
    for (size_t bi = 0; bi <= top; bi++) {
        for (size_t k = 0; k < pg->cens.n; k++) {
            const hc_census *c = &pg->cens.c[k];
            uint64_t v = 0;
            for (size_t q = 0; q < c->n; q++) {
                int32_t s = c->samples[q].band < nb ? slot[c->samples[q].band] : -1;
                if (bi < top ? s == (int32_t)bi : s < 0)
                    v += c->samples[q].bytes;
            }
            row[k] = v;
        }
        tx_json_array(j, TX_JSON_INLINE);
        for (size_t k = 0; k < pg->cens.n; k++) {
            tx_json_uint(j, row[k]);
        }
        tx_json_end(j);
    }
    tx_json_end(j);
    tx_json_end(j);
    free(row);
    free(by);
    free(slot);
    return 0;
}

/* ---- GC ------------------------------------------------------------------------- */

static int w_gc(tx_json *j, const gc_summary *gs, const char *name)
{
    const gc_result *r = gc_get_result(gs);
    tx_json_object(j, TX_JSON_INLINE);
    /* the heap over time (gc_keep_series) */
    tx_json_key(j, "series");
    tx_json_object(j, TX_JSON_INLINE);
    for (int col = 0; col < 4; col++) {
        static const char *const names[] = { "t", "size", "live", "alloc" };
        tx_json_key(j, names[col]);
        tx_json_array(j, TX_JSON_INLINE);
        for (size_t i = 0; r && i < r->n_points; i++) {
            const gc_point *p = &r->points[i];
            tx_json_uint(j, col == 0 ? p->time_ns : col == 1 ? p->heap_size_bytes
                            : col == 2 ? p->live_bytes : p->allocated_bytes);
        }
        tx_json_end(j);
    }
    tx_json_end(j);
    tx_json_kv_uint(j, "series_events", r ? r->n_heap_alloc + r->n_heap_size + r->n_heap_live : 0);
    if (r) {
        membuf m;
        gc_report_opts ro;
        gc_report_opts_init(&ro);
        ro.source_name = name;
        if (mem_open(&m) != 0)
            return -1;
        int wrc = gc_report_text(gs, &ro, m.f);
        if (mem_close(&m) != 0 || wrc != 0) {
            free(m.p);
            return -1;
        }
        tx_json_kv_string(j, "report", m.p, m.n);
        free(m.p);
        tx_json_kv_uint(j, "collections", r->collections);
        tx_json_kv_uint(j, "max_live", r->max_live_bytes);
        tx_json_kv_uint(j, "allocated", r->allocated_bytes);
        tx_json_kv_double(j, "productivity", r->productivity, 6);
        tx_json_key(j, "gc_ns");        /* +RTS -s's GC time (elapsed) */
        tx_json_uint(j, r->gc_ns);
        tx_json_key(j, "caps");
        tx_json_array(j, TX_JSON_INLINE);
        for (uint32_t i = 0; i < r->n_caps; i++) {
            const gc_cap *c = &r->caps[i];
            tx_json_array(j, TX_JSON_INLINE);
            tx_json_uint(j, c->cap);
            tx_json_uint(j, c->allocated_bytes);
            tx_json_uint(j, c->mutator_ns);
            tx_json_uint(j, c->gc_ns);
            tx_json_uint(j, c->idle_ns);
            tx_json_uint(j, c->gcs);
            tx_json_uint(j, c->led);
            tx_json_uint(j, c->max_pause_ns);
            tx_json_uint(j, c->led_ns);
            tx_json_end(j);
        }
        tx_json_end(j);
    }
    tx_json_end(j);
    return 0;
}

/* ---- marks ------------------------------------------------------------------------ */

/* The first HTML_MARKS marks in time order: [time, label index]; labels
 * [label, count] by first time. */
#define HTML_MARKS 1000

static int w_marks(tx_json *j, const html_page *pg)
{
    const ev_markers *m = pg->marks;
    size_t nl = ev_markers_num_labels(m);
    ev_mark *first = malloc(HTML_MARKS * sizeof *first);
    if (!first)
        return -1;
    size_t k = ev_markers_first(m, HTML_MARKS, first);
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_uint(j, "total", ev_markers_total(m));
    tx_json_key(j, "labels");
    tx_json_array(j, TX_JSON_INLINE);
    for (size_t i = 0; i < nl; i++) {
        const ev_marker_label *l = ev_markers_label_at(m, i);
        tx_json_array(j, TX_JSON_INLINE);
        tx_json_string(j, l->label, l->len);
        tx_json_uint(j, l->count);
        tx_json_end(j);
    }
    tx_json_end(j);
    tx_json_key(j, "list");
    tx_json_array(j, TX_JSON_INLINE);
    for (size_t i = 0; i < k; i++) {
        size_t li = 0;
        while (li < nl && !(ev_markers_label_at(m, li)->len == first[i].len &&
                            memcmp(ev_markers_label_at(m, li)->label, first[i].label,
                                   first[i].len) == 0))
            li++;
        tx_json_array(j, TX_JSON_INLINE);
        tx_json_uint(j, first[i].time_ns);
        tx_json_uint(j, li);
        tx_json_uint(j, first[i].nth);
        tx_json_end(j);
    }
    tx_json_end(j);
    tx_json_end(j);
    free(first);
    return 0;
}

/* ---- ticky ---------------------------------------------------------------------- */

static int w_ticky(tx_json *j, const html_page *pg)
{
    const ticky_set *t = pg->tk;
    ticky_view_opts vo;
    ticky_view v;
    ticky_view_opts_init(&vo);
    vo.sort = TICKY_SORT_ENTRIES;
    vo.top = pg->o.max_counters;
    if (ticky_view_build(t, &vo, &v) != 0)
        return -1;
    const ticky_info *in = ticky_get_info(t);
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_uint(j, "counters_all", in->counters);
    tx_json_kv_uint(j, "samples", in->samples);
    tx_json_kv_uint(j, "batches", in->batches);
    tx_json_key(j, "totals");
    tx_json_array(j, TX_JSON_INLINE);
    tx_json_uint(j, v.entries);
    tx_json_uint(j, v.alloc);
    tx_json_uint(j, v.allocd);
    tx_json_end(j);
    /* rows: [name, argument kinds, entries, alloc, alloc'd, series index] */
    tx_json_key(j, "counters");
    tx_json_array(j, TX_JSON_INLINE);
    uint32_t nser = 0;
    for (size_t i = 0; i < v.shown; i++) {
        const ticky_counter *c = ticky_counter_at(t, v.order[i]);
        tx_json_array(j, TX_JSON_INLINE);
        tx_json_string(j, c->name, c->name_len);
        tx_json_string(j, c->args, c->args_len);
        tx_json_uint(j, c->entries);
        tx_json_uint(j, c->alloc);
        tx_json_uint(j, c->allocd);
        ticky_points s;
        if (c->has_id && ticky_counter_points(t, v.order[i], &s) == 0 && s.n > 1 &&
            nser < pg->o.series_counters)
            tx_json_uint(j, nser++);
        else
            tx_json_int(j, -1);
        tx_json_end(j);
    }
    tx_json_end(j);
    /* series: [[times], [entries], [alloc]] in the order of their index */
    tx_json_key(j, "series");
    tx_json_array(j, TX_JSON_INLINE);
    uint32_t k = 0;
    for (size_t i = 0; i < v.shown && k < nser; i++) {
        const ticky_counter *c = ticky_counter_at(t, v.order[i]);
        ticky_points s;
        if (!c->has_id || ticky_counter_points(t, v.order[i], &s) != 0 || s.n <= 1)
            continue;
        k++;
        tx_json_array(j, TX_JSON_INLINE);
        for (int col = 0; col < 3; col++) {
            const uint64_t *a = col == 0 ? s.time : col == 1 ? s.entries : s.alloc;
            tx_json_array(j, TX_JSON_INLINE);
            for (uint32_t q = 0; q < s.n; q++)
                tx_json_uint(j, a[q]);
            tx_json_end(j);
        }
        tx_json_end(j);
    }
    tx_json_end(j);
    tx_json_end(j);
    ticky_view_free(&v);
    return 0;
}

/* ---- call graph ------------------------------------------------------------------ */

/* Graphviz's SVG from <svg on, without comments (they repeat node names,
 * and a name holding "-->" would end one early in HTML). NULL when the
 * graph cannot be drawn. */
static char *graph_svg(const html_page *pg, const prof_result *r, const char *name,
                       size_t *len)
{
    cg_opts go;
    cg_opts_init(&go);
    if (pg->o.graph_nodes)
        go.max_nodes = pg->o.graph_nodes;
    cg_graph *g;
    if (cg_build(r, &go, &g, NULL) != EV_OK)
        return NULL;
    cg_write_opts wo;
    cg_write_opts_init(&wo);
    wo.source_name = name;
    membuf m;
    if (mem_open(&m) != 0) {
        cg_destroy(g);
        return NULL;
    }
    ev_status st = cg_write(g, &wo, "svg", m.f, NULL);
    cg_destroy(g);
    if (mem_close(&m) != 0 || st != EV_OK) {
        free(m.p);
        return NULL;
    }
    char *svg = strstr(m.p, "<svg");
    if (!svg) {
        free(m.p);
        return NULL;
    }
    /* drop comments in place */
    char *o = m.p, *p = svg, *end = m.p + m.n;
    while (p < end) {
        if (end - p >= 4 && memcmp(p, "<!--", 4) == 0) {
            char *q = p + 4;
            while (q < end && !(end - q >= 3 && memcmp(q, "-->", 3) == 0))
                q++;
            p = q < end ? q + 3 : end;
            continue;
        }
        *o++ = *p++;
    }
    *len = (size_t)(o - m.p);
    return m.p;
}

/* ---- the page ---------------------------------------------------------------------- */

/* Writes tpl up to the next "<!--@NAME@-->" marker; returns the marker's
 * name (its length in *n) and moves *tpl past it, or NULL at the end. */
static const char *tpl_next(FILE *f, const char **tpl, size_t *n)
{
    const char *m = strstr(*tpl, "<!--@");
    if (!m) {
        fputs(*tpl, f);
        *tpl += strlen(*tpl);
        return NULL;
    }
    fwrite(*tpl, 1, (size_t)(m - *tpl), f);
    const char *name = m + 5, *e = strstr(name, "@-->");
    if (!e) {
        fputs(m, f);
        *tpl = m + strlen(m);
        return NULL;
    }
    *n = (size_t)(e - name);
    *tpl = e + 4;
    return name;
}

/* The call graph is laid out by Graphviz on a second thread while this
 * one writes the page's data (both only read the snapshot; Graphviz is
 * used by that thread alone while it runs). */
typedef struct graph_job {
    const html_page *pg;
    const prof_result *r;
    const char *name;
    char *svg;
    size_t len;
} graph_job;

static void *graph_thread(void *arg)
{
    graph_job *job = arg;
    job->svg = graph_svg(job->pg, job->r, job->name, &job->len);
    return NULL;
}

/* The page's JSON (the DATA block). The call graph's thread is joined
 * where the JSON says whether the graph was drawn. */
static int w_data(tx_json *j, html_page *pg, const ev_stream *s, const prof_result *r,
                  const gc_summary *gs, const char *name, html_contents *c, graph_job *job,
                  pthread_t *th, int *threaded)
{
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_uint(j, "version", 1);
    if (c->prof) {
        tx_json_key(j, "prof");
        if (w_prof(j, pg, r, c) != 0)
            return -1;
    }
    tx_json_key(j, "summary");
    w_summary(j, pg, s, name, c);
    if (*threaded) {
        pthread_join(*th, NULL);
        *threaded = 0;
    }
    tx_json_key(j, "graph");
    if (job->svg)
        tx_json_uint(j, 1);
    else if (c->prof)
        tx_json_cstr(j, "failed");
    else
        tx_json_uint(j, 0);
    if (c->heap) {
        tx_json_key(j, "heap");
        if (w_heap(j, pg) != 0)
            return -1;
    }
    tx_json_key(j, "gc");
    if (w_gc(j, gs, name) != 0)
        return -1;
    tx_json_key(j, "marks");
    if (w_marks(j, pg) != 0)
        return -1;
    tx_json_key(j, "timeline");
    html_tl_out tlo;
    if (html_timeline_write(j, &pg->tl, c->prof ? r : NULL, pg->kept, pg->sent_of,
                            pg->o.timeline_cells, &tlo) != 0)
        return -1;
    c->tl_bins = tlo.bins;
    c->tl_bin_ns = tlo.bin_ns;
    c->tl_prof_bins = tlo.prof_bins;
    c->tl_prof_bin_ns = tlo.prof_bin_ns;
    c->tl_cells = tlo.cells;
    c->tl_prof_status = tlo.prof_status;
    if (c->ticky) {
        tx_json_key(j, "ticky");
        if (w_ticky(j, pg) != 0)
            return -1;
    }
    tx_json_end(j);
    return 0;
}

ev_status html_page_write(html_page *pg, const ev_stream *s, FILE *out, html_contents *cont,
                          ev_error *err)
{
    html_contents c;
    memset(&c, 0, sizeof c);
    const char *name = pg->o.source_name ? pg->o.source_name : "eventlog";
    prof_result *r = prof_snapshot(pg->prof);
    gc_summary *gs = gc_snapshot(pg->gc);
    graph_job job = { pg, r, name, NULL, 0 };
    pthread_t th;
    int threaded = 0;
    membuf data = { NULL, 0, NULL };
    ev_status rc;
    ev_error_clear(err);
    if (!r || !gs || ticky_finish(pg->tk) != 0) {
        rc = ev_error_set(err, EV_ERR_NOMEM, "out of memory building the results");
        goto done;
    }
    const heap_info *hi = heap_get_info(pg->heap);
    c.prof = prof_get_info(r)->all_samples > 0;
    c.heap = hi->has_begin || hi->censuses_seen;
    c.gc = gc_get_result(gs) && gc_get_result(gs)->has_gc_events;
    c.ticky = ticky_get_info(pg->tk)->counters > 0;
    if (c.prof) {
        threaded = pthread_create(&th, NULL, graph_thread, &job) == 0;
        if (!threaded)
            graph_thread(&job);
    }

    /* the data first, into memory, while the graph is laid out */
    if (mem_open(&data) != 0)
        goto nomem;
    tx_json j;
    tx_json_init(&j, data.f, 0, 1);
    tx_json_set_html_safe(&j, 1);   /* the JSON sits in a <script> element */
    int drc = w_data(&j, pg, s, r, gs, name, &c, &job, &th, &threaded);
    if (threaded) {
        pthread_join(th, NULL);
        threaded = 0;
    }
    c.graph_failed = c.prof && !job.svg;
    if (drc != 0)
        goto nomem;
    if (tx_json_finish(&j) != 0 || mem_close(&data) != 0)
        goto nomem;     /* into memory: only memory can fail it */

    const char *tpl = html_page_src_html, *m;
    size_t n;
    while ((m = tpl_next(out, &tpl, &n))) {
        if (n == 5 && memcmp(m, "TITLE", 5) == 0) {
            html_text(out, name, strlen(name));
        } else if (n == 3 && memcmp(m, "CSS", 3) == 0) {
            fputs(html_page_src_css, out);
        } else if (n == 2 && memcmp(m, "JS", 2) == 0) {
            fputs(html_page_src_js, out);
        } else if (n == 3 && memcmp(m, "SVG", 3) == 0) {
            if (job.svg)
                fwrite(job.svg, 1, job.len, out);
        } else if (n == 4 && memcmp(m, "DATA", 4) == 0) {
            fwrite(data.p, 1, data.n, out);
        }
    }
    if (ferror(out)) {
        rc = ev_error_set(err, EV_ERR_WRITE, "write error");
        goto done;
    }
    rc = EV_OK;
    goto done;
nomem:
    rc = ev_error_set(err, EV_ERR_NOMEM, "out of memory writing the page");
done:
    if (threaded)
        pthread_join(th, NULL);
    if (data.f)
        fclose(data.f);
    if (cont)
        *cont = c;
    free(data.p);
    free(job.svg);
    prof_result_destroy(r);
    gc_destroy(gs);
    return rc;
}
