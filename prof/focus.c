/* --focus and --ignore: POSIX extended regexes on "Module.label", as
 * pprof's -focus and -ignore. Checked when the filter is made
 * (prof_filter_check), matched against a result's cost centres
 * (prof_match_ccs: also report --callers), applied by each snapshot. */
#include "prof/internal.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_regex(const char *pattern, char *err, size_t errsize)
{
    regex_t re;
    int rc = regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char msg[200];
        regerror(rc, &re, msg, sizeof msg);
        if (errsize)
            snprintf(err, errsize, "'%s': %s", pattern, msg);
        return -1;
    }
    regfree(&re);
    return 0;
}

int prof_filter_check(const prof_filter *f, char *err, size_t errsize)
{
    if (f->focus && check_regex(f->focus, err, errsize) != 0)
        return -1;
    if (f->ignore && check_regex(f->ignore, err, errsize) != 0)
        return -1;
    return 0;
}

int prof_match_ccs(const prof_result *r, const char *pattern, uint8_t *match, uint8_t bit,
                   char *err, size_t errsize)
{
    regex_t re;
    int rc = regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char msg[200];
        regerror(rc, &re, msg, sizeof msg);
        if (errsize)
            snprintf(err, errsize, "'%s': %s", pattern, msg);
        return rc == REG_ESPACE ? -2 : -1;
    }
    char *text = NULL;
    size_t cap = 0;
    int st = 0;
    for (size_t i = 0; i < r->num_ccs; i++) {
        const prof_cc *cc = &r->ccs[i];
        size_t lm = strlen(cc->module), ll = strlen(cc->label);
        if (lm + ll + 2 > cap) {
            cap = (lm + ll + 2) * 2;
            char *t = realloc(text, cap);
            if (!t) {
                st = -2;
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
    if (st == -2 && errsize)
        snprintf(err, errsize, "out of memory");
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
    char err[8];
    int rc = 0;

    if (!m || !st)
        rc = -1;
    if (rc == 0 && r->filter.focus &&
        prof_match_ccs(r, r->filter.focus, m, FOCUS, err, 0) == -2)
        rc = -1;
    if (rc == 0 && r->filter.ignore &&
        prof_match_ccs(r, r->filter.ignore, m, IGNORE, err, 0) == -2)
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
