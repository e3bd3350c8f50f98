/* Which samples count: the time windows (--from/--to, --between) and
 * the capability (--cap). The one test every consumer of samples makes
 * (prof_filter_keeps: the profile, the page's timeline, speedscope,
 * phases). Here alone, so that the window can move to a filter stage of
 * the read as one file. */
#include "prof/internal.h"


void prof_filter_init(prof_filter *f)
{
    f->from_ns = 0;
    f->to_ns = UINT64_MAX;
    f->cap = -1;
    f->all = 0;
    f->spans = NULL;
    f->num_spans = 0;
    f->focus = NULL;
    f->ignore = NULL;
    f->max_depth = 0;
}

/* A sample at time t is inside the filter's windows. */
static int in_window(const prof_filter *f, uint64_t t)
{
    if (t < f->from_ns || t >= f->to_ns)
        return 0;
    if (!f->spans)
        return 1;
    for (size_t i = 0; i < f->num_spans; i++)
        if (t >= f->spans[i].from_ns && t < f->spans[i].to_ns)
            return 1;
    return 0;
}

int prof_filter_keeps(const prof_filter *f, uint64_t t, uint32_t cap)
{
    return in_window(f, t) && (f->cap < 0 || cap == (uint32_t)f->cap);
}
