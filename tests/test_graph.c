/* The call graph: known answers on synthetic logs (a tree, recursion,
 * focus/ignore, each pruning step), DOT that Graphviz reads back (agmemread)
 * whose node and edge numbers equal a brute-force count over every stack
 * of every time-profile log, the output formats, and a 10,000-cost-centre
 * profile that must render in seconds within --max-nodes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <cgraph.h>

#include "corpus.h"
#include "evprof/graph.h"
#include "evprof/prof.h"
#include "evprof/writer.h"
#include "profiles.h"


/* Under AddressSanitizer: Graphviz 2.43 and the font libraries it loads
 * keep memory they never free (fontconfig's caches, dot's virtual nodes
 * of clusters). Their stacks show only their own library, so these match
 * by library; evprof's own leaks have evprof frames and stay reported. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
    return "leak:libfontconfig.so\n"
           "leak:libgvc.so\n"
           "leak:libgvplugin_\n"
           "leak:libpango\n"
           "leak:libcairo\n"
           "leak:libglib\n"
           "leak:libgobject\n"
           "leak:libharfbuzz\n";
}

/* ---- profiles --------------------------------------------------------- */

static prof_result *load(const char *path, int all)
{
    prof_filter f;
    prof_filter_init(&f);
    f.all = all;
    return test_profile_path(path, &f);
}

static prof_result *load_mem(const uint8_t *buf, size_t len)
{
    return test_profile_mem(buf, len, NULL);
}

/* A stack written outer frame first ("a/b/c": MAIN calls a calls b calls
 * c), taken `ticks` times. Cost centres are module Main, named by the
 * path's words. */
typedef struct spec {
    const char *path;
    unsigned ticks;
} spec;

static prof_result *synth(const spec *s, size_t n)
{
    char names[64][32];
    size_t nnames = 0;
    el_writer *w = el_writer_create_mem();
    assert_non_null(w);
    el_writer_declare_ghc(w, EL_GHC_9_0);
    el_writer_cost_centre(w, 0, 1, "MAIN", "MAIN", "<built-in>", 0);
    el_writer_prof_begin(w, 0, 1000000);
    uint64_t t = 100;
    for (size_t i = 0; i < n; i++) {
        uint32_t stack[64];
        size_t depth = 0;
        const char *p = s[i].path;
        while (*p) {
            size_t len = strcspn(p, "/");
            assert_true(len < 32 && depth < 64);
            char word[32];
            memcpy(word, p, len);
            word[len] = '\0';
            size_t k = 0;
            while (k < nnames && strcmp(names[k], word) != 0)
                k++;
            if (k == nnames) {
                assert_true(nnames < 64);
                strcpy(names[nnames++], word);
                char src[32];
                snprintf(src, sizeof src, "s.hs:%zu:1", k + 1);
                el_writer_cost_centre(w, 0, (uint32_t)k + 2, word, "Main", src, 0);
            }
            stack[depth++] = (uint32_t)k + 2;
            p += len + (p[len] == '/');
        }
        uint32_t inner[64];                     /* the event: innermost first */
        for (size_t k = 0; k < depth; k++)
            inner[k] = stack[depth - 1 - k];
        for (unsigned k = 0; k < s[i].ticks; k++, t += 1000)
            el_writer_prof_sample(w, t, 0, t, (uint8_t)depth, inner);
    }
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);
    prof_result *prof = load_mem(bytes, len);
    el_writer_destroy(w);
    return prof;
}

static cg_graph *build(const prof_result *p, const cg_opts *o)
{
    cg_graph *g = NULL;
    ev_error err;
    ev_status st = cg_build(p, o, &g, &err);
    if (st != EV_OK)
        fail_msg("cg_build: %d %s", st, err.msg);
    return g;
}

/* Everything drawn: no pruning. */
static void opts_all(cg_opts *o)
{
    cg_opts_init(o);
    o->node_fraction = 0;
    o->edge_fraction = 0;
    o->max_nodes = 1000000;
    o->max_edges = 100000000;
}

static long node_index(const cg_graph *g, const char *label)
{
    for (size_t i = 0; i < cg_num_nodes(g); i++)
        if (strcmp(cg_node_at(g, i)->label, label) == 0)
            return (long)i;
    return -1;
}

static void node_is(const cg_graph *g, const char *label, uint64_t self, uint64_t cum)
{
    long i = node_index(g, label);
    if (i < 0)
        fail_msg("no node %s", label);
    const cg_node *n = cg_node_at(g, (size_t)i);
    if (n->self != self || n->cum != cum)
        fail_msg("%s: self %llu cum %llu, expected %llu %llu", label,
                 (unsigned long long)n->self, (unsigned long long)n->cum,
                 (unsigned long long)self, (unsigned long long)cum);
}

static const cg_edge *find_edge(const cg_graph *g, const char *from, const char *to)
{
    long a = node_index(g, from), b = node_index(g, to);
    for (size_t i = 0; a >= 0 && b >= 0 && i < cg_num_edges(g); i++) {
        const cg_edge *e = cg_edge_at(g, i);
        if (e->from == (uint32_t)a && e->to == (uint32_t)b)
            return e;
    }
    return NULL;
}

static void edge_is(const cg_graph *g, const char *from, const char *to, uint64_t ticks,
                    int residual)
{
    const cg_edge *e = find_edge(g, from, to);
    if (!e)
        fail_msg("no edge %s -> %s", from, to);
    if (e->ticks != ticks || e->residual != residual)
        fail_msg("%s -> %s: %llu ticks residual %d, expected %llu %d", from, to,
                 (unsigned long long)e->ticks, e->residual, (unsigned long long)ticks, residual);
}

/* ---- known answers ---------------------------------------------------- */

static void test_tree(void **state)
{
    (void)state;
    static const spec s[] = { { "a/b", 10 }, { "a", 5 }, { "c/b", 3 } };
    prof_result *p = synth(s, 3);
    cg_opts o;
    opts_all(&o);
    cg_graph *g = build(p, &o);
    assert_int_equal(cg_num_nodes(g), 4);
    assert_string_equal(cg_node_at(g, 0)->label, "MAIN");      /* by cum */
    assert_string_equal(cg_node_at(g, 1)->label, "a");
    assert_string_equal(cg_node_at(g, 2)->label, "b");
    assert_string_equal(cg_node_at(g, 3)->label, "c");
    node_is(g, "MAIN", 0, 18);
    node_is(g, "a", 5, 15);
    node_is(g, "b", 13, 13);
    node_is(g, "c", 0, 3);
    assert_int_equal(cg_num_edges(g), 4);
    edge_is(g, "MAIN", "a", 15, 0);
    edge_is(g, "a", "b", 10, 0);
    edge_is(g, "MAIN", "c", 3, 0);
    edge_is(g, "c", "b", 3, 0);
    assert_int_equal(cg_edge_at(g, 0)->ticks, 15);              /* heaviest first */
    const cg_summary *sm = cg_get_summary(g);
    assert_int_equal(sm->profile_ticks, 18);
    assert_int_equal(sm->shown_ticks, 18);
    assert_int_equal(sm->node_ticks, 18);
    assert_int_equal(sm->all_nodes, 4);
    assert_int_equal(sm->max_self, 13);
    assert_string_equal(cg_node_at(g, 2)->srcloc, "s.hs:2:1");
    cg_destroy(g);
    prof_result_destroy(p);
}

