/* The page's own small analyses: the GC time series, the heap censuses
 * kept for the chart, ticky counters with their series, the run's facts.
 * Each is bounded: memory grows with the options, never with the log. */
#include <stdlib.h>
#include <string.h>

#include "html/internal.h"
#include "util/hash.h"
#include "util/htab.h"

/* ---- GC time series ------------------------------------------------------ */

int html_gcseries_init(html_gcseries *g, uint32_t max_points)
{
    memset(g, 0, sizeof *g);
    g->cap = max_points < 4 ? 4 : max_points;
    g->cap += g->cap & 1;
    g->stride = 1;
    g->pts = malloc(g->cap * sizeof *g->pts);
    return g->pts ? 0 : -1;
}

void html_gcseries_free(html_gcseries *g)
{
    free(g->pts);
    free(g->cap_alloc);
    g->pts = NULL;
    g->cap_alloc = NULL;
}

static void gcs_point(html_gcseries *g)
{
    if (g->n == g->cap) {
        /* keep every other point; a dropped point's peaks go to the next */
        size_t k = 0;
        for (size_t i = 1; i < g->n; i += 2) {
            hs_point p = g->pts[i];
            if (g->pts[i - 1].size > p.size)
                p.size = g->pts[i - 1].size;
            if (g->pts[i - 1].live > p.live)
                p.live = g->pts[i - 1].live;
            g->pts[k++] = p;
        }
        g->n = k;
        g->stride *= 2;
    }
    g->pts[g->n++] = (hs_point){ g->last_t, g->max_size, g->max_live, g->alloc };
    g->max_size = g->size;
    g->max_live = g->live;
}

static int gcs_event(void *self, const el_event *ev, const ev_stream *s)
{
    html_gcseries *g = self;
    (void)s;
    if (!ev->decoded)
        return 0;
    uint64_t b = ev->u.heap.bytes;
    switch (ev->type) {
    case EL_HEAP_SIZE:
        g->size = b;
        break;
    case EL_HEAP_LIVE:
        g->live = b;
        break;
    case EL_HEAP_ALLOCATED: {
        /* a per-capability counter; the total is the sum of their growth */
        size_t c = ev->cap == EL_NO_CAP ? 0 : ev->cap;
        if (c >= g->n_caps) {
            size_t n = c + 1;
            uint64_t *a = realloc(g->cap_alloc, n * sizeof *a);
            if (!a) {
                g->nomem = 1;
                return 0;
            }
            memset(a + g->n_caps, 0, (n - g->n_caps) * sizeof *a);
            g->cap_alloc = a;
            g->n_caps = n;
        }
        if (b > g->cap_alloc[c])
            g->alloc += b - g->cap_alloc[c];
        g->cap_alloc[c] = b;
        break;
    }
    default:
        return 0;
    }
    if (g->size > g->max_size)
        g->max_size = g->size;
    if (g->live > g->max_live)
        g->max_live = g->live;
    g->last_t = ev->time;
    g->events++;
    if (++g->count >= g->stride) {
        g->count = 0;
        gcs_point(g);
    }
    return 0;
}

static void gcs_end(void *self, const ev_stream *s)
{
    html_gcseries *g = self;
    (void)s;
    if (g->events && g->count)
        gcs_point(g);
}

static const uint16_t gcs_types[] = { EL_HEAP_SIZE, EL_HEAP_LIVE, EL_HEAP_ALLOCATED };
const ev_analysis_ops html_gcseries_ops = {
    "gc series", gcs_types, sizeof gcs_types / sizeof gcs_types[0], 0, gcs_event, gcs_end,
    NULL, NULL,
    NULL, NULL, NULL,   /* not mergeable */
};

/* ---- heap censuses --------------------------------------------------------- */

int html_censuses_init(html_censuses *k, uint32_t max_censuses)
{
    memset(k, 0, sizeof *k);
    k->cap = max_censuses < 4 ? 4 : max_censuses;
    k->cap += k->cap & 1;
    k->stride = 1;
    k->c = calloc(k->cap, sizeof *k->c);
    return k->c ? 0 : -1;
}

