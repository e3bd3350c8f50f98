/* evprof diff (diff/): every time-profile log against itself is all zeros;
 * real runs of the same program (tests/data/ghc: the -p and -pj runs, GHC
 * 9.0.2; tests/data/diff: Freq before and after an optimisation, and on
 * two inputs) give, for
 * every cost centre and every stack, NEW's ticks minus BASE's, as counted
 * here independently from each profile's tree; the folded lines are what
 * difffolded.pl makes of the two runs' `evprof folded` lines (re-done here
 * in C); synthetic logs for moved, ambiguous, added and removed cost
 * centres and for --fail-above. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "corpus.h"
#include "evprof/diff.h"
#include "evprof/writer.h"
#include "profiles.h"

/* Runs of the same program (BASE, NEW), and a few of different ones. */
static const char *const pairs[][2] = {
    { GHC_DATA "/deep-p.eventlog", GHC_DATA "/deep-pj.eventlog" },
    { GHC_DATA "/mutual-p.eventlog", GHC_DATA "/mutual-pj.eventlog" },
    { GHC_DATA "/odd-p.eventlog", GHC_DATA "/odd-pj.eventlog" },
    { GHC_DATA "/chain-p.eventlog", GHC_DATA "/chain-pj.eventlog" },
    { GHC_DATA "/par-N2-p.eventlog", GHC_DATA "/par-N2-pj.eventlog" },
    { "tests/data/diff/freq-before.eventlog", "tests/data/diff/freq-after.eventlog" },
    { "tests/data/diff/freq-before-100k.eventlog", "tests/data/diff/freq-before.eventlog" },
    { "tests/data/diff/freq-after.eventlog", "tests/data/diff/freq-before.eventlog" },
    { GHC_DATA "/deep-p.eventlog", GHC_DATA "/mutual-p.eventlog" },
    { GHC_DATA "/chain-pj.eventlog", GHC_DATA "/odd-p.eventlog" },
};
#define N_PAIRS (sizeof pairs / sizeof pairs[0])

static diff_prof *make_diff(const prof_result *a, const prof_result *b, int normalize)
{
    diff_opts o;
    diff_opts_init(&o);
    o.normalize = normalize;
    diff_prof *d = NULL;
    assert_int_equal(diff_prof_create(a, b, &o, &d), EV_OK);
    assert_non_null(d);
    return d;
}

/* ---- independent figures ---------------------------------------------- */

static int same_cc(const prof_cc *x, const prof_cc *y)
{
    return strcmp(x->module, y->module) == 0 && strcmp(x->label, y->label) == 0 &&
           strcmp(x->srcloc, y->srcloc) == 0;
}

/* Own ticks of every cost centre of r named like `cc`, summed over stacks. */
static uint64_t cc_ticks(const prof_result *r, const prof_cc *cc)
{
    uint64_t t = 0;
    for (size_t i = 0; i < prof_num_nodes(r); i++) {
        const prof_node *nd = prof_node_at(r, (uint32_t)i);
        if (same_cc(prof_cc_at(r, nd->cc), cc))
            t += nd->ticks;
    }
    return t;
}

/* Do node i of r and node k of the diff name the same path (by the run's
 * own cost centres: side 0 BASE, 1 NEW)? */
static int same_path(const prof_result *r, uint32_t i, const diff_prof *d, uint32_t k, int side)
{
    for (;;) {
        const prof_node *a = prof_node_at(r, i);
        const diff_node *b = diff_node_at(d, k);
        const diff_cc *c = diff_cc_at(d, b->cc);
        const prof_cc *bc = side ? c->new_cc : c->base_cc;
        if (!bc || !same_cc(prof_cc_at(r, a->cc), bc))
            return 0;
        if (a->parent == PROF_NONE || b->parent == PROF_NONE)
            return a->parent == b->parent;
        i = a->parent;
        k = b->parent;
    }
}

