/* Drawing a cg_graph with Graphviz: libcgraph builds the graph with
 * pprof's styling, libgvc lays it out with dot and renders it into memory
 * (gvRenderData), and the bytes go to the caller's FILE, so that -o can
 * publish them atomically. DOT is written by agwrite, before layout; the
 * other formats lay out that DOT text read back (as_read_back).
 *
 * Styling (docs/FLAMEGRAPH.md): a box per cost centre labelled
 * "label\nModule\nself (self%)\nof cum (cum%)", font size 8 + ceil(16
 * sqrt(self / largest self)), border and fill from grey to red by cum
 * share; edges labelled with their ticks, penwidth 1 + 5 share, weight
 * 1 + 100 share, coloured likewise, dotted when some of their calls pass
 * through hidden nodes; a legend box. Shares are of the shown ticks.
 *
 * Graphviz reports errors through a process-wide hook; while rendering,
 * errors are kept (agseterr(AGMAX)) and the last one is copied into `err`.
 *
 * One Graphviz context serves the whole process, made on first use and
 * never freed: Graphviz 2.43's pango plugin keeps a static pointer to the
 * last font name, which belongs to the context, so rendering after
 * freeing one context and making another reads freed memory (AddressSanitizer
 * shows it in test_graph). Not thread-safe, as Graphviz is not.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gvc.h>

#include "evprof/textout.h"
#include "graph/internal.h"
#include "util/error.h"

void cg_write_opts_init(cg_write_opts *o)
{
    o->source_name = NULL;
    o->filters = NULL;
    o->node_marks = NULL;
    o->edge_marks = NULL;
}

/* ---- text ------------------------------------------------------------- */

typedef struct strbuf {
    char *s;
    size_t len, cap;
    int failed;
} strbuf;

static void sb_reserve(strbuf *b, size_t more)
{
    if (b->failed || b->len + more + 1 <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + more + 1)
        cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) {
        b->failed = 1;
        return;
    }
    b->s = s;
    b->cap = cap;
}

static void sb_putc(strbuf *b, char c)
{
    sb_reserve(b, 1);
    if (b->failed)
        return;
    b->s[b->len++] = c;
    b->s[b->len] = '\0';
}

static void sb_puts(strbuf *b, const char *s)
{
    size_t n = strlen(s);
    sb_reserve(b, n);
    if (b->failed)
        return;
    memcpy(b->s + b->len, s, n + 1);
    b->len += n;
}

