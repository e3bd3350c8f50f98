/* evprof: the umbrella header of libevprof (pkg-config evprof,
 * find_package(evprof): evprof::evprof). One include for every public
 * header of the core library:
 *
 *     #include <evprof/evprof.h>
 *
 * Not included: <evprof/graph.h>, the call graphs. It belongs to the
 * separate library libevprof-graph (pkg-config evprof-graph, evprof::graph),
 * which links Graphviz; a program that does not draw graphs does not need
 * Graphviz, so include graph.h yourself when you link evprof-graph.
 *
 * tests/cli/install.sh checks that every other header of include/evprof/
 * is listed here.
 */
#ifndef EVPROF_EVPROF_H
#define EVPROF_EVPROF_H

#include "evprof/version.h"     /* EVPROF_VERSION_STRING, ... */

#include "evprof/eventlog.h"    /* the reader: decoder, sources, el_read_* */
#include "evprof/show.h"        /* events as `ghc-events show` prints them */
#include "evprof/writer.h"      /* writing eventlogs */
#include "evprof/driver.h"      /* one read feeding every attached analysis */
#include "evprof/prof.h"        /* the time profile (+RTS -p) */
#include "evprof/heap.h"        /* heap profiles (+RTS -h*) */
#include "evprof/gc.h"          /* the +RTS -s GC summary */
#include "evprof/ticky.h"       /* ticky-ticky counters */
#include "evprof/textout.h"     /* text output helpers of the writers */

#endif