/* Every stack of r with ticks: the diff's node of that path holds them. */
static void check_stacks(const prof_result *r, const diff_prof *d, int side, const char *what)
{
    for (size_t i = 0; i < prof_num_nodes(r); i++) {
        const prof_node *nd = prof_node_at(r, (uint32_t)i);
        if (!nd->ticks)
            continue;
        /* the ticks of r's stacks with this path (ids may differ, names not) */
        uint64_t want = 0;
        for (size_t j = 0; j < prof_num_nodes(r); j++) {
            const prof_node *x = prof_node_at(r, (uint32_t)j);
            if (x->depth != nd->depth)
                continue;
            int same = 1;
            for (uint32_t p = (uint32_t)i, q = (uint32_t)j; same && p != PROF_NONE;
                 p = prof_node_at(r, p)->parent, q = prof_node_at(r, q)->parent)
                same = same_cc(prof_cc_at(r, prof_node_at(r, p)->cc),
                               prof_cc_at(r, prof_node_at(r, q)->cc));
            if (same)
                want += x->ticks;
        }
        size_t found = 0;
        for (size_t k = 0; k < diff_num_nodes(d); k++)
            if (same_path(r, (uint32_t)i, d, (uint32_t)k, side)) {
                const diff_node *dn = diff_node_at(d, (uint32_t)k);
                uint64_t got = side ? dn->new_ticks : dn->base_ticks;
                if (got != want)
                    fail_msg("%s: node %zu: %llu ticks in the diff, %llu in the run", what, i,
                             (unsigned long long)got, (unsigned long long)want);
                found++;
            }
        if (found != 1)
            fail_msg("%s: node %zu is %zu nodes of the diff", what, i, found);
    }
}

static void check_pair(const prof_result *a, const prof_result *b, const char *what)
{
    diff_prof *d = make_diff(a, b, 0);
    const diff_info *in = diff_get_info(d);
    assert_int_equal(in->base_total, prof_get_info(a)->total_ticks);
    assert_int_equal(in->new_total, prof_get_info(b)->total_ticks);
    uint64_t sum_a = 0, sum_b = 0;
    for (size_t i = 0; i < diff_num_ccs(d); i++) {
        const diff_cc *c = diff_cc_at(d, (uint32_t)i);
        uint64_t ta = c->base_cc ? cc_ticks(a, c->base_cc) : 0;
        uint64_t tb = c->new_cc ? cc_ticks(b, c->new_cc) : 0;
        if (c->base_ticks != ta || c->new_ticks != tb)
            fail_msg("%s: %s.%s: diff says %llu -> %llu, the runs' reports %llu -> %llu", what,
                     c->module, c->label, (unsigned long long)c->base_ticks,
                     (unsigned long long)c->new_ticks, (unsigned long long)ta,
                     (unsigned long long)tb);
        /* report(NEW) minus report(BASE), exactly */
        assert_true(c->delta == (double)tb - (double)ta);
        assert_true(c->base == (double)ta);
        /* added and removed: defined in one build only */
        int in_a = 0, in_b = 0;
        for (size_t k = 0; k < prof_num_ccs(a); k++)
            in_a |= same_cc(prof_cc_at(a, (uint32_t)k), c->base_cc ? c->base_cc : c->new_cc);
        for (size_t k = 0; k < prof_num_ccs(b); k++)
            in_b |= same_cc(prof_cc_at(b, (uint32_t)k), c->new_cc ? c->new_cc : c->base_cc);
        if (c->base_cc && c->new_cc)    /* paired (maybe moved) */
            in_a = in_b = 1;
        assert_int_equal(c->change, !in_a ? DIFF_ADDED : !in_b ? DIFF_REMOVED : DIFF_SAME);
        sum_a += ta;
        sum_b += tb;
    }
    /* every tick of either run is in some cost centre of the diff */
    assert_int_equal(sum_a, in->base_total);
    assert_int_equal(sum_b, in->new_total);
    check_stacks(a, d, 0, what);
    check_stacks(b, d, 1, what);
    /* the tree's inherited ticks at MAIN are the totals */
    assert_int_equal(diff_node_at(d, 0)->base_inherited, in->base_total);
    assert_int_equal(diff_node_at(d, 0)->new_inherited, in->new_total);
    diff_prof_destroy(d);
}

/* ---- the checks ---------------------------------------------------------- */

