/* The run cut into phases at its marks: see include/evprof/phases.h.
 *
 * The events come in time order (the driver's time-ordered replay), so
 * one phase is open at a time: a mark closes it and opens the next. The
 * open phase counts its samples per cost centre (the cost centres it
 * touched are listed, so closing it costs its own cost centres, not all
 * of them) and keeps the largest heap figures; the GC summary (gc/),
 * fed the same events, reports each collection, which goes to the phase
 * holding its statistics while its pause is split over the phases it
 * overlaps (gc's own rules for a window). Allocation is the sum of the
 * capabilities' HEAP_ALLOCATED counters, read at each cut (under --cap
 * the selected capability's alone, as gc counts it). */
#include "evprof/phases.h"

#include <stdlib.h>
#include <string.h>

#include "evprof/gc.h"
#include "evprof/json.h"
#include "evprof/pattern.h"
#include "evprof/prof.h"
#include "evprof/textout.h"
#include "util/account.h"
#include "util/error.h"
#include "util/hash.h"
#include "util/htab.h"
#include "util/idmap.h"
#include "util/namesakes.h"
#include "util/strpool.h"

#define NONE UINT32_MAX
#define MAIN_KEY UINT32_MAX         /* samples in MAIN itself (depth 0) */

typedef struct pcc {
    uint32_t id;                    /* GHC's, or MAIN_KEY */
    const char *label, *module, *srcloc;
    uint8_t builtin;
    uint64_t ticks;                 /* in the open phase */
} pcc;

typedef struct plabel {
    const char *s;
    uint32_t len;
    uint8_t cut;                    /* --marker: 0 not asked yet, 1 cuts, 2 does not */
    uint64_t count;
} plabel;

typedef struct prow {
    uint32_t label;                 /* NONE: (start) */
    uint64_t nth;
    uint64_t start, end;            /* end: UINT64_MAX while open */
    uint64_t ticks;
    uint32_t top, num_top;          /* into tops */
    uint32_t collections;
    uint64_t gc_ns;
    uint64_t alloc_begin, alloc_end;
    uint64_t peak_heap, max_live;
    uint8_t has_heap, has_live;
} prow;

struct phases_run {
    phases_opts o;
    ev_pattern *re;                 /* --marker, or NULL */
    ev_account mem;
    int failed;
    gc_summary *gc;
    strpool names;

    pcc *cc;                        /* by first appearance */
    size_t ncc, capcc;
    tx_idmap cc_ids;                /* id -> cc */
    uint32_t main_cc;               /* the cost centre MAIN/MAIN, NONE until defined */
    uint32_t *touched;              /* ccs with ticks in the open phase */
    size_t ntouched, captouched;

    plabel *labels;
    size_t nlabels, caplabels;
    tx_htab labeltab;               /* label -> index into labels */

    prow *rows;
    size_t nrows, caprows;
    phase_cc *tops;
    size_t ntops, captops;
    uint32_t *top_cc;               /* per top: its cost centre (index into cc) */
    size_t cap_top_cc;
    phase_row *pub;                 /* the rows as published, after the end */

    uint64_t *cap_alloc;            /* per capability (EL_NO_CAP: the last slot) */
    size_t ncapalloc;
    uint64_t alloc;                 /* their sum */
    /* the read's selection (the driver's stage marks the events; the
     * allocation is read at its windows' edges, in time order) */
    const ev_select *sel;
    size_t next_edge;               /* edges crossed (ev_select_slot's count) */
    uint64_t ins_acc, ins_entry;    /* allocation inside the windows before the open
                                       one, and the counters' sum at its entry */

    uint64_t interval_ns;
    uint64_t total_ticks, marks, marks_seen;
    int has_samples, has_gc, has_alloc;
    uint64_t last_time;
    int ended;
};

void phases_opts_init(phases_opts *o)
{
    memset(o, 0, sizeof *o);
    o->top = 3;
}

/* ---- memory ------------------------------------------------------------ */

/* Grows an array of `size`-byte items to hold one more, charging the
 * growth. 0 or -1. */
static int grow(phases_run *p, void **a, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 0;
    size_t nc = *cap ? *cap * 2 : 16;
    if (ev_account_charge(&p->mem, (nc - *cap) * size) != 0)
        return -1;
    void *b = realloc(*a, nc * size);
    if (!b) {
        ev_account_release(&p->mem, (nc - *cap) * size);
        return -1;
    }
    *a = b;
    *cap = nc;
    return 0;
}

