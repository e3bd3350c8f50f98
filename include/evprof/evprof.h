/* evprof: the umbrella header of libevprof (pkg-config evprof,
 * find_package(evprof): evprof::evprof). One include for every public
 * header of the core library:
 *
 *     #include <evprof/evprof.h>
 *
 * Not included: the headers of the two libraries that have dependencies
 * of their own, so that a program using only the core needs none of them:
 *   <evprof/graph.h>       call graphs: libevprof-graph (pkg-config
 *   <evprof/diff.h>        evprof-graph, CMake evprof::graph), Graphviz;
 *   <evprof/html.h>        the diff and the HTML page draw graphs, so they
 *                          are in that library too
 *   <evprof/speedscope.h>  exporters: libevprof-export (pkg-config
 *   <evprof/pprof.h>       evprof-export, CMake evprof::export), protobuf-c,
 *                          zlib, libcurl
 * Include them yourself when you link those libraries.
 *
 * tests/cli/install.sh checks that every other header of include/evprof/
 * is listed here.
 */
#ifndef EVPROF_EVPROF_H
#define EVPROF_EVPROF_H

#include "evprof/version.h"     /* EVPROF_VERSION_STRING, ... */
#include "evprof/export.h"      /* EVPROF_API: what the libraries export */
#include "evprof/status.h"      /* ev_status, ev_status_name, ev_error: every status */

#include "evprof/eventlog.h"    /* the reader: decoder, sources, el_read_* */
#include "evprof/show.h"        /* events as `ghc-events show` prints them */
#include "evprof/writer.h"      /* writing eventlogs */
#include "evprof/budget.h"      /* the memory budget analyses charge (--memory-limit) */
#include "evprof/select.h"      /* time windows and a capability (--from, --between, --cap) */
#include "evprof/pattern.h"     /* the matcher of patterns (--focus, --ignore, --marker) */
#include "evprof/driver.h"      /* one read feeding every attached analysis */
#include "evprof/prof.h"        /* the time profile (+RTS -p) */
#include "evprof/heap.h"        /* heap profiles (+RTS -h*) */
#include "evprof/gc.h"          /* the +RTS -s GC summary */
#include "evprof/sched.h"       /* capabilities' and threads' states (evprof threads) */
#include "evprof/ticky.h"       /* ticky-ticky counters */
#include "evprof/info.h"        /* what a log holds (evprof info) */
#include "evprof/live.h"        /* live views: per-interval figures (evprof top) */
#include "evprof/metrics.h"     /* Prometheus exposition and its endpoint (top --metrics) */
#include "evprof/markers.h"     /* traceMarker marks (--from marker:LABEL) */
#include "evprof/phases.h"      /* the run cut into phases at its marks */
#include "evprof/dump.h"        /* the whole log as `ghc-events show` prints it (evprof dump) */
#include "evprof/merge.h"       /* one eventlog from several (evprof merge) */
#include "evprof/textout.h"     /* text output helpers of the writers */
#include "evprof/json.h"        /* the one JSON writer of every JSON output */
#include "evprof/format.h"      /* output formats as data: ev_format tables of the modules */

#endif