static void test_self_is_zero(void **state)
{
    (void)state;
    for (size_t i = 0; i < test_num_time_logs; i++) {
        if (test_skip_missing(test_time_logs[i]))
            continue;
        prof_result *p = test_profile_path(test_time_logs[i], NULL);
        diff_prof *d = make_diff(p, p, 0);
        const diff_info *in = diff_get_info(d);
        assert_int_equal(in->added, 0);
        assert_int_equal(in->removed, 0);
        for (size_t k = 0; k < diff_num_ccs(d); k++) {
            const diff_cc *c = diff_cc_at(d, (uint32_t)k);
            assert_true(c->delta == 0.0);
            assert_int_equal(c->base_ticks, c->new_ticks);
            assert_int_equal(c->change, DIFF_SAME);
        }
        for (size_t k = 0; k < diff_num_nodes(d); k++) {
            const diff_node *n = diff_node_at(d, (uint32_t)k);
            assert_int_equal(n->base_ticks, n->new_ticks);
            assert_int_equal(n->base_inherited, n->new_inherited);
        }
        /* as many stacks as the run has paths */
        assert_true(diff_num_nodes(d) <= prof_num_nodes(p));
        uint32_t cc;
        assert_int_equal(diff_grew_above(d, 0.0, 0.0, &cc), 0);
        check_pair(p, p, test_time_logs[i]);
        diff_prof_destroy(d);
        prof_result_destroy(p);
    }
}

static void test_deltas_are_report_differences(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_PAIRS; i++) {
        prof_result *a = test_profile_path(pairs[i][0], NULL);
        prof_result *b = test_profile_path(pairs[i][1], NULL);
        char what[256];
        snprintf(what, sizeof what, "%s vs %s", pairs[i][0], pairs[i][1]);
        check_pair(a, b, what);
        /* and with GHC's built-in stacks counted (--all) */
        prof_filter f;
        prof_filter_init(&f);
        f.all = 1;
        prof_result *aa = test_profile_path(pairs[i][0], &f);
        prof_result *ba = test_profile_path(pairs[i][1], &f);
        check_pair(aa, ba, what);
        prof_result_destroy(aa);
        prof_result_destroy(ba);
        prof_result_destroy(a);
        prof_result_destroy(b);
    }
}

static void test_normalize(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_PAIRS; i++) {
        prof_result *a = test_profile_path(pairs[i][0], NULL);
        prof_result *b = test_profile_path(pairs[i][1], NULL);
        diff_prof *d = make_diff(a, b, 1);
        const diff_info *in = diff_get_info(d);
        assert_true(in->normalized);
        assert_true(fabs(in->scale - (double)in->new_total / (double)in->base_total) < 1e-12);
        double sum = 0.0;
        for (size_t k = 0; k < diff_num_ccs(d); k++) {
            const diff_cc *c = diff_cc_at(d, (uint32_t)k);
            assert_true(fabs(c->base - (double)c->base_ticks * in->scale) < 1e-9);
            sum += c->base;
        }
        /* BASE scaled to NEW's total */
        assert_true(fabs(sum - (double)in->new_total) < 1e-6);
        diff_prof_destroy(d);
        prof_result_destroy(a);
        prof_result_destroy(b);
    }
}

/* ---- folded: difffolded.pl re-done ------------------------------------- */

typedef struct fl {
    char *stack;
    uint64_t a, b;
} fl;

static char *text_of(int (*write)(void *, FILE *), void *ctx)
{
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    assert_int_equal(write(ctx, out), 0);
    assert_int_equal(fclose(out), 0);
    return text;
}

static int write_folded(void *p, FILE *out)
{
    return prof_report_folded(p, NULL, out);
}

static int write_diff_folded(void *d, FILE *out)
{
    return diff_report_folded(d, NULL, out) == EV_OK ? 0 : -1;
}

/* Adds "stack count" lines (col 0 or 1), or "stack a b" lines (col 2). */
static size_t add_lines(fl *v, size_t n, char *text, int col)
{
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *sp = strrchr(line, ' ');
        assert_non_null(sp);
        uint64_t x = strtoull(sp + 1, NULL, 10), y = 0;
        *sp = '\0';
        if (col == 2) {
            y = x;
            sp = strrchr(line, ' ');
            assert_non_null(sp);
            x = strtoull(sp + 1, NULL, 10);
            *sp = '\0';
        }
        size_t k = 0;
        while (k < n && strcmp(v[k].stack, line) != 0)
            k++;
        if (k == n) {
            v[n].stack = line;
            v[n].a = v[n].b = 0;
            n++;
        } else {
            assert_true(col != 2);      /* one line per distinct stack */
        }
        if (col == 0)
            v[k].a += x;
        else if (col == 1)
            v[k].b += x;
        else {
            v[k].a = x;
            v[k].b = y;
        }
    }
    return n;
}