static const char *keep(phases_run *p, const char *s, uint32_t len)
{
    size_t g = tx_strpool_growth(&p->names, len);
    if (g && ev_account_charge(&p->mem, g) != 0)
        return NULL;
    return tx_strpool_add(&p->names, s, len);
}

/* ---- cost centres ---------------------------------------------------------- */

/* The cost centre of id, made (unnamed) when new; NONE without memory. */
static uint32_t cc_of(phases_run *p, uint32_t id)
{
    uint32_t i = tx_idmap_get(&p->cc_ids, id);
    if (i != TX_IDMAP_NONE)
        return i;
    if (grow(p, (void **)&p->cc, &p->capcc, p->ncc, sizeof *p->cc) != 0 ||
        tx_idmap_put(&p->cc_ids, id, (uint32_t)p->ncc, &p->mem) != 0)
        return NONE;
    p->cc[p->ncc] = (pcc){ .id = id };
    if (id == MAIN_KEY) {
        p->cc[p->ncc].label = "MAIN";
        p->cc[p->ncc].module = "MAIN";
        p->cc[p->ncc].srcloc = "<built-in>";
    }
    return (uint32_t)p->ncc++;
}

static int define_cc(phases_run *p, const el_event *ev)
{
    uint32_t i = cc_of(p, ev->u.cost_centre.id);
    if (i == NONE)
        return -1;
    const char *l = keep(p, ev->u.cost_centre.label.ptr, ev->u.cost_centre.label.len);
    const char *m = keep(p, ev->u.cost_centre.module.ptr, ev->u.cost_centre.module.len);
    const char *s = keep(p, ev->u.cost_centre.srcloc.ptr, ev->u.cost_centre.srcloc.len);
    if (!l || !m || !s)
        return -1;
    pcc *c = &p->cc[i];
    c->label = l;
    c->module = m;
    c->srcloc = s;
    c->builtin = (uint8_t)prof_cc_builtin(l, m, s);
    if (strcmp(l, "MAIN") == 0 && strcmp(m, "MAIN") == 0 && p->main_cc == NONE)
        p->main_cc = i;     /* a sample in MAIN itself (depth 0) is its tick */
    return 0;
}

/* ---- rows ------------------------------------------------------------------- */

/* The allocation inside the selection's windows so far. */
static uint64_t inside_alloc(const phases_run *p)
{
    return p->ins_acc + ((p->next_edge & 1) ? p->alloc - p->ins_entry : 0);
}

/* The open phase ends at t: its top cost centres are taken and their
 * counts reset. */
static int close_row(phases_run *p, uint64_t t)
{
    prow *r = &p->rows[p->nrows - 1];
    r->end = t;
    r->alloc_end = inside_alloc(p);
    /* the top: a few passes of a selection over the touched cost centres */
    uint32_t want = p->o.top;
    r->top = (uint32_t)p->ntops;
    r->num_top = 0;
    for (uint32_t k = 0; k < want; k++) {
        size_t best = SIZE_MAX;
        for (size_t j = 0; j < p->ntouched; j++) {
            const pcc *c = &p->cc[p->touched[j]];
            if (!c->ticks)
                continue;
            if (best == SIZE_MAX) {
                best = j;
                continue;
            }
            const pcc *b = &p->cc[p->touched[best]];
            if (c->ticks > b->ticks || (c->ticks == b->ticks && c->id > b->id))
                best = j;       /* ties: the larger id first, as GHC's summary */
        }
        if (best == SIZE_MAX)
            break;
        if (grow(p, (void **)&p->tops, &p->captops, p->ntops, sizeof *p->tops) != 0 ||
            grow(p, (void **)&p->top_cc, &p->cap_top_cc, p->ntops, sizeof *p->top_cc) != 0)
            return -1;
        pcc *c = &p->cc[p->touched[best]];
        if (!c->label) {
            /* named by samples, never defined (GHC #24148): the report's placeholder */
            char name[48];
            int n = snprintf(name, sizeof name, "<undefined cc %u>", c->id);
            c->label = keep(p, name, (uint32_t)n);
            c->module = "<unknown>";
            c->srcloc = "<no 161 event: GHC #24148>";
            if (!c->label)
                return -1;
        }
        p->top_cc[p->ntops] = p->touched[best];
        p->tops[p->ntops++] = (phase_cc){ c->label, c->module, c->srcloc, c->ticks, 0 };
        r->num_top++;
        c->ticks = 0;           /* taken: the next pass finds the next one */
    }
    for (size_t j = 0; j < p->ntouched; j++)
        p->cc[p->touched[j]].ticks = 0;
    p->ntouched = 0;
    return 0;
}

