/* The live model of `evprof top`: see include/evprof/live.h.
 *
 * Memory: the attached aggregates (profile tree, GC summary, heap bands,
 * ticky counters) plus, per cost centre and per ticky counter, the totals
 * of the previous frame; nothing grows with the length of the stream. The
 * previous totals and the latest census are charged to the read's memory
 * budget, as the aggregates charge theirs; the frame's copies are not
 * (snapshots). */
#include "evprof/live.h"

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "evprof/gc.h"
#include "evprof/heap.h"
#include "evprof/info.h"
#include "evprof/prof.h"
#include "evprof/textout.h"
#include "evprof/ticky.h"
#include "util/account.h"
#include "util/idmap.h"

#define DEFAULT_TOP 10

static const char *const sort_names[] = { "interval", "total", "inherited" };
_Static_assert(sizeof sort_names / sizeof sort_names[0] == LIVE_SORT_COUNT, "sort names");

const char *live_sort_name(live_sort s)
{
    return (unsigned)s < LIVE_SORT_COUNT ? sort_names[s] : "?";
}

void live_opts_init(live_opts *o)
{
    *o = (live_opts){0};        /* every field, exe's pointers too */
    o->top_n = DEFAULT_TOP;
    o->sort = LIVE_SORT_INTERVAL;
    o->samples = NULL;
}

const uint64_t live_pause_bound_ns[LIVE_PAUSE_BOUNDS] = {
    10000, 25000, 50000, 100000, 250000, 500000,                    /* 10 us .. 0.5 ms */
    1000000, 2500000, 5000000, 10000000, 25000000, 50000000,        /* 1 ms .. 50 ms */
    100000000, 250000000, 500000000, 1000000000, 2500000000u,       /* 0.1 s .. 2.5 s */
    5000000000u, 10000000000u,                                      /* 5 s, 10 s */
};

/* ---- previous totals by cost-centre id ----------------------------------- */

typedef struct prev_row {
    uint64_t ticks, inherited;
} prev_row;

/* The previous frame's totals of a ticky counter, by its index in the set
 * (counters keep their order of first appearance: an index is one counter
 * from frame to frame). */
typedef struct prev_ticky {
    uint64_t entries, allocs;
} prev_ticky;

/* ---- memory and the run: a small analysis of its own -------------------- */

typedef struct mem_state {
    uint64_t threads;           /* CREATE_THREAD */
    uint64_t blocks_size;
    int has_blocks_size;
    char *program;              /* PROGRAM_ARGS' first argument */
    uint32_t pid;
    int has_pid;
    ev_account acct;            /* live_top's census copy and previous totals */
    int failed;
} mem_state;

/* Charges bytes about to be allocated; -1 (failed) when refused. */
static int mem_charge(mem_state *m, size_t bytes)
{
    if (ev_account_charge(&m->acct, bytes) == 0)
        return 0;
    m->failed = 1;
    return -1;
}

struct live_top {
    live_opts o;
    prof_profile *prof;
    gc_summary *gc;
    heap_profile *heap;
    ticky_set *ticky;
    mem_state mem;

    /* GC collections, from gc_on_collection */
    uint64_t gcs, pause_ns, max_pause_since;
    uint64_t prev_gcs, prev_pause_ns;
    uint64_t paused, max_pause, pause_buckets[LIVE_PAUSE_BOUNDS + 1];
    gc_summary *gc_snap;        /* the frame's copy of the GC summary */

    /* the latest heap census (band index, bytes) */
    heap_sample *census;
    size_t census_n, census_cap;
    uint64_t census_time, census_total;
    int has_census;

    /* the previous frame: totals by cost-centre id */
    tx_idmap prev_ids;          /* id -> index into prev */
    prev_row *prev;
    size_t n_prev, cap_prev;
    uint64_t prev_ticks, prev_events, prev_alloc, prev_wall_ns, prev_alloc_time;
    prev_ticky *prev_ticky;     /* by counter index */
    size_t cap_prev_ticky;