static void test_folded_is_difffolded(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_PAIRS; i++)
        for (int norm = 0; norm <= 1; norm++) {
            prof_result *a = test_profile_path(pairs[i][0], NULL);
            prof_result *b = test_profile_path(pairs[i][1], NULL);
            diff_prof *d = make_diff(a, b, norm);
            char *ta = text_of(write_folded, a), *tb = text_of(write_folded, b);
            char *td = text_of(write_diff_folded, d);
            size_t cap = strlen(ta) + strlen(tb) + strlen(td) + 1;
            fl *want = calloc(cap, sizeof *want), *got = calloc(cap, sizeof *got);
            assert_non_null(want);
            assert_non_null(got);
            size_t nw = add_lines(want, 0, ta, 0);
            nw = add_lines(want, nw, tb, 1);
            size_t ng = add_lines(got, 0, td, 2);
            const diff_info *in = diff_get_info(d);
            uint64_t t1 = 0, t2 = 0;
            for (size_t k = 0; k < nw; k++) {
                t1 += want[k].a;
                t2 += want[k].b;
            }
            assert_int_equal(nw, ng);
            for (size_t k = 0; k < nw; k++) {
                uint64_t wa = want[k].a;
                if (norm && t1 != t2)   /* difffolded.pl -n: int(a * total2 / total1) */
                    wa = (uint64_t)((double)wa * (double)t2 / (double)t1);
                size_t j = 0;
                while (j < ng && strcmp(got[j].stack, want[k].stack) != 0)
                    j++;
                if (j == ng || got[j].a != wa || got[j].b != want[k].b)
                    fail_msg("%s vs %s%s: stack %s: want %llu %llu", pairs[i][0], pairs[i][1],
                             norm ? " (normalized)" : "", want[k].stack,
                             (unsigned long long)wa, (unsigned long long)want[k].b);
            }
            assert_int_equal(t1, in->base_total);
            assert_int_equal(t2, in->new_total);
            free(want);
            free(got);
            free(ta);
            free(tb);
            free(td);
            diff_prof_destroy(d);
            prof_result_destroy(a);
            prof_result_destroy(b);
        }
}

/* ---- synthetic logs -------------------------------------------------------- */

typedef struct cc_def {
    uint32_t id;
    const char *label, *module, *src;
} cc_def;

typedef struct sample {
    uint8_t depth;
    uint32_t stack[3];          /* innermost first */
    unsigned times;
} sample;

static prof_result *synthetic(const cc_def *ccs, size_t nccs, const sample *s, size_t ns)
{
    el_writer *w = el_writer_create_mem();
    assert_non_null(w);
    el_writer_declare_ghc(w, EL_GHC_9_0);
    for (size_t i = 0; i < nccs; i++)
        el_writer_cost_centre(w, 0, ccs[i].id, ccs[i].label, ccs[i].module, ccs[i].src, 0);
    el_writer_prof_begin(w, 0, 1000000);
    uint64_t t = 10;
    for (size_t i = 0; i < ns; i++)
        for (unsigned k = 0; k < s[i].times; k++, t += 1000)
            el_writer_prof_sample(w, t, 0, t, s[i].depth, s[i].stack);
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);
    prof_result *r = test_profile_mem(bytes, len, NULL);
    el_writer_destroy(w);
    return r;
}

static const diff_cc *find(const diff_prof *d, const char *label, const char *src)
{
    const diff_cc *hit = NULL;
    for (size_t i = 0; i < diff_num_ccs(d); i++) {
        const diff_cc *c = diff_cc_at(d, (uint32_t)i);
        if (strcmp(c->label, label) == 0 && (!src || strcmp(c->srcloc, src) == 0)) {
            assert_null(hit);
            hit = c;
        }
    }
    assert_non_null(hit);
    return hit;
}

/* Ids differ; g moved (an edit above it) and is still g; k is new, h gone;
 * two "go" at moved places are ambiguous and stay apart. */
