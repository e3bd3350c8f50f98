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
    assert_int_equal(el_writer_finish(w), EL_WRITER_OK);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);
    prof_result *prof = load_mem(bytes, len);
    el_writer_destroy(w);
    return prof;
}

static cg_graph *build(const prof_result *p, const cg_opts *o)
{
    cg_graph *g = NULL;
    char err[256];
    cg_status st = cg_build(p, o, &g, err, sizeof err);
    if (st != CG_OK)
        fail_msg("cg_build: %d %s", st, err);
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

/* Cost centres with one label and module are one node. */
static void test_same_name_merged(void **state)
{
    (void)state;
    el_writer *w = el_writer_create_mem();
    el_writer_declare_ghc(w, EL_GHC_9_0);
    el_writer_cost_centre(w, 0, 1, "MAIN", "MAIN", "<built-in>", 0);
    el_writer_cost_centre(w, 0, 2, "go", "M", "a.hs:1:1", 0);
    el_writer_cost_centre(w, 0, 3, "go", "M", "a.hs:7:1", 0);
    el_writer_cost_centre(w, 0, 4, "go", "N", "b.hs:1:1", 0);
    const uint32_t s1[] = { 2 }, s2[] = { 3, 2 }, s3[] = { 4 };
    el_writer_prof_sample(w, 10, 0, 1, 1, s1);
    el_writer_prof_sample(w, 20, 0, 2, 2, s2);      /* MAIN/go@1/go@7 */
    el_writer_prof_sample(w, 30, 0, 3, 1, s3);
    assert_int_equal(el_writer_finish(w), EL_WRITER_OK);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);
    prof_result *p = load_mem(bytes, len);
    el_writer_destroy(w);
    cg_opts o;
    opts_all(&o);
    cg_graph *g = build(p, &o);
    assert_int_equal(cg_num_nodes(g), 3);       /* MAIN, M.go, N.go */
    const cg_node *n = cg_node_at(g, 1);
    assert_string_equal(n->module, "M");
    assert_int_equal(n->num_ccs, 2);
    assert_null(n->srcloc);
    assert_int_equal(n->self, 2);
    assert_int_equal(n->cum, 2);
    const cg_edge *e = find_edge(g, "go", "go");    /* M.go -> M.go: recursion */
    assert_non_null(e);
    assert_int_equal(e->ticks, 1);
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
    char err[256];
    g = (cg_graph *)1;
    assert_int_equal(cg_build(p, &o, &g, err, sizeof err), CG_ERR_REGEX);
    assert_null(g);
    assert_non_null(strstr(err, "(unclosed"));
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

/* ---- DOT read back, against a brute-force count ------------------------ */

/* The name as the graph's evprof_name holds it: Module.label with
 * backslashes doubled and control characters as spaces. */
static void esc_name(const prof_cc *cc, char *buf, size_t size)
{
    size_t n = 0;
    const char *parts[3] = { cc->module, ".", cc->label };
    for (int k = 0; k < 3; k++)
        for (const char *s = parts[k]; *s && n + 3 < size; s++) {
            if (*s == '\\') {
                buf[n++] = '\\';
                buf[n++] = '\\';
            } else
                buf[n++] = (unsigned char)*s < 0x20 || *s == 0x7f ? ' ' : *s;
        }
    buf[n] = '\0';
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
    for (uint32_t i = 0; i < nccs; i++) {
        char nm[256];
        esc_name(prof_cc_at(p, i), nm, sizeof nm);
        size_t k = 0;
        while (k < b->ngroups && strcmp(b->name[k], nm) != 0)
            k++;
        if (k == b->ngroups)
            strcpy(b->name[b->ngroups++], nm);
        b->group_of_cc[i] = (uint32_t)k;
    }
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
    char *text = NULL, err[256];
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    cg_write_opts wo;
    cg_write_opts_init(&wo);
    wo.source_name = "test \"log\"\\ with\ttab";
    wo.filters = "Window: 0 s to 1 s";
    cg_status st = cg_write(g, &wo, CG_FORMAT_DOT, out, err, sizeof err);
    if (st != CG_OK)
        fail_msg("cg_write: %s", err);
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
        assert_non_null(strstr(label, "File: test \"log\"\\\\ with tab"));
        assert_non_null(strstr(label, "Window: 0 s to 1 s"));
        agclose(ag);
        free(text);
        cg_destroy(g);
        prof_result_destroy(p);
    }
}