/* Recursion: a stack through f twice counts once for f, an edge repeated
 * in a stack counts once; the graph has cycles, not copies. */
static void test_recursion(void **state)
{
    (void)state;
    static const spec s[] = { { "f/g/f/g", 4 }, { "f/f/f", 2 }, { "f/g/f", 3 } };
    prof_result *p = synth(s, 3);
    cg_opts o;
    opts_all(&o);
    cg_graph *g = build(p, &o);
    assert_int_equal(cg_num_nodes(g), 3);
    node_is(g, "MAIN", 0, 9);
    node_is(g, "f", 5, 9);
    node_is(g, "g", 4, 7);
    assert_int_equal(cg_num_edges(g), 4);
    edge_is(g, "MAIN", "f", 9, 0);
    edge_is(g, "f", "g", 7, 0);
    edge_is(g, "g", "f", 7, 0);
    edge_is(g, "f", "f", 2, 0);
    cg_destroy(g);
    prof_result_destroy(p);
}

/* Cost centres with one label and module at two places (namesakes) are
 * two nodes, each drawn with its place; cost centres equal in all three
 * are one node. */
static void test_same_name_merged(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    el_writer_declare_ghc(w, EL_GHC_9_0);
    el_writer_cost_centre(w, 0, 1, "MAIN", "MAIN", "<built-in>", 0);
    el_writer_cost_centre(w, 0, 2, "go", "M", "a.hs:1:1", 0);
    el_writer_cost_centre(w, 0, 3, "go", "M", "a.hs:7:1", 0);
    el_writer_cost_centre(w, 0, 4, "go", "N", "b.hs:1:1", 0);
    el_writer_cost_centre(w, 0, 5, "go", "N", "b.hs:1:1", 0);      /* N.go again */
    const uint32_t s1[] = { 2 }, s2[] = { 3, 2 }, s3[] = { 4 }, s4[] = { 5, 4 };
    el_writer_prof_sample(w, 10, 0, 1, 1, s1);
    el_writer_prof_sample(w, 20, 0, 2, 2, s2);      /* MAIN/go@1/go@7 */
    el_writer_prof_sample(w, 30, 0, 3, 1, s3);
    el_writer_prof_sample(w, 40, 0, 4, 2, s4);      /* MAIN/N.go/N.go */
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);
    prof_result *p = load_mem(bytes, len);
    el_writer_destroy(w);
    cg_opts o;
    opts_all(&o);
    cg_graph *g = build(p, &o);
    assert_int_equal(cg_num_nodes(g), 4);       /* MAIN, M.go@1, M.go@7, N.go */
    int seen = 0;
    for (size_t i = 0; i < cg_num_nodes(g); i++) {
        const cg_node *n = cg_node_at(g, i);
        if (strcmp(n->label, "go") != 0)
            continue;
        seen++;
        if (strcmp(n->module, "N") == 0) {
            assert_int_equal(n->num_ccs, 2);
            assert_false(n->namesake);
            assert_int_equal(n->self, 2);
            assert_int_equal(n->cum, 2);
            continue;
        }
        assert_true(n->namesake);
        assert_int_equal(n->num_ccs, 1);
        int at7 = strcmp(n->srcloc, "a.hs:7:1") == 0;
        assert_true(at7 || strcmp(n->srcloc, "a.hs:1:1") == 0);
        assert_int_equal(n->self, 1);
        assert_int_equal(n->cum, at7 ? 1 : 2);
    }
    assert_int_equal(seen, 3);
    /* go@1 -> go@7 is a call between two nodes; N.go -> N.go recursion */
    int calls = 0, loops = 0;
    for (size_t i = 0; i < cg_num_edges(g); i++) {
        const cg_edge *e = cg_edge_at(g, i);
        const cg_node *a = cg_node_at(g, e->from), *b = cg_node_at(g, e->to);
        if (strcmp(a->label, "go") || strcmp(b->label, "go"))
            continue;
        assert_int_equal(e->ticks, 1);
        if (e->from == e->to) {
            assert_string_equal(a->module, "N");
            loops++;
        } else {
            assert_string_equal(a->srcloc, "a.hs:1:1");
            assert_string_equal(b->srcloc, "a.hs:7:1");
            calls++;
        }
    }
    assert_int_equal(calls, 1);
    assert_int_equal(loops, 1);
    /* drawn: a namesake's place in its box, in its name and tooltip */
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    cg_write_opts wo;
    cg_write_opts_init(&wo);
    assert_int_equal(cg_write(g, &wo, "dot", out, NULL), EV_OK);
    assert_int_equal(fclose(out), 0);
    assert_non_null(strstr(text, "evprof_name=\"M.go (a.hs:7:1)\""));
    assert_non_null(strstr(text, "label=\"go\\nM\\na.hs:7:1\\n"));
    assert_non_null(strstr(text, "evprof_name=\"N.go\""));
    assert_non_null(strstr(text, "label=\"go\\nN\\n2 "));
    free(text);
    cg_destroy(g);
    prof_result_destroy(p);
}

static void test_focus_ignore(void **state)
{
    (void)state;
    static const spec s[] = { { "a/b", 10 }, { "a", 5 }, { "c/b", 3 } };
    prof_result *p = synth(s, 3);
    cg_opts o;
    opts_all(&o);

    o.focus = "^Main\\.c$";
    cg_graph *g = build(p, &o);
    assert_int_equal(cg_get_summary(g)->shown_ticks, 3);
    assert_int_equal(cg_get_summary(g)->profile_ticks, 18);
    assert_int_equal(cg_num_nodes(g), 3);
    node_is(g, "MAIN", 0, 3);
    node_is(g, "c", 0, 3);
    node_is(g, "b", 3, 3);
    assert_int_equal(node_index(g, "a"), -1);
    cg_destroy(g);

    o.focus = "b";                  /* stacks through Main.b: whole stacks kept */
    g = build(p, &o);
    assert_int_equal(cg_get_summary(g)->shown_ticks, 13);
    node_is(g, "a", 0, 10);
    node_is(g, "b", 13, 13);
    edge_is(g, "MAIN", "a", 10, 0);
    cg_destroy(g);

    o.focus = NULL;
    o.ignore = "^Main\\.a$";
    g = build(p, &o);
    assert_int_equal(cg_get_summary(g)->shown_ticks, 3);
    assert_int_equal(node_index(g, "a"), -1);
    node_is(g, "b", 3, 3);
    cg_destroy(g);

    o.focus = "b";
    o.ignore = "c";
    g = build(p, &o);
    assert_int_equal(cg_get_summary(g)->shown_ticks, 10);
    node_is(g, "b", 10, 10);
    assert_int_equal(node_index(g, "c"), -1);
    cg_destroy(g);

    o.focus = "nothing matches this";
    o.ignore = NULL;
    g = build(p, &o);
    assert_int_equal(cg_get_summary(g)->shown_ticks, 0);
    assert_int_equal(cg_num_nodes(g), 0);
    assert_int_equal(cg_num_edges(g), 0);
    cg_destroy(g);

    o.focus = "(unclosed";
    ev_error err;
    g = (cg_graph *)1;
    assert_int_equal(cg_build(p, &o, &g, &err), EV_ERR_PATTERN);
    assert_null(g);
    assert_int_equal(err.status, EV_ERR_PATTERN);
    assert_int_equal(strncmp(err.msg, "'(unclosed': ", 13), 0);
    g = (cg_graph *)1;
    assert_int_equal(cg_build(p, &o, &g, NULL), EV_ERR_PATTERN);     /* no detail wanted */
    assert_null(g);
    prof_result_destroy(p);
}

