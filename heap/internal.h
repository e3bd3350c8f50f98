/* heap/: what the writers share with the profile (not public). */
#ifndef EVPROF_HEAP_INTERNAL_H
#define EVPROF_HEAP_INTERNAL_H

#include <stdint.h>
#include <stdio.h>

#include "evprof/heap.h"

/* Window of the profile: the .hp's opening and closing empty samples. */
uint64_t heap_window_from(const heap_profile *h);
uint64_t heap_window_to(const heap_profile *h);

#endif
