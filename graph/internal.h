/* graph/: what the builder (callgraph.c) hands the renderer (render.c). */
#ifndef EVPROF_GRAPH_INTERNAL_H
#define EVPROF_GRAPH_INTERNAL_H

#include "evprof/graph.h"

struct cg_graph {
    const prof_result *p;      /* borrowed: names point into it */
    cg_opts opts;               /* focus/ignore point to the copies below */
    char *focus, *ignore;
    cg_node *nodes;
    size_t num_nodes;
    cg_edge *edges;
    size_t num_edges;
    cg_summary sum;
};

/* Graphviz's formats (render.c): `renderer` "svg", "png" or "pdf" lays the
 * graph out and renders it; NULL writes the DOT text. */
ev_status cg_render(const cg_graph *g, const cg_write_opts *o, const char *renderer, FILE *out,
                    ev_error *err);

#endif