static void test_pruning(void **state)
{
    (void)state;
    /* tiny (cum 2 + 2 of 704) is hidden at 1%: c -> b becomes a dotted
     * edge; a -> d through tiny is implied by a -> b -> d and goes */
    static const spec s[] = {
        { "a/b/d", 500 }, { "a/tiny/d", 2 }, { "c/tiny/b", 2 }, { "c", 200 },
    };
    prof_result *p = synth(s, 4);
    cg_opts o;
    opts_all(&o);
    o.node_fraction = 0.01;
    cg_graph *g = build(p, &o);
    const cg_summary *sm = cg_get_summary(g);
    assert_int_equal(sm->all_nodes, 6);
    assert_int_equal(sm->dropped_nodes_fraction, 1);
    assert_int_equal(node_index(g, "tiny"), -1);
    assert_int_equal(cg_num_nodes(g), 5);
    node_is(g, "d", 502, 502);                  /* numbers of the nodes stay true */
    edge_is(g, "c", "b", 2, 1);
    assert_null(find_edge(g, "a", "d"));
    assert_int_equal(sm->dropped_edges_redundant, 1);
    edge_is(g, "a", "b", 500, 0);
    edge_is(g, "b", "d", 500, 0);
    cg_destroy(g);

    /* unpruned, a -> tiny -> d is there and nothing is dotted */
    opts_all(&o);
    g = build(p, &o);
    edge_is(g, "a", "tiny", 2, 0);
    edge_is(g, "tiny", "d", 2, 0);
    for (size_t i = 0; i < cg_num_edges(g); i++)
        assert_false(cg_edge_at(g, i)->residual);
    cg_destroy(g);

    /* max nodes: the best by cum, never more */
    for (uint32_t max = 1; max <= 7; max++) {
        opts_all(&o);
        o.max_nodes = max;
        g = build(p, &o);
        size_t want = max < 6 ? max : 6;
        assert_int_equal(cg_num_nodes(g), want);
        assert_int_equal(cg_get_summary(g)->dropped_nodes_max, 6 - want);
        for (size_t i = 1; i < cg_num_nodes(g); i++)
            assert_true(cg_node_at(g, i - 1)->cum >= cg_node_at(g, i)->cum);
        cg_destroy(g);
    }

    /* edge fraction: edges under 30% (211.2 ticks) go */
    opts_all(&o);
    o.edge_fraction = 0.3;
    g = build(p, &o);
    assert_int_equal(cg_num_edges(g), 3);       /* MAIN->a, a->b, b->d: 502/500/500 */
    assert_int_equal(cg_get_summary(g)->dropped_edges, 5);
    assert_null(find_edge(g, "MAIN", "c"));
    cg_destroy(g);

    /* max edges: each node keeps its heaviest caller first */
    opts_all(&o);
    o.max_edges = 6;
    g = build(p, &o);
    assert_int_equal(cg_num_edges(g), 6);
    assert_int_equal(cg_get_summary(g)->dropped_edges_max, 2);
    for (size_t n = 1; n < cg_num_nodes(g); n++) {
        int has_caller = 0;
        for (size_t i = 0; i < cg_num_edges(g); i++)
            has_caller |= cg_edge_at(g, i)->to == n;
        assert_true(has_caller);
    }
    cg_destroy(g);
    prof_result_destroy(p);
}

static char *dot_text(const cg_graph *g);
static uint64_t attr_u64(void *obj, const char *name);

/* Issue 11: main calls f directly for 969 ticks, through h for 87 and
 * through g (hidden at the default 0.5%) for 2. The direct call is drawn
 * solid with its own 969; the 2 ticks through g would be a dotted
 * main -> f, which main -> h -> f implies. */
static void test_heavy_direct_edge_kept(void **state)
{
    (void)state;
    static const spec s[] = { { "main/f", 969 }, { "main/h/f", 87 }, { "main/g/f", 2 } };
    prof_result *p = synth(s, 3);
    cg_graph *g = build(p, NULL);
    assert_int_equal(node_index(g, "g"), -1);
    node_is(g, "f", 1058, 1058);
    edge_is(g, "MAIN", "main", 1058, 0);
    edge_is(g, "main", "f", 969, 0);
    edge_is(g, "main", "h", 87, 0);
    edge_is(g, "h", "f", 87, 0);
    assert_int_equal(cg_num_edges(g), 4);
    assert_int_equal(cg_get_summary(g)->dropped_edges_redundant, 1);
    cg_destroy(g);

    /* with nothing else to imply it, the dotted edge stays beside its
     * solid twin, each with its own ticks, and Graphviz gets both */
    static const spec t[] = { { "main/f", 969 }, { "main/g/f", 20 } };
    prof_result *q = synth(t, 2);
    cg_opts o;
    cg_opts_init(&o);
    o.node_fraction = 0.05;
    g = build(q, &o);
    assert_int_equal(node_index(g, "g"), -1);
    assert_int_equal(cg_num_edges(g), 3);
    assert_int_equal(cg_edge_at(g, 1)->ticks, 969);
    assert_false(cg_edge_at(g, 1)->residual);
    assert_int_equal(cg_edge_at(g, 2)->ticks, 20);
    assert_true(cg_edge_at(g, 2)->residual);
    assert_int_equal(cg_edge_at(g, 1)->from, cg_edge_at(g, 2)->from);
    assert_int_equal(cg_edge_at(g, 1)->to, cg_edge_at(g, 2)->to);
    char *text = dot_text(g);
    Agraph_t *ag = agmemread(text);
    assert_non_null(ag);
    assert_int_equal(agnedges(ag), 3);
    int dotted = 0;
    for (Agnode_t *n = agfstnode(ag); n; n = agnxtnode(ag, n))
        for (Agedge_t *e = agfstout(ag, n); e; e = agnxtout(ag, e)) {
            const char *style = agget(e, "style");
            if (style && strcmp(style, "dotted") == 0) {
                dotted++;
                assert_int_equal(attr_u64(e, "evprof_ticks"), 20);
            }
        }
    assert_int_equal(dotted, 1);
    agclose(ag);
    free(text);
    cg_destroy(g);
    prof_result_destroy(q);
    prof_result_destroy(p);
}

/* ---- property: pruning on random stack sets ---------------------------- */

static uint64_t prop_rng;

static uint32_t prop_rnd(uint32_t n)
{
    prop_rng = prop_rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((prop_rng >> 33) % n);
}

