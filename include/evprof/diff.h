/* evprof: two runs compared. "Did my change make it faster, and where?"
 *
 * The time profile: a diff_prof pairs the cost centres of two profiles
 * (prof_result snapshots: BASE, the run before, and NEW, the run after) by
 * module, label and source location, since GHC's ids differ between builds
 * (one whose location moved, by an edit above it or of it, is paired by
 * module and label when these name exactly one unpaired cost centre in each
 * run; it shows NEW's location), and merges their cost-centre-stack trees by the path of those names, so
 * each stack of either run is one node with both runs' ticks.
 *
 *     diff_prof *d;
 *     if (diff_prof_create(base, cur, NULL, &d) != EV_OK) ...
 *     diff_report_text(d, NULL, stdout);     // table, then the tree
 *     diff_prof_destroy(d);                  // before the two results
 *
 * With `normalize`, BASE's figures are scaled by NEW's total over BASE's
 * (runs of different length compare by share): every `base` figure below
 * is then the scaled one, a double; otherwise they are whole ticks.
 *
 * The other analyses compare their finished results directly: two GC
 * summaries (gc.h), two heap profiles' bands (heap.h), two ticky sets'
 * counters by name (ticky.h). Nothing here reads a log.
 */
#ifndef EVPROF_DIFF_H
#define EVPROF_DIFF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "evprof/gc.h"
#include "evprof/graph.h"
#include "evprof/heap.h"
#include "evprof/prof.h"
#include "evprof/ticky.h"
#include "evprof/export.h"
#include "evprof/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The diff's statuses are ev_status (status.h): EV_OK, EV_ERR_NOMEM,
 * EV_ERR_WRITE. */

typedef struct diff_opts {
    int normalize;              /* scale BASE to NEW's total */
} diff_opts;

EVPROF_API void diff_opts_init(diff_opts *o);

typedef struct diff_prof diff_prof;

/* Pairs the two profiles, which are borrowed: they must outlive the diff
 * (names point into them). NULL o: the defaults. */
EVPROF_API ev_status diff_prof_create(const prof_result *base, const prof_result *cur,
                                        const diff_opts *o, diff_prof **out);
EVPROF_API void diff_prof_destroy(diff_prof *d);   /* accepts NULL */

/* A cost centre of either run, by module, label and source location. */
typedef enum diff_change {
    DIFF_SAME = 0,              /* defined in both runs (its ticks may differ,
                                   or be 0 in one of them) */
    DIFF_ADDED,                 /* defined in NEW only: new code */
    DIFF_REMOVED,               /* defined in BASE only: code gone */
} diff_change;

typedef struct diff_cc {
    const char *label, *module, *srcloc;
    const prof_cc *base_cc;     /* its cost centre in BASE, NULL when none */
    const prof_cc *new_cc;      /* ... in NEW */
    uint64_t base_ticks;        /* own ticks, summed over every stack (as the
                                   report's summary sums them), unscaled */
    uint64_t new_ticks;
    double base;                /* base_ticks, scaled with normalize */
    double delta;               /* new_ticks - base */
    diff_change change;
    uint8_t namesake;           /* another cost centre of either run has its module and
                                   label at another place (prof_namesakes): the
                                   folded lines name it with its source location */
} diff_cc;

/* A stack: a node of the merged tree. Index 0 is MAIN. */
typedef struct diff_node {
    uint32_t cc;                /* diff_cc_at index */
    uint32_t parent;            /* PROF_NONE for MAIN */
    uint32_t first_child;       /* by inherited ticks of NEW, then of BASE,
                                   then label, module */
    uint32_t next_sibling;
    uint32_t depth;
    uint64_t base_ticks, new_ticks;             /* own ticks, unscaled */
    uint64_t base_inherited, new_inherited;     /* with the descendants' */
} diff_node;

typedef struct diff_info {
    uint64_t base_total, new_total;     /* the reports' total ticks */
    double scale;                       /* applied to BASE: 1, or new/base */
    int normalized;
    size_t added, removed, same;        /* of the cost centres with ticks */
} diff_info;

EVPROF_API const diff_info *diff_get_info(const diff_prof *d);
EVPROF_API size_t diff_num_ccs(const diff_prof *d);
EVPROF_API const diff_cc *diff_cc_at(const diff_prof *d, uint32_t i);      /* NULL past the end */
EVPROF_API size_t diff_num_nodes(const diff_prof *d);
EVPROF_API const diff_node *diff_node_at(const diff_prof *d, uint32_t i);  /* NULL past the end */

/* The cost centres with ticks in either run, by absolute delta descending,
 * then NEW's ticks, label, module, source: a malloc'd array of *n indices
 * (caller frees), NULL without memory. */
EVPROF_API uint32_t *diff_ccs_by_delta(const diff_prof *d, size_t *n);

