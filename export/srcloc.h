/* GHC's SRC field of a cost centre (event 161) split into file, line and
 * column, for the exporters. Private to export/. */
#ifndef EVPROF_EXPORT_SRCLOC_H
#define EVPROF_EXPORT_SRCLOC_H

#include <stddef.h>
#include <stdint.h>

typedef struct ex_srcloc {
    const char *file;       /* points into the SRC text; not NUL-terminated */
    size_t file_len;        /* 0: no file (<built-in>, <entire-module>, ...) */
    uint32_t line;          /* 0: unknown */
    uint32_t col;           /* 0: unknown */
} ex_srcloc;

/* Accepts GHC's span forms "F:L:C", "F:L:C-C2" and "F:(L,C)-(L2,C2)"; a
 * file name may itself hold ':'. Anything else (e.g. "<built-in>") gives
 * file_len 0. Returns 1 when a file and line were found, else 0. */
int export_srcloc_parse(const char *src, ex_srcloc *out);

/* "Module.label" of a cost centre into buf (NUL-terminated when size > 0),
 * a namesake's "Module.label (SRC)" (prof_namesakes: two frames of one
 * name would be one function in pprof's views, which go by name);
 * returns the full length as snprintf does. */
struct prof_cc;
size_t export_frame_name(const struct prof_cc *cc, int namesake, char *buf, size_t size);

#endif