/* What the stacks say, given the nodes the graph drew: per drawn pair the
 * direct calls and the calls through hidden nodes only (the nearest drawn
 * caller is not the parent), each stack counted once per pair and kind. */
typedef struct expect {
    size_t n;                       /* cost centres (by cc index) */
    uint64_t *cum;                  /* per cc */
    uint64_t *direct, *through;     /* n x n, caller * n + callee */
    int recursive;
} expect;

static void expect_compute(const prof_result *p, const long *drawn, expect *x)
{
    size_t n = prof_num_ccs(p);
    x->n = n;
    x->cum = calloc(n, sizeof *x->cum);
    x->direct = calloc(n * n, sizeof *x->direct);
    x->through = calloc(n * n, sizeof *x->through);
    x->recursive = 0;
    uint8_t *seen = calloc(n, 1), *dseen = calloc(n * n, 1), *tseen = calloc(n * n, 1);
    assert_true(x->cum && x->direct && x->through && seen && dseen && tseen);
    for (uint32_t i = 0; i < prof_num_nodes(p); i++) {
        const prof_node *nd = prof_node_at(p, i);
        if (!nd->ticks)
            continue;
        uint32_t path[300];                 /* root first */
        size_t depth = 0;
        for (uint32_t k = i; k != PROF_NONE; k = prof_node_at(p, k)->parent)
            depth++;
        assert_true(depth <= 300);
        size_t d = depth;
        for (uint32_t k = i; k != PROF_NONE; k = prof_node_at(p, k)->parent)
            path[--d] = prof_node_at(p, k)->cc;
        memset(seen, 0, n);
        memset(dseen, 0, n * n);
        memset(tseen, 0, n * n);
        long up = -1;                       /* position of the nearest drawn frame */
        for (size_t k = 0; k < depth; k++) {
            uint32_t c = path[k];
            if (seen[c])
                x->recursive = 1;
            else
                x->cum[c] += nd->ticks;
            seen[c] = 1;
            if (drawn[c] < 0)
                continue;
            if (up >= 0) {
                size_t e = (size_t)path[up] * n + c;
                uint8_t *once = up == (long)k - 1 ? dseen : tseen;
                uint64_t *w = up == (long)k - 1 ? x->direct : x->through;
                if (!once[e])
                    w[e] += nd->ticks;
                once[e] = 1;
            }
            up = (long)k;
        }
    }
    free(seen);
    free(dseen);
    free(tseen);
}

static void expect_free(expect *x)
{
    free(x->cum);
    free(x->direct);
    free(x->through);
}

/* Is there a path of drawn edges from a to b through another drawn node? */
static int reaches_through_others(const cg_graph *g, uint32_t a, uint32_t b)
{
    size_t nn = cg_num_nodes(g);
    uint8_t *seen = calloc(nn, 1);
    uint32_t *queue = malloc(nn * sizeof *queue);
    size_t head = 0, tail = 0;
    int found = 0;
    queue[tail++] = a;
    while (head < tail && !found) {
        uint32_t v = queue[head++];
        for (size_t i = 0; i < cg_num_edges(g) && !found; i++) {
            const cg_edge *e = cg_edge_at(g, i);
            if (e->from != v || (v == a && e->to == b) || seen[e->to])
                continue;
            if (e->to == b)
                found = 1;
            seen[e->to] = 1;
            queue[tail++] = e->to;
        }
    }
    free(seen);
    free(queue);
    return found;
}

static void check_pruned(const prof_result *p, const cg_opts *o, const char *what)
{
    cg_graph *g = build(p, o);
    const cg_summary *sm = cg_get_summary(g);
    size_t n = prof_num_ccs(p), nn = cg_num_nodes(g);
    long *drawn = malloc(n * sizeof *drawn);
    for (size_t c = 0; c < n; c++) {
        drawn[c] = -1;
        for (size_t i = 0; i < nn; i++)     /* synthetic labels are unique */
            if (strcmp(cg_node_at(g, i)->label, prof_cc_at(p, (uint32_t)c)->label) == 0)
                drawn[c] = (long)i;
    }
    uint32_t *cc_of = malloc((nn ? nn : 1) * sizeof *cc_of);
    for (size_t c = 0; c < n; c++)
        if (drawn[c] >= 0)
            cc_of[drawn[c]] = (uint32_t)c;
    expect x;
    expect_compute(p, drawn, &x);

    /* the nodes: true cum, the best by cum above the cutoff */
    uint64_t least = UINT64_MAX;
    for (size_t i = 0; i < nn; i++) {
        const cg_node *nd = cg_node_at(g, i);
        if (nd->cum != x.cum[cc_of[i]])
            fail_msg("%s: node %s cum %llu, stacks say %llu", what, nd->label,
                     (unsigned long long)nd->cum, (unsigned long long)x.cum[cc_of[i]]);
        assert_true((double)nd->cum >= sm->node_cutoff);
        if (nd->cum < least)
            least = nd->cum;
    }
    for (size_t c = 0; c < n; c++)
        if (drawn[c] < 0 && x.cum[c] && (double)x.cum[c] >= sm->node_cutoff) {
            assert_true(sm->dropped_nodes_max > 0);
            assert_true(x.cum[c] <= least);
        }

    /* the edges: solid ones carry the direct calls, dotted ones the calls
     * through hidden nodes, at most one of each kind per pair */
    uint64_t *in = calloc(nn ? nn : 1, sizeof *in);
    uint8_t *has = calloc(nn * nn * 2 + 1, 1);
    for (size_t i = 0; i < cg_num_edges(g); i++) {
        const cg_edge *e = cg_edge_at(g, i);
        size_t k = (size_t)cc_of[e->from] * n + cc_of[e->to];
        uint64_t want = e->residual ? x.through[k] : x.direct[k];
        if (e->ticks != want)
            fail_msg("%s: %s %s-> %s: %llu ticks, stacks say %llu", what,
                     cg_node_at(g, e->from)->label, e->residual ? "..." : "",
                     cg_node_at(g, e->to)->label, (unsigned long long)e->ticks,
                     (unsigned long long)want);
        assert_true(e->ticks > 0 && (double)e->ticks >= sm->edge_cutoff);
        assert_true(e->ticks <= cg_node_at(g, e->to)->cum);
        assert_true(e->ticks <= cg_node_at(g, e->from)->cum);
        size_t h = ((size_t)e->from * nn + e->to) * 2 + (e->residual != 0);
        assert_false(has[h]);
        has[h] = 1;
        in[e->to] += e->ticks;
    }
    /* weights into a node never exceed its cum (a stack reaches a node
     * through one nearest drawn caller, unless it recurses) */
    if (!x.recursive)
        for (size_t i = 0; i < nn; i++)
            if (in[i] > cg_node_at(g, i)->cum)
                fail_msg("%s: %llu ticks into %s of cum %llu", what, (unsigned long long)in[i],
                         cg_node_at(g, i)->label, (unsigned long long)cg_node_at(g, i)->cum);
    /* no visible caller is lost: every drawn pair whose direct calls reach
     * the cutoff has its solid edge, and a dotted pair over the cutoff goes
     * only when drawn edges through other nodes imply it; --max-edges aside */
    if (sm->dropped_edges_max == 0) {
        for (size_t a = 0; a < nn; a++)
            for (size_t b2 = 0; b2 < nn; b2++) {
                size_t k = (size_t)cc_of[a] * n + cc_of[b2];
                size_t h = (a * nn + b2) * 2;
                if (x.direct[k] && (double)x.direct[k] >= sm->edge_cutoff && !has[h])
                    fail_msg("%s: no solid edge %s -> %s (%llu direct ticks)", what,
                             cg_node_at(g, a)->label, cg_node_at(g, b2)->label,
                             (unsigned long long)x.direct[k]);
                if (x.through[k] && (double)x.through[k] >= sm->edge_cutoff && !has[h + 1] &&
                    !reaches_through_others(g, (uint32_t)a, (uint32_t)b2)) {
                    fail_msg("%s: no dotted edge %s -> %s (%llu ticks)", what,
                             cg_node_at(g, a)->label, cg_node_at(g, b2)->label,
                             (unsigned long long)x.through[k]);
                }
            }
    } else {
        size_t max_edges = o->max_edges ? o->max_edges : 3 * (size_t)o->max_nodes;
        assert_int_equal(cg_num_edges(g), max_edges);
    }
    free(in);
    free(has);
    expect_free(&x);
    free(cc_of);
    free(drawn);
    cg_destroy(g);
}

