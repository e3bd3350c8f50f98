/* --focus and --ignore: POSIX extended regexes on "Module.label", as
 * pprof's -focus and -ignore. Checked when the filter is made
 * (prof_filter_check), matched against a result's cost centres
 * (prof_match_ccs: also report --callers), applied by each snapshot. */
#include "prof/internal.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

/* The pattern compiled with regcomp, or its error in err: EV_ERR_PATTERN,
 * or EV_ERR_NOMEM when regcomp ran out of memory. */
static ev_status compile(regex_t *re, const char *pattern, ev_error *err)
{
    int rc = regcomp(re, pattern, REG_EXTENDED | REG_NOSUB);
    if (rc == 0)
        return EV_OK;
    char msg[200];
    regerror(rc, re, msg, sizeof msg);
    return ev_error_set(err, rc == REG_ESPACE ? EV_ERR_NOMEM : EV_ERR_PATTERN, "'%s': %s",
                        pattern, msg);
}

static ev_status check_regex(const char *pattern, ev_error *err)
{
    regex_t re;
    ev_status st = compile(&re, pattern, err);
    if (st == EV_OK)
        regfree(&re);
    return st;
}

ev_status prof_filter_check(const prof_filter *f, ev_error *err)
{
    ev_status st = EV_OK;
    ev_error_clear(err);
    if (f->focus)
        st = check_regex(f->focus, err);
    if (st == EV_OK && f->ignore)
        st = check_regex(f->ignore, err);
    return st;
}

ev_status prof_match_ccs(const prof_result *r, const char *pattern, uint8_t *match, uint8_t bit,
                         ev_error *err)
{
    regex_t re;
    ev_error_clear(err);
    ev_status st = compile(&re, pattern, err);
    if (st != EV_OK)
        return st;
    char *text = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < r->num_ccs; i++) {
        const prof_cc *cc = &r->ccs[i];
        size_t lm = strlen(cc->module), ll = strlen(cc->label);
        if (lm + ll + 2 > cap) {
            cap = (lm + ll + 2) * 2;
            char *t = realloc(text, cap);
            if (!t) {
                st = ev_error_set(err, EV_ERR_NOMEM, "out of memory");
                break;
            }
            text = t;
        }
        memcpy(text, cc->module, lm);
        text[lm] = '.';
        memcpy(text + lm + 1, cc->label, ll + 1);
        if (regexec(&re, text, 0, NULL, 0) == 0)
            match[i] |= bit;
    }
    free(text);
    regfree(&re);
    return st;
}

/* --focus/--ignore: the ticks of a stack stay when a frame of its path
 * matches focus (if given) and none matches ignore; the others count as
 * filtered. Parents come before their children in the node table, so one
 * pass carries each path's state down. Returns 0 or -1 (memory; a bad
 * regex was refused by prof_filter_check, and keeps nothing here). */
int prof_apply_focus(prof_result *r)
{
    enum { FOCUS = 1, IGNORE = 2 };
    uint8_t *m = calloc(r->num_ccs ? r->num_ccs : 1, 1);
    uint8_t *st = malloc(r->num_nodes ? r->num_nodes : 1);
    int rc = 0;

    if (!m || !st)
        rc = -1;
    if (rc == 0 && r->filter.focus &&
        prof_match_ccs(r, r->filter.focus, m, FOCUS, NULL) == EV_ERR_NOMEM)
        rc = -1;
    if (rc == 0 && r->filter.ignore &&
        prof_match_ccs(r, r->filter.ignore, m, IGNORE, NULL) == EV_ERR_NOMEM)
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