static void test_pairing(void **state)
{
    (void)state;
    static const cc_def base_ccs[] = {
        { 1, "MAIN", "MAIN", "<built-in>" }, { 2, "f", "Main", "a.hs:1:1" },
        { 3, "g", "Main", "a.hs:2:1" },      { 4, "h", "Main", "a.hs:3:1" },
        { 5, "go", "Main", "a.hs:4:1" },     { 6, "go", "Main", "a.hs:5:1" },
    };
    static const sample base_s[] = {
        { 1, { 2 }, 10 }, { 2, { 3, 2 }, 20 }, { 1, { 4 }, 5 }, { 1, { 5 }, 3 }, { 1, { 6 }, 4 },
    };
    static const cc_def new_ccs[] = {
        { 11, "MAIN", "MAIN", "<built-in>" }, { 12, "f", "Main", "a.hs:1:1" },
        { 13, "g", "Main", "a.hs:9:1" },      { 14, "k", "Main", "a.hs:7:1" },
        { 15, "go", "Main", "a.hs:14:1" },    { 16, "go", "Main", "a.hs:15:1" },
    };
    static const sample new_s[] = {
        { 1, { 12 }, 10 }, { 2, { 13, 12 }, 30 }, { 2, { 14, 13 }, 2 }, { 1, { 15 }, 1 },
        { 1, { 16 }, 1 },
    };
    prof_result *a = synthetic(base_ccs, 6, base_s, 5);
    prof_result *b = synthetic(new_ccs, 6, new_s, 5);
    diff_prof *d = make_diff(a, b, 0);
    const diff_cc *g = find(d, "g", NULL);
    assert_non_null(g->base_cc);
    assert_non_null(g->new_cc);
    assert_string_equal(g->srcloc, "a.hs:9:1");     /* NEW's place */
    assert_int_equal(g->base_ticks, 20);
    assert_int_equal(g->new_ticks, 30);
    assert_int_equal(g->change, DIFF_SAME);
    assert_int_equal(find(d, "k", NULL)->change, DIFF_ADDED);
    assert_int_equal(find(d, "h", NULL)->change, DIFF_REMOVED);
    assert_int_equal(find(d, "go", "a.hs:4:1")->change, DIFF_REMOVED);
    assert_int_equal(find(d, "go", "a.hs:15:1")->change, DIFF_ADDED);
    const diff_info *in = diff_get_info(d);
    assert_int_equal(in->added, 3);
    assert_int_equal(in->removed, 3);
    assert_int_equal(in->same, 2);
    /* the stack MAIN/f/g is one node, with both runs' ticks */
    check_pair(a, b, "synthetic");

    /* table order: by absolute delta: g +10, h -5, go@5 -4, ... */
    size_t n;
    uint32_t *v = diff_ccs_by_delta(d, &n);
    assert_int_equal(n, 8);
    assert_string_equal(diff_cc_at(d, v[0])->label, "g");
    assert_string_equal(diff_cc_at(d, v[1])->label, "h");
    free(v);

    /* --fail-above, against BASE's 42 ticks: the total grew by 2 (4.8%),
     * g by 10 (23.8%), the new k by 2 (4.8%: its share, not unbounded) */
    uint32_t cc;
    assert_int_equal(diff_grew_above(d, 20.0, 0.0, &cc), 1);
    assert_string_equal(diff_cc_at(d, cc)->label, "g");
    assert_int_equal(diff_grew_above(d, 24.0, 0.0, &cc), 0);
    assert_int_equal(diff_grew_above(d, 4.7, 0.0, &cc), 1);
    assert_int_equal(cc, PROF_NONE);
    diff_prof_destroy(d);
    /* the other way round (BASE 44 ticks) g shrank; h (5 ticks: 11.4%)
     * and both go (3 and 4) are added, each by its share */
    d = make_diff(b, a, 0);
    assert_int_equal(diff_grew_above(d, 11.0, 0.0, &cc), 1);
    assert_string_equal(diff_cc_at(d, cc)->label, "h");
    assert_int_equal(diff_cc_at(d, cc)->change, DIFF_ADDED);
    assert_int_equal(diff_grew_above(d, 11.5, 0.0, &cc), 0);
    diff_prof_destroy(d);
    /* a run against itself never exceeds 0% */
    d = make_diff(a, a, 0);
    assert_int_equal(diff_grew_above(d, 0.0, 0.0, &cc), 0);
    diff_prof_destroy(d);
    prof_result_destroy(a);
    prof_result_destroy(b);
}