/* Random stacks over a few cost centres (so that many calls share callees
 * and hidden nodes sit between drawn ones), half of the sets recursive,
 * each pruned with random parameters. */
static void test_pruning_property(void **state)
{
    (void)state;
    static const char *names[] = { "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l" };
    enum { SETS = 300, PRUNINGS = 6 };
    prop_rng = 20261123;
    for (int set = 0; set < SETS; set++) {
        int recursive = set & 1;
        uint32_t nnames = 3 + prop_rnd(10);
        size_t nstacks = 1 + prop_rnd(25);
        spec *s = calloc(nstacks, sizeof *s);
        char (*paths)[64] = calloc(nstacks, sizeof *paths);
        for (size_t i = 0; i < nstacks; i++) {
            uint32_t depth = 1 + prop_rnd(recursive ? 8 : nnames < 7 ? nnames : 7);
            uint8_t used[12] = { 0 };
            size_t len = 0;
            for (uint32_t k = 0; k < depth; k++) {
                uint32_t c = prop_rnd(nnames);
                while (!recursive && used[c])
                    c = (c + 1) % nnames;
                used[c] = 1;
                len += (size_t)snprintf(paths[i] + len, sizeof paths[i] - len, "%s%s",
                                        k ? "/" : "", names[c]);
            }
            s[i].path = paths[i];
            s[i].ticks = prop_rnd(4) == 0 ? 1 + prop_rnd(400) : 1 + prop_rnd(12);
        }
        prof_result *p = synth(s, nstacks);
        for (int r = 0; r < PRUNINGS; r++) {
            static const double fractions[] = { 0, 0.001, 0.005, 0.02, 0.05, 0.1, 0.2, 0.4 };
            cg_opts o;
            cg_opts_init(&o);
            o.node_fraction = fractions[prop_rnd(8)];
            o.edge_fraction = fractions[prop_rnd(6)];
            o.max_nodes = 1 + prop_rnd(nnames + 2);
            o.max_edges = prop_rnd(3) == 0 ? 1 + prop_rnd(12) : 0;
            char what[80];
            snprintf(what, sizeof what, "set %d pruning %d", set, r);
            check_pruned(p, &o, what);
        }
        prof_result_destroy(p);
        free(s);
        free(paths);
    }
}

/* ---- DOT read back, against a brute-force count ------------------------ */

/* The name as the graph's evprof_name holds it: Module.label with
 * backslashes doubled and ASCII control characters shown as \n, \r, \t,
 * \xHH (their backslash doubled too). */
static void esc_name(const prof_cc *cc, char *buf, size_t size)
{
    size_t n = 0;
    const char *parts[3] = { cc->module, ".", cc->label };
    for (int k = 0; k < 3; k++)
        for (const char *s = parts[k]; *s && n + 7 < size; s++) {
            unsigned char c = (unsigned char)*s;
            if (c == '\\' || c < 0x20 || c == 0x7f) {
                buf[n++] = '\\';
                buf[n++] = '\\';
            }
            if (c == '\n' || c == '\r' || c == '\t')
                buf[n++] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
            else if (c < 0x20 || c == 0x7f)
                n += (size_t)snprintf(buf + n, size - n, "x%02x", c);
            else if (c != '\\')
                buf[n++] = (char)c;
        }
    buf[n] = '\0';
}

/* Namesakes by a sort of the whole table (namesake[i] set): cost
 * centres of one module and label at two places or more. */
static const prof_result *sort_p;

static int by_name(const void *a, const void *b)
{
    const prof_cc *x = prof_cc_at(sort_p, *(const uint32_t *)a),
                  *y = prof_cc_at(sort_p, *(const uint32_t *)b);
    int c = strcmp(x->module, y->module);
    return c ? c : strcmp(x->label, y->label);
}

static uint8_t *namesakes_of(const prof_result *p)
{
    size_t n = prof_num_ccs(p);
    uint32_t *ix = malloc((n + 1) * sizeof *ix);
    uint8_t *ns = calloc(n + 1, 1);
    assert_true(ix && ns);
    for (uint32_t i = 0; i < n; i++)
        ix[i] = i;
    sort_p = p;
    qsort(ix, n, sizeof *ix, by_name);
    for (size_t a = 0, b; a < n; a = b) {
        int mixed = 0;
        for (b = a + 1; b < n && by_name(&ix[a], &ix[b]) == 0; b++)
            mixed |= strcmp(prof_cc_at(p, ix[a])->srcloc, prof_cc_at(p, ix[b])->srcloc) != 0;
        for (size_t k = a; k < b; k++)
            ns[ix[k]] = (uint8_t)mixed;
    }
    free(ix);
    return ns;
}

typedef struct brute {
    size_t ngroups;
    char (*name)[256];
    uint32_t *group_of_cc;
    uint64_t *self, *cum, *edge;            /* edge: ngroups x ngroups */
    int recursive;                          /* some stack repeats a node or call */
    uint64_t total;
} brute;

/* For every tree node with ticks: walk its stack, count each distinct
 * cost centre and each distinct call once. */