    /* the current frame and what it points to */
    live_frame f;
    prof_result *res;           /* kept for the labels */
    char why[256];              /* the frame's no_samples_why */
    live_cc_row *rows;          /* every cc with ticks */
    size_t n_rows;
    live_cc_row *top;           /* top_n of rows in the sort order */
    live_band *bands;
    live_ticky_row *ticky_rows;
};

/* The heap's size, live data and allocation are the GC summary's. */
static const uint16_t mem_types[] = {
    EL_CREATE_THREAD, EL_BLOCKS_SIZE, EL_PROGRAM_ARGS, EL_OSPROCESS_PID,
};

/* Returns non-zero to stop the read: out of memory, or the memory limit. */
static int mem_event(void *self, const el_event *ev, const ev_stream *s)
{
    mem_state *m = self;
    if (s && s->budget && s->budget != m->acct.budget && ev_account_move(&m->acct, s->budget) != 0)
        m->failed = 1;
    if (m->failed)
        return 1;
    if (!ev->decoded)
        return 0;
    /* the run's facts, whenever they come */
    switch (ev->type) {
    case EL_PROGRAM_ARGS:
        if (!m->program) {      /* the first capset's: the program's own */
            const el_str *a = &ev->u.text.str;
            size_t n = 0;
            while (n < a->len && a->ptr[n] != '\0')
                n++;
            if (!(m->program = strndup(a->ptr, n))) {
                m->failed = 1;
                return 1;
            }
        }
        return 0;
    case EL_OSPROCESS_PID:
        if (!m->has_pid) {
            m->pid = ev->u.pid.pid;
            m->has_pid = 1;
        }
        return 0;
    default:
        if (ev->outside & EL_OUT_TIME)  /* outside the selection's windows */
            return 0;
        break;
    }
    switch (ev->type) {
    case EL_CREATE_THREAD:
        if (!(ev->outside & EL_OUT_CAP))
            m->threads++;
        break;
    case EL_BLOCKS_SIZE:
        m->blocks_size = ev->u.heap.bytes;
        m->has_blocks_size = 1;
        break;
    }
    return 0;
}

static const ev_analysis_ops mem_ops = {
    .name = "live memory",
    .types = mem_types,
    .num_types = sizeof mem_types / sizeof mem_types[0],
    .flags = EV_COUNTS,
    .event = mem_event,
};

static void on_collection(void *ctx, const gc_collection *c)
{
    live_top *t = ctx;
    t->gcs++;
    if (c->has_pause && c->end_ns >= c->start_ns) {
        uint64_t p = c->end_ns - c->start_ns;
        t->pause_ns += p;
        if (p > t->max_pause_since)
            t->max_pause_since = p;
        if (p > t->max_pause)
            t->max_pause = p;
        size_t b = 0;
        while (b < LIVE_PAUSE_BOUNDS && p > live_pause_bound_ns[b])
            b++;
        t->pause_buckets[b]++;
        t->paused++;
    }
}

static int on_census(void *ctx, const heap_profile *h, const heap_census *c)
{
    live_top *t = ctx;
    (void)h;
    if (c->n > t->census_cap) {
        if (ev_account_charge(&t->mem.acct, (c->n - t->census_cap) * sizeof *t->census) != 0)
            return -1;          /* the memory limit: the heap profile stops the read */
        heap_sample *s = realloc(t->census, c->n * sizeof *s);
        if (!s) {
            ev_account_release(&t->mem.acct, (c->n - t->census_cap) * sizeof *t->census);
            return 0;           /* keep the older census */
        }
        t->census = s;
        t->census_cap = c->n;
    }
    memcpy(t->census, c->samples, c->n * sizeof *c->samples);
    t->census_n = c->n;
    t->census_time = c->time;
    t->census_total = c->total;
    t->has_census = 1;
    return 0;
}

