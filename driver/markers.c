/* The marks of a log: see include/evprof/markers.h. Labels are found by
 * their hash (tx_htab over the label array), so a log of millions of
 * distinct labels costs time in proportion to its marks; their strings
 * sit in a pool. Everything the marks hold is charged to the read's
 * memory budget. */
#include "evprof/markers.h"

#include <stdlib.h>
#include <string.h>

#include "util/account.h"
#include "util/hash.h"
#include "util/htab.h"
#include "util/strpool.h"

typedef struct mlabel {
    ev_marker_label pub;
    uint64_t one;               /* the time while the label has one mark */
    uint64_t *times;            /* from the second mark on: every time */
    uint64_t cap;               /* of times */
    uint64_t first_seq;         /* file order of the first mark (ties) */
} mlabel;

struct ev_markers {
    mlabel *labels;
    size_t n, cap;
    tx_htab by_label;           /* label -> index in labels */
    strpool strings;
    uint64_t seq;
    uint32_t *sorted;           /* label indices by first time, after the end */
    ev_account mem;
    int failed;
};

ev_markers *ev_markers_create(void)
{
    ev_markers *m = calloc(1, sizeof(ev_markers));
    if (m)
        tx_strpool_init(&m->strings);
    return m;
}

void ev_markers_destroy(ev_markers *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++)
        free(m->labels[i].times);
    free(m->labels);
    free(m->sorted);
    tx_htab_free(&m->by_label);
    tx_strpool_destroy(&m->strings);
    ev_budget_release(m->mem.budget, m->mem.charged);
    free(m);
}

void ev_markers_set_budget(ev_markers *m, ev_budget *b)
{
    if (ev_account_move(&m->mem, b) != 0)
        m->failed = 1;
}

void ev_markers_count(const ev_markers *m, uint64_t *labels, uint64_t *marks, uint64_t *bytes)
{
    *labels = m->n;
    *marks = m->seq;
    *bytes = m->mem.charged;
}

/* Charges bytes about to be allocated; -1 (failed) when refused. */
static int charge(ev_markers *m, size_t bytes)
{
    if (ev_account_charge(&m->mem, bytes) == 0)
        return 0;
    m->failed = 1;
    return -1;
}

typedef struct label_key {
    const char *s;
    size_t len;
} label_key;

static int label_eq(const void *items, uint32_t i, const void *key)
{
    const mlabel *l = (const mlabel *)items + i;
    const label_key *k = key;
    return l->pub.len == k->len && memcmp(l->pub.label, k->s, k->len) == 0;
}

static mlabel *find(const ev_markers *m, const char *s, size_t len, uint64_t h)
{
    label_key k = { s, len };
    uint32_t i = tx_htab_find(&m->by_label, h, label_eq, m->labels, &k);
    return i == TX_HTAB_NONE ? NULL : &m->labels[i];
}

/* A new label, last in the list (NULL when out of memory or refused). */
static mlabel *add_label(ev_markers *m, const char *s, size_t len, uint64_t h,
                         uint64_t first_ns, uint64_t first_seq)
{
    if (len > UINT32_MAX - 1 || m->n >= TX_HTAB_NONE - 1)
        return NULL;
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 16;
        if (charge(m, (cap - m->cap) * sizeof(mlabel)) != 0)
            return NULL;
        mlabel *p = realloc(m->labels, cap * sizeof *p);
        if (!p) {
            ev_account_release(&m->mem, (cap - m->cap) * sizeof(mlabel));
            return NULL;
        }
        m->labels = p;
        m->cap = cap;
    }
    size_t more = tx_strpool_growth(&m->strings, (uint32_t)len);
    if (more && charge(m, more) != 0)
        return NULL;
    const char *copy = tx_strpool_add(&m->strings, s, (uint32_t)len);
    if (!copy || tx_htab_insert_charged(&m->by_label, h, (uint32_t)m->n, &m->mem, 0, NULL) != 0) {
        if (m->mem.refused)
            m->failed = 1;
        return NULL;
    }
    mlabel *l = &m->labels[m->n++];
    memset(l, 0, sizeof *l);
    l->pub.label = copy;
    l->pub.len = (uint32_t)len;
    l->pub.first_ns = first_ns;
    l->first_seq = first_seq;
    return l;
}

