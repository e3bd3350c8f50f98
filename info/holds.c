/* What else a log holds (info.h: info_holds_ops): heap censuses, ticky
 * counters, GC events, found in the read a command makes anyway, so that
 * it can name the command that fits a log (a profile without samples) or
 * choose what to compare (diff). A flag per kind, nothing per event. */
#include <stdlib.h>

#include "evprof/info.h"

static int holds_event(void *self, const el_event *ev, const ev_stream *s)
{
    info_holds *k = self;
    (void)s;
    switch (ev->type) {
    case EL_HEAP_PROF_BEGIN:
        k->heap_begin = 1;
        break;
    case EL_HEAP_PROF_SAMPLE_BEGIN:
    case EL_HEAP_BIO_PROF_SAMPLE_BEGIN:
        k->heap = 1;
        break;
    case EL_TICKY_COUNTER_DEF:
    case EL_TICKY_COUNTER_SAMPLE:
        k->ticky = 1;
        break;
    default:
        k->gc = 1;
        break;
    }
    return 0;
}

static void *holds_fork(void *self)
{
    (void)self;
    return calloc(1, sizeof(info_holds));
}

static int holds_merge(void *self, void *part)
{
    info_holds *k = self;
    const info_holds *q = part;
    k->heap |= q->heap;
    k->heap_begin |= q->heap_begin;
    k->ticky |= q->ticky;
    k->gc |= q->gc;
    return 0;
}

static void holds_drop(void *part) { free(part); }

static const uint16_t holds_types[] = {
    EL_HEAP_PROF_BEGIN, EL_HEAP_PROF_SAMPLE_BEGIN, EL_HEAP_BIO_PROF_SAMPLE_BEGIN,
    EL_TICKY_COUNTER_DEF, EL_TICKY_COUNTER_SAMPLE, EL_GC_START, EL_GC_STATS_GHC,
    EL_HEAP_ALLOCATED,
};

const ev_analysis_ops info_holds_ops = {
    .name = "holds",
    .types = holds_types,
    .num_types = sizeof holds_types / sizeof holds_types[0],
    .event = holds_event,
    .fork = holds_fork,
    .merge = holds_merge,
    .drop = holds_drop,
};

const ev_analysis_ops *info_analysis_for(const ev_select *sel)
{
    return sel ? &info_selected_ops : &info_analysis_ops;
}
