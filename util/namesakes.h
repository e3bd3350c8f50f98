/* Namesakes: cost centres of one module and label at different source
 * locations. GHC gives every SCC its own cost centre, and several can
 * share a name: -fprof-auto names two pattern bindings `f.(...)` of one
 * function alike, and each lambda of `main` `main.\`; -fprof-auto-calls
 * names every call site of `f` `f`. The views that print a cost centre by
 * its name add the source location to a namesake's (docs/PROF.md,
 * "Namesakes"), so that no two of them read the same. Private to
 * libevprof; other libraries ask prof_namesakes (prof.h). */
#ifndef EVPROF_UTIL_NAMESAKES_H
#define EVPROF_UTIL_NAMESAKES_H

#include <stddef.h>
#include <stdint.h>

/* The label (which 0), module (1) or source location (2) of item i. */
typedef const char *(*tx_cc_field_fn)(const void *items, size_t i, int which);

/* For each item i that `want` marks (want NULL: every item), out[i] = 1
 * when some item of all n shares its module and label at another source
 * location, else 0; out[i] = 0 for the items not wanted. Items equal in
 * all three are one cost centre as far as any view can tell: not
 * namesakes. NULL strings count as "". Memory in proportion to the items
 * wanted (a log may define millions of cost centres and sample a few),
 * time to all n. Returns the namesakes marked, or -1 without memory (out
 * then all 0). */
long tx_namesakes(const void *items, size_t n, tx_cc_field_fn field, const uint8_t *want,
                  uint8_t *out);

#endif