static int open_row(phases_run *p, uint32_t label, uint64_t nth, uint64_t t)
{
    if (grow(p, (void **)&p->rows, &p->caprows, p->nrows, sizeof *p->rows) != 0)
        return -1;
    p->rows[p->nrows++] = (prow){ .label = label, .nth = nth, .start = t, .end = UINT64_MAX,
                                  .alloc_begin = inside_alloc(p) };
    return 0;
}

/* The windows' edges, crossed before the first event at or after them:
 * the allocation counters are read there (gc's rule: the counters of the
 * events before the edge). */
static void cross(phases_run *p, uint64_t t)
{
    size_t n;
    const ev_span *w = ev_select_spans(p->sel, &n);
    while (p->next_edge < 2 * n) {
        size_t k = p->next_edge / 2;
        if (t < ((p->next_edge & 1) ? w[k].to_ns : w[k].from_ns))
            break;
        if (p->next_edge & 1)
            p->ins_acc += p->alloc - p->ins_entry;
        else
            p->ins_entry = p->alloc;
        p->next_edge++;
    }
}

typedef struct label_key {
    const char *s;
    uint32_t len;
} label_key;

static int label_eq(const void *items, uint32_t i, const void *key)
{
    const plabel *l = &((const plabel *)items)[i];
    const label_key *k = key;
    return l->len == k->len && memcmp(l->s, k->s, k->len) == 0;
}

static int mark(phases_run *p, const el_event *ev)
{
    const char *s = ev->u.text.str.ptr;
    uint32_t len = ev->u.text.str.len;
    p->marks_seen++;
    /* labels by a table: a log of many distinct labels stays linear */
    label_key key = { s, len };
    uint64_t h = hash_bytes(s, len, 0);
    size_t i = tx_htab_find(&p->labeltab, h, label_eq, p->labels, &key);
    if (i == TX_HTAB_NONE) {
        if (grow(p, (void **)&p->labels, &p->caplabels, p->nlabels, sizeof *p->labels) != 0)
            return -1;
        const char *k = keep(p, s, len);
        if (!k || tx_htab_insert_charged(&p->labeltab, h, (uint32_t)p->nlabels, &p->mem, 0,
                                         NULL) != 0)
            return -1;
        i = p->nlabels;
        p->labels[p->nlabels++] = (plabel){ .s = k, .len = len };
    }
    plabel *l = &p->labels[i];
    l->count++;
    if (p->re) {
        /* each label asked once; the pattern sees it up to a NUL (a C
         * string, as --focus sees names) */
        if (!l->cut) {
            const char *nul = memchr(l->s, '\0', l->len);
            size_t n = nul ? (size_t)(nul - l->s) : l->len;
            l->cut = ev_pattern_match(p->re, l->s, n) ? 1 : 2;
        }
        if (l->cut != 1)
            return 0;
    }
    p->marks++;
    if (close_row(p, ev->time) != 0)
        return -1;
    return open_row(p, (uint32_t)i, l->count, ev->time);
}

/* A collection (gc_on_collection): counted in the phase holding its
 * statistics, its pause split over the phases it overlaps. In time order
 * every mark before it has come. */
static void collection(void *ctx, const gc_collection *c)
{
    phases_run *p = ctx;
    if (p->failed || !p->nrows)
        return;
    size_t i = p->nrows;
    while (i > 1 && p->rows[i - 1].start > c->time_ns)
        i--;
    p->rows[i - 1].collections++;
    if (!c->has_pause)
        return;
    uint64_t lo = c->start_ns, hi = c->end_ns;
    for (size_t k = p->nrows; k > 0 && lo < hi; k--) {
        prow *r = &p->rows[k - 1];
        uint64_t a = r->start > lo ? r->start : lo, b = r->end < hi ? r->end : hi;
        if (a < b)
            r->gc_ns += ev_select_overlap(p->sel, a, b);   /* inside the windows */
        if (r->start <= lo)
            break;
    }
}

