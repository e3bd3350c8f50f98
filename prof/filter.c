/* Which samples count: everything of the filter but the selection (the
 * time windows and the capability are the driver's selection stage:
 * el_event.outside). */
#include "prof/internal.h"

void prof_filter_init(prof_filter *f)
{
    f->all = 0;
    f->focus = NULL;
    f->ignore = NULL;
    f->max_depth = 0;
}
