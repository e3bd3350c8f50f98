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

#endif
