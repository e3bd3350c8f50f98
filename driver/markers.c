/* The marks of a log: see include/evprof/markers.h. Labels are few (a
 * program marks its phases), so they are found by a linear search with
 * the last hit first; a log with thousands of distinct labels costs
 * labels x marks comparisons, still well below the read. */
#include "evprof/markers.h"

#include <stdlib.h>
#include <string.h>

typedef struct mlabel {
    ev_marker_label pub;
    uint64_t *times;
    size_t n, cap;
    uint64_t first_seq;         /* file order of the first mark (ties) */
} mlabel;

struct ev_markers {
    mlabel *labels;
    size_t n, cap;
    size_t last;                /* the last label hit */
    uint64_t seq;
    ev_marker_label *sorted;    /* by first time, after the end */
    int failed;
};

ev_markers *ev_markers_create(void)
{
    return calloc(1, sizeof(ev_markers));
}

void ev_markers_destroy(ev_markers *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++) {
        free((char *)m->labels[i].pub.label);
        free(m->labels[i].times);
    }
    free(m->labels);
    free(m->sorted);
    free(m);
}

static mlabel *find(ev_markers *m, const char *s, size_t len)
{
    if (m->last < m->n && m->labels[m->last].pub.len == len &&
        memcmp(m->labels[m->last].pub.label, s, len) == 0)
        return &m->labels[m->last];
    for (size_t i = 0; i < m->n; i++)
        if (m->labels[i].pub.len == len && memcmp(m->labels[i].pub.label, s, len) == 0) {
            m->last = i;
            return &m->labels[i];
        }
    return NULL;
}

/* A new label, last in the list (NULL when out of memory). */
static mlabel *add_label(ev_markers *m, const char *s, size_t len, uint64_t first_ns,
                         uint64_t first_seq)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 16;
        mlabel *p = realloc(m->labels, cap * sizeof *p);
        if (!p)
            return NULL;
        m->labels = p;
        m->cap = cap;
    }
    char *copy = malloc(len + 1);
    if (!copy)
        return NULL;
    memcpy(copy, s, len);
    copy[len] = '\0';
    mlabel *l = &m->labels[m->n];
    memset(l, 0, sizeof *l);
    l->pub.label = copy;
    l->pub.len = (uint32_t)len;
    l->pub.first_ns = first_ns;
    l->first_seq = first_seq;
    m->last = m->n++;
    return l;
}

/* Room for `more` times after l's. Returns 0 or -1. */
static int reserve_times(mlabel *l, size_t more)
{
    if (l->cap - l->n >= more)
        return 0;
    size_t cap = l->cap ? l->cap * 2 : 4;
    while (cap - l->n < more)
        cap *= 2;
    uint64_t *t = realloc(l->times, cap * sizeof *t);
    if (!t)
        return -1;
    l->times = t;
    l->cap = cap;
    return 0;
}

static int markers_event(void *self, const el_event *ev, const ev_stream *s)
{
    ev_markers *m = self;
    (void)s;

    if (ev->type != EL_USER_MARKER || !ev->decoded)
        return 0;
    const char *str = ev->u.text.str.ptr;
    size_t len = ev->u.text.str.len;
    mlabel *l = find(m, str, len);
    if ((!l && !(l = add_label(m, str, len, ev->time, m->seq))) || reserve_times(l, 1) != 0)
        goto nomem;
    l->times[l->n++] = ev->time;
    l->pub.count = l->n;
    if (ev->time < l->pub.first_ns)
        l->pub.first_ns = ev->time;
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
    ev_marker_label pub;
    uint64_t seq;
} by_first;

static int cmp_first(const void *a, const void *b)
{
    const by_first *x = a, *y = b;
    if (x->pub.first_ns != y->pub.first_ns)
        return x->pub.first_ns < y->pub.first_ns ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void markers_end(void *self, const ev_stream *s)
{
    ev_markers *m = self;
    (void)s;

    for (size_t i = 0; i < m->n; i++)
        qsort(m->labels[i].times, m->labels[i].n, sizeof(uint64_t), cmp_u64);
    free(m->sorted);
    m->sorted = NULL;
    if (m->n == 0)
        return;
    by_first *tmp = malloc(m->n * sizeof *tmp);
    m->sorted = malloc(m->n * sizeof *m->sorted);
    if (!tmp || !m->sorted) {
        free(tmp);
        free(m->sorted);
        m->sorted = NULL;
        m->failed = 1;
        return;
    }
    for (size_t i = 0; i < m->n; i++) {
        tmp[i].pub = m->labels[i].pub;
        tmp[i].seq = m->labels[i].first_seq;
    }
    qsort(tmp, m->n, sizeof *tmp, cmp_first);
    for (size_t i = 0; i < m->n; i++)
        m->sorted[i] = tmp[i].pub;
    free(tmp);
}

int ev_markers_merge(ev_markers *m, const ev_markers *part)
{
    if (part->failed)
        m->failed = 1;
    for (size_t i = 0; i < part->n && !m->failed; i++) {
        const mlabel *pl = &part->labels[i];
        mlabel *l = find(m, pl->pub.label, pl->pub.len);
        /* new here: after self's labels, in the part's order of first
         * appearance, its file order counted on from self's */
        if ((!l && !(l = add_label(m, pl->pub.label, pl->pub.len, pl->pub.first_ns,
                                   m->seq + pl->first_seq))) ||
            reserve_times(l, pl->n) != 0)
            goto nomem;
        if (pl->n)
            memcpy(l->times + l->n, pl->times, pl->n * sizeof *pl->times);
        l->n += pl->n;
        l->pub.count = l->n;
        if (pl->pub.first_ns < l->pub.first_ns)
            l->pub.first_ns = pl->pub.first_ns;
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
const ev_analysis_ops ev_markers_ops = {
    "markers", markers_types, 1, 0, markers_event, markers_end, NULL, NULL,
    markers_fork, markers_merge, markers_drop,
};

size_t ev_markers_num_labels(const ev_markers *m)
{
    return m->sorted ? m->n : 0;
}

const ev_marker_label *ev_markers_label_at(const ev_markers *m, size_t i)
{
    return m->sorted && i < m->n ? &m->sorted[i] : NULL;
}

const uint64_t *ev_markers_times(const ev_markers *m, const char *label, size_t len, size_t *n)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->labels[i].pub.len == len && memcmp(m->labels[i].pub.label, label, len) == 0) {
            *n = m->labels[i].n;
            return m->labels[i].times;
        }
    *n = 0;
    return NULL;
}
