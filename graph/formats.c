/* The call graph's formats: the table the commands read (cg_formats,
 * evprof/format.h), and cg_write, which writes by a row's name. Graphviz's
 * formats are render.c's; a format that needs no layout (a listing of the
 * nodes and edges for tools) is a writer here and a row in the table. */
#include <stdio.h>

#include "evprof/format.h"
#include "evprof/json.h"
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

/* The share of `ticks` in the ticks shown (after --focus/--ignore), 0
 * when none is shown. */
static double share(uint64_t ticks, const cg_summary *sm)
{
    return sm->shown_ticks ? (double)ticks / (double)sm->shown_ticks : 0.0;
}

/* The graph drawn, as JSON for tools: its figures, the nodes (id = index,
 * in cg_node_at's order) and the edges caller -> callee by id. Marks and
 * the legend's text are the drawings'. */
static ev_status write_json(const void *graph, const void *opts, FILE *out, ev_error *err)
{
    const cg_graph *g = graph;
    const cg_write_opts *o = opts;
    const cg_summary *sm = cg_get_summary(g);
    tx_json j;
    tx_json_init(&j, out, 2, 0);
    tx_json_object(&j, TX_JSON_BLOCK);
    tx_json_key(&j, "source");
    tx_json_cstr(&j, o ? o->source_name : NULL);
    tx_json_key(&j, "filters");
    tx_json_cstr(&j, o ? o->filters : NULL);
    tx_json_key(&j, "total_ticks");     /* the profile's, as the report's */
    tx_json_uint(&j, sm->profile_ticks);
    tx_json_key(&j, "shown_ticks");     /* after --focus/--ignore: the base of shares */
    tx_json_uint(&j, sm->shown_ticks);
    tx_json_key(&j, "node_ticks");      /* individual ticks of the nodes listed */
    tx_json_uint(&j, sm->node_ticks);
    tx_json_key(&j, "hidden_nodes");
    tx_json_uint(&j, (uint64_t)sm->dropped_nodes_fraction + sm->dropped_nodes_max);
    tx_json_key(&j, "hidden_edges");
    tx_json_uint(&j, (uint64_t)sm->dropped_edges + sm->dropped_edges_redundant +
                         sm->dropped_edges_max);
    tx_json_key(&j, "nodes");
    tx_json_array(&j, TX_JSON_BLOCK);
    for (size_t i = 0; i < cg_num_nodes(g); i++) {
        const cg_node *n = cg_node_at(g, i);
        tx_json_object(&j, TX_JSON_INLINE);
        tx_json_key(&j, "id");
        tx_json_uint(&j, i);
        tx_json_key(&j, "label");
        tx_json_cstr(&j, n->label);
        tx_json_key(&j, "module");
        tx_json_cstr(&j, n->module);
        tx_json_key(&j, "src");
        tx_json_cstr(&j, n->srcloc);
        tx_json_key(&j, "individual_ticks");
        tx_json_uint(&j, n->self);
        tx_json_key(&j, "inherited_ticks");
        tx_json_uint(&j, n->cum);
        tx_json_key(&j, "individual_share");
        tx_json_double(&j, share(n->self, sm), 6);
        tx_json_key(&j, "inherited_share");
        tx_json_double(&j, share(n->cum, sm), 6);
        tx_json_end(&j);
    }
    tx_json_end(&j);
    tx_json_key(&j, "edges");
    tx_json_array(&j, TX_JSON_BLOCK);
    for (size_t i = 0; i < cg_num_edges(g); i++) {
        const cg_edge *e = cg_edge_at(g, i);
        tx_json_object(&j, TX_JSON_INLINE);
        tx_json_key(&j, "caller");
        tx_json_uint(&j, e->from);
        tx_json_key(&j, "callee");
        tx_json_uint(&j, e->to);
        tx_json_key(&j, "ticks");
        tx_json_uint(&j, e->ticks);
        tx_json_key(&j, "share");
        tx_json_double(&j, share(e->ticks, sm), 6);
        tx_json_key(&j, "through_hidden");  /* the drawings' dotted edge */
        tx_json_bool(&j, e->residual);
        tx_json_end(&j);
    }
    tx_json_end(&j);
    tx_json_end(&j);
    tx_json_space(&j, "\n");
    if (tx_json_finish(&j) != 0)
        return ev_error_set(err, EV_ERR_WRITE, "cannot write the graph's JSON");
    return EV_OK;
}

static const ev_format formats[] = {
    { "svg", ".svg", write_svg, 0 },
    { "png", ".png", write_png, EV_FORMAT_BINARY },
    { "pdf", ".pdf", write_pdf, EV_FORMAT_BINARY },
    { "dot", ".dot .gv", write_dot, 0 },
    { "json", ".json", write_json, 0 },
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