static int sample(phases_run *p, const el_event *ev)
{
    p->has_samples = 1;
    if (ev->outside)    /* outside the selection (the driver's stage) */
        return 0;
    unsigned depth = ev->u.prof_sample.depth;
    uint32_t i = depth ? cc_of(p, ev->u.prof_sample.stack[0])
                 : p->main_cc != NONE ? p->main_cc : cc_of(p, MAIN_KEY);
    if (i == NONE)
        return -1;
    pcc *c = &p->cc[i];
    if (depth == 1 && c->builtin && !p->o.all)
        return 0;       /* MAIN/GC, MAIN/IDLE, ...: GHC's -p drops them */
    if (c->ticks++ == 0) {
        if (grow(p, (void **)&p->touched, &p->captouched, p->ntouched, sizeof *p->touched) != 0)
            return -1;
        p->touched[p->ntouched++] = i;
    }
    p->rows[p->nrows - 1].ticks++;
    p->total_ticks++;
    return 0;
}

static int allocated(phases_run *p, const el_event *ev)
{
    p->has_alloc = 1;
    if (ev->outside & EL_OUT_CAP)   /* another capability's counter */
        return 0;
    size_t c = ev->cap == EL_NO_CAP ? 0 : (size_t)ev->cap + 1;
    if (c >= p->ncapalloc) {
        size_t n = c + 1;
        if (ev_account_charge(&p->mem, (n - p->ncapalloc) * sizeof *p->cap_alloc) != 0)
            return -1;
        uint64_t *a = realloc(p->cap_alloc, n * sizeof *a);
        if (!a)
            return -1;
        memset(a + p->ncapalloc, 0, (n - p->ncapalloc) * sizeof *a);
        p->cap_alloc = a;
        p->ncapalloc = n;
    }
    uint64_t v = ev->u.heap.bytes;
    if (v > p->cap_alloc[c]) {  /* counters only grow: gc's running maximum */
        p->alloc += v - p->cap_alloc[c];
        p->cap_alloc[c] = v;
    }
    return 0;
}

static int phases_event(void *self, const el_event *ev, const ev_stream *s)
{
    phases_run *p = self;
    if (p->failed)
        return 1;
    if (s && s->budget && p->mem.budget != s->budget && ev_account_move(&p->mem, s->budget) != 0)
        goto nomem;
    uint64_t t = ev->time;
    if (t > p->last_time)
        p->last_time = t;
    p->sel = s ? s->select : NULL;
    cross(p, t);
    if (!ev->decoded)
        return 0;
    int rc = 0;
    switch (ev->type) {
    case EL_USER_MARKER:
        rc = mark(p, ev);
        break;
    case EL_HEAP_PROF_COST_CENTRE:
        rc = define_cc(p, ev);
        break;
    case EL_PROF_BEGIN:
        p->interval_ns = ev->u.prof_begin.interval_ns;
        break;
    case EL_PROF_SAMPLE_COST_CENTRE:
        rc = sample(p, ev);
        break;
    case EL_HEAP_SIZE:
        if (!(ev->outside & EL_OUT_TIME)) {
            prow *r = &p->rows[p->nrows - 1];
            if (!r->has_heap || ev->u.heap.bytes > r->peak_heap)
                r->peak_heap = ev->u.heap.bytes;
            r->has_heap = 1;
        }
        break;
    case EL_HEAP_LIVE:
        if (!(ev->outside & EL_OUT_TIME)) {
            prow *r = &p->rows[p->nrows - 1];
            if (!r->has_live || ev->u.heap.bytes > r->max_live)
                r->max_live = ev->u.heap.bytes;
            r->has_live = 1;
        }
        break;
    case EL_HEAP_ALLOCATED:
        rc = allocated(p, ev);
        break;
    default:
        break;
    }
    if (rc != 0)
        goto nomem;
    if (ev->type != EL_USER_MARKER && ev->type != EL_HEAP_PROF_COST_CENTRE &&
        ev->type != EL_PROF_SAMPLE_COST_CENTRE && ev->type != EL_PROF_BEGIN) {
        if (ev->type == EL_GC_START || ev->type == EL_GC_STATS_GHC)
            p->has_gc = 1;
        if (gc_analysis_ops.event(p->gc, ev, s) != 0)
            goto nomem;
    }
    return p->failed ? 1 : 0;
nomem:
    p->failed = 1;
    return 1;
}

/* A row the selection leaves out: outside its hull, or (several windows)
 * between two of them. */
static int outside(const phases_run *p, const prow *r, int first, ev_span hull, size_t nwin)
{
    if (r->start >= hull.to_ns || (r->end <= hull.from_ns && !(first && hull.from_ns == 0)))
        return 1;
    return nwin > 1 && !ev_select_overlap(p->sel, r->start, r->end) &&
           !ev_select_has(p->sel, r->start);
}