static void brute_force(const prof_result *p, brute *b)
{
    size_t nccs = prof_num_ccs(p);
    memset(b, 0, sizeof *b);
    b->name = calloc(nccs, sizeof *b->name);
    b->group_of_cc = calloc(nccs, sizeof *b->group_of_cc);
    assert_non_null(b->name);
    uint8_t *ns = namesakes_of(p);
    for (uint32_t i = 0; i < nccs; i++) {
        char nm[256];
        esc_name(prof_cc_at(p, i), nm, sizeof nm);
        if (ns[i]) {    /* a namesake's node: "Module.label (SRC)" */
            size_t l = strlen(nm);
            snprintf(nm + l, sizeof nm - l, " (%s)", prof_cc_at(p, i)->srcloc);
        }
        size_t k = 0;
        while (k < b->ngroups && strcmp(b->name[k], nm) != 0)
            k++;
        if (k == b->ngroups)
            strcpy(b->name[b->ngroups++], nm);
        b->group_of_cc[i] = (uint32_t)k;
    }
    free(ns);
    size_t ng = b->ngroups;
    b->self = calloc(ng, sizeof *b->self);
    b->cum = calloc(ng, sizeof *b->cum);
    b->edge = calloc(ng * ng, sizeof *b->edge);
    uint8_t *seen = calloc(ng, 1), *eseen = calloc(ng * ng, 1);
    assert_non_null(b->edge);
    for (uint32_t i = 0; i < prof_num_nodes(p); i++) {
        const prof_node *nd = prof_node_at(p, i);
        if (!nd->ticks)
            continue;
        uint32_t path[600] = { 0 };
        size_t depth = 0;
        for (uint32_t k = i; k != PROF_NONE && depth < 600; k = prof_node_at(p, k)->parent) {
            const prof_node *kn = prof_node_at(p, k);
            path[depth++] = b->group_of_cc[kn->cc];
            if (kn->parent == 0 && prof_cc_at(p, kn->cc)->synthetic)
                break;                      /* the cut marker is the root */
        }
        b->total += nd->ticks;
        b->self[path[0]] += nd->ticks;
        memset(seen, 0, ng);
        memset(eseen, 0, ng * ng);
        for (size_t k = 0; k < depth; k++) {
            if (seen[path[k]])
                b->recursive = 1;
            else
                b->cum[path[k]] += nd->ticks;
            seen[path[k]] = 1;
            if (k + 1 < depth) {
                size_t e = (size_t)path[k + 1] * ng + path[k];     /* caller -> callee */
                if (eseen[e])
                    b->recursive = 1;
                else
                    b->edge[e] += nd->ticks;
                eseen[e] = 1;
            }
        }
    }
    free(seen);
    free(eseen);
}

static void brute_free(brute *b)
{
    free(b->name);
    free(b->group_of_cc);
    free(b->self);
    free(b->cum);
    free(b->edge);
}

static char *dot_text(const cg_graph *g)
{
    char *text = NULL;
    ev_error err;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    cg_write_opts wo;
    cg_write_opts_init(&wo);
    wo.source_name = "test \"log\"\\ with\ttab";
    wo.filters = "Window: 0 s to 1 s";
    ev_status st = cg_write(g, &wo, "dot", out, &err);
    if (st != EV_OK)
        fail_msg("cg_write: %s", err.msg);
    assert_int_equal(fclose(out), 0);
    return text;
}

static uint64_t attr_u64(void *obj, const char *name)
{
    char *v = agget(obj, (char *)name);
    if (!v || !*v)
        fail_msg("no attribute %s", name);
    return strtoull(v, NULL, 10);
}

static size_t group_named(const brute *b, const char *name)
{
    for (size_t k = 0; k < b->ngroups; k++)
        if (strcmp(b->name[k], name) == 0)
            return k;
    fail_msg("graph node '%s' is no cost centre", name);
    return 0;
}

static void check_dot(const prof_result *p, const char *what)
{
    brute b;
    brute_force(p, &b);
    cg_opts o;
    opts_all(&o);
    cg_graph *g = build(p, &o);
    char *text = dot_text(g);
    Agraph_t *ag = agmemread(text);
    if (!ag)
        fail_msg("%s: Graphviz cannot read the DOT back", what);

    size_t nodes = 0, edges = 0, want_nodes = 0, want_edges = 0;
    uint64_t self_sum = 0;
    for (size_t k = 0; k < b.ngroups; k++) {
        want_nodes += b.cum[k] > 0;
        for (size_t j = 0; j < b.ngroups; j++)
            want_edges += b.edge[k * b.ngroups + j] > 0;
    }
    for (Agnode_t *n = agfstnode(ag); n; n = agnxtnode(ag, n)) {
        if (strcmp(agnameof(n), "legend") == 0)
            continue;
        nodes++;
        size_t k = group_named(&b, agget(n, "evprof_name"));
        uint64_t self = attr_u64(n, "evprof_self"), cum = attr_u64(n, "evprof_cum");
        self_sum += self;
        if (self != b.self[k] || cum != b.cum[k])
            fail_msg("%s: %s: self %llu cum %llu, stacks say %llu %llu", what, b.name[k],
                     (unsigned long long)self, (unsigned long long)cum,
                     (unsigned long long)b.self[k], (unsigned long long)b.cum[k]);
        /* without recursion the ticks flow: cum = self + calls out, and
         * cum = calls in (roots aside) */
        uint64_t out = 0, in = 0;
        for (Agedge_t *e = agfstout(ag, n); e; e = agnxtout(ag, e))
            out += attr_u64(e, "evprof_ticks");
        for (Agedge_t *e = agfstin(ag, n); e; e = agnxtin(ag, e))
            in += attr_u64(e, "evprof_ticks");
        if (!b.recursive) {
            assert_int_equal(cum, self + out);
            if (in)
                assert_int_equal(cum, in);
        }
        for (Agedge_t *e = agfstout(ag, n); e; e = agnxtout(ag, e)) {
            edges++;
            size_t j = group_named(&b, agget(aghead(e), "evprof_name"));
            uint64_t w = attr_u64(e, "evprof_ticks");
            if (w != b.edge[k * b.ngroups + j])
                fail_msg("%s: %s -> %s: %llu ticks, stacks say %llu", what, b.name[k],
                         b.name[j], (unsigned long long)w,
                         (unsigned long long)b.edge[k * b.ngroups + j]);
        }
    }
    assert_int_equal(nodes, want_nodes);
    assert_int_equal(edges, want_edges);
    assert_int_equal(nodes, cg_num_nodes(g));
    assert_int_equal(self_sum, prof_get_info(p)->total_ticks);
    assert_int_equal(self_sum, b.total);
    agclose(ag);
    free(text);
    cg_destroy(g);
    brute_free(&b);
}

static void test_dot_against_stacks(void **state)
{
    (void)state;
    for (size_t i = 0; i < test_num_time_logs; i++)
        for (int all = 0; all <= 1; all++) {
            prof_result *p = load(test_time_logs[i], all);
            check_dot(p, test_time_logs[i]);
            prof_result_destroy(p);
        }
    static const spec s[] = { { "f/g/f/g", 4 }, { "f/f/f", 2 }, { "f/g/f", 3 }, { "h/g", 5 } };
    prof_result *p = synth(s, 4);
    check_dot(p, "recursion");
    prof_result_destroy(p);
}

/* Default pruning on every log: Graphviz reads the DOT back, the legend is
 * there, nodes within --max-nodes. */