live_top *live_top_create(const live_opts *o)
{
    live_top *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    if (o)
        t->o = *o;
    else
        live_opts_init(&t->o);
    if (!t->o.top_n)
        t->o.top_n = DEFAULT_TOP;
    heap_opts ho;
    heap_opts_init(&ho);
    ho.exe = t->o.exe;
    t->prof = prof_create(o ? o->samples : NULL);
    t->gc = gc_create();
    t->heap = heap_create(&ho, on_census, t);
    t->ticky = ticky_create();
    if (!t->prof || !t->gc || !t->heap || !t->ticky) {
        live_top_destroy(t);
        return NULL;
    }
    gc_on_collection(t->gc, on_collection, t);
    return t;
}

const heap_info *live_top_heap_info(const live_top *t) { return heap_get_info(t->heap); }

void live_top_destroy(live_top *t)
{
    if (!t)
        return;
    prof_destroy(t->prof);
    gc_destroy(t->gc);
    heap_destroy(t->heap);
    ticky_destroy(t->ticky);
    prof_result_destroy(t->res);
    free(t->mem.program);
    gc_destroy(t->gc_snap);
    ev_budget_release(t->mem.acct.budget, t->mem.acct.charged);
    free(t->census);
    tx_idmap_free(&t->prev_ids);
    free(t->prev);
    free(t->prev_ticky);
    free(t->rows);
    free(t->top);
    free(t->bands);
    free(t->ticky_rows);
    free(t);
}

int live_top_attach(live_top *t, ev_driver *d)
{
    if (ev_driver_attach(d, &prof_analysis_ops, t->prof) != 0 ||
        ev_driver_attach(d, &gc_analysis_ops, t->gc) != 0 ||
        ev_driver_attach(d, &heap_analysis_ops, t->heap) != 0 ||
        ev_driver_attach(d, &ticky_analysis_ops, t->ticky) != 0 ||
        ev_driver_attach(d, &mem_ops, &t->mem) != 0)
        return -1;
    return 0;
}

/* ---- the cost centres of a snapshot ------------------------------------- */

typedef struct walk_ctx {
    const prof_result *r;
    uint64_t *ticks, *inherited;    /* by cc index */
    uint32_t *on_path;              /* how often the cc is on the current path */
} walk_ctx;

/* The previous frame's totals of cost centre `id`, zero when new; NULL
 * without memory (charged to the read's budget). */
static prev_row *prev_of(live_top *t, uint32_t id)
{
    uint32_t i = tx_idmap_get(&t->prev_ids, id);
    if (i != TX_IDMAP_NONE)
        return &t->prev[i];
    if (t->n_prev == t->cap_prev) {
        size_t cap = t->cap_prev ? 2 * t->cap_prev : 256;
        if (mem_charge(&t->mem, (cap - t->cap_prev) * sizeof *t->prev) != 0)
            return NULL;
        prev_row *p = realloc(t->prev, cap * sizeof *p);
        if (!p) {
            ev_account_release(&t->mem.acct, (cap - t->cap_prev) * sizeof *p);
            return NULL;
        }
        t->prev = p;
        t->cap_prev = cap;
    }
    if (tx_idmap_put(&t->prev_ids, id, (uint32_t)t->n_prev, &t->mem.acct) != 0)
        return NULL;
    t->prev[t->n_prev] = (prev_row){ 0, 0 };
    return &t->prev[t->n_prev++];
}

static int walk_enter(void *ctx, uint32_t node)
{
    walk_ctx *w = ctx;
    const prof_node *n = prof_node_at(w->r, node);
    w->ticks[n->cc] += n->ticks;
    if (w->on_path[n->cc]++ == 0)
        w->inherited[n->cc] += n->inherited;    /* outermost occurrence only */
    return 0;
}

static int walk_leave(void *ctx, uint32_t node)
{
    walk_ctx *w = ctx;
    w->on_path[prof_node_at(w->r, node)->cc]--;
    return 0;
}

/* -1 when a comes before b in the `sort` order: the key descending, then
 * total ticks, inherited ticks, id. */