/* Adds `n` times (t: n of them, ascending or not) to l's. Returns 0 or -1. */
static int add_times(ev_markers *m, mlabel *l, const uint64_t *t, uint64_t n)
{
    uint64_t have = l->pub.count, total = have + n;
    if (total == 1) {
        l->one = t[0];
    } else {
        if (total > l->cap) {
            uint64_t cap = l->cap ? l->cap * 2 : 4;
            while (cap < total)
                cap *= 2;
            if (charge(m, (cap - l->cap) * sizeof *l->times) != 0)
                return -1;
            uint64_t *p = realloc(l->times, cap * sizeof *p);
            if (!p) {
                ev_account_release(&m->mem, (cap - l->cap) * sizeof *l->times);
                return -1;
            }
            if (have == 1 && !l->times)
                p[0] = l->one;
            l->times = p;
            l->cap = cap;
        }
        memcpy(l->times + have, t, n * sizeof *t);
    }
    l->pub.count = total;
    for (uint64_t i = 0; i < n; i++)
        if (t[i] < l->pub.first_ns)
            l->pub.first_ns = t[i];
    return 0;
}

/* l's times (one or more) */
static uint64_t *times_of(mlabel *l)
{
    return l->pub.count > 1 ? l->times : &l->one;
}

static int markers_event(void *self, const el_event *ev, const ev_stream *s)
{
    ev_markers *m = self;

    if (s && s->budget && s->budget != m->mem.budget)
        ev_markers_set_budget(m, s->budget);
    if (m->failed)
        return 1;
    if (ev->type != EL_USER_MARKER || !ev->decoded)
        return 0;
    const char *str = ev->u.text.str.ptr;
    size_t len = ev->u.text.str.len;
    uint64_t h = hash_bytes(str, len, 0);
    mlabel *l = find(m, str, len, h);
    if ((!l && !(l = add_label(m, str, len, h, ev->time, m->seq))) ||
        add_times(m, l, &ev->time, 1) != 0)
        goto nomem;
    m->seq++;
    return 0;
nomem:
    m->failed = 1;
    return 1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

typedef struct by_first {
    uint64_t first_ns, seq;
    uint32_t index;
} by_first;

static int cmp_first(const void *a, const void *b)
{
    const by_first *x = a, *y = b;
    if (x->first_ns != y->first_ns)
        return x->first_ns < y->first_ns ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void markers_end(void *self, const ev_stream *s)
{
    ev_markers *m = self;
    (void)s;

    for (size_t i = 0; i < m->n; i++)
        if (m->labels[i].pub.count > 1)
            qsort(m->labels[i].times, m->labels[i].pub.count, sizeof(uint64_t), cmp_u64);
    if (m->sorted)
        ev_account_release(&m->mem, m->n * sizeof *m->sorted);
    free(m->sorted);
    m->sorted = NULL;
    if (m->n == 0 || m->failed)
        return;
    /* the order array stays (4 bytes a label); the sort's keys go */
    size_t keep = m->n * sizeof *m->sorted, tmp_bytes = m->n * sizeof(by_first);
    if (charge(m, keep + tmp_bytes) != 0)
        return;
    by_first *tmp = malloc(tmp_bytes);
    m->sorted = malloc(keep);
    if (!tmp || !m->sorted) {
        free(tmp);
        free(m->sorted);
        m->sorted = NULL;
        ev_account_release(&m->mem, keep + tmp_bytes);
        m->failed = 1;
        return;
    }
    for (size_t i = 0; i < m->n; i++)
        tmp[i] = (by_first){ m->labels[i].pub.first_ns, m->labels[i].first_seq, (uint32_t)i };
    qsort(tmp, m->n, sizeof *tmp, cmp_first);
    for (size_t i = 0; i < m->n; i++)
        m->sorted[i] = tmp[i].index;
    free(tmp);
    ev_account_release(&m->mem, tmp_bytes);
}

int ev_markers_merge(ev_markers *m, const ev_markers *part)
{
    if (part->failed)
        m->failed = 1;
    for (size_t i = 0; i < part->n && !m->failed; i++) {
        mlabel *pl = &part->labels[i];
        uint64_t h = hash_bytes(pl->pub.label, pl->pub.len, 0);
        mlabel *l = find(m, pl->pub.label, pl->pub.len, h);
        /* new here: after self's labels, in the part's order of first
         * appearance, its file order counted on from self's */
        if ((!l && !(l = add_label(m, pl->pub.label, pl->pub.len, h, pl->pub.first_ns,
                                   m->seq + pl->first_seq))) ||
            add_times(m, l, times_of(pl), pl->pub.count) != 0)
            goto nomem;
    }
    m->seq += part->seq;
    return m->failed ? -1 : 0;
nomem:
    m->failed = 1;
    return -1;
}

static void *markers_fork(void *self)
{
    (void)self;
    return ev_markers_create();
}

static int markers_merge(void *self, void *part) { return ev_markers_merge(self, part); }
static void markers_drop(void *part) { ev_markers_destroy(part); }

static const uint16_t markers_types[] = { EL_USER_MARKER };
static int markers_holds(const void *self, char *buf, size_t size)
{
    uint64_t labels, marks, bytes;
    ev_markers_count(self, &labels, &marks, &bytes);
    snprintf(buf, size, "the marks: %llu labels of %llu marks in %.1f MiB",
             (unsigned long long)labels, (unsigned long long)marks, (double)bytes / (1 << 20));
    return labels != 0;
}

const ev_analysis_ops ev_markers_ops = {
    .name = "markers",
    .types = markers_types,
    .num_types = 1,
    .event = markers_event,
    .end = markers_end,
    .fork = markers_fork,
    .merge = markers_merge,
    .drop = markers_drop,
    .holds = markers_holds,
};

size_t ev_markers_num_labels(const ev_markers *m)
{
    return m->sorted ? m->n : 0;
}

const ev_marker_label *ev_markers_label_at(const ev_markers *m, size_t i)
{
    return m->sorted && i < m->n ? &m->labels[m->sorted[i]].pub : NULL;
}

const uint64_t *ev_markers_times(const ev_markers *m, const char *label, size_t len, size_t *n)
{
    mlabel *l = find(m, label, len, hash_bytes(label, len, 0));
    *n = l ? (size_t)l->pub.count : 0;
    return l ? times_of(l) : NULL;
}

/* The two below use only the functions above (labels in order of their
 * first time, each label's times), whatever the labels' store. */
uint64_t ev_markers_total(const ev_markers *m)
{
    uint64_t n = 0;
    for (size_t i = 0; i < ev_markers_num_labels(m); i++)
        n += ev_markers_label_at(m, i)->count;
    return n;
}

/* The order of marks: time, then the label's place (by first time), then N. */
typedef struct mkey {
    uint64_t time, nth;
    size_t label;
} mkey;

static int mkey_less(const mkey *a, const mkey *b)
{
    if (a->time != b->time)
        return a->time < b->time;
    if (a->label != b->label)
        return a->label < b->label;
    return a->nth < b->nth;
}

static void sift_down(mkey *h, size_t n, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, big = i;
        if (l < n && mkey_less(&h[big], &h[l]))
            big = l;
        if (r < n && mkey_less(&h[big], &h[r]))
            big = r;
        if (big == i)
            return;
        mkey t = h[i];
        h[i] = h[big];
        h[big] = t;
        i = big;
    }
}

size_t ev_markers_first(const ev_markers *m, size_t max, ev_mark *out)
{
    if (!max)
        return 0;
    mkey *h = malloc(max * sizeof *h);    /* a max-heap of the best so far */
    if (!h)
        return 0;
    size_t n = 0, nl = ev_markers_num_labels(m);
    for (size_t i = 0; i < nl; i++) {
        const ev_marker_label *l = ev_markers_label_at(m, i);
        size_t nt;
        const uint64_t *times = ev_markers_times(m, l->label, l->len, &nt);
        for (size_t k = 0; k < nt && k < max; k++) {
            mkey c = { times[k], k + 1, i };
            if (n < max) {
                size_t j = n++;     /* sift up */
                h[j] = c;
                while (j > 0 && mkey_less(&h[(j - 1) / 2], &h[j])) {
                    mkey t = h[j];
                    h[j] = h[(j - 1) / 2];
                    h[(j - 1) / 2] = t;
                    j = (j - 1) / 2;
                }
            } else if (mkey_less(&c, &h[0])) {
                h[0] = c;
                sift_down(h, n, 0);
            } else {
                break;      /* this label's later marks come later still */
            }
        }
    }
    /* heap sort: the largest to the end */
    for (size_t k = n; k > 1; k--) {
        mkey t = h[0];
        h[0] = h[k - 1];
        h[k - 1] = t;
        sift_down(h, k - 1, 0);
    }
    for (size_t k = 0; k < n; k++) {
        const ev_marker_label *l = ev_markers_label_at(m, h[k].label);
        out[k] = (ev_mark){ l->label, l->len, h[k].nth, h[k].time };
    }
    free(h);
    return n;
}
