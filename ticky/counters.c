/* Ticky counters from events 210 (definition), 211 (sample: deltas) and
 * 212 (begin of a batch): the table pass, the view (filter, order) and the
 * series pass. One tk_counter per counter id; no memory per sample. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "util/hash.h"

/* ---- the memory budget ------------------------------------------------- */

static int charge(ticky_set *t, size_t bytes)
{
    if (ev_account_charge(&t->mem, bytes) != 0) {
        t->failed = 1;
        return -1;
    }
    return 0;
}

void ticky_set_budget(ticky_set *t, ev_budget *b)
{
    if (ev_account_move(&t->mem, b) != 0)
        t->failed = 1;
}

void ticky_count(const ticky_set *t, ticky_counts *c)
{
    c->counters = t->n;
    c->bytes = t->mem.charged;
    c->over_budget = t->mem.refused;
}

ev_status ticky_status(const ticky_set *t)
{
    return !t->failed ? EV_OK : t->mem.refused ? EV_ERR_LIMIT : EV_ERR_NOMEM;
}

/* ---- strings: a chunked arena ------------------------------------------ */

#define CHUNK_SIZE 65536u

char *ticky_strdup_(ticky_set *t, const char *s, size_t len)
{
    tk_chunk *ch = t->strings;
    if (!ch || ch->cap - ch->used < len + 1) {
        size_t cap = len + 1 > CHUNK_SIZE ? len + 1 : CHUNK_SIZE;
        if (charge(t, sizeof *ch + cap) != 0)
            return NULL;
        ch = malloc(sizeof *ch + cap);
        if (!ch) {
            t->failed = 1;
            return NULL;
        }
        ch->cap = cap;
        ch->used = 0;
        /* a big string gets its own chunk behind the current one, so
         * the current one keeps filling */
        if (t->strings && cap > CHUNK_SIZE) {
            ch->next = t->strings->next;
            t->strings->next = ch;
        } else {
            ch->next = t->strings;
            t->strings = ch;
        }
    }
    char *p = ch->data + ch->used;
    if (len)
        memcpy(p, s, len);
    p[len] = '\0';
    ch->used += len + 1;
    return p;
}

/* ---- the id table ------------------------------------------------------ */

static int id_eq(const void *items, uint32_t i, const void *key)
{
    return ((const tk_counter *)items)[i].pub.id == *(const uint64_t *)key;
}

static tk_counter *lookup(const ticky_set *t, uint64_t id)
{
    uint32_t i = tx_htab_find(&t->by_id, hash_mix64(id), id_eq, t->c, &id);
    return i == TX_HTAB_NONE ? NULL : &t->c[i];
}

tk_counter *ticky_counter_get_(ticky_set *t, uint64_t id)
{
    tk_counter *c = lookup(t, id);
    if (c)
        return c;
    if (t->failed || t->n >= UINT32_MAX - 1) {
        t->failed = 1;
        return NULL;
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        if (charge(t, (cap - t->cap) * sizeof(tk_counter)) != 0)
            return NULL;
        tk_counter *nc = realloc(t->c, cap * sizeof *nc);
        if (!nc) {
            t->failed = 1;
            return NULL;
        }
        t->c = nc;
        t->cap = cap;
    }
    c = &t->c[t->n];
    memset(c, 0, sizeof *c);
    c->pub.id = id;
    c->pub.has_id = 1;
    c->pub.name = c->pub.kinds = c->pub.args = "";
    c->rank = TK_NOT_SHOWN;
    if (tx_htab_insert_charged(&t->by_id, hash_mix64(id), (uint32_t)t->n, &t->mem, 0, NULL) != 0) {
        t->failed = 1;
        return NULL;
    }
    t->n++;
    t->info.counters++;
    return c;
}

/* ---- life ------------------------------------------------------------- */

ticky_set *ticky_create(void)
{
    ticky_set *t = calloc(1, sizeof *t);
    if (t)
        t->to_ns = t->take_limit = UINT64_MAX;
    return t;
}

void ticky_set_event_limit(ticky_set *t, uint64_t limit)
{
    t->take_limit = limit;
    t->taken = 0;
}

uint64_t ticky_events_taken(const ticky_set *t) { return t->taken; }