void html_censuses_free(html_censuses *k)
{
    for (size_t i = 0; i < k->n; i++)
        free(k->c[i].samples);
    free(k->c);
    k->c = NULL;
    k->n = 0;
}

int html_censuses_sink(void *ctx, const heap_profile *h, const heap_census *c)
{
    html_censuses *k = ctx;
    (void)h;
    /* every stride-th census; when full, every other one goes and the
     * stride doubles, so the kept ones stay evenly spread over the run */
    if (k->seen++ % k->stride != 0)
        return 0;
    if (k->n == k->cap) {
        size_t j = 0;
        for (size_t i = 0; i < k->n; i++) {
            if (i % 2 == 0)
                k->c[j++] = k->c[i];
            else
                free(k->c[i].samples);
        }
        k->n = j;
        k->stride *= 2;
        /* cap is even: this census, cap x the old stride, is on the new one */
    }
    hc_census *o = &k->c[k->n];
    o->samples = c->n ? malloc(c->n * sizeof *o->samples) : NULL;
    if (c->n && !o->samples) {
        k->nomem = 1;
        return 0;       /* the chart misses a census; the profile goes on */
    }
    if (c->n)
        memcpy(o->samples, c->samples, c->n * sizeof *o->samples);
    o->n = c->n;
    o->time = c->time;
    o->total = c->total;
    k->n++;
    return 0;
}

/* ---- ticky ----------------------------------------------------------------- */

int html_ticky_init(html_ticky *t, uint32_t points)
{
    memset(t, 0, sizeof *t);
    t->points = points < 2 ? 2 : points + (points & 1);
    t->set = ticky_create();
    if (!t->set) {
        html_ticky_free(t);
        return -1;
    }
    return 0;
}

void html_ticky_free(html_ticky *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->s[i].t);
    free(t->s);
    tx_htab_free(&t->by_id);
    ticky_destroy(t->set);
    t->s = NULL;
    t->set = NULL;
}

static int series_eq(const void *items, uint32_t i, const void *key)
{
    return ((const tk_series *)items)[i].id == *(const uint64_t *)key;
}

/* The series of id (made empty when new), or NULL without memory. */
static tk_series *tk_slot(html_ticky *t, uint64_t id)
{
    uint64_t h = hash_mix64(id);
    uint32_t i = tx_htab_find(&t->by_id, h, series_eq, t->s, &id);
    if (i != TX_HTAB_NONE)
        return &t->s[i];
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        tk_series *s = realloc(t->s, cap * sizeof *s);
        if (!s)
            return NULL;
        t->s = s;
        t->cap = cap;
    }
    /* one allocation for the three columns */
    uint64_t *cols = malloc(3 * (size_t)t->points * sizeof *cols);
    if (!cols || t->n >= TX_HTAB_NONE || tx_htab_insert(&t->by_id, h, (uint32_t)t->n) != 0) {
        free(cols);
        return NULL;
    }
    tk_series *s = &t->s[t->n];
    memset(s, 0, sizeof *s);
    s->t = cols;
    s->entries = s->t + t->points;
    s->alloc = s->entries + t->points;
    s->id = id;
    s->cap = t->points;
    s->width = 1;
    t->n++;
    return s;
}

static void tk_add(tk_series *s, uint64_t time, uint64_t entries, uint64_t alloc)
{
    if (s->pending && s->pending < s->width) {
        /* the open point takes the sample: sums, the later time */
        s->t[s->n - 1] = time;
        s->entries[s->n - 1] += entries;
        s->alloc[s->n - 1] += alloc;
        s->pending++;
        return;
    }
    if (s->n == s->cap) {
        for (uint32_t i = 0; i < s->n / 2; i++) {
            s->t[i] = s->t[2 * i + 1];
            s->entries[i] = s->entries[2 * i] + s->entries[2 * i + 1];
            s->alloc[i] = s->alloc[2 * i] + s->alloc[2 * i + 1];
        }
        s->n /= 2;
        s->width *= 2;
    }
    s->t[s->n] = time;
    s->entries[s->n] = entries;
    s->alloc[s->n] = alloc;
    s->n++;
    s->pending = 1;
}