__attribute__((format(printf, 2, 3)))
static void sb_printf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = 1;
        return;
    }
    sb_reserve(b, (size_t)n);
    if (b->failed)
        return;
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* Appends a name from the log (a label, module, file name, argument) to
 * Graphviz text, shown visibly whatever its bytes:
 * - bytes that are not UTF-8 as U+FFFD;
 * - control characters as \n, \r, \t or \xHH, and the C1 controls and the
 *   non-characters U+FFFE and U+FFFF (which XML forbids) as \u0085 etc.,
 *   so that the SVG stays XML and the picture shows them;
 * - with ESC_BACKSLASH, for an "escString" (labels, tooltips, where
 *   backslash sequences mean line breaks and substitutions): every
 *   backslash doubled, those of the visible escapes too, so that a
 *   backslash is drawn as one;
 * - with ESC_ENTITY (labels, tooltips, the graph's name) '&' as "&amp;":
 *   Graphviz decodes entities in labels and tooltips, and its SVG writer
 *   passes text that looks like an entity ("&foo;", "&#1;") through raw,
 *   which would make the SVG invalid; "&amp;" is drawn as '&'.
 * Quotes and '<' are left to agwrite and the SVG writer, which escape them.
 * (util/textout.c is to get a shared visible escape for text outputs; this
 * is the graph's own until the two are unified.)
 *
 * A name longer than `max` code points (0: no limit) is shortened: its
 * first three quarters and its last quarter around a "…". A label is
 * drawn in a box: one of 60 000 characters made a box so wide that dot's
 * edges passed its limit (65 535 points) and the layout failed; and
 * Graphviz's DOT reader (`dot FILE`) takes quoted strings of at most
 * 16 384 bytes. So drawn text is cut at DRAW_MAX_CP, tooltips and the
 * machine-readable evprof_name at TIP_MAX_CP a name (a whole edge tooltip,
 * four names escaped at worst 6 bytes a code point, stays below 16 384). */
enum { ESC_BACKSLASH = 1, ESC_ENTITY = 2 };
#define DRAW_MAX_CP 120
#define TIP_MAX_CP 600
#define ELLIPSIS "\xe2\x80\xa6"     /* U+2026 */

/* the escape of s[0..len) */
static void sb_esc_range(strbuf *b, const unsigned char *u, const unsigned char *end, int how)
{
    const char *bs = how & ESC_BACKSLASH ? "\\\\" : "\\";
    while (u < end) {
        uint32_t cp;
        size_t left = (size_t)(end - u);
        size_t n = tx_utf8_next(u, left < 4 ? left : 4, &cp);
        if (n == 0)
            sb_puts(b, "\xef\xbf\xbd");         /* U+FFFD */
        else if (n > 1 && ((cp >= 0x80 && cp <= 0x9f) || cp == 0xfffe || cp == 0xffff))
            sb_printf(b, "%su%04x", bs, (unsigned)cp);
        else if (n > 1)
            for (size_t i = 0; i < n; i++)
                sb_putc(b, (char)u[i]);
        else if (*u == '\\')
            sb_puts(b, bs);
        else if (*u == '\n' || *u == '\r' || *u == '\t')
            sb_printf(b, "%s%c", bs, *u == '\n' ? 'n' : *u == '\r' ? 'r' : 't');
        else if (*u < 0x20 || *u == 0x7f)
            sb_printf(b, "%sx%02x", bs, (unsigned)*u);
        else if (*u == '&' && (how & ESC_ENTITY))
            sb_puts(b, "&amp;");
        else
            sb_putc(b, (char)*u);
        u += n ? n : 1;
    }
}

/* the start of the unit (a UTF-8 sequence, or a byte) after u */
static const unsigned char *next_unit(const unsigned char *u, const unsigned char *end)
{
    size_t left = (size_t)(end - u);
    size_t n = tx_utf8_next(u, left < 4 ? left : 4, NULL);
    return u + (n ? n : 1);
}

static void sb_esc_as(strbuf *b, const char *s, int how, size_t max)
{
    const unsigned char *u = (const unsigned char *)s, *end = u + strlen(s), *p = u;
    size_t units = 0;
    for (; p < end && (!max || units <= max); p = next_unit(p, end))
        units++;
    if (!max || units <= max) {
        sb_esc_range(b, u, end, how);
        return;
    }
    for (; p < end; p = next_unit(p, end))     /* the whole count */
        units++;
    size_t tail = max / 4, head = max - tail - 1;
    const unsigned char *cut = u, *back = u;
    for (size_t i = 0; i < head; i++)
        cut = next_unit(cut, end);
    for (size_t i = 0; i < units - tail; i++)
        back = next_unit(back, end);
    sb_esc_range(b, u, cut, how);
    sb_puts(b, ELLIPSIS);
    sb_esc_range(b, back, end, how);
}

/* For labels and tooltips. */
static void sb_esc(strbuf *b, const char *s, size_t max)
{
    sb_esc_as(b, s, ESC_BACKSLASH | ESC_ENTITY, max);
}

/* ---- colours ---------------------------------------------------------- */

/* From grey (no share) to red (all of it). Small shares are lifted
 * (share^0.3) so that the middle of the range is used, but below 20% the
 * colour fades back to grey, so that the many small nodes stay quiet. */
static void share_colour(double share, int fill, char out[8])
{
    static const double grey_fg[3] = { 0.62, 0.62, 0.62 }, red_fg[3] = { 0.72, 0.04, 0.0 };
    static const double grey_bg[3] = { 0.97, 0.97, 0.97 }, red_bg[3] = { 1.0, 0.84, 0.80 };
    const double *from = fill ? grey_bg : grey_fg, *to = fill ? red_bg : red_fg;

    if (!(share > 0))
        share = 0;
    if (share > 1)
        share = 1;
    double k = pow(share, 0.3);
    if (share < 0.2)
        k *= share / 0.2;
    int rgb[3];
    for (int i = 0; i < 3; i++)
        rgb[i] = (int)lround(255.0 * (from[i] + k * (to[i] - from[i])));
    snprintf(out, 8, "#%02x%02x%02x", rgb[0] & 0xff, rgb[1] & 0xff, rgb[2] & 0xff);
}

static double share_of(uint64_t v, uint64_t total)
{
    return total ? (double)v / (double)total : 0.0;
}

/* ---- the Graphviz graph ----------------------------------------------- */

static int set(void *obj, const char *name, const char *value)
{
    return agsafeset(obj, (char *)name, (char *)value, "") == 0 ? 0 : -1;
}

/* "Module.label": for tooltips (`entity`), or for the evprof_name
 * attribute, which Graphviz does not read (no entities there, backslashes
 * doubled as in the labels); with `src` "Module.label (SRC)", as the
 * folded frame of a namesake names it. */
static void node_name(strbuf *b, const cg_node *n, int entity, int src)
{
    int how = ESC_BACKSLASH | (entity ? ESC_ENTITY : 0);
    b->len = 0;
    sb_puts(b, "");
    sb_esc_as(b, n->module, how, TIP_MAX_CP);
    sb_putc(b, '.');
    sb_esc_as(b, n->label, how, TIP_MAX_CP);
    if (src) {
        sb_puts(b, " (");
        sb_esc_as(b, n->srcloc, how, TIP_MAX_CP);
        sb_putc(b, ')');
    }
}

static int add_legend(Agraph_t *ag, const cg_graph *g, const cg_write_opts *o, strbuf *t)
{
    const prof_info *in = prof_get_info(g->p);
    const cg_summary *s = &g->sum;
    t->len = 0;
    sb_puts(t, "");
    if (o->source_name) {
        sb_puts(t, "File: ");
        sb_esc(t, o->source_name, DRAW_MAX_CP);
        sb_puts(t, "\\l");
    }
    if (in->argc) {
        sb_puts(t, "Program:");
        for (uint32_t i = 0; i < in->argc; i++) {
            sb_putc(t, ' ');
            sb_esc(t, i == 0 ? in->program : in->argv[i], DRAW_MAX_CP);
        }
        sb_puts(t, "\\l");
    }
    sb_printf(t, "Type: time, %llu ticks", (unsigned long long)s->profile_ticks);
    if (in->interval_ns)
        sb_printf(t, " @ %llu us", (unsigned long long)(in->interval_ns / 1000));
    sb_printf(t, ", %u processor%s\\l", in->capabilities, in->capabilities == 1 ? "" : "s");
    if (o->filters) {
        sb_esc(t, o->filters, DRAW_MAX_CP);
        sb_puts(t, "\\l");
    }
    if (g->focus) {
        sb_puts(t, "Focus: ");
        sb_esc(t, g->focus, DRAW_MAX_CP);
        sb_puts(t, "\\l");
    }
    if (g->ignore) {
        sb_puts(t, "Ignore: ");
        sb_esc(t, g->ignore, DRAW_MAX_CP);
        sb_puts(t, "\\l");
    }
    if (g->focus || g->ignore)
        sb_printf(t, "Stacks kept: %llu of %llu ticks (%.2f%%)\\l",
                  (unsigned long long)s->shown_ticks, (unsigned long long)s->profile_ticks,
                  100.0 * share_of(s->shown_ticks, s->profile_ticks));
    sb_printf(t, "Showing nodes accounting for %llu ticks, %.2f%% of %llu\\l",
              (unsigned long long)s->node_ticks, 100.0 * share_of(s->node_ticks, s->shown_ticks),
              (unsigned long long)s->shown_ticks);
    if (s->dropped_nodes_fraction)
        sb_printf(t, "Dropped %u nodes (cum < %.4g ticks)\\l", s->dropped_nodes_fraction,
                  s->node_cutoff);
    if (s->dropped_nodes_max)
        sb_printf(t, "Showing top %zu nodes out of %u\\l", g->num_nodes,
                  s->all_nodes - s->dropped_nodes_fraction);
    if (s->dropped_edges)
        sb_printf(t, "Dropped %u edges (ticks < %.4g)\\l", s->dropped_edges, s->edge_cutoff);
    if (s->dropped_edges_max)
        sb_printf(t, "Showing top %zu edges out of %zu\\l", g->num_edges,
                  g->num_edges + s->dropped_edges_max);
    if (s->dropped_edges_redundant)
        sb_printf(t, "Dropped %u dotted edges that drawn paths imply\\l",
                  s->dropped_edges_redundant);
    for (size_t i = 0; i < g->num_edges; i++)
        if (g->edges[i].residual) {
            sb_puts(t, "Dotted edges pass through hidden nodes\\l");
            break;
        }
    if (t->failed)
        return -1;

    Agraph_t *cl = agsubg(ag, "cluster_L", 1);
    Agnode_t *n = cl ? agnode(cl, "legend", 1) : NULL;
    if (!n || set(cl, "peripheries", "0") != 0)
        return -1;
    return set(n, "shape", "box") | set(n, "fontsize", "16") | set(n, "label", t->s) |
           set(n, "tooltip", "evprof graph: legend") | set(n, "fillcolor", "#ffffff");
}

static int add_nodes(Agraph_t *ag, const cg_graph *g, const cg_write_opts *o, Agnode_t **an,
                     strbuf *t, strbuf *nm)
{
    const cg_summary *s = &g->sum;
    char id[32], num[32], colour[8];

    for (size_t i = 0; i < g->num_nodes; i++) {
        const cg_node *n = &g->nodes[i];
        snprintf(id, sizeof id, "N%zu", i + 1);
        if (!(an[i] = agnode(ag, id, 1)))
            return -1;
        int rc = 0;
        t->len = 0;
        sb_puts(t, "");
        sb_esc(t, n->label, DRAW_MAX_CP);
        sb_puts(t, "\\n");
        sb_esc(t, n->module, DRAW_MAX_CP);
        if (n->namesake) {      /* which of the label's places */
            sb_puts(t, "\\n");
            sb_esc(t, n->srcloc, DRAW_MAX_CP);
        }
        sb_printf(t, "\\n%llu (%.2f%%)\\nof %llu (%.2f%%)", (unsigned long long)n->self,
                  100.0 * share_of(n->self, s->shown_ticks), (unsigned long long)n->cum,
                  100.0 * share_of(n->cum, s->shown_ticks));
        const cg_mark *mk = o->node_marks ? &o->node_marks[i] : NULL;
        if (mk && mk->note) {
            sb_puts(t, "\\n");
            sb_esc(t, mk->note, DRAW_MAX_CP);
        }
        rc |= t->failed ? -1 : set(an[i], "label", t->s);

        node_name(nm, n, 1, 1);
        t->len = 0;
        sb_puts(t, nm->s ? nm->s : "");
        sb_printf(t, ": %llu of %llu ticks", (unsigned long long)n->self,
                  (unsigned long long)n->cum);
        rc |= t->failed || nm->failed ? -1 : set(an[i], "tooltip", t->s);

        double r = s->max_self ? sqrt((double)n->self / (double)s->max_self) : 0.0;
        snprintf(num, sizeof num, "%d", 8 + (int)ceil(16.0 * r));
        rc |= set(an[i], "fontsize", num);
        share_colour(share_of(n->cum, s->shown_ticks), 0, colour);
        rc |= set(an[i], "color", colour);
        share_colour(share_of(n->cum, s->shown_ticks), 1, colour);
        rc |= set(an[i], "fillcolor", colour);
        if (mk && mk->color)
            rc |= set(an[i], "color", mk->color);
        if (mk && mk->fillcolor)
            rc |= set(an[i], "fillcolor", mk->fillcolor);
        /* machine-readable numbers (Graphviz ignores unknown attributes) */
        snprintf(num, sizeof num, "%llu", (unsigned long long)n->self);
        rc |= set(an[i], "evprof_self", num);
        snprintf(num, sizeof num, "%llu", (unsigned long long)n->cum);
        rc |= set(an[i], "evprof_cum", num);
        node_name(nm, n, 0, n->namesake);
        rc |= nm->failed ? -1 : set(an[i], "evprof_name", nm->s ? nm->s : "");
        if (rc)
            return -1;
    }
    return 0;
}

static int add_edges(Agraph_t *ag, const cg_graph *g, const cg_write_opts *o, Agnode_t **an,
                     strbuf *t, strbuf *nm)
{
    const cg_summary *s = &g->sum;
    char num[32], colour[8];

    for (size_t i = 0; i < g->num_edges; i++) {
        const cg_edge *e = &g->edges[i];
        Agedge_t *ae = agedge(ag, an[e->from], an[e->to], NULL, 1);
        if (!ae)
            return -1;
        double share = share_of(e->ticks, s->shown_ticks);
        int rc = 0;
        const cg_mark *mk = o->edge_marks ? &o->edge_marks[i] : NULL;
        t->len = 0;
        sb_printf(t, " %llu", (unsigned long long)e->ticks);
        if (mk && mk->note) {
            sb_puts(t, "\\n ");
            sb_esc(t, mk->note, DRAW_MAX_CP);
        }
        rc |= t->failed ? -1 : set(ae, "label", t->s);
        snprintf(num, sizeof num, "%d", 1 + (int)fmin(100.0, 100.0 * share));
        rc |= set(ae, "weight", num);
        snprintf(num, sizeof num, "%.3f", 1.0 + fmin(5.0, 5.0 * share));
        rc |= set(ae, "penwidth", num);
        share_colour(share, 0, colour);
        rc |= set(ae, "color", mk && mk->color ? mk->color : colour);
        if (e->residual)
            rc |= set(ae, "style", "dotted");

        t->len = 0;
        sb_puts(t, "");
        node_name(nm, &g->nodes[e->from], 1, g->nodes[e->from].namesake);
        sb_puts(t, nm->s ? nm->s : "");
        sb_puts(t, e->residual ? " -> ... -> " : " -> ");
        node_name(nm, &g->nodes[e->to], 1, g->nodes[e->to].namesake);
        sb_puts(t, nm->s ? nm->s : "");
        sb_printf(t, " (%llu ticks)", (unsigned long long)e->ticks);
        rc |= t->failed || nm->failed ? -1 : set(ae, "tooltip", t->s);
        snprintf(num, sizeof num, "%llu", (unsigned long long)e->ticks);
        rc |= set(ae, "evprof_ticks", num);
        if (rc)
            return -1;
    }
    return 0;
}

static Agraph_t *build_agraph(const cg_graph *g, const cg_write_opts *o)
{
    const prof_info *in = prof_get_info(g->p);
    strbuf t = { 0 }, nm = { 0 };
    Agnode_t **an = NULL;

    /* the graph's name (the SVG's <title>): the program, shown visibly */
    sb_puts(&t, "");
    sb_esc_as(&t, in->program && *in->program ? in->program : "evprof", ESC_ENTITY,
              DRAW_MAX_CP);
    Agraph_t *ag = t.failed ? NULL : agopen(t.s, Agdirected, NULL);
    if (!ag) {
        free(t.s);
        return NULL;
    }
    int rc = agattr(ag, AGNODE, "shape", "box") && agattr(ag, AGNODE, "style", "filled") &&
             agattr(ag, AGNODE, "fillcolor", "#f8f8f8") ? 0 : -1;
    an = malloc((g->num_nodes ? g->num_nodes : 1) * sizeof *an);
    if (rc || !an || add_legend(ag, g, o, &t) != 0 || add_nodes(ag, g, o, an, &t, &nm) != 0 ||
        add_edges(ag, g, o, an, &t, &nm) != 0) {
        agclose(ag);
        ag = NULL;
    }
    free(an);
    free(t.s);
    free(nm.s);
    return ag;
}

/* ---- rendering -------------------------------------------------------- */

static GVC_t *the_context(void)
{
    static GVC_t *gvc;
    if (!gvc)
        gvc = gvContext();
    return gvc;
}

/* The graph as Graphviz reads it back from the DOT text agwrite makes
 * of it (ag is closed). dot's layout depends on the order nodes and
 * edges were made: agwrite declares each node before the edges that
 * need it and groups the edges by their tail, so a graph read from that
 * text has another order than the one built here. Laying out the read
 * graph makes the picture exactly what `dot -Tsvg` draws from
 * `evprof graph -f dot`, whichever way a user renders it; it is also the
 * faster order here (bench synth1g: 0.47 s instead of 0.93 s, a drawing
 * 3899 pt high instead of 4541). The round trip costs a few
 * milliseconds. NULL with *unread 0 when out of memory, 1 when Graphviz
 * did not read its own text back (its message is kept). */
static Agraph_t *as_read_back(Agraph_t *ag, int *unread)
{
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    int ok = m && agwrite(ag, m) == 0;
    if (m && fclose(m) != 0)
        ok = 0;
    agclose(ag);
    Agraph_t *back = ok ? agmemread(text) : NULL;
    *unread = ok && !back;
    free(text);
    return back;
}

/* EV_ERR_RENDER with `what` and Graphviz's last message. */
static ev_status graphviz_error(ev_error *err, const char *what)
{
    char *last = aglasterr();      /* malloc'd by Graphviz, or NULL */
    size_t n = last ? strlen(last) : 0;
    while (n && (last[n - 1] == '\n' || last[n - 1] == ' '))
        last[--n] = '\0';
    ev_error_set(err, EV_ERR_RENDER, "%s%s%s", what, n ? ": " : "", n ? last : "");
    free(last);
    return EV_ERR_RENDER;
}

ev_status cg_render(const cg_graph *g, const cg_write_opts *o, const char *renderer, FILE *out,
                    ev_error *err)
{
    cg_write_opts defaults;
    ev_status st = EV_OK;
    GVC_t *gvc = NULL;

    ev_error_clear(err);
    if (!o) {
        cg_write_opts_init(&defaults);
        o = &defaults;
    }
    agerrlevel_t level = agseterr(AGMAX);  /* keep messages, print none */
    agreseterrors();
    /* the context first: it declares the attribute defaults layouts use */
    if (renderer && !(gvc = the_context())) {
        agseterr(level);
        return ev_error_set(err, EV_ERR_NOMEM, "out of memory");
    }
    Agraph_t *ag = build_agraph(g, o);
    int unread = 0;
    if (ag && renderer)
        ag = as_read_back(ag, &unread);
    if (unread) {
        st = graphviz_error(err, "Graphviz cannot read back the DOT text");
    } else if (!ag) {
        st = ev_error_set(err, EV_ERR_NOMEM, "out of memory building the Graphviz graph");
    } else if (!renderer) {
        if (agwrite(ag, out) != 0 || ferror(out))
            st = ev_error_set(err, EV_ERR_WRITE, "cannot write the DOT text");
    } else if (gvLayout(gvc, ag, "dot") != 0) {
        st = graphviz_error(err, "Graphviz layout failed");
    } else {
        char *data = NULL;
        unsigned int len = 0;
        if (gvRenderData(gvc, ag, renderer, &data, &len) != 0 || !data) {
            st = graphviz_error(err, "Graphviz cannot render");
        } else if (agerrors() > AGWARN) {
            st = graphviz_error(err, "Graphviz reported an error");
        } else if (fwrite(data, 1, len, out) != len || ferror(out)) {
            st = ev_error_set(err, EV_ERR_WRITE, "cannot write the %s output", renderer);
        }
        if (data)
            gvFreeRenderData(data);
        gvFreeLayout(gvc, ag);
    }
    if (ag)
        agclose(ag);
    agreseterrors();
    agseterr(level);
    return st;
}