static void test_dot_default_pruning(void **state)
{
    (void)state;
    for (size_t i = 0; i < test_num_time_logs; i++) {
        prof_result *p = load(test_time_logs[i], 0);
        cg_opts o;
        cg_opts_init(&o);
        o.max_nodes = 6;
        cg_graph *g = build(p, &o);
        assert_true(cg_num_nodes(g) <= 6);
        char *text = dot_text(g);
        Agraph_t *ag = agmemread(text);
        assert_non_null(ag);
        assert_int_equal(agnnodes(ag), (int)cg_num_nodes(g) + 1);     /* + legend */
        assert_int_equal(agnedges(ag), (int)cg_num_edges(g));
        Agnode_t *legend = agnode(ag, "legend", 0);
        assert_non_null(legend);
        const char *label = agget(legend, "label");
        assert_non_null(strstr(label, "Showing nodes accounting for"));
        assert_non_null(strstr(label, "File: test \"log\"\\\\ with\\\\ttab"));
        assert_non_null(strstr(label, "Window: 0 s to 1 s"));
        agclose(ag);
        free(text);
        cg_destroy(g);
        prof_result_destroy(p);
    }
}

/* ---- formats ----------------------------------------------------------- */

static char *render(const cg_graph *g, const char *f, size_t *size)
{
    char *data = NULL;
    ev_error err;
    FILE *out = open_memstream(&data, size);
    assert_non_null(out);
    ev_status st = cg_write(g, NULL, f, out, &err);
    if (st != EV_OK)
        fail_msg("%s: %s", f, err.msg);
    assert_int_equal(fclose(out), 0);
    return data;
}

static void test_formats(void **state)
{
    (void)state;
    size_t nf;
    const ev_format *t = cg_formats(&nf), *f;
    assert_true(nf >= 4);
    for (size_t i = 0; i < nf; i++)     /* every row has a name and a writer */
        assert_true(t[i].name && t[i].write);
    assert_non_null(f = ev_format_find(t, nf, "SVG"));
    assert_string_equal(f->name, "svg");
    assert_non_null(f = ev_format_find(t, nf, "gv"));
    assert_string_equal(f->name, "dot");
    assert_null(ev_format_find(t, nf, "jpeg"));
    assert_null(ev_format_find(t, nf, ""));
    assert_non_null(f = ev_format_for_path(t, nf, "out/x.pdf"));
    assert_string_equal(f->name, "pdf");
    assert_true(f->flags & EV_FORMAT_BINARY);
    assert_non_null(f = ev_format_for_path(t, nf, "x.PNG"));
    assert_string_equal(f->name, "png");
    assert_null(ev_format_for_path(t, nf, "a.svg/graph"));
    assert_null(ev_format_for_path(t, nf, "graph"));
    assert_null(ev_format_for_path(t, nf, ".svg"));

    prof_result *p = load(GHC_DATA "/odd-p.eventlog", 0);
    cg_graph *g = build(p, NULL);
    size_t n;
    char *d = render(g, "svg", &n);
    assert_true(n > 100 && strncmp(d, "<?xml", 5) == 0);
    assert_non_null(strstr(d, "</svg>"));
    assert_non_null(strstr(d, "quote&quot;d"));     /* escaped by Graphviz */
    assert_non_null(strstr(d, "back\\slash"));      /* one backslash drawn */
    free(d);
    d = render(g, "png", &n);
    assert_true(n > 8 && memcmp(d, "\x89PNG\r\n\x1a\n", 8) == 0);
    free(d);
    d = render(g, "pdf", &n);
    assert_true(n > 5 && memcmp(d, "%PDF-", 5) == 0);
    free(d);

    ev_error err;
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        setvbuf(full, NULL, _IONBF, 0);
        assert_int_equal(cg_write(g, NULL, "svg", full, &err), EV_ERR_WRITE);
        assert_int_equal(err.status, EV_ERR_WRITE);
        assert_string_equal(err.msg, "cannot write the svg output");
        assert_int_equal(cg_write(g, NULL, "dot", full, &err), EV_ERR_WRITE);
        assert_string_equal(err.msg, "cannot write the DOT text");
        assert_int_equal(cg_write(g, NULL, "dot", full, NULL), EV_ERR_WRITE);
        fclose(full);
    }
    assert_int_equal(cg_write(g, NULL, "jpeg", stdout, &err), EV_ERR_USAGE);
    assert_string_equal(err.msg, "no graph format 'jpeg'");
    cg_destroy(g);
    prof_result_destroy(p);
}

/* ---- names from the log, whatever their bytes -------------------------- */

/* Labels, modules, source locations and the command line with ESC, CR,
 * BEL, newlines, markup, entity look-alikes, invalid UTF-8, a C1 control
 * and U+FFFF: the DOT reads back with each shown visibly, and the SVG is
 * XML (python3's parser) with the same text drawn. */
