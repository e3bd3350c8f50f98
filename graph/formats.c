/* The call graph's formats: the table the commands read (cg_formats,
 * evprof/format.h), and cg_write, which writes by a row's name. Graphviz's
 * formats are render.c's; a format that needs no layout (a listing of the
 * nodes and edges for tools) is a writer here and a row in the table. */
#include <stdio.h>

#include "evprof/format.h"
#include "graph/internal.h"
#include "util/error.h"

static ev_status write_svg(const void *g, const void *o, FILE *out, ev_error *err)
{
    return cg_render(g, o, "svg", out, err);
}

static ev_status write_png(const void *g, const void *o, FILE *out, ev_error *err)
{
    return cg_render(g, o, "png", out, err);
}

static ev_status write_pdf(const void *g, const void *o, FILE *out, ev_error *err)
{
    return cg_render(g, o, "pdf", out, err);
}

static ev_status write_dot(const void *g, const void *o, FILE *out, ev_error *err)
{
    return cg_render(g, o, NULL, out, err);
}

static const ev_format formats[] = {
    { "svg", ".svg", write_svg, 0 },
    { "png", ".png", write_png, EV_FORMAT_BINARY },
    { "pdf", ".pdf", write_pdf, EV_FORMAT_BINARY },
    { "dot", ".dot .gv", write_dot, 0 },
};

const ev_format *cg_formats(size_t *count)
{
    *count = sizeof formats / sizeof formats[0];
    return formats;
}

ev_status cg_write(const cg_graph *g, const cg_write_opts *o, const char *format, FILE *out,
                   ev_error *err)
{
    ev_error_clear(err);
    size_t n;
    const ev_format *t = cg_formats(&n);
    const ev_format *f = ev_format_find(t, n, format);
    if (!f)
        return ev_error_set(err, EV_ERR_USAGE, "no graph format '%s'", format ? format : "");
    return f->write(g, o, out, err);
}