static const char *pcc_field(const void *items, size_t i, int which)
{
    const pcc *c = &((const pcc *)items)[i];
    return which == 0 ? c->label : which == 1 ? c->module : c->srcloc;
}

/* The tops' namesakes (util/namesakes.h): among every cost centre the log
 * defined. 0, or -1 without memory. */
static int mark_namesakes(phases_run *p)
{
    if (!p->ntops)
        return 0;
    uint8_t *want = calloc(p->ncc, 1), *ns = malloc(p->ncc);
    int rc = -1;
    if (want && ns) {
        for (size_t k = 0; k < p->ntops; k++)
            want[p->top_cc[k]] = 1;
        if (tx_namesakes(p->cc, p->ncc, pcc_field, want, ns) >= 0) {
            for (size_t k = 0; k < p->ntops; k++)
                p->tops[k].namesake = ns[p->top_cc[k]];
            rc = 0;
        }
    }
    free(want);
    free(ns);
    return rc;
}

static void phases_end(void *self, const ev_stream *s)
{
    phases_run *p = self;
    if (p->ended || p->failed)
        return;
    p->ended = 1;
    p->sel = s ? s->select : NULL;
    ev_span hull = ev_select_hull(p->sel);
    size_t nwin;
    ev_select_spans(p->sel, &nwin);
    uint64_t end = p->last_time;
    if (s && s->read.has_time_span && s->read.last_time > end)
        end = s->read.last_time;
    gc_set_time_span(p->gc, 0, end);
    gc_finish(p->gc);           /* a collection still open ends here */
    cross(p, end);
    if (end > hull.to_ns)
        end = hull.to_ns;
    if (close_row(p, end) != 0 || mark_namesakes(p) != 0) {
        p->failed = 1;
        return;
    }
    /* the rows inside the window, published */
    size_t n = 0;
    for (size_t i = 0; i < p->nrows; i++) {
        prow *r = &p->rows[i];
        int first = i == 0;
        /* outside the windows: dropped ((start) stays unless the window
         * starts after it ends) */
        if (outside(p, r, first, hull, nwin))
            continue;
        n++;
    }
    if (ev_account_charge(&p->mem, (n ? n : 1) * sizeof *p->pub) != 0 ||
        !(p->pub = calloc(n ? n : 1, sizeof *p->pub))) {
        p->failed = 1;
        return;
    }
    size_t k = 0;
    for (size_t i = 0; i < p->nrows; i++) {
        prow *r = &p->rows[i];
        if (outside(p, r, i == 0, hull, nwin))
            continue;
        phase_row *o = &p->pub[k++];
        if (r->label == NONE) {
            o->label = "(start)";
            o->label_len = 7;
        } else {
            o->label = p->labels[r->label].s;
            o->label_len = p->labels[r->label].len;
        }
        o->nth = r->nth;
        o->start_ns = r->start > hull.from_ns ? r->start : hull.from_ns;
        o->end_ns = r->end < hull.to_ns ? r->end : hull.to_ns;
        if (o->end_ns < o->start_ns)
            o->end_ns = o->start_ns;
        o->ticks = r->ticks;
        o->top = p->tops + r->top;
        o->num_top = r->num_top;
        o->collections = r->collections;
        o->gc_ns = r->gc_ns;
        o->allocated = r->alloc_end > r->alloc_begin ? r->alloc_end - r->alloc_begin : 0;
        o->peak_heap = r->peak_heap;
        o->max_live = r->max_live;
        o->has_heap = r->has_heap;
        o->has_live = r->has_live;
    }
    p->nrows = k;
    /* the published rows point into tops, which no longer grows */
}

static const uint16_t phases_types[] = {
    EL_USER_MARKER, EL_HEAP_PROF_COST_CENTRE, EL_PROF_SAMPLE_COST_CENTRE, EL_PROF_BEGIN,
    EL_HEAP_SIZE, EL_HEAP_LIVE, EL_HEAP_ALLOCATED,
    /* the GC summary's (gc_event_types, without those above) */
    EL_GC_START, EL_GC_END, EL_GC_STATS_GHC, EL_HEAP_INFO_GHC, EL_RUN_THREAD, EL_STOP_THREAD,
    EL_SPARK_COUNTERS, EL_RTS_IDENTIFIER, EL_CAP_CREATE,
};

