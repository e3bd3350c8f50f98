/* evprof: the call graph of cost centres, built from the cost-centre-stack
 * tree of a prof_result (a snapshot of the time profile), pruned so that it stays readable, and
 * drawn with Graphviz (libcgraph builds it, libgvc lays it out and renders
 * it in-process).
 *
 *     cg_opts o;
 *     cg_opts_init(&o);
 *     o.focus = "fib";
 *     cg_graph *g;
 *     ev_error err;
 *     if (cg_build(p, &o, &g, &err) != EV_OK) ...     // err.msg says why
 *     cg_write_opts w;
 *     cg_write_opts_init(&w);
 *     cg_write(g, &w, "svg", out, &err);     // a row of cg_formats
 *     cg_destroy(g);
 *
 * Definitions (docs/FLAMEGRAPH.md): every tree node with ticks is a stack,
 * weighted by its ticks. One graph node per cost centre, cost centres with
 * the same label, module and source location being one node (namesakes,
 * one label and module at several places, are several: prof_namesakes).
 *   self(c)   ticks of the stacks whose leaf is c;
 *   cum(c)    ticks of the stacks in which c occurs, once per stack however
 *             often c recurs in it;
 *   w(a->b)   ticks of the stacks in which a directly calls b, once per
 *             stack however often that call recurs in it.
 * Stacks cut at 255 frames start at the node "<stack cut at 255 frames>"
 * (their outer frames, MAIN included, are lost).
 */
#ifndef EVPROF_GRAPH_H
#define EVPROF_GRAPH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evprof/prof.h"
#include "evprof/export.h"
#include "evprof/format.h"
#include "evprof/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The call graph's statuses are ev_status (status.h): EV_OK,
 * EV_ERR_NOMEM, EV_ERR_PATTERN (--focus/--ignore does not compile),
 * EV_ERR_RENDER (Graphviz failed: layout or renderer), EV_ERR_WRITE
 * (writing the output failed); an error's message is in the ev_error
 * the function takes (NULL: no detail). */

typedef struct cg_opts {
    double node_fraction;   /* hide cost centres with cum < this x shown ticks (0.005) */
    double edge_fraction;   /* hide edges with w < this x shown ticks (0.001) */
    uint32_t max_nodes;     /* at most this many cost-centre nodes (80), >= 1 */
    uint32_t max_edges;     /* at most this many edges; 0: 3 x max_nodes */
    const char *focus;      /* POSIX extended regex on "Module.label": keep only
                               stacks through a match; NULL: every stack */
    const char *ignore;     /* ... drop stacks through a match; NULL: none */
} cg_opts;

EVPROF_API void cg_opts_init(cg_opts *o);

typedef struct cg_graph cg_graph;

/* Builds and prunes the graph of a finished profile, which must outlive
 * it (names are borrowed). On an error `err` says why (EV_ERR_PATTERN:
 * "'PATTERN': regerror's text"). */
EVPROF_API ev_status cg_build(const prof_result *p, const cg_opts *o, cg_graph **out,
                              ev_error *err);
EVPROF_API void cg_destroy(cg_graph *g);           /* accepts NULL */

/* ---- results ---------------------------------------------------------- */

typedef struct cg_node {
    const char *label;
    const char *module;
    const char *srcloc;     /* of its cost centres */
    uint32_t num_ccs;       /* cost centres merged into this node (all three equal) */
    uint8_t namesake;       /* another cost centre has its label and module at
                               another place: drawn with its srcloc */
    uint64_t self, cum;
} cg_node;

typedef struct cg_edge {
    uint32_t from, to;      /* node indices; from == to for direct recursion */
    uint64_t ticks;         /* solid: w(from -> to), the direct calls; dotted:
                               the ticks of the stacks in which `from` is the
                               nearest drawn caller of `to` through hidden
                               nodes (once per stack) */
    int residual;           /* dotted: the calls pass through hidden nodes.
                               A pair can have both a solid and a dotted edge */
} cg_edge;

typedef struct cg_summary {
    uint64_t profile_ticks; /* the profile's total (the report's N ticks) */
    uint64_t shown_ticks;   /* after --focus/--ignore: the base of percentages */
    uint64_t node_ticks;    /* self ticks of the nodes drawn */
    uint32_t all_nodes;     /* cost centres (label + module) with cum > 0 */
    uint32_t dropped_nodes_fraction;    /* cum below node_fraction */
    uint32_t dropped_nodes_max;         /* beyond max_nodes */
    uint32_t all_edges;     /* edges with ticks among the nodes kept */
    uint32_t dropped_edges; /* below edge_fraction */
    uint32_t dropped_edges_redundant;   /* dotted ones whose ends the edges drawn
                                           already connect */
    uint32_t dropped_edges_max;         /* beyond max_edges */
    double node_cutoff;     /* in ticks */
    double edge_cutoff;
    uint64_t max_self;      /* of the nodes drawn */
} cg_summary;

/* Nodes are ordered by cum, then self (both descending), module, label;
 * edges by ticks descending, then by their nodes' order. */
EVPROF_API size_t cg_num_nodes(const cg_graph *g);
EVPROF_API const cg_node *cg_node_at(const cg_graph *g, size_t i);
EVPROF_API size_t cg_num_edges(const cg_graph *g);
EVPROF_API const cg_edge *cg_edge_at(const cg_graph *g, size_t i);
EVPROF_API const cg_summary *cg_get_summary(const cg_graph *g);

/* ---- output ----------------------------------------------------------- */

/* The graph's formats (evprof/format.h), a row each: "svg", "png", "pdf"
 * (drawn by Graphviz; png and pdf EV_FORMAT_BINARY), "dot" (".dot .gv":
 * the graph as DOT, before layout; Graphviz reads it back). A row's
 * writer takes a cg_graph and a cg_write_opts (NULL: the defaults). */
EVPROF_API const ev_format *cg_formats(size_t *count);

/* A drawing override of one node or edge (a diff's colours). */
typedef struct cg_mark {
    const char *color;          /* "#rrggbb": a node's border, an edge's line;
                                   NULL: the colour by share */
    const char *fillcolor;      /* a node's fill; NULL: the colour by share */
    const char *note;           /* one more label line; NULL: none */
} cg_mark;

typedef struct cg_write_opts {
    const char *source_name;    /* the eventlog, for the legend; NULL: none */
    const char *filters;        /* a legend line about the window, capability,
                                   --all; NULL: none */
    const cg_mark *node_marks;  /* [cg_num_nodes], in cg_node_at's order; NULL: none */
    const cg_mark *edge_marks;  /* [cg_num_edges], in cg_edge_at's order; NULL: none */
} cg_write_opts;

EVPROF_API void cg_write_opts_init(cg_write_opts *o);

/* Writes the graph in the format of cg_formats named `format` (a name or
 * an extension, as ev_format_find takes it): for Graphviz's, builds the
 * Graphviz graph (pprof's styling: docs/FLAMEGRAPH.md), lays it out and
 * renders it in-process, then writes the bytes to `out` (DOT without
 * layout). On an error `err` says why (EV_ERR_RENDER: what Graphviz said;
 * EV_ERR_USAGE: no such format). */
EVPROF_API ev_status cg_write(const cg_graph *g, const cg_write_opts *o, const char *format,
                              FILE *out, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