/* Namesakes (one Module.label at two places, in both runs) are paired
 * by their place, each with its own ticks: go at line 4 fell by 5, go at
 * line 5 rose by 5, and no view sums them into one go that did not
 * change; their folded lines name them with their places. */
static void test_namesakes(void **state)
{
    (void)state;
    static const cc_def base_ccs[] = {
        { 1, "MAIN", "MAIN", "<built-in>" }, { 2, "f", "Main", "a.hs:1:1" },
        { 5, "go", "Main", "a.hs:4:1" },     { 6, "go", "Main", "a.hs:5:1" },
    };
    static const sample base_s[] = { { 2, { 5, 2 }, 10 }, { 2, { 6, 2 }, 5 } };
    static const cc_def new_ccs[] = {
        { 11, "MAIN", "MAIN", "<built-in>" }, { 12, "f", "Main", "a.hs:1:1" },
        { 15, "go", "Main", "a.hs:5:1" },     { 16, "go", "Main", "a.hs:4:1" },
    };
    static const sample new_s[] = { { 2, { 16, 12 }, 5 }, { 2, { 15, 12 }, 10 } };
    prof_result *a = synthetic(base_ccs, 4, base_s, 2);
    prof_result *b = synthetic(new_ccs, 4, new_s, 2);
    diff_prof *d = make_diff(a, b, 0);
    const diff_cc *g4 = find(d, "go", "a.hs:4:1"), *g5 = find(d, "go", "a.hs:5:1");
    assert_int_equal(g4->base_ticks, 10);
    assert_int_equal(g4->new_ticks, 5);
    assert_int_equal(g5->base_ticks, 5);
    assert_int_equal(g5->new_ticks, 10);
    assert_int_equal(g4->change, DIFF_SAME);
    assert_true(g4->namesake && g5->namesake);
    assert_false(find(d, "f", NULL)->namesake);
    char *t = text_of(write_diff_folded, d);
    assert_string_equal(t, "MAIN;Main.f;Main.go (a.hs:5:1) 5 10\n"
                           "MAIN;Main.f;Main.go (a.hs:4:1) 10 5\n");
    free(t);
    /* the call graph: a node each, BASE's figures its own */
    cg_opts go;
    cg_opts_init(&go);
    go.node_fraction = go.edge_fraction = 0.0;
    cg_write_opts wo;
    cg_write_opts_init(&wo);
    size_t size = 0;
    t = NULL;
    FILE *out = open_memstream(&t, &size);
    assert_non_null(out);
    assert_int_equal(diff_graph_write(d, &go, &wo, "dot", out, NULL), EV_OK);
    assert_int_equal(fclose(out), 0);
    const char *n4 = strstr(t, "evprof_name=\"Main.go (a.hs:4:1)\"");
    const char *n5 = strstr(t, "evprof_name=\"Main.go (a.hs:5:1)\"");
    assert_true(n4 && n5);
    assert_non_null(strstr(t, "a.hs:4:1\\n5 (33.33%)\\nof 5 (33.33%)\\nbase 10 of 10: -5"));
    assert_non_null(strstr(t, "a.hs:5:1\\n10 (66.67%)\\nof 10 (66.67%)\\nbase 5 of 5: +5"));
    free(t);
    check_pair(a, b, "namesakes");
    diff_prof_destroy(d);
    prof_result_destroy(a);
    prof_result_destroy(b);
}

/* The total and a cost centre each trip --fail-above at their own
 * percentage: the total by its growth, a cost centre by its delta over
 * BASE's total. */