/* The analyses' gate: 1 when the event is past the limit. */
static int past_limit(ticky_set *t)
{
    if (t->taken >= t->take_limit)
        return 1;
    t->taken++;
    return 0;
}

void ticky_destroy(ticky_set *t)
{
    if (!t)
        return;
    for (tk_chunk *ch = t->strings, *next; ch; ch = next) {
        next = ch->next;
        free(ch);
    }
    for (size_t i = 0; i < t->n; i++)
        free(t->c[i].pts);
    free(t->c);
    tx_htab_free(&t->by_id);
    free(t->touched);
    free(t->rows);
    ev_budget_release(t->mem.budget, t->mem.charged);
    free(t);
}

/* The read's selection (the driver's): a batch is in it when its time is. */
static void set_select(ticky_set *t, const ev_select *sel)
{
    if (t->sel != sel) {
        ev_span w = ev_select_hull(sel);
        t->sel = sel;
        t->from_ns = w.from_ns;
        t->to_ns = w.to_ns;
    }
}

int ticky_is_eventlog(const void *head, size_t len)
{
    return len >= 4 && memcmp(head, "hdrb", 4) == 0;
}

/* ---- JSON descriptions ------------------------------------------------ */

static int hexval(int ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

/* Decodes the JSON string starting after its opening quote at s[*i] into
 * out (at most `cap` bytes; longer strings are cut). Returns its length,
 * or -1 when the string does not end. *i ends after the closing quote. */
static long json_string(const char *s, size_t len, size_t *i, char *out, size_t cap)
{
    size_t n = 0;
    while (*i < len) {
        unsigned char ch = (unsigned char)s[(*i)++];
        uint32_t cp = ch;
        if (ch == '"')
            return (long)n;
        if (ch == '\\') {
            if (*i >= len)
                return -1;
            ch = (unsigned char)s[(*i)++];
            switch (ch) {
            case 'b': cp = '\b'; break;
            case 'f': cp = '\f'; break;
            case 'n': cp = '\n'; break;
            case 'r': cp = '\r'; break;
            case 't': cp = '\t'; break;
            case 'u': {
                cp = 0;
                for (int k = 0; k < 4; k++) {
                    int h = *i < len ? hexval((unsigned char)s[*i]) : -1;
                    if (h < 0)
                        return -1;
                    cp = cp * 16 + (uint32_t)h;
                    (*i)++;
                }
                if (cp >= 0xd800 && cp <= 0xdfff)
                    cp = 0xfffd;            /* pairs are not worth it here */
                break;
            }
            default: cp = ch; break;        /* \" \\ \/ and anything else */
            }
        }
        char enc[4];
        size_t m;
        if (cp < 0x80 || ch == cp) {        /* raw bytes pass through */
            enc[0] = (char)cp;
            m = 1;
        } else if (cp < 0x800) {
            enc[0] = (char)(0xc0 | (cp >> 6));
            enc[1] = (char)(0x80 | (cp & 0x3f));
            m = 2;
        } else {
            enc[0] = (char)(0xe0 | (cp >> 12));
            enc[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
            enc[2] = (char)(0x80 | (cp & 0x3f));
            m = 3;
        }
        for (size_t k = 0; k < m; k++)
            if (n < cap)
                out[n++] = enc[k];
    }
    return -1;
}

/* The string value of top-level key `key` in a JSON object, decoded into
 * out. Returns its length, or -1 when there is none. Tolerant: a value of
 * another type, nesting and junk are skipped. */
static long json_field(const char *s, size_t len, const char *key, char *out, size_t cap)
{
    char k[32];
    size_t i = 0;
    int depth = 0;
    while (i < len) {
        char ch = s[i++];
        if (ch == '{' || ch == '[') {
            depth++;
        } else if (ch == '}' || ch == ']') {
            depth--;
        } else if (ch == '"') {
            long kl = json_string(s, len, &i, k, sizeof k);
            if (kl < 0)
                return -1;
            size_t j = i;
            while (j < len && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r'))
                j++;
            if (j >= len || s[j] != ':')
                continue;                   /* a value, not a key */
            j++;
            while (j < len && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r'))
                j++;
            int match = depth == 1 && (size_t)kl == strlen(key) && memcmp(k, key, (size_t)kl) == 0;
            if (match && j < len && s[j] == '"') {
                j++;
                return json_string(s, len, &j, out, cap);
            }
            i = j;
        }
    }
    return -1;
}

/* ---- events ----------------------------------------------------------- */

static int define(ticky_set *t, const el_event *ev)
{
    tk_counter *c = ticky_counter_get_(t, ev->u.ticky_def.id);
    if (!c)
        return -1;
    t->info.definitions++;
    if (c->pub.defined) {
        t->info.duplicate_defs++;
        return 0;
    }
    if (c->last_batch)
        t->info.defs_after_samples++;
    el_str kinds = ev->u.ticky_def.kinds, name = ev->u.ticky_def.name;
    el_str json = ev->u.ticky_def.json;
    ticky_counter *p = &c->pub;
    char *nm = ticky_strdup_(t, name.ptr, name.len);
    char *kd = ticky_strdup_(t, kinds.ptr, kinds.len);
    if (!nm || !kd)
        return -1;
    p->name = nm;
    p->name_len = name.len;
    p->kinds = p->args = kd;
    p->kinds_len = p->args_len = kinds.len;
    p->arity = ev->u.ticky_def.arity;
    p->has_info_tbl = ev->u.ticky_def.has_info_tbl;
    p->info_tbl = ev->u.ticky_def.info_tbl;
    p->has_json = ev->u.ticky_def.has_json;
    /* the description: the JSON field (9.6+), or JSON in the kinds string
     * (9.4); its "args" are the argument kinds GHC's table would show */
    if (p->has_json && json.len > 0) {
        char *js = ticky_strdup_(t, json.ptr, json.len);
        if (!js)
            return -1;
        p->json = js;
        p->json_len = json.len;
    } else if (kinds.len > 0 && kinds.ptr[0] == '{') {
        p->json = kd;
        p->json_len = kinds.len;
    }
    if (p->json && (kinds.len == 0 || kinds.ptr[0] == '{')) {
        char args[256];
        long n = json_field(p->json, p->json_len, "args", args, sizeof args);
        if (n >= 0) {
            char *a = ticky_strdup_(t, args, (size_t)n);
            if (!a)
                return -1;
            p->args = a;
            p->args_len = (uint32_t)n;
        } else if (kinds.len > 0) {
            p->args = "";
            p->args_len = 0;
        }
    }
    p->defined = 1;
    t->info.defined++;
    return 0;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Closes the open batch: in the series pass its rows go to the callback. */
static void close_batch(ticky_set *t)
{
    if (!t->b.open)
        return;
    t->b.open = 0;
    if (!t->series || t->ntouched == 0)
        return;
    /* rows in the view's order: (rank, index) keys sorted */
    for (size_t i = 0; i < t->ntouched; i++)
        t->touched[i] |= (uint64_t)t->c[t->touched[i]].rank << 32;
    qsort(t->touched, t->ntouched, sizeof *t->touched, cmp_u64);
    for (size_t i = 0; i < t->ntouched; i++) {
        tk_counter *c = &t->c[(uint32_t)t->touched[i]];
        ticky_row *r = &t->rows[i];
        r->c = &c->pub;
        r->entries = t->cumulative ? c->c_entries : c->b_entries;
        r->alloc = t->cumulative ? c->c_alloc : c->b_alloc;
        r->allocd = t->cumulative ? c->c_allocd : c->b_allocd;
        c->b_entries = c->b_alloc = c->b_allocd = 0;
        c->touched = 0;
    }
    size_t n = t->ntouched;
    t->ntouched = 0;
    if (!t->stopped && t->fn(t->fn_ctx, t->b.time, t->rows, n) != 0)
        t->stopped = 1;
}

static void open_batch(ticky_set *t, uint64_t time)
{
    close_batch(t);
    t->b.open = 1;
    t->b.no++;
    t->b.time = time;
    t->b.in_window = ev_select_has(t->sel, time);
    if (!t->series) {
        t->info.batches++;
        if (t->b.in_window)
            t->info.batches_in_window++;
    }
}

/* The counts reach at least to this sample or batch start. */
static void counted(ticky_set *t, uint64_t time)
{
    if (t->series)
        return;
    if (!t->has_counted || time > t->counted_until)
        t->counted_until = time;
    t->has_counted = 1;
}

static void begin_sample(ticky_set *t, const el_event *ev)
{
    counted(t, ev->time);
    if (!t->series)
        t->info.begin_events++;
    t->b.explicit_seen = 1;
    open_batch(t, ev->time);
}

int ticky_keep_series(ticky_set *t, uint32_t points)
{
    if (!t || t->n || t->finished)
        return -1;
    t->keep_points = points < 2 ? 2 : points + (points & 1);
    return 0;
}

/* A sample into its counter's kept points: the open point takes it (sums,
 * the later time) until it holds pwidth samples; when the columns are
 * full, adjacent pairs are summed into one and the width doubles. */
static void keep_point(ticky_set *t, tk_counter *c, uint64_t time, uint64_t entries,
                       uint64_t alloc)
{
    uint32_t cap = t->keep_points;
    if (!c->pts) {
        if (t->points_failed)
            return;
        if (!(c->pts = malloc(3 * (size_t)cap * sizeof *c->pts))) {
            t->points_failed = 1;       /* the points stop; the counters go on */
            return;
        }
        c->pwidth = 1;
    }
    uint64_t *tm = c->pts, *en = tm + cap, *al = en + cap;
    if (c->ppending && c->ppending < c->pwidth) {
        tm[c->pn - 1] = time;
        en[c->pn - 1] += entries;
        al[c->pn - 1] += alloc;
        c->ppending++;
        return;
    }
    if (c->pn == cap) {
        for (uint32_t i = 0; i < c->pn / 2; i++) {
            tm[i] = tm[2 * i + 1];
            en[i] = en[2 * i] + en[2 * i + 1];
            al[i] = al[2 * i] + al[2 * i + 1];
        }
        c->pn /= 2;
        c->pwidth *= 2;
    }
    tm[c->pn] = time;
    en[c->pn] = entries;
    al[c->pn] = alloc;
    c->pn++;
    c->ppending = 1;
}

int ticky_counter_points(const ticky_set *t, size_t i, ticky_points *p)
{
    memset(p, 0, sizeof *p);
    if (t->points_failed)
        return -1;
    if (i >= t->n || !t->c[i].pts)
        return 0;
    const tk_counter *c = &t->c[i];
    p->n = c->pn;
    p->time = c->pts;
    p->entries = c->pts + t->keep_points;
    p->alloc = c->pts + 2 * (size_t)t->keep_points;
    return 0;
}

static int sample(ticky_set *t, const el_event *ev)
{
    tk_counter *c;
    counted(t, ev->time);
    if (t->series) {
        c = lookup(t, ev->u.ticky_sample.id);
        if (!c)
            return 0;   /* not in the first pass: the input changed */
    } else {
        c = ticky_counter_get_(t, ev->u.ticky_sample.id);
        if (!c)
            return -1;
        t->info.samples++;
    }
    if (!t->b.explicit_seen &&
        (!t->b.open || c->last_batch == t->b.no ||
         (ev->time > t->b.last_time && ev->time - t->b.last_time >= TK_IMPLICIT_GAP_NS)))
        open_batch(t, ev->time);
    t->b.last_time = ev->time;
    c->last_batch = t->b.no;
    if (!t->b.in_window)
        return 0;
    uint64_t e = ev->u.ticky_sample.entries, a = ev->u.ticky_sample.allocs;
    uint64_t d = ev->u.ticky_sample.allocd;
    if (!t->series) {
        t->info.samples_in_window++;
        c->pub.entries += e;
        c->pub.alloc += a;
        c->pub.allocd += d;
        c->pub.samples++;
        if (t->keep_points)
            keep_point(t, c, ev->time, e, a);
        return 0;
    }
    if (c->rank == TK_NOT_SHOWN)
        return 0;
    if (!c->touched) {
        c->touched = 1;
        t->touched[t->ntouched++] = (uint32_t)(c - t->c);
    }
    c->b_entries += e;
    c->b_alloc += a;
    c->b_allocd += d;
    c->c_entries += e;
    c->c_alloc += a;
    c->c_allocd += d;
    return 0;
}

int ticky_add_event(ticky_set *t, const el_event *ev)
{
    if (t->failed)
        return -1;
    if (t->finished)
        return -1;      /* a finished set (or a snapshot) takes no events */
    if (t->series || t->info.source == TICKY_FROM_TEXT)
        return 0;
    if (ev->type == EL_STOP_THREAD) {       /* the end of the run, not a ticky event */
        if (!t->has_threads_end || ev->time > t->threads_end)
            t->threads_end = ev->time;
        t->has_threads_end = 1;
        return 0;
    }
    int rc = 0;
    switch (ev->type) {
    case EL_TICKY_COUNTER_DEF:
        if (ev->decoded)
            rc = define(t, ev);
        break;
    case EL_TICKY_COUNTER_SAMPLE:
        if (ev->decoded)
            rc = sample(t, ev);
        break;
    case EL_TICKY_BEGIN_SAMPLE:
        begin_sample(t, ev);
        break;
    default:
        return 0;
    }
    t->info.source = TICKY_FROM_EVENTLOG;
    return rc;
}

int ticky_finish(ticky_set *t)
{
    if (t->failed)
        return -1;
    if (t->finished)
        return 0;
    close_batch(t);
    for (size_t i = 0; i < t->n; i++) {
        ticky_counter *p = &t->c[i].pub;
        if (p->defined)
            continue;
        char buf[64];
        int n = snprintf(buf, sizeof buf, "<undefined ticky counter %llu>",
                         (unsigned long long)p->id);
        char *s = ticky_strdup_(t, buf, (size_t)n);
        if (!s)
            return -1;
        p->name = s;
        p->name_len = (uint32_t)n;
        t->info.undefined++;
    }
    t->finished = 1;
    return 0;
}

void ticky_coverage_of(const ticky_set *t, ticky_coverage *c)
{
    memset(c, 0, sizeof *c);
    if (t->info.source != TICKY_FROM_EVENTLOG || !t->has_counted ||
        (!t->has_threads_end && !t->has_log_end))
        return;
    c->known = 1;
    c->counted_until_ns = t->counted_until;
    c->end_from_threads = t->has_threads_end;
    c->run_end_ns = t->has_threads_end ? t->threads_end : t->log_end;
    if (c->run_end_ns > c->counted_until_ns)
        c->after_ns = c->run_end_ns - c->counted_until_ns;
    c->after_pct = c->run_end_ns ? (double)c->after_ns / (double)c->run_end_ns * 100.0 : 0.0;
    /* a window that ends before the last sample lost nothing to the end */
    c->short_of_run = c->after_ns > TICKY_SHORT_MARGIN_NS && t->to_ns > c->counted_until_ns;
}

const ticky_info *ticky_get_info(const ticky_set *t)
{
    return &t->info;
}

size_t ticky_num_counters(const ticky_set *t)
{
    return t->n;
}

const ticky_counter *ticky_counter_at(const ticky_set *t, size_t i)
{
    return i < t->n ? &t->c[i].pub : NULL;
}

const ticky_counter *ticky_find(const ticky_set *t, uint64_t id)
{
    const tk_counter *c = lookup(t, id);
    return c ? &c->pub : NULL;
}

/* ---- the view --------------------------------------------------------- */

static const char *const sort_names[] = {
    [TICKY_SORT_ENTRIES] = "entries",
    [TICKY_SORT_ALLOC] = "alloc",
    [TICKY_SORT_ALLOCD] = "allocd",
    [TICKY_SORT_NAME] = "name",
    [TICKY_SORT_INPUT] = "input",
};
_Static_assert(sizeof sort_names / sizeof sort_names[0] == TICKY_SORT_INPUT + 1,
               "a name for every ticky_sort");

const char *ticky_sort_name(ticky_sort s)
{
    return (unsigned)s <= TICKY_SORT_INPUT ? sort_names[s] : "?";
}

int ticky_sort_parse(const char *name)
{
    for (int i = 0; i <= TICKY_SORT_INPUT; i++)
        if (strcmp(name, sort_names[i]) == 0)
            return i;
    return -1;
}

void ticky_view_opts_init(ticky_view_opts *o)
{
    memset(o, 0, sizeof *o);
    o->sort = TICKY_SORT_ENTRIES;
}

typedef struct sort_el {
    uint64_t key;
    const char *name;
    uint32_t name_len;
    size_t idx;
} sort_el;

static int cmp_el(const void *pa, const void *pb)
{
    const sort_el *a = pa, *b = pb;
    if (a->key != b->key)
        return a->key > b->key ? -1 : 1;        /* descending */
    size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
    int c = n ? memcmp(a->name, b->name, n) : 0;
    if (c)
        return c;
    if (a->name_len != b->name_len)
        return a->name_len < b->name_len ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int contains(const char *s, size_t n, const char *m, size_t mn)
{
    if (mn == 0)
        return 1;
    for (size_t i = 0; i + mn <= n; i++)
        if (s[i] == m[0] && memcmp(s + i, m, mn) == 0)
            return 1;
    return 0;
}

int ticky_view_build(const ticky_set *t, const ticky_view_opts *o, ticky_view *v)
{
    ticky_view_opts defaults;
    if (!o) {
        ticky_view_opts_init(&defaults);
        o = &defaults;
    }
    memset(v, 0, sizeof *v);
    v->opts = *o;
    sort_el *els = malloc((t->n ? t->n : 1) * sizeof *els);
    v->order = malloc((t->n ? t->n : 1) * sizeof *v->order);
    if (!els || !v->order) {
        free(els);
        free(v->order);
        v->order = NULL;
        return -1;
    }
    size_t m = 0;
    for (size_t i = 0; i < t->n; i++) {
        const ticky_counter *p = &t->c[i].pub;
        if (o->match && !contains(p->name, p->name_len, o->match, o->match_len))
            continue;
        sort_el *e = &els[m++];
        e->idx = i;
        e->name = p->name;
        e->name_len = p->name_len;
        switch (o->sort) {
        case TICKY_SORT_ALLOC: e->key = p->alloc; break;
        case TICKY_SORT_ALLOCD: e->key = p->allocd; break;
        case TICKY_SORT_ENTRIES: e->key = p->entries; break;
        case TICKY_SORT_NAME:       /* by name or input order: no key */
        case TICKY_SORT_INPUT:
        default: e->key = 0; break;
        }
        if (o->sort == TICKY_SORT_INPUT)
            e->name_len = 0;                    /* order by index alone */
        v->entries += p->entries;
        v->alloc += p->alloc;
        v->allocd += p->allocd;
    }
    if (m > 1)
        qsort(els, m, sizeof *els, cmp_el);
    for (size_t i = 0; i < m; i++)
        v->order[i] = els[i].idx;
    free(els);
    v->matched = m;
    v->shown = o->top && o->top < m ? o->top : m;
    return 0;
}

void ticky_view_free(ticky_view *v)
{
    free(v->order);
    v->order = NULL;
}

/* ---- the series pass --------------------------------------------------- */

int ticky_series_begin(ticky_set *t, const ticky_view *v, int cumulative,
                       ticky_batch_fn fn, void *ctx)
{
    size_t n = t->n ? t->n : 1;
    free(t->touched);
    free(t->rows);
    t->touched = malloc(n * sizeof *t->touched);
    t->rows = malloc(n * sizeof *t->rows);
    if (!t->touched || !t->rows)
        return -1;
    for (size_t i = 0; i < t->n; i++) {
        tk_counter *c = &t->c[i];
        c->last_batch = 0;
        c->b_entries = c->b_alloc = c->b_allocd = 0;
        c->c_entries = c->c_alloc = c->c_allocd = 0;
        c->touched = 0;
        c->rank = TK_NOT_SHOWN;
    }
    for (size_t i = 0; i < v->shown; i++)
        t->c[v->order[i]].rank = (uint32_t)i;
    memset(&t->b, 0, sizeof t->b);
    t->ntouched = 0;
    t->series = 1;
    t->stopped = 0;
    t->cumulative = cumulative;
    t->fn = fn;
    t->fn_ctx = ctx;
    return 0;
}

int ticky_series_add_event(ticky_set *t, const el_event *ev)
{
    if (!t->series || t->stopped)
        return t->stopped;
    if (ev->type == EL_TICKY_BEGIN_SAMPLE)
        begin_sample(t, ev);
    else if (ev->type == EL_TICKY_COUNTER_SAMPLE && ev->decoded)
        sample(t, ev);
    return t->stopped;
}

int ticky_series_end(ticky_set *t)
{
    if (t->series)
        close_batch(t);
    t->series = 0;
    return t->stopped;
}

/* ---- snapshots and the driver --------------------------------------------- */

static int copy_str(ticky_set *c, const char **s, uint32_t len)
{
    if (!*s)
        return 0;
    char *d = ticky_strdup_(c, *s, len);
    if (!d)
        return -1;
    *s = d;
    return 0;
}

ticky_set *ticky_snapshot(const ticky_set *t)
{
    if (!t || t->failed || t->series)
        return NULL;
    ticky_set *c = ticky_create();
    if (!c)
        return NULL;
    c->from_ns = t->from_ns;
    c->to_ns = t->to_ns;
    c->keep_points = t->keep_points;
    c->points_failed = t->points_failed;
    for (size_t i = 0; i < t->n; i++) {
        tk_counter *k = ticky_counter_get_(c, t->c[i].pub.id);
        if (!k)
            goto nomem;
        *k = t->c[i];
        k->pts = NULL;
        if (t->c[i].pts) {
            size_t bytes = 3 * (size_t)t->keep_points * sizeof *k->pts;
            if (!(k->pts = malloc(bytes)))
                goto nomem;
            memcpy(k->pts, t->c[i].pts, bytes);
        }
        ticky_counter *p = &k->pub;
        if (copy_str(c, &p->name, p->name_len) || copy_str(c, &p->kinds, p->kinds_len) ||
            copy_str(c, &p->args, p->args_len) || copy_str(c, &p->json, p->json_len))
            goto nomem;
    }
    c->info = t->info;
    c->b = t->b;
    c->has_counted = t->has_counted;
    c->counted_until = t->counted_until;
    c->has_threads_end = t->has_threads_end;
    c->threads_end = t->threads_end;
    c->has_log_end = t->has_log_end;
    c->log_end = t->log_end;
    if (t->finished)
        c->finished = 1;
    else if (ticky_finish(c) != 0)
        goto nomem;
    return c;

nomem:
    ticky_destroy(c);
    return NULL;
}

static int ticky_op_event(void *self, const el_event *ev, const ev_stream *s)
{
    ticky_set *t = self;
    if (past_limit(t))
        return 0;
    if (s->budget != t->mem.budget && s->budget)
        ticky_set_budget(t, s->budget);
    set_select(t, s->select);
    return ticky_add_event(t, ev) != 0;
}

static int ticky_series_op_event(void *self, const el_event *ev, const ev_stream *s)
{
    ticky_set *t = self;
    if (past_limit(t))
        return 0;
    set_select(t, s->select);
    return ticky_series_add_event(t, ev) != 0;
}

/* The log's last event: the end of the run when it has no thread events. */
static void ticky_op_end(void *self, const ev_stream *s)
{
    ticky_set *t = self;
    if (s->read.has_time_span) {
        t->log_end = s->read.last_time;
        t->has_log_end = 1;
    }
}

static void *ticky_op_snapshot(void *self) { return ticky_snapshot(self); }
static void ticky_op_release(void *snap) { ticky_destroy(snap); }

static const uint16_t ticky_types[] = {
    EL_TICKY_COUNTER_DEF, EL_TICKY_COUNTER_SAMPLE, EL_TICKY_BEGIN_SAMPLE, EL_STOP_THREAD,
};

static int ticky_op_holds(const void *self, char *buf, size_t size)
{
    ticky_counts c;
    ticky_count(self, &c);
    snprintf(buf, size, "the ticky counters: %llu in %.1f MiB", (unsigned long long)c.counters,
             (double)c.bytes / (1 << 20));
    return c.counters != 0;
}

const ev_analysis_ops ticky_analysis_ops = {
    .name = "ticky counters",
    .types = ticky_types,
    .num_types = sizeof ticky_types / sizeof ticky_types[0],
    .event = ticky_op_event,
    .end = ticky_op_end,
    .snapshot = ticky_op_snapshot,
    .release = ticky_op_release,
    .holds = ticky_op_holds,
};

/* batches are handed out in file order: not mergeable */
const ev_analysis_ops ticky_series_ops = {
    .name = "ticky series",
    .types = ticky_types,
    .num_types = sizeof ticky_types / sizeof ticky_types[0],
    .event = ticky_series_op_event,
    .holds = ticky_op_holds,
};