/* not mergeable: a time-ordered pass */
const ev_analysis_ops phases_ops = {
    .name = "phases",
    .types = phases_types,
    .num_types = sizeof phases_types / sizeof phases_types[0],
    .flags = EV_ORDERED,
    .event = phases_event,
    .end = phases_end,
};

/* ---- create --------------------------------------------------------------------- */

phases_run *phases_create(const phases_opts *o, ev_error *err)
{
    ev_error_clear(err);
    phases_run *p = calloc(1, sizeof *p);
    if (!p)
        goto nomem;
    if (o)
        p->o = *o;
    else
        phases_opts_init(&p->o);
    tx_strpool_init(&p->names);
    p->main_cc = NONE;
    if (p->o.marker) {
        if (ev_pattern_compile(&p->re, p->o.marker, NULL, err) != EV_OK) {
            tx_strpool_destroy(&p->names);
            free(p);
            return NULL;
        }
        /* its memory goes with the aggregate's to the read's budget (no
         * budget yet: the charge is only counted) */
        (void)ev_account_charge(&p->mem, ev_pattern_bytes(p->re));
    }
    if (!(p->gc = gc_create()) || open_row(p, NONE, 0, 0) != 0) {
        phases_destroy(p);
        goto nomem;
    }
    gc_on_collection(p->gc, collection, p);
    return p;
nomem:
    ev_error_set(err, EV_ERR_NOMEM, "out of memory");
    return NULL;
}

void phases_destroy(phases_run *p)
{
    if (!p)
        return;
    ev_pattern_destroy(p->re);
    gc_destroy(p->gc);
    tx_strpool_destroy(&p->names);
    tx_idmap_free(&p->cc_ids);
    tx_htab_free(&p->labeltab);
    free(p->cc);
    free(p->touched);
    free(p->labels);
    free(p->rows);
    free(p->tops);
    free(p->top_cc);
    free(p->pub);
    free(p->cap_alloc);
    ev_budget_release(p->mem.budget, p->mem.charged);
    free(p);
}

/* ---- results ------------------------------------------------------------------------ */

void phases_get_info(const phases_run *p, phases_info *in)
{
    memset(in, 0, sizeof *in);
    in->num_rows = p->pub ? p->nrows : 0;
    in->total_ticks = p->total_ticks;
    in->marks = p->marks;
    in->marks_seen = p->marks_seen;
    in->interval_ns = p->interval_ns;
    in->has_samples = p->has_samples;
    in->has_gc = p->has_gc;
    in->has_alloc = p->has_alloc;
    in->cap = ev_select_cap(p->sel);
}

const phase_row *phases_row_at(const phases_run *p, size_t i)
{
    return p->pub && i < p->nrows ? &p->pub[i] : NULL;
}

ev_status phases_status(const phases_run *p)
{
    if (!p->failed)
        return EV_OK;
    return p->mem.refused ? EV_ERR_LIMIT : EV_ERR_NOMEM;
}

/* ---- writers --------------------------------------------------------------------------- */

static double pct(uint64_t part, uint64_t total)
{
    return total ? 100.0 * (double)part / (double)total : 0.0;
}

/* Module.label, and a namesake's place: "Main.go (A.hs:3:5-9)" */
static void put_cc(FILE *out, const phase_cc *c)
{
    tx_put(out, c->module, strlen(c->module));
    fputc('.', out);
    tx_put(out, c->label, strlen(c->label));
    if (c->namesake) {
        fputs(" (", out);
        tx_put(out, c->srcloc, strlen(c->srcloc));
        fputc(')', out);
    }
}

/* "(start)" or "LABEL #N", the visible form, padded to width code points. */
static size_t phase_name_width(const phase_row *r)
{
    char num[32];
    size_t w = tx_vis_width(r->label, r->label_len);
    if (r->nth)
        w += (size_t)snprintf(num, sizeof num, " #%llu", (unsigned long long)r->nth);
    return w;
}

static void put_phase_name(FILE *out, const phase_row *r, size_t width)
{
    tx_put(out, r->label, r->label_len);
    if (r->nth)
        fprintf(out, " #%llu", (unsigned long long)r->nth);
    for (size_t w = phase_name_width(r); w < width; w++)
        fputc(' ', out);
}

static double mib(uint64_t b)
{
    return (double)b / (1024.0 * 1024.0);
}