static void test_fail_above(void **state)
{
    (void)state;
    static const cc_def ccs[] = {
        { 1, "MAIN", "MAIN", "<built-in>" }, { 2, "f", "Main", "a.hs:1:1" },
        { 3, "g", "Main", "a.hs:2:1" },
    };
    static const sample base_s[] = { { 1, { 2 }, 100 }, { 1, { 3 }, 100 } };
    static const sample new_s[] = { { 1, { 2 }, 130 }, { 1, { 3 }, 90 } };  /* total +10% */
    prof_result *a = synthetic(ccs, 3, base_s, 2);
    prof_result *b = synthetic(ccs, 3, new_s, 2);
    diff_prof *d = make_diff(a, b, 0);
    uint32_t cc;
    assert_int_equal(diff_grew_above(d, 9.9, 0.0, &cc), 1);
    assert_int_equal(cc, PROF_NONE);                /* the total first */
    assert_int_equal(diff_grew_above(d, 10.0, 0.0, &cc), 1);
    assert_string_equal(diff_cc_at(d, cc)->label, "f");     /* +30 of 200: 15% */
    assert_true(fabs(diff_cc_growth(d, diff_cc_at(d, cc)) - 15.0) < 1e-9);
    assert_int_equal(diff_grew_above(d, 15.0, 0.0, &cc), 0);
    /* f has 50% of BASE's ticks, 59% of NEW's: judged from 59% down */
    assert_int_equal(diff_grew_above(d, 10.0, 59.0, &cc), 1);
    assert_string_equal(diff_cc_at(d, cc)->label, "f");
    assert_int_equal(diff_grew_above(d, 10.0, 59.2, &cc), 0);
    diff_prof_destroy(d);
    /* a cost centre of both builds with no ticks in BASE grew by its
     * share of BASE's total (1 of 101 ticks); --min-share 1 leaves it out */
    static const sample late_s[] = { { 1, { 2 }, 100 }, { 1, { 3 }, 1 } };
    static const sample early_s[] = { { 1, { 2 }, 101 } };
    prof_result *e = synthetic(ccs, 3, early_s, 1);
    prof_result *l = synthetic(ccs, 3, late_s, 2);
    d = make_diff(e, l, 0);
    assert_int_equal(diff_cc_at(d, 2)->change, DIFF_SAME);
    assert_int_equal(diff_grew_above(d, 0.9, 0.0, &cc), 1);
    assert_string_equal(diff_cc_at(d, cc)->label, "g");
    assert_int_equal(diff_grew_above(d, 1.0, 0.0, &cc), 0);
    assert_int_equal(diff_grew_above(d, 0.0, 1.0, &cc), 0);
    diff_prof_destroy(d);
    prof_result_destroy(e);
    prof_result_destroy(l);
    /* normalized, the total is equal and f grew by 130 - 110 = 20 of the
     * scaled BASE's 220 ticks: 9.1% */
    d = make_diff(a, b, 1);
    assert_int_equal(diff_grew_above(d, 9.0, 0.0, &cc), 1);
    assert_string_equal(diff_cc_at(d, cc)->label, "f");
    assert_int_equal(diff_grew_above(d, 9.1, 0.0, &cc), 0);
    diff_prof_destroy(d);
    prof_result_destroy(a);
    prof_result_destroy(b);
}

static void test_format_helpers(void **state)
{
    (void)state;
    char buf[32];
    diff_fmt_delta(buf, sizeof buf, 12.4);
    assert_string_equal(buf, "+12");
    diff_fmt_delta(buf, sizeof buf, -0.4);
    assert_string_equal(buf, "0");
    diff_fmt_delta(buf, sizeof buf, -3.0);
    assert_string_equal(buf, "-3");
    diff_fmt_pct(buf, sizeof buf, 120, 150);
    assert_string_equal(buf, "+25.0%");
    diff_fmt_pct(buf, sizeof buf, 0, 5);
    assert_string_equal(buf, "from 0");
    diff_fmt_pct(buf, sizeof buf, 0, 0);
    assert_string_equal(buf, "0.0%");
    diff_fmt_pct(buf, sizeof buf, 100, 50);
    assert_string_equal(buf, "-50.0%");
    assert_true(isinf(diff_pct(0, 1)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_self_is_zero),
        cmocka_unit_test(test_deltas_are_report_differences),
        cmocka_unit_test(test_normalize),
        cmocka_unit_test(test_folded_is_difffolded),
        cmocka_unit_test(test_pairing),
        cmocka_unit_test(test_namesakes),
        cmocka_unit_test(test_fail_above),
        cmocka_unit_test(test_format_helpers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
