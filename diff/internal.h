/* diff/: what the writers share. */
#ifndef EVPROF_DIFF_INTERNAL_H
#define EVPROF_DIFF_INTERNAL_H

#include "evprof/diff.h"
#include "evprof/json.h"

struct diff_prof {
    const prof_result *base, *cur;  /* borrowed */
    diff_cc *ccs;
    size_t num_ccs, cap_ccs;
    diff_node *nodes;
    size_t num_nodes, cap_nodes;
    diff_info info;
};

/* A JSON number, the shortest that reads back as v, or null when v is
 * not finite. */
void diff_json_num(tx_json *j, double v);

#endif