int phases_write_text(const phases_run *p, const char *source, FILE *out)
{
    phases_info in;
    phases_get_info(p, &in);
    fputs("Phases of ", out);
    tx_put(out, source, strlen(source));
    if (!in.marks_seen)
        fputs(": the log has no marks (traceMarker), so one phase", out);
    else if (p->re) {
        fprintf(out, ": cut at the %llu of its %llu marks whose label matches '",
                (unsigned long long)in.marks, (unsigned long long)in.marks_seen);
        tx_put(out, p->o.marker, strlen(p->o.marker));
        fputc('\'', out);
    } else {
        fprintf(out, ": cut at each of its %llu marks", (unsigned long long)in.marks);
    }
    if (in.has_samples)
        fprintf(out, "; %llu ticks", (unsigned long long)in.total_ticks);
    if (in.interval_ns)
        fprintf(out, " of %g ms", (double)in.interval_ns / 1e6);
    if (in.cap >= 0)
        fprintf(out, ".\nCapability %d's own samples and allocation (--cap %d); the "
                "collections, GC time and heap are the whole run's", (int)in.cap, (int)in.cap);
    fputs(".\n\n", out);
    size_t wname = 5;
    for (size_t i = 0; i < in.num_rows; i++) {
        size_t w = phase_name_width(&p->pub[i]);
        if (w > wname)
            wname = w;
    }
    put_phase_name(out, &(phase_row){ .label = "phase", .label_len = 5 }, wname);
    fprintf(out, "  %11s %11s", "start (s)", "length (s)");
    if (in.has_samples)
        fprintf(out, " %9s %6s", "ticks", "%");
    if (in.has_gc)
        fprintf(out, " %7s %10s", "GCs", "GC (s)");
    if (in.has_alloc)
        fprintf(out, " %14s", "alloc (MiB)");
    if (in.has_gc)
        fprintf(out, " %15s %14s", "peak heap (MiB)", "max live (MiB)");
    if (in.has_samples && p->o.top)
        fputs("  top cost centres (% of the phase's ticks)", out);
    fputc('\n', out);
    for (size_t i = 0; i < in.num_rows; i++) {
        const phase_row *r = &p->pub[i];
        put_phase_name(out, r, wname);
        fprintf(out, "  %11.6f %11.6f", r->start_ns / 1e9, (r->end_ns - r->start_ns) / 1e9);
        if (in.has_samples)
            fprintf(out, " %9llu %6.1f", (unsigned long long)r->ticks,
                    pct(r->ticks, in.total_ticks));
        if (in.has_gc)
            fprintf(out, " %7u %10.6f", r->collections, r->gc_ns / 1e9);
        if (in.has_alloc)
            fprintf(out, " %14.1f", mib(r->allocated));
        if (in.has_gc) {
            if (r->has_heap)
                fprintf(out, " %15.1f", mib(r->peak_heap));
            else
                fprintf(out, " %15s", "-");
            if (r->has_live)
                fprintf(out, " %14.1f", mib(r->max_live));
            else
                fprintf(out, " %14s", "-");
        }
        if (in.has_samples && r->num_top) {
            fputs(" ", out);
            for (uint32_t k = 0; k < r->num_top; k++) {
                fputs(k ? ", " : " ", out);
                put_cc(out, &r->top[k]);
                fprintf(out, " %.1f", pct(r->top[k].ticks, r->ticks));
            }
        }
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}

int phases_write_csv(const phases_run *p, FILE *out)
{
    phases_info in;
    phases_get_info(p, &in);
    fputs("phase,label,n,start_s,end_s,length_s,ticks,share,collections,gc_s,allocated_bytes,"
          "peak_heap_bytes,max_live_bytes,top_cost_centres\n", out);
    for (size_t i = 0; i < in.num_rows; i++) {
        const phase_row *r = &p->pub[i];
        fprintf(out, "%zu,", i);
        tx_csv_str(out, r->label, r->label_len);
        fprintf(out, ",%llu,%.9f,%.9f,%.9f,%llu,%.4f,%u,%.9f,%llu,", (unsigned long long)r->nth,
                r->start_ns / 1e9, r->end_ns / 1e9, (r->end_ns - r->start_ns) / 1e9,
                (unsigned long long)r->ticks, pct(r->ticks, in.total_ticks) / 100.0,
                r->collections, r->gc_ns / 1e9, (unsigned long long)r->allocated);
        if (r->has_heap)
            fprintf(out, "%llu", (unsigned long long)r->peak_heap);
        fputc(',', out);
        if (r->has_live)
            fprintf(out, "%llu", (unsigned long long)r->max_live);
        fputc(',', out);
        /* "Module.label ticks; ..." as one field */
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        if (!m)
            return -1;
        for (uint32_t k = 0; k < r->num_top; k++) {
            if (k)
                fputs("; ", m);
            put_cc(m, &r->top[k]);
            fprintf(m, " %llu", (unsigned long long)r->top[k].ticks);
        }
        int bad = fclose(m) != 0;
        if (!bad)
            tx_csv_str(out, buf, len);
        free(buf);
        if (bad)
            return -1;
        fputc('\n', out);
    }
    return ferror(out) ? -1 : 0;
}

int phases_write_json(const phases_run *p, const char *source, FILE *out)
{
    phases_info in;
    phases_get_info(p, &in);
    tx_json j;
    tx_json_init(&j, out, 2, 0);
    tx_json_object(&j, TX_JSON_BLOCK);
    tx_json_kv_cstr(&j, "source", source);
    tx_json_kv_cstr(&j, "marker", p->re ? p->o.marker : NULL);
    tx_json_kv_uint(&j, "marks", in.marks);
    tx_json_kv_uint(&j, "marks_seen", in.marks_seen);
    tx_json_kv_uint(&j, "ticks", in.total_ticks);
    tx_json_kv_uint(&j, "interval_ns", in.interval_ns);
    tx_json_key(&j, "capability");      /* --cap: ticks and allocation are its own */
    if (in.cap >= 0)
        tx_json_uint(&j, (uint64_t)in.cap);
    else
        tx_json_null(&j);
    tx_json_key(&j, "phases");
    tx_json_array(&j, TX_JSON_BLOCK);
    for (size_t i = 0; i < in.num_rows; i++) {
        const phase_row *r = &p->pub[i];
        tx_json_object(&j, TX_JSON_INLINE);
        tx_json_kv_string(&j, "label", r->label, r->label_len);
        tx_json_kv_uint(&j, "n", r->nth);
        tx_json_kv_uint(&j, "start_ns", r->start_ns);
        tx_json_kv_uint(&j, "end_ns", r->end_ns);
        tx_json_kv_uint(&j, "ticks", r->ticks);
        tx_json_kv_uint(&j, "collections", r->collections);
        tx_json_kv_uint(&j, "gc_ns", r->gc_ns);
        tx_json_kv_uint(&j, "allocated_bytes", r->allocated);
        tx_json_key(&j, "peak_heap_bytes");
        if (r->has_heap)
            tx_json_uint(&j, r->peak_heap);
        else
            tx_json_null(&j);
        tx_json_key(&j, "max_live_bytes");
        if (r->has_live)
            tx_json_uint(&j, r->max_live);
        else
            tx_json_null(&j);
        tx_json_key(&j, "top");
        tx_json_array(&j, TX_JSON_INLINE);
        for (uint32_t k = 0; k < r->num_top; k++) {
            const phase_cc *c = &r->top[k];
            tx_json_object(&j, TX_JSON_INLINE);
            tx_json_kv_cstr(&j, "label", c->label);
            tx_json_kv_cstr(&j, "module", c->module);
            tx_json_kv_cstr(&j, "src", c->srcloc);
            tx_json_kv_uint(&j, "ticks", c->ticks);
            tx_json_end(&j);
        }
        tx_json_end(&j);
        tx_json_end(&j);
    }
    tx_json_end(&j);
    tx_json_end(&j);
    tx_json_space(&j, "\n");
    return tx_json_finish(&j);
}

/* ---- the table of formats (evprof/format.h) ---- */

static ev_status write_text(const void *p, const void *source, FILE *out, ev_error *err)
{
    return ev_write_status(phases_write_text(p, source, out), err, "the phases' table");
}

static ev_status write_csv(const void *p, const void *source, FILE *out, ev_error *err)
{
    (void)source;
    return ev_write_status(phases_write_csv(p, out), err, "the phases' CSV");
}

static ev_status write_json(const void *p, const void *source, FILE *out, ev_error *err)
{
    return ev_write_status(phases_write_json(p, source, out), err, "the phases' JSON");
}

static const ev_format formats[] = {
    { "text", ".txt", write_text, 0 },
    { "csv", ".csv", write_csv, 0 },
    { "json", ".json", write_json, 0 },
};

const ev_format *phases_formats(size_t *count)
{
    *count = sizeof formats / sizeof formats[0];
    return formats;
}
