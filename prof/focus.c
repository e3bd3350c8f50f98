/* --focus and --ignore: patterns (include/evprof/pattern.h, the one
 * matcher of every command's patterns) on "Module.label", as pprof's
 * -focus and -ignore. Checked when the filter is made (prof_filter_check),
 * matched against a result's cost centres (prof_match_ccs: also report
 * --callers, the call graph, speedscope), applied by each snapshot. */
#include "prof/internal.h"

#include <stdlib.h>
#include <string.h>

#include "evprof/pattern.h"
#include "util/error.h"

ev_status prof_filter_check(const prof_filter *f, ev_error *err)
{
    ev_pattern *p = NULL;
    ev_status st = EV_OK;
    ev_error_clear(err);
    if (f->focus && (st = ev_pattern_compile(&p, f->focus, NULL, err)) == EV_OK)
        ev_pattern_destroy(p);
    if (st == EV_OK && f->ignore && (st = ev_pattern_compile(&p, f->ignore, NULL, err)) == EV_OK)
        ev_pattern_destroy(p);
    return st;
}

/* prof_match_ccs, the pattern's memory charged to budget (may be NULL)
 * while it runs. */
static ev_status match_ccs(const prof_result *r, const char *pattern, uint8_t *match, uint8_t bit,
                           ev_budget *budget, ev_error *err)
{
    ev_pattern *p;
    ev_error_clear(err);
    ev_status st = ev_pattern_compile(&p, pattern, budget, err);
    if (st != EV_OK)
        return st;
    for (size_t i = 0; i < r->num_ccs; i++) {
        const prof_cc *cc = &r->ccs[i];
        const char *parts[3] = { cc->module, ".", cc->label };
        size_t lens[3] = { strlen(cc->module), 1, strlen(cc->label) };
        if (ev_pattern_match_parts(p, parts, lens, 3))
            match[i] |= bit;
    }
    ev_pattern_destroy(p);
    return EV_OK;
}

ev_status prof_match_ccs(const prof_result *r, const char *pattern, uint8_t *match, uint8_t bit,
                         ev_error *err)
{
    return match_ccs(r, pattern, match, bit, NULL, err);
}

/* --focus/--ignore: the ticks of a stack stay when a frame of its path
 * matches focus (if given) and none matches ignore; the others count as
 * filtered. Parents come before their children in the node table, so one
 * pass carries each path's state down. Returns 0 or -1 (memory, or the
 * budget refused the patterns' memory; a bad pattern was refused by
 * prof_filter_check, and keeps nothing here). */
int prof_apply_focus(prof_result *r, ev_budget *budget)
{
    enum { FOCUS = 1, IGNORE = 2 };
    uint8_t *m = calloc(r->num_ccs ? r->num_ccs : 1, 1);
    uint8_t *st = malloc(r->num_nodes ? r->num_nodes : 1);
    int rc = 0;

    if (!m || !st)
        rc = -1;
    ev_status fs = EV_OK, is = EV_OK;
    if (rc == 0 && r->filter.focus)
        fs = match_ccs(r, r->filter.focus, m, FOCUS, budget, NULL);
    if (rc == 0 && r->filter.ignore)
        is = match_ccs(r, r->filter.ignore, m, IGNORE, budget, NULL);
    if ((fs != EV_OK && fs != EV_ERR_PATTERN) || (is != EV_OK && is != EV_ERR_PATTERN))
        rc = -1;
    for (size_t i = 0; rc == 0 && i < r->num_nodes; i++) {
        prof_node *nd = &r->nodes[i];
        st[i] = (uint8_t)((nd->parent == PROF_NONE ? 0 : st[nd->parent]) | m[nd->cc]);
        int keep = (!r->filter.focus || (st[i] & FOCUS)) && !(st[i] & IGNORE);
        if (!keep) {
            r->info.filtered_ticks += nd->ticks;
            nd->ticks = 0;
        }
    }
    free(m);
    free(st);
    return rc;
}