/* ---- formats ----------------------------------------------------------- */

static char *render(const cg_graph *g, cg_format f, size_t *size)
{
    char *data = NULL, err[256];
    FILE *out = open_memstream(&data, size);
    assert_non_null(out);
    cg_status st = cg_write(g, NULL, f, out, err, sizeof err);
    if (st != CG_OK)
        fail_msg("%s: %s", cg_format_name(f), err);
    assert_int_equal(fclose(out), 0);
    return data;
}

static void test_formats(void **state)
{
    (void)state;
    cg_format f;
    assert_int_equal(cg_format_parse("SVG", &f), 0);
    assert_int_equal(f, CG_FORMAT_SVG);
    assert_int_equal(cg_format_parse("gv", &f), 0);
    assert_int_equal(f, CG_FORMAT_DOT);
    assert_int_equal(cg_format_parse("jpeg", &f), -1);
    assert_int_equal(cg_format_from_path("out/x.pdf", &f), 0);
    assert_int_equal(f, CG_FORMAT_PDF);
    assert_int_equal(cg_format_from_path("x.PNG", &f), 0);
    assert_int_equal(f, CG_FORMAT_PNG);
    assert_int_equal(cg_format_from_path("a.svg/graph", &f), -1);
    assert_int_equal(cg_format_from_path("graph", &f), -1);

    prof_result *p = load(GHC_DATA "/odd-p.eventlog", 0);
    cg_graph *g = build(p, NULL);
    size_t n;
    char *d = render(g, CG_FORMAT_SVG, &n);
    assert_true(n > 100 && strncmp(d, "<?xml", 5) == 0);
    assert_non_null(strstr(d, "</svg>"));
    assert_non_null(strstr(d, "quote&quot;d"));     /* escaped by Graphviz */
    assert_non_null(strstr(d, "back\\slash"));      /* one backslash drawn */
    free(d);
    d = render(g, CG_FORMAT_PNG, &n);
    assert_true(n > 8 && memcmp(d, "\x89PNG\r\n\x1a\n", 8) == 0);
    free(d);
    d = render(g, CG_FORMAT_PDF, &n);
    assert_true(n > 5 && memcmp(d, "%PDF-", 5) == 0);
    free(d);

    char err[256];
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        setvbuf(full, NULL, _IONBF, 0);
        assert_int_equal(cg_write(g, NULL, CG_FORMAT_SVG, full, err, sizeof err), CG_ERR_WRITE);
        assert_int_equal(cg_write(g, NULL, CG_FORMAT_DOT, full, err, sizeof err), CG_ERR_WRITE);
        fclose(full);
    }
    assert_int_equal(cg_write(g, NULL, CG_FORMAT_COUNT, stdout, err, sizeof err), CG_ERR_RENDER);
    cg_destroy(g);
    prof_result_destroy(p);
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
    assert_int_equal(el_writer_finish(w), EL_WRITER_OK);
    size_t len;
    const uint8_t *bytes = el_writer_borrow_bytes(w, &len);

    double t0 = now();
    prof_result *p = load_mem(bytes, len);
    double t1 = now();
    cg_graph *g = build(p, NULL);
    double t2 = now();
    size_t n;
    char *svg = render(g, CG_FORMAT_SVG, &n);
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
        cmocka_unit_test(test_dot_against_stacks),
        cmocka_unit_test(test_dot_default_pruning),
        cmocka_unit_test(test_formats),
        cmocka_unit_test(test_ten_thousand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
