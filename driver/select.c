/* The selection: time windows and a capability (include/evprof/select.h).
 * The one implementation of "is this inside the window", for the driver's
 * selection stage and the analyses that measure spans. */
#include "evprof/select.h"

#include <stdlib.h>
#include <string.h>

#include "evprof/eventlog.h"

struct ev_select {
    ev_span *spans;             /* sorted, disjoint, none empty; n >= 1 */
    size_t n;
    int32_t cap;
    int all_time;
    ev_span one;                /* the storage of a single window */
};

static int by_start(const void *a, const void *b)
{
    const ev_span *x = a, *y = b;
    return x->from_ns < y->from_ns ? -1 : x->from_ns > y->from_ns;
}

ev_select *ev_select_create(const ev_span *spans, size_t n, int32_t cap)
{
    ev_select *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->cap = cap;
    s->spans = &s->one;
    if (n > 1 && !(s->spans = malloc(n * sizeof *s->spans))) {
        free(s);
        return NULL;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (spans[i].from_ns < spans[i].to_ns)
            s->spans[k++] = spans[i];
    if (n == 0) {
        s->spans[0] = (ev_span){ 0, UINT64_MAX };
        s->all_time = 1;
        k = 1;
    } else if (k == 0) {
        /* every window empty: one that holds nothing */
        s->spans[0] = (ev_span){ 0, 0 };
        s->n = 1;
        return s;
    }
    qsort(s->spans, k, sizeof *s->spans, by_start);
    size_t m = 0;
    for (size_t i = 1; i < k; i++) {
        if (s->spans[i].from_ns <= s->spans[m].to_ns) {
            if (s->spans[i].to_ns > s->spans[m].to_ns)
                s->spans[m].to_ns = s->spans[i].to_ns;
        } else {
            s->spans[++m] = s->spans[i];
        }
    }
    s->n = m + 1;
    s->all_time = s->n == 1 && s->spans[0].from_ns == 0 && s->spans[0].to_ns == UINT64_MAX;
    return s;
}

void ev_select_destroy(ev_select *s)
{
    if (!s)
        return;
    if (s->spans != &s->one)
        free(s->spans);
    free(s);
}

static const ev_span all_of_it = { 0, UINT64_MAX };

int ev_select_all_time(const ev_select *s) { return !s || s->all_time; }

const ev_span *ev_select_spans(const ev_select *s, size_t *n)
{
    *n = s ? s->n : 1;
    return s ? s->spans : &all_of_it;
}

int32_t ev_select_cap(const ev_select *s) { return s ? s->cap : -1; }

ev_span ev_select_hull(const ev_select *s)
{
    if (!s)
        return all_of_it;
    return (ev_span){ s->spans[0].from_ns, s->spans[s->n - 1].to_ns };
}

uint64_t ev_select_length(const ev_select *s, uint64_t end)
{
    size_t n;
    const ev_span *w = ev_select_spans(s, &n);
    uint64_t sum = 0;
    for (size_t i = 0; i < n && w[i].from_ns < end; i++)
        sum += (w[i].to_ns < end ? w[i].to_ns : end) - w[i].from_ns;
    return sum;
}

size_t ev_select_slot(const ev_select *s, uint64_t t)
{
    if (!s)
        return 1;
    if (s->n == 1)
        return t < s->spans[0].from_ns ? 0 : t < s->spans[0].to_ns ? 1 : 2;
    /* the first window whose end is after t */
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->spans[mid].to_ns <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == s->n)
        return 2 * s->n;
    return 2 * lo + (t >= s->spans[lo].from_ns);
}

size_t ev_select_num_slots(const ev_select *s) { return s ? 2 * s->n + 1 : 3; }

int ev_select_has(const ev_select *s, uint64_t t)
{
    if (!s)
        return 1;
    if (s->n == 1)
        return t >= s->spans[0].from_ns && t < s->spans[0].to_ns;
    return ev_select_slot(s, t) & 1;
}

unsigned ev_select_outside(const ev_select *s, uint64_t t, uint32_t cap)
{
    if (!s)
        return 0;
    return (ev_select_has(s, t) ? 0 : EL_OUT_TIME) |
           (s->cap < 0 || cap == (uint32_t)s->cap ? 0 : EL_OUT_CAP);
}

uint64_t ev_select_overlap(const ev_select *s, uint64_t a, uint64_t b)
{
    size_t n;
    const ev_span *w = ev_select_spans(s, &n);
    uint64_t sum = 0;
    for (size_t i = n > 1 ? ev_select_slot(s, a) / 2 : 0; i < n && w[i].from_ns < b; i++) {
        uint64_t lo = a > w[i].from_ns ? a : w[i].from_ns;
        uint64_t hi = b < w[i].to_ns ? b : w[i].to_ns;
        if (hi > lo)
            sum += hi - lo;
    }
    return sum;
}

uint64_t ev_select_counter_sum(const ev_select *s, const uint64_t *max)
{
    size_t n = s ? s->n : 1;
    uint64_t sum = 0, upto = 0;
    for (size_t k = 0; k < n; k++) {
        /* the value before window k's start, then before its end */
        if (max[2 * k] > upto)
            upto = max[2 * k];
        uint64_t before = upto;
        if (max[2 * k + 1] > upto)
            upto = max[2 * k + 1];
        sum += upto - before;
    }
    return sum;
}

int ev_select_misses(const ev_select *s, const el_read_result *r)
{
    if (!s)
        return 0;
    if (s->cap >= 0 && !el_caps_has(&r->caps, (uint32_t)s->cap))
        return 1;
    if (s->all_time)
        return 0;
    if (!r->has_time_span)
        return 1;
    for (size_t i = 0; i < s->n; i++)
        if (s->spans[i].from_ns <= r->last_time && s->spans[i].to_ns > r->first_time)
            return 0;
    return 1;
}
