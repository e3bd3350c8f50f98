/* evprof: the export macro of the public headers.
 *
 * The libraries are built with -fvisibility=hidden: only what a public
 * header declares with EVPROF_API is exported from libevprof.so,
 * libevprof-graph.so and libevprof-export.so (tests/cli/symbols.sh checks
 * that `nm -D` lists exactly the headers' declarations). Every function
 * and variable declared in include/evprof/ carries it; for a program that
 * includes the headers it changes nothing. */
#ifndef EVPROF_EXPORT_H
#define EVPROF_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define EVPROF_API __attribute__((visibility("default")))
#else
#define EVPROF_API
#endif

#endif