/* Percentage change from `base` to `cur`: 100 (cur - base) / base; 0 when
 * both are 0; +infinity when only base is 0. */
EVPROF_API double diff_pct(double base, double cur);

/* "+12", "-3", "0": a delta rounded to a whole number, signed. */
EVPROF_API void diff_fmt_delta(char *buf, size_t size, double delta);
/* "+41.7%", "-3.0%", "0.0%" (below 0.05% either way), or "from 0" when
 * only base is 0. */
EVPROF_API void diff_fmt_pct(char *buf, size_t size, double base, double cur);

/* How much a cost centre grew, in percent of BASE's total (scaled with
 * normalize): its delta over that total, 0 when it did not grow. A cost
 * centre new in NEW counts by its share: 9 new ticks against a BASE of
 * 900 are 1%. (Its growth over its own BASE ticks would be unbounded,
 * and a small helper added by an 83% improvement would fail a guard.)
 * INFINITY when BASE has no ticks at all. */
EVPROF_API double diff_cc_growth(const diff_prof *d, const diff_cc *c);

/* The first figure that grew by more than `pct` percent (--fail-above):
 * the total, by its own growth (*cc = PROF_NONE), or a cost centre, by
 * diff_cc_growth (*cc its index), leaving out cost centres with less than
 * `min_share` percent of the ticks in both runs (0: none left out).
 * Returns 1 with *cc set, or 0 when none did. */
EVPROF_API int diff_grew_above(const diff_prof *d, double pct, double min_share, uint32_t *cc);

/* ---- output ----------------------------------------------------------- */

typedef struct diff_report_opts {
    const char *base_name, *new_name;   /* the logs' names for headers; NULL: "BASE", "NEW" */
    double threshold_pct;               /* hide subtrees below this share of both runs */
    uint32_t max_depth;                 /* tree rows deeper than this hidden; 0: no limit */
} diff_report_opts;

EVPROF_API void diff_report_opts_init(diff_report_opts *o);

/* The table of cost centres (base, new, delta, change; added and removed
 * marked), then the stack tree with both runs' individual and inherited
 * ticks and their deltas, in the report's layout (prof_report_text). */
EVPROF_API ev_status diff_report_text(const diff_prof *d, const diff_report_opts *o, FILE *out);

/* The same figures as one JSON object (docs/DIFF.md). */
EVPROF_API ev_status diff_report_json(const diff_prof *d, const diff_report_opts *o, FILE *out);

/* difffolded.pl's output: one line per distinct stack "frames base new"
 * (frames as prof_report_folded writes them, so `evprof folded` of each
 * run through difffolded.pl gives the same lines); the input of
 * flamegraph.pl for a differential flame graph. With normalize, base is
 * scaled and truncated to an integer as difffolded.pl -n does. */
EVPROF_API ev_status diff_report_folded(const diff_prof *d, const prof_folded_opts *o, FILE *out);

/* The call graph of NEW (cg_build with `go`), every node and edge coloured
 * by its change from BASE: red grew, green shrank, grey unchanged (pprof's
 * -diff_base convention), the labels holding both figures. Statuses and
 * `err` (may be NULL) as cg_build's and cg_write's; `format` a name of
 * cg_formats, as cg_write takes it. */
EVPROF_API ev_status diff_graph_write(const diff_prof *d, const cg_opts *go,
                                      const cg_write_opts *wo,
                                      const char *format, FILE *out, ev_error *err);

/* ---- the other analyses ------------------------------------------------ */

/* Two `+RTS -s` summaries (finished gc_summary, gc_get_result) side by
 * side: each figure in BASE and NEW, the delta and the change. */
EVPROF_API ev_status diff_gc_text(const gc_result *base, const gc_result *cur,
                                    const diff_report_opts *o, FILE *out);
EVPROF_API ev_status diff_gc_json(const gc_result *base, const gc_result *cur,
                                    const diff_report_opts *o, FILE *out);

/* Two heap profiles (finished: heap_snapshot), bands paired by name: peak
 * and mean bytes in each, deltas; bands by absolute peak delta. */
EVPROF_API ev_status diff_heap_text(const heap_profile *base, const heap_profile *cur,
                                      const diff_report_opts *o, FILE *out);
EVPROF_API ev_status diff_heap_json(const heap_profile *base, const heap_profile *cur,
                                      const diff_report_opts *o, FILE *out);

/* Two ticky sets (after ticky_finish), counters paired by name: entries
 * and allocation in each, deltas; counters by absolute entries delta. */
EVPROF_API ev_status diff_ticky_text(const ticky_set *base, const ticky_set *cur,
                                       const diff_report_opts *o, FILE *out);
EVPROF_API ev_status diff_ticky_json(const ticky_set *base, const ticky_set *cur,
                                       const diff_report_opts *o, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
