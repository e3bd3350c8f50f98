/* evprof: an output format is a row in the table of the module that
 * writes it (STYLE 27, babeltrace2's component classes declaring their
 * ports): its name, the extensions of its files, and its writer. The
 * commands find a format in the module's table by name or by a file's
 * extension (ev_format_find, ev_format_for_path: the one parser of format
 * names), so a new format is a writer and a row, never a name in a
 * command, an enum and an extension parser.
 *
 *     size_t n;
 *     const ev_format *t = cg_formats(&n);             // the module's table
 *     const ev_format *f = ev_format_find(t, n, "json");
 *     if (f && f->write(g, &wo, out, &err) != EV_OK) ...
 *
 * What `snapshot` and `opts` point to is the module's: its header says
 * (graph.h: a cg_graph and a cg_write_opts).
 */
#ifndef EVPROF_FORMAT_H
#define EVPROF_FORMAT_H

#include <stddef.h>
#include <stdio.h>

#include "evprof/export.h"
#include "evprof/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes `snapshot` with `opts` (NULL: the defaults) to `out`. EV_OK, or
 * an error with `err` saying why (NULL: no detail); EV_ERR_WRITE when
 * writing `out` failed. */
typedef ev_status (*ev_format_writer)(const void *snapshot, const void *opts, FILE *out,
                                      ev_error *err);

enum {
    EV_FORMAT_BINARY = 1u << 0,     /* bytes for a program, not a terminal (PNG, PDF) */
};

typedef struct ev_format {
    const char *name;           /* --format NAME (lower case); NULL: an unused row */
    const char *exts;           /* its files' extensions, blank-separated, longest
                                   match wins (".dot .gv", ".ticky.csv"); NULL: none */
    ev_format_writer write;     /* NULL: the command writes it (a format of the
                                   command's own, not yet a module's) */
    unsigned flags;             /* EV_FORMAT_* */
} ev_format;

/* The format of `list` (`count` rows) named `name`: its name or one of its
 * extensions without the dot, any case ("SVG", "gv"). NULL: none. */
EVPROF_API const ev_format *ev_format_find(const ev_format *list, size_t count,
                                           const char *name);
/* The format whose extension ends the file name of `path` (any case; the
 * longest extension that matches; a directory's name is not looked at).
 * NULL: none. */
EVPROF_API const ev_format *ev_format_for_path(const ev_format *list, size_t count,
                                               const char *path);

#ifdef __cplusplus
}
#endif
#endif