static int cmp_rows(const live_cc_row *a, const live_cc_row *b, live_sort sort)
{
    uint64_t ka, kb;
    switch (sort) {
    case LIVE_SORT_TOTAL:
        ka = a->ticks, kb = b->ticks;
        break;
    case LIVE_SORT_INHERITED:
        ka = a->inherited, kb = b->inherited;
        break;
    case LIVE_SORT_INTERVAL:
    case LIVE_SORT_COUNT:       /* the count, not an order: as the default */
    default:
        ka = a->interval, kb = b->interval;
        break;
    }
    if (ka != kb)
        return ka > kb ? -1 : 1;
    if (a->ticks != b->ticks)
        return a->ticks > b->ticks ? -1 : 1;
    if (a->inherited != b->inherited)
        return a->inherited > b->inherited ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

/* The top_n rows in t->o.sort order, by insertion into a short sorted
 * list (top_n is small; the row table stays in cc order). */
static void sort_top(live_top *t)
{
    size_t n = 0, k = t->o.top_n;
    for (size_t i = 0; i < t->n_rows; i++) {
        const live_cc_row *r = &t->rows[i];
        if (n == k && cmp_rows(r, &t->top[n - 1], t->o.sort) >= 0)
            continue;
        size_t j = n < k ? n++ : n - 1;
        while (j > 0 && cmp_rows(r, &t->top[j - 1], t->o.sort) < 0) {
            t->top[j] = t->top[j - 1];
            j--;
        }
        t->top[j] = *r;
    }
    t->f.ccs = t->top;
    t->f.n_ccs = n;
}

static int build_ccs(live_top *t)
{
    prof_result *r = prof_snapshot(t->prof);
    if (!r)
        return -1;
    size_t ncc = prof_num_ccs(r);
    walk_ctx w = { r, calloc(ncc + 1, sizeof(uint64_t)), calloc(ncc + 1, sizeof(uint64_t)),
                   calloc(ncc + 1, sizeof(uint32_t)) };
    live_cc_row *rows = malloc((ncc + 1) * sizeof *rows);
    live_cc_row *top = malloc((t->o.top_n + 1) * sizeof *top);
    if (!w.ticks || !w.inherited || !w.on_path || !rows || !top) {
        free(w.ticks), free(w.inherited), free(w.on_path), free(rows), free(top);
        prof_result_destroy(r);
        return -1;
    }
    prof_walk(r, walk_enter, walk_leave, &w);
    size_t n = 0;
    int failed = 0;
    for (uint32_t i = 0; i < ncc; i++) {
        const prof_cc *cc = prof_cc_at(r, i);
        if (!w.inherited[i] || cc->synthetic)
            continue;
        live_cc_row *row = &rows[n++];
        row->id = cc->id;
        row->label = cc->label;
        row->module = cc->module;
        row->srcloc = cc->srcloc;
        row->ticks = w.ticks[i];
        row->inherited = w.inherited[i];
        prev_row *p = prev_of(t, cc->id);
        if (!p) {
            failed = 1;
            row->interval = row->inherited_interval = 0;
            continue;
        }
        row->interval = row->ticks >= p->ticks ? row->ticks - p->ticks : 0;
        row->inherited_interval = row->inherited >= p->inherited ? row->inherited - p->inherited : 0;
        p->ticks = row->ticks;
        p->inherited = row->inherited;
    }
    free(w.ticks), free(w.inherited), free(w.on_path);
    const prof_info *in = prof_get_info(r);
    t->f.ticks = in->total_ticks;
    t->f.ticks_interval = in->total_ticks - t->prev_ticks;
    t->prev_ticks = in->total_ticks;
    t->f.tick_interval_ns = in->interval_ns;
    t->f.no_samples_why = NULL;
    if (!in->total_ticks) {
        uint64_t defined = 0;
        for (uint32_t i = 0; i < ncc; i++)
            defined += prof_cc_at(r, i)->defined && !prof_cc_at(r, i)->synthetic;
        const char *rts = in->rts_version && in->rts_version[0] ? in->rts_version : NULL;
        info_prof_signs signs = {
            .rts = rts,
            .rts_len = rts ? strlen(rts) : 0,
            .ccs = defined,
            .rts_flags = info_rts_flags(in->argv, in->argc),
            .has_prof_begin = in->has_prof_begin,
            .prof_interval_ns = in->interval_ns,
            .prof_begin_s = (double)in->prof_begin_time / 1e9,
        };
        if (info_no_samples_yet(t->why, sizeof t->why, &signs))
            t->f.no_samples_why = t->why;
    }
    prof_result_destroy(t->res);
    t->res = r;
    free(t->rows);
    free(t->top);
    t->rows = rows;
    t->n_rows = n;
    t->top = top;
    t->f.n_ccs_all = n;
    t->f.all_ccs = rows;
    sort_top(t);
    return failed ? -1 : 0;
}

/* ---- heap bands and ticky ----------------------------------------------- */

static int cmp_band(const void *pa, const void *pb)
{
    const live_band *a = pa, *b = pb;
    if (a->bytes != b->bytes)
        return a->bytes > b->bytes ? -1 : 1;
    return strcmp(a->name, b->name);
}

static void build_bands(live_top *t)
{
    t->f.has_heap_profile = t->has_census;
    t->f.n_bands = t->f.n_bands_all = 0;
    if (!t->has_census)
        return;
    live_band *b = realloc(t->bands, (t->census_n + 1) * sizeof *b);
    if (!b)
        return;
    t->bands = b;
    size_t n = 0;
    for (size_t i = 0; i < t->census_n; i++) {
        const heap_band *hb = heap_band_at(t->heap, t->census[i].band);
        if (!hb)
            continue;
        b[n].name = hb->title;     /* -hi: its IPE entry */
        b[n].bytes = t->census[i].bytes;
        n++;
    }
    qsort(b, n, sizeof *b, cmp_band);
    t->f.bands = b;
    t->f.n_bands_all = n;
    t->f.n_bands = n < t->o.top_n ? n : t->o.top_n;
    t->f.census_s = (double)t->census_time / 1e9;
    t->f.census_total = t->census_total;
}

static int cmp_ticky(const void *pa, const void *pb)
{
    const live_ticky_row *a = pa, *b = pb;
    if (a->entries_interval != b->entries_interval)
        return a->entries_interval > b->entries_interval ? -1 : 1;
    if (a->entries != b->entries)
        return a->entries > b->entries ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* The ticky counters' totals are the set's own (ticky/: the samples in
 * the selection's batches, as `evprof ticky` counts them), read where they
 * are: a snapshot would copy every name, kind and description at each
 * frame for the two totals wanted. The interval is the frame's business:
 * the previous totals by counter index. */
static int build_ticky(live_top *t)
{
    const ticky_set *k = t->ticky;
    size_t nc = ticky_num_counters(k);
    t->f.n_ticky = t->f.n_ticky_all = 0;
    if (ticky_status(k) != EV_OK)
        return -1;      /* its figures miss events (the read stops) */
    if (!nc)
        return 0;
    if (nc > t->cap_prev_ticky) {
        size_t cap = t->cap_prev_ticky ? t->cap_prev_ticky : 64;
        while (cap < nc)
            cap *= 2;
        size_t more = (cap - t->cap_prev_ticky) * sizeof *t->prev_ticky;
        if (mem_charge(&t->mem, more) != 0)
            return -1;
        prev_ticky *p = realloc(t->prev_ticky, cap * sizeof *p);
        if (!p) {
            ev_account_release(&t->mem.acct, more);
            return -1;
        }
        memset(p + t->cap_prev_ticky, 0, more);
        t->prev_ticky = p;
        t->cap_prev_ticky = cap;
    }
    live_ticky_row *r = realloc(t->ticky_rows, nc * sizeof *r);
    if (!r)
        return -1;
    t->ticky_rows = r;
    size_t n = 0;
    for (size_t i = 0; i < nc; i++) {
        const ticky_counter *c = ticky_counter_at(k, i);
        prev_ticky *p = &t->prev_ticky[i];
        if (!c->entries && !c->alloc)
            continue;
        r[n].name = c->defined ? c->name : "<undefined counter>";
        r[n].entries = c->entries;
        r[n].allocs = c->alloc;
        r[n].entries_interval = c->entries - p->entries;
        r[n].allocs_interval = c->alloc - p->allocs;
        p->entries = c->entries;
        p->allocs = c->alloc;
        n++;
    }
    qsort(r, n, sizeof *r, cmp_ticky);
    t->f.ticky = r;
    t->f.n_ticky_all = n;
    t->f.n_ticky = n < t->o.top_n ? n : t->o.top_n;
    return 0;
}

/* ---- frames ------------------------------------------------------------- */

const live_frame *live_top_frame(live_top *t, const ev_stream *s)
{
    live_frame *f = &t->f;
    uint64_t wall = s->wall_ns;

    f->seq++;
    f->wall_s = (double)wall / 1e9;
    f->interval_s = (double)(wall - t->prev_wall_ns) / 1e9;
    f->log_s = (double)s->last_time / 1e9;
    f->bytes = s->read.bytes;
    f->events = ev_stream_events_read(s);
    f->events_interval = f->events - t->prev_events;
    f->events_per_s = f->interval_s > 0 ? (double)f->events_interval / f->interval_s : 0;
    f->finished = s->done;
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) == 0) {
        f->cpu_s = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
                   (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
        f->max_rss_kb = (uint64_t)ru.ru_maxrss;
    }
    f->end_marker = s->read.status == EV_END;
    f->rts_writes_when_full = s->decoder && el_decoder_header_done(s->decoder) &&
                              !el_decoder_type(s->decoder, EL_MEM_RETURN);
    f->waiting = !s->done && s->read.events == 0;

    int failed = build_ccs(t) != 0;

    /* the GC summary's figures: a finished copy, which also gives the
     * allocation (each capability's HEAP_ALLOCATED counter in the window) */
    gc_destroy(t->gc_snap);
    t->gc_snap = gc_snapshot(t->gc);
    f->gc = t->gc_snap ? gc_get_result(t->gc_snap) : NULL;
    if (!f->gc)
        failed = 1;

    live_mem *m = &f->mem;
    const gc_result *g = f->gc;
    uint64_t alloc = g ? g->allocated_bytes : t->prev_alloc;
    uint64_t alloc_time = g ? g->last_alloc_ns : t->prev_alloc_time;
    m->has_heap = g && (g->has_heap_size || g->has_live);
    m->heap_size = g ? g->heap_size_bytes : 0;
    m->live_bytes = g ? g->live_bytes : 0;
    m->allocated = alloc;
    m->alloc_interval = alloc >= t->prev_alloc ? alloc - t->prev_alloc : 0;
    /* over the log's time between the interval's last HEAP_ALLOCATED and
     * the previous interval's (wall time would show GHC's buffering) */
    uint64_t span = alloc_time > t->prev_alloc_time ? alloc_time - t->prev_alloc_time : 0;
    m->alloc_rate = span ? (double)m->alloc_interval / ((double)span / 1e9) : 0;
    m->gcs = t->gcs;
    m->gcs_interval = t->gcs - t->prev_gcs;
    m->pause_ns = t->pause_ns;
    m->pause_interval_ns = t->pause_ns - t->prev_pause_ns;
    m->max_pause_interval_ns = t->max_pause_since;
    m->paused = t->paused;
    m->max_pause_ns = t->max_pause;
    memcpy(m->pause_buckets, t->pause_buckets, sizeof m->pause_buckets);
    m->threads = t->mem.threads;
    m->has_blocks_size = t->mem.has_blocks_size;
    m->blocks_size = t->mem.blocks_size;
    f->program = t->mem.program;
    f->has_pid = t->mem.has_pid;
    f->pid = t->mem.pid;

    build_bands(t);
    if (build_ticky(t) != 0)
        failed = 1;

    t->prev_alloc = alloc;
    t->prev_gcs = t->gcs;
    t->prev_pause_ns = t->pause_ns;
    t->max_pause_since = 0;
    t->prev_events = f->events;
    t->prev_wall_ns = wall;
    t->prev_alloc_time = alloc_time;
    return failed || t->mem.failed ? NULL : f;
}

const live_frame *live_top_resort(live_top *t, live_sort sort)
{
    t->o.sort = sort;
    sort_top(t);
    return &t->f;
}

/* ---- NDJSON ------------------------------------------------------------- */

static void jstr(FILE *out, const char *s)
{
    tx_json_str(out, s, strlen(s));
}

/* The rest of the "gc" object: the pause histogram, threads, blocks, and
 * the GC summary's figures per generation and capability. */
static void json_gc_more(const live_frame *f, FILE *out)
{
    const live_mem *m = &f->mem;
    fprintf(out, ",\"paused\":%llu,\"max_pause_ns\":%llu,\"pause_buckets\":[",
            (unsigned long long)m->paused, (unsigned long long)m->max_pause_ns);
    for (size_t i = 0; i <= LIVE_PAUSE_BOUNDS; i++)
        fprintf(out, "%s%llu", i ? "," : "", (unsigned long long)m->pause_buckets[i]);
    fprintf(out, "],\"threads\":%llu,\"blocks_size\":", (unsigned long long)m->threads);
    if (m->has_blocks_size)
        fprintf(out, "%llu", (unsigned long long)m->blocks_size);
    else
        fputs("null", out);
    const gc_result *r = f->gc;
    if (!r) {
        fputs("}", out);
        return;
    }
    fprintf(out, ",\"copied_bytes\":%llu,\"max_live_bytes\":%llu,\"max_heap_size\":%llu,"
            "\"generations\":[", (unsigned long long)r->copied_bytes,
            (unsigned long long)r->max_live_bytes, (unsigned long long)r->max_mem_in_use_bytes);
    for (uint32_t g = 0; g < r->generations; g++)
        fprintf(out, "%s{\"gen\":%lu,\"collections\":%lu,\"pause_ns\":%llu,"
                "\"max_pause_ns\":%llu,\"copied_bytes\":%llu}", g ? "," : "", (unsigned long)g,
                (unsigned long)r->gens[g].collections, (unsigned long long)r->gens[g].elapsed_ns,
                (unsigned long long)r->gens[g].max_pause_ns,
                (unsigned long long)r->gens[g].copied_bytes);
    fputs("],\"capabilities\":[", out);
    for (uint32_t i = 0; i < r->n_caps; i++) {
        const gc_cap *c = &r->caps[i];
        if (c->cap == EL_NO_CAP)
            fprintf(out, "%s{\"cap\":null", i ? "," : "");
        else
            fprintf(out, "%s{\"cap\":%lu", i ? "," : "", (unsigned long)c->cap);
        fprintf(out, ",\"allocated\":%llu,\"mutator_ns\":%llu,\"gc_ns\":%llu,\"sparks\":",
                (unsigned long long)c->allocated_bytes, (unsigned long long)c->mutator_ns,
                (unsigned long long)c->gc_ns);
        if (c->has_sparks)
            fprintf(out, "{\"created\":%llu,\"dud\":%llu,\"overflowed\":%llu,"
                    "\"converted\":%llu,\"gcd\":%llu,\"fizzled\":%llu}}",
                    (unsigned long long)c->sparks.created, (unsigned long long)c->sparks.dud,
                    (unsigned long long)c->sparks.overflowed,
                    (unsigned long long)c->sparks.converted, (unsigned long long)c->sparks.gcd,
                    (unsigned long long)c->sparks.fizzled);
        else
            fputs("null}", out);
    }
    fputs("]}", out);
}

int live_frame_json(const live_frame *f, FILE *out)
{
    fprintf(out, "{\"seq\":%llu,\"wall_s\":%.3f,\"interval_s\":%.3f,\"log_s\":%.6f,"
            "\"bytes\":%llu,\"events\":%llu,\"events_interval\":%llu,\"events_per_s\":%.0f,"
            "\"cpu_s\":%.3f,\"max_rss_kb\":%llu,\"finished\":%s,\"end_marker\":%s,"
            "\"waiting\":%s,\"rts_writes_when_full\":%s,",
            (unsigned long long)f->seq, f->wall_s, f->interval_s, f->log_s,
            (unsigned long long)f->bytes, (unsigned long long)f->events,
            (unsigned long long)f->events_interval, f->events_per_s, f->cpu_s,
            (unsigned long long)f->max_rss_kb, f->finished ? "true" : "false", f->end_marker ? "true" : "false",
            f->waiting ? "true" : "false", f->rts_writes_when_full ? "true" : "false");
    fprintf(out, "\"ticks\":%llu,\"ticks_interval\":%llu,\"tick_interval_ns\":%llu,"
            "\"cost_centres\":%llu,\"top\":[",
            (unsigned long long)f->ticks, (unsigned long long)f->ticks_interval,
            (unsigned long long)f->tick_interval_ns, (unsigned long long)f->n_ccs_all);
    for (size_t i = 0; i < f->n_ccs; i++) {
        const live_cc_row *r = &f->ccs[i];
        fprintf(out, "%s{\"id\":%u,\"label\":", i ? "," : "", r->id);
        jstr(out, r->label);
        fputs(",\"module\":", out);
        jstr(out, r->module);
        fputs(",\"src\":", out);
        jstr(out, r->srcloc);
        fprintf(out, ",\"ticks\":%llu,\"ticks_interval\":%llu,\"inherited\":%llu,"
                "\"inherited_interval\":%llu}",
                (unsigned long long)r->ticks, (unsigned long long)r->interval,
                (unsigned long long)r->inherited, (unsigned long long)r->inherited_interval);
    }
    const live_mem *m = &f->mem;
    fputs("],\"no_samples_why\":", out);
    if (f->no_samples_why)
        jstr(out, f->no_samples_why);
    else
        fputs("null", out);
    fprintf(out, ",\"gc\":{\"heap_size\":%llu,\"live_bytes\":%llu,\"allocated\":%llu,"
            "\"allocated_interval\":%llu,\"alloc_rate\":%.0f,\"collections\":%llu,"
            "\"collections_interval\":%llu,\"pause_ns\":%llu,\"pause_interval_ns\":%llu,"
            "\"max_pause_interval_ns\":%llu",
            (unsigned long long)m->heap_size, (unsigned long long)m->live_bytes,
            (unsigned long long)m->allocated, (unsigned long long)m->alloc_interval,
            m->alloc_rate, (unsigned long long)m->gcs, (unsigned long long)m->gcs_interval,
            (unsigned long long)m->pause_ns, (unsigned long long)m->pause_interval_ns,
            (unsigned long long)m->max_pause_interval_ns);
    json_gc_more(f, out);
    if (f->has_heap_profile) {
        fprintf(out, ",\"heap\":{\"census_s\":%.6f,\"total\":%llu,\"bands\":[", f->census_s,
                (unsigned long long)f->census_total);
        for (size_t i = 0; i < f->n_bands; i++) {
            fprintf(out, "%s{\"name\":", i ? "," : "");
            jstr(out, f->bands[i].name);
            fprintf(out, ",\"bytes\":%llu}", (unsigned long long)f->bands[i].bytes);
        }
        fputs("]}", out);
    } else {
        fputs(",\"heap\":null", out);
    }
    fputs(",\"ticky\":[", out);
    for (size_t i = 0; i < f->n_ticky; i++) {
        const live_ticky_row *r = &f->ticky[i];
        fprintf(out, "%s{\"name\":", i ? "," : "");
        jstr(out, r->name);
        fprintf(out, ",\"entries\":%llu,\"entries_interval\":%llu,\"allocs\":%llu,"
                "\"allocs_interval\":%llu}",
                (unsigned long long)r->entries, (unsigned long long)r->entries_interval,
                (unsigned long long)r->allocs, (unsigned long long)r->allocs_interval);
    }
    fputs("],\"program\":", out);
    if (f->program)
        jstr(out, f->program);
    else
        fputs("null", out);
    if (f->has_pid)
        fprintf(out, ",\"pid\":%lu}\n", (unsigned long)f->pid);
    else
        fputs(",\"pid\":null}\n", out);
    return ferror(out) ? -1 : 0;
}
