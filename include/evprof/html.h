/* evprof: one self-contained HTML page with every view of a log.
 *
 * An html_page attaches every analysis the page shows to one driver
 * (time profile, GC summary, heap profile with a census callback, ticky
 * counters, the GC time series and the run's facts), so the page is made
 * in one read of the log. After the read it writes one HTML file: the
 * aggregates as one JSON object in a <script type="application/json">
 * block, the call graph's SVG inline, and the page's own small script and
 * style (html/page.*, embedded at build time). Nothing is fetched when
 * the page is viewed. The page holds aggregates, never events: its size
 * is bounded by the options below, not by the log.
 *
 *     html_opts o;
 *     html_opts_init(&o);
 *     html_page *pg = html_page_create(&o);
 *     ev_driver *d = ev_driver_create(NULL);
 *     html_page_attach(pg, d);
 *     const ev_stream *s = ev_driver_run_path(d, "prog.eventlog");
 *     ev_error err;
 *     if (html_page_write(pg, s, out, NULL, &err) != EV_OK) ...  // err.msg says why
 *     ev_driver_destroy(d);
 *     html_page_destroy(pg);
 *
 * How the page is built and why its script is hand-written: docs/HTML.md.
 */
#ifndef EVPROF_HTML_H
#define EVPROF_HTML_H

#include <stddef.h>
#include <stdint.h>

#include "evprof/heap.h"
#include "evprof/prof.h"
#include <stdio.h>

#include "evprof/driver.h"
#include "evprof/export.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct html_opts {
    const char *source_name;    /* the log's name for the title; NULL: none */
    uint32_t max_nodes;         /* cost-centre-stack nodes sent, heaviest first
                                   (20000); the page says when the tree was cut */
    uint32_t max_censuses;      /* heap censuses kept for the chart (400); more
                                   are thinned evenly as they arrive */
    uint32_t max_bands;         /* heap bands drawn, largest peak first (20);
                                   the rest are summed into one "other" band */
    uint32_t max_points;        /* points of the GC time series (1000) */
    uint32_t max_counters;      /* ticky counters in the table (5000), most
                                   entries first */
    uint32_t series_counters;   /* ticky counters with a time series (50) */
    uint32_t series_points;     /* points per ticky series (64) */
    uint32_t graph_nodes;       /* the call graph's max nodes (cg_opts, 80) */
    uint32_t timeline_cells;    /* the timeline's profile: (bin, node) cells sent
                                   (100000); its bins merge in pairs until they fit */
    /* the time profile's focus/ignore (NULL: every stack); the time
     * windows and the capability of every view are the driver's selection
     * (ev_driver_opts.select) */
    const prof_filter *samples;
    /* -hi bands no IPE entry names: the executable's symbols (heap.h) */
    heap_exe_opts exe;
} html_opts;

EVPROF_API void html_opts_init(html_opts *o);

typedef struct html_page html_page;

/* NULL o: the defaults. NULL when out of memory. */
EVPROF_API html_page *html_page_create(const html_opts *o);
EVPROF_API void html_page_destroy(html_page *pg);      /* accepts NULL */

/* Attaches the page's analyses to a driver that has not run yet. Returns
 * 0, or -1 when the driver refuses them (too many analyses, or running). */
EVPROF_API int html_page_attach(html_page *pg, ev_driver *d);

/* What the page found, after the read (for the CLI's messages). */
typedef struct html_contents {
    int prof, heap, gc, ticky;      /* the log holds data for that view */
    uint32_t nodes_sent, nodes_all; /* cost-centre-stack nodes: sent / in the tree */
    int graph_failed;               /* the call graph could not be drawn */
    /* the timeline: lane bins and their width, the profile's bins in the
     * page, their width, the (bin, node) cells sent, and "ok" or why a
     * range of the page has no profile */
    uint32_t tl_bins, tl_prof_bins;
    uint64_t tl_bin_ns, tl_prof_bin_ns;
    size_t tl_cells;
    const char *tl_prof_status;
} html_contents;

/* Writes the page for the stream `s` (the driver's, after its run).
 * Returns EV_OK, EV_ERR_NOMEM or EV_ERR_WRITE (writing to `out` failed:
 * ferror(out) says so too), with `err` (may be NULL) saying why. `c` (may be NULL) receives what the page holds. */
EVPROF_API ev_status html_page_write(html_page *pg, const ev_stream *s, FILE *out,
                                     html_contents *c, ev_error *err);

#ifdef __cplusplus
}
#endif
#endif