static void test_hostile_names(void **state)
{
    (void)state;
    static const char *labels[] = {
        "esc\x1b[31mred", "line\nbreak\rcr", "<b>&amp;\"q\"</script>", "ent&foo;&#1;",
        "bad\xff\xc3utf8", "c1\xc2\x9bx\xef\xbf\xbfy", "tab\there\\back",
    };
    enum { NL = sizeof labels / sizeof labels[0] };
    el_writer *w = el_writer_create_mem();
    el_writer_declare_ghc(w, EL_GHC_9_0);
    const char *argv[] = { "prog--&x;\x1b<ti>tle", "a\nb" };
    el_writer_capset_create(w, 0, 0, 2);
    el_writer_program_args(w, 0, 0, 2, argv);
    el_writer_cost_centre(w, 0, 1, "MAIN", "MAIN", "<built-in>", 0);
    for (uint32_t i = 0; i < NL; i++)
        el_writer_cost_centre(w, 0, i + 2, labels[i], i == 0 ? "Mod\x07" "bell" : "M&<>",
                              "s<&>\x1b.hs:1:1", 0);
    el_writer_prof_begin(w, 0, 1000000);
    for (uint32_t i = 0; i < NL; i++) {
        uint32_t stack[2] = { i + 2, i ? i + 1 : 0 };    /* a chain: each calls the next */
        for (uint32_t k = 0; k <= i; k++)
            el_writer_prof_sample(w, 100 + 10 * i + k, 0, i, i ? 2 : 1, stack);
    }
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);
    prof_result *p = load_mem(bytes, len);
    el_writer_destroy(w);
    cg_opts o;
    opts_all(&o);
    cg_graph *g = build(p, &o);

    /* DOT: Graphviz reads it back; labels and names as shown */
    char *text = dot_text(g);
    Agraph_t *ag = agmemread(text);
    if (!ag)
        fail_msg("Graphviz cannot read the DOT back:\n%s", text);
    static const char *names[NL] = {
        "Mod\\\\x07bell.esc\\\\x1b[31mred", "M&<>.line\\\\nbreak\\\\rcr",
        "M&<>.<b>&amp;\"q\"</script>", "M&<>.ent&foo;&#1;",
        "M&<>.bad\xef\xbf\xbd\xef\xbf\xbdutf8", "M&<>.c1\\\\u009bx\\\\uffffy",
        "M&<>.tab\\\\there\\\\back",
    };
    int found[NL] = { 0 };
    for (Agnode_t *n = agfstnode(ag); n; n = agnxtnode(ag, n)) {
        if (strcmp(agnameof(n), "legend") == 0)
            continue;
        const char *nm = agget(n, "evprof_name"), *label = agget(n, "label");
        for (const char *c = label; *c; c++)
            assert_true((unsigned char)*c >= 0x20);
        for (int i = 0; i < NL; i++)
            if (strcmp(nm, names[i]) == 0)
                found[i]++;
    }
    for (int i = 0; i < NL; i++)
        if (found[i] != 1)
            fail_msg("no node named '%s' in the DOT:\n%s", names[i], text);
    const char *legend = agget(agnode(ag, "legend", 0), "label");
    assert_non_null(strstr(legend, "Program: prog--&amp;x;\\\\x1b<ti>tle a\\\\nb\\l"));
    agclose(ag);
    free(text);

    /* SVG: well-formed XML, the same names drawn */
    char path[] = "/tmp/evprof-test-graph-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *out = fdopen(fd, "w");
    ev_error err;
    cg_write_opts wo;
    cg_write_opts_init(&wo);
    wo.source_name = "log\x1b]0;title\x07.eventlog";
    if (cg_write(g, &wo, "svg", out, &err) != EV_OK)
        fail_msg("cg_write: %s", err.msg);
    assert_int_equal(fclose(out), 0);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "command -v \"${PYTHON:-python3}\" >/dev/null || exit 77; \"${PYTHON:-python3}\" - '%s' <<'PY'\n"
             "import sys, xml.etree.ElementTree as ET\n"
             "root = ET.parse(sys.argv[1]).getroot()\n"
             "ns = '{http://www.w3.org/2000/svg}'\n"
             "text = '\\n'.join(''.join(t.itertext()) for t in root.iter(ns + 'text'))\n"
             "titles = [t.text for t in root.iter(ns + 'title')]\n"
             "want = ['esc\\\\x1b[31mred', 'Mod\\\\x07bell', 'line\\\\nbreak\\\\rcr',\n"
             "        '<b>&amp;\"q\"</script>', 'ent&foo;&#1;', 'bad\\ufffd\\ufffdutf8',\n"
             "        'c1\\\\u009bx\\\\uffffy', 'tab\\\\there\\\\back', 'M&<>',\n"
             "        'File: log\\\\x1b]0;title\\\\x07.eventlog', 'prog--&x;\\\\x1b<ti>tle a\\\\nb']\n"
             "miss = [w for w in want if w not in text]\n"
             "assert not miss, (miss, text)\n"
             "assert 'prog--&x;\\\\x1b<ti>tle' in titles, titles\n"
             "assert not any(ord(c) < 32 and c != '\\n' for c in text), repr(text)\n"
             "PY\n", path);
    int rc = system(cmd);
    unlink(path);
    cg_destroy(g);
    prof_result_destroy(p);
    if (WIFEXITED(rc) && WEXITSTATUS(rc) == 77)
        skip();
    assert_true(WIFEXITED(rc) && WEXITSTATUS(rc) == 0);
}

/* ---- 10,000 cost centres ---------------------------------------------- */

static uint64_t rng = 0x1234567;

static uint32_t rnd(uint32_t n)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng >> 33) % n);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A random static call tree of 10,000 cost centres; 200,000 samples of
 * stacks from a leaf up, skewed towards a few hot leaves, some of them
 * passing through a recursion (a segment repeated). */
static void test_ten_thousand(void **state)
{
    (void)state;
    enum { CCS = 10000, SAMPLES = 200000 };
    uint32_t *parent = malloc(CCS * sizeof *parent);
    assert_non_null(parent);
    el_writer *w = el_writer_create_mem();
    el_writer_declare_ghc(w, EL_GHC_9_0);
    el_writer_cost_centre(w, 0, 1, "MAIN", "MAIN", "<built-in>", 0);
    char label[32], module[32];
    for (uint32_t i = 0; i < CCS; i++) {
        parent[i] = i < 10 ? CCS : rnd(i);      /* ten roots */
        snprintf(label, sizeof label, "f%u", i);
        snprintf(module, sizeof module, "Mod%u", i % 97);
        el_writer_cost_centre(w, 0, i + 2, label, module, "x.hs:1:1", 0);
    }
    el_writer_prof_begin(w, 0, 1000000);
    for (uint64_t t = 0; t < SAMPLES; t++) {
        uint32_t leaf = rnd(4) == 0 ? rnd(CCS) : rnd(64) * 151 % CCS;
        uint32_t stack[255];
        unsigned depth = 0;
        for (uint32_t c = leaf; c != CCS && depth < 200; c = parent[c])
            stack[depth++] = c + 2;
        if (rnd(8) == 0 && depth >= 3 && depth < 100) {   /* recursion: repeat a segment */
            unsigned len = 2 + rnd(depth - 2);
            for (unsigned k = 0; k < len; k++)
                stack[depth + k] = stack[k];
            depth += len;
        }
        el_writer_prof_sample(w, 1000 + t * 1000, (uint32_t)(t & 1), t, (uint8_t)depth, stack);
    }
    assert_int_equal(el_writer_finish(w), EV_OK);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);

    double t0 = now();
    prof_result *p = load_mem(bytes, len);
    double t1 = now();
    cg_graph *g = build(p, NULL);
    double t2 = now();
    size_t n;
    char *svg = render(g, "svg", &n);
    double t3 = now();
    print_message("10,000 cost centres, %zu tree nodes, %d samples: profile %.2f s, graph "
                  "%.3f s, layout + SVG %.2f s; %zu nodes of %u, %zu edges, %zu bytes of SVG\n",
                  prof_num_nodes(p), SAMPLES, t1 - t0, t2 - t1, t3 - t2, cg_num_nodes(g),
                  cg_get_summary(g)->all_nodes, cg_num_edges(g), n);
    assert_true(cg_get_summary(g)->all_nodes > 5000);
    assert_true(cg_num_nodes(g) <= 80);
    assert_true(cg_num_edges(g) <= 240);
    assert_non_null(strstr(svg, "</svg>"));
    /* "a few seconds": generous for a loaded CI machine */
    assert_true(t3 - t1 < 30.0);

    /* never more than --max-nodes, whatever the fractions */
    for (uint32_t max = 1; max <= 300; max = max * 3 + 1) {
        cg_opts o;
        opts_all(&o);
        o.max_nodes = max;
        cg_graph *h = build(p, &o);
        assert_true(cg_num_nodes(h) <= max);
        cg_destroy(h);
    }
    free(svg);
    cg_destroy(g);
    prof_result_destroy(p);
    el_writer_destroy(w);
    free(parent);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tree),
        cmocka_unit_test(test_recursion),
        cmocka_unit_test(test_same_name_merged),
        cmocka_unit_test(test_focus_ignore),
        cmocka_unit_test(test_pruning),
        cmocka_unit_test(test_heavy_direct_edge_kept),
        cmocka_unit_test(test_pruning_property),
        cmocka_unit_test(test_dot_against_stacks),
        cmocka_unit_test(test_dot_default_pruning),
        cmocka_unit_test(test_formats),
        cmocka_unit_test(test_hostile_names),
        cmocka_unit_test(test_ten_thousand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