static int tk_event(void *self, const el_event *ev, const ev_stream *st)
{
    html_ticky *t = self;
    (void)st;
    if (ticky_add_event(t->set, ev) != 0) {
        t->nomem = 1;
        return 1;
    }
    if (ev->type == EL_TICKY_COUNTER_SAMPLE && ev->decoded && !t->nomem) {
        tk_series *s = tk_slot(t, ev->u.ticky_sample.id);
        if (!s) {
            t->nomem = 1;   /* the series stop; the counters go on */
            return 0;
        }
        tk_add(s, ev->time, ev->u.ticky_sample.entries, ev->u.ticky_sample.allocs);
    }
    return 0;
}

const tk_series *html_ticky_series(const html_ticky *t, uint64_t id)
{
    uint32_t i = tx_htab_find(&t->by_id, hash_mix64(id), series_eq, t->s, &id);
    return i == TX_HTAB_NONE ? NULL : &t->s[i];
}

static const uint16_t tk_types[] = {
    EL_TICKY_COUNTER_DEF, EL_TICKY_COUNTER_SAMPLE, EL_TICKY_BEGIN_SAMPLE,
};
const ev_analysis_ops html_ticky_ops = {
    "ticky", tk_types, sizeof tk_types / sizeof tk_types[0], 0, tk_event, NULL, NULL, NULL,
    NULL, NULL, NULL,   /* not mergeable */
};

/* ---- facts ------------------------------------------------------------------ */

void html_facts_free(html_facts *f)
{
    free(f->program_args);
    free(f->rts);
    f->program_args = f->rts = NULL;
}

static char *dup_bytes(const char *p, uint32_t len)
{
    char *s = malloc((size_t)len + 1);
    if (s) {
        if (len)
            memcpy(s, p, len);
        s[len] = '\0';
    }
    return s;
}

static int facts_event(void *self, const el_event *ev, const ev_stream *s)
{
    html_facts *f = self;
    (void)s;
    if (!ev->decoded)
        return 0;
    switch (ev->type) {
    case EL_PROGRAM_ARGS:
        if (!f->program_args) {
            f->program_args = dup_bytes(ev->u.text.str.ptr, ev->u.text.str.len);
            f->args_len = ev->u.text.str.len;
            f->nomem |= !f->program_args;
        }
        break;
    case EL_RTS_IDENTIFIER:
        if (!f->rts) {
            f->rts = dup_bytes(ev->u.text.str.ptr, ev->u.text.str.len);
            f->rts_len = ev->u.text.str.len;
            f->nomem |= !f->rts;
        }
        break;
    case EL_WALL_CLOCK_TIME:
        if (!f->has_wall) {
            f->has_wall = 1;
            f->wall_sec = ev->u.wall_clock.sec;
            f->wall_nsec = ev->u.wall_clock.nsec;
            f->wall_time = ev->time;
        }
        break;
    case EL_CAP_CREATE:
        f->caps++;
        if ((uint32_t)ev->u.cap.cap + 1 > f->max_cap)
            f->max_cap = (uint32_t)ev->u.cap.cap + 1;
        break;
    case EL_STARTUP:
        f->startup_caps = ev->u.startup.n_caps;
        break;
    case EL_OSPROCESS_PID:
        if (!f->has_pid) {
            f->has_pid = 1;
            f->pid = ev->u.pid.pid;
        }
        break;
    }
    return 0;
}

static const uint16_t facts_types[] = {
    EL_PROGRAM_ARGS, EL_RTS_IDENTIFIER, EL_WALL_CLOCK_TIME, EL_CAP_CREATE, EL_STARTUP,
    EL_OSPROCESS_PID,
};
const ev_analysis_ops html_facts_ops = {
    "facts", facts_types, sizeof facts_types / sizeof facts_types[0], 0, facts_event, NULL,
    NULL, NULL,
    NULL, NULL, NULL,   /* not mergeable */
};
