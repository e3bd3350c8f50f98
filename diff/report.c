/* The time-profile diff as text (a table of cost centres, then the stack
 * tree in the report's layout), JSON and difffolded.pl's folded lines.
 * Nothing here pairs or aggregates: it walks a finished diff_prof. */
#include "diff/internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "evprof/textout.h"

void diff_report_opts_init(diff_report_opts *o)
{
    o->base_name = NULL;
    o->new_name = NULL;
    o->threshold_pct = 0.0;
    o->max_depth = 0;
}

void diff_fmt_delta(char *buf, size_t size, double delta)
{
    double r = round(delta);
    if (r == 0.0)
        snprintf(buf, size, "0");
    else
        snprintf(buf, size, "%+.0f", r);
}

void diff_fmt_pct(char *buf, size_t size, double base, double cur)
{
    double p = diff_pct(base, cur);
    if (isinf(p))
        snprintf(buf, size, "from 0");
    else if (fabs(p) < 0.05)
        snprintf(buf, size, "0.0%%");
    else
        snprintf(buf, size, "%+.1f%%", p);
}

void diff_json_num(tx_json *j, double v)
{
    /* the shortest form that reads back as the same double (an integer
     * below 10^15 in full) */
    int prec = 15;
    char buf[40];
    while (isfinite(v) && prec < 17) {
        snprintf(buf, sizeof buf, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
        prec++;
    }
    tx_json_double(j, v, prec);
}

static const char *name_or(const char *name, const char *dflt)
{
    return name ? name : dflt;
}

static size_t num_width(double v)
{
    char buf[64];
    return (size_t)snprintf(buf, sizeof buf, "%.0f", round(v));
}

static size_t max_sz(size_t a, size_t b)
{
    return a > b ? a : b;
}

static void change_text(char *buf, size_t size, const diff_cc *c)
{
    if (c->change == DIFF_ADDED)
        snprintf(buf, size, "added");
    else if (c->change == DIFF_REMOVED)
        snprintf(buf, size, "removed");
    else
        diff_fmt_pct(buf, size, c->base, (double)c->new_ticks);
}

static void header(const diff_prof *d, const diff_report_opts *o, FILE *out)
{
    const diff_info *in = &d->info;
    const char *bn = name_or(o->base_name, "BASE"), *nn = name_or(o->new_name, "NEW");
    size_t w = max_sz(tx_width(bn), tx_width(nn));
    char delta[32], pct[32];
    double base_total = (double)in->base_total * in->scale;

    fputs("\tevprof diff: time profile (ticks)\n\n\tbase  ", out);
    tx_pad(out, bn, w);
    fprintf(out, "  %" PRIu64 " ticks\n\tnew   ", in->base_total);
    tx_pad(out, nn, w);
    fprintf(out, "  %" PRIu64 " ticks\n", in->new_total);
    diff_fmt_delta(delta, sizeof delta, (double)in->new_total - base_total);
    diff_fmt_pct(pct, sizeof pct, base_total, (double)in->new_total);
    if (in->normalized)
        fprintf(out, "\tbase scaled by %.4f to new's total (--normalize): the deltas compare "
                "shares\n", in->scale);
    fprintf(out, "\ttotal %s ticks (%s); cost centres: %zu in both, %zu added, %zu removed\n\n",
            delta, pct, in->same, in->added, in->removed);
}

static int table(const diff_prof *d, FILE *out)
{
    size_t n;
    uint32_t *v = diff_ccs_by_delta(d, &n);
    if (!v)
        return -1;
    size_t wl = 11, wm = 6, ws = 3, wb = 4, wn = 3, wd = 5, wc = 6;
    char buf[64];
    for (size_t i = 0; i < n; i++) {
        const diff_cc *c = &d->ccs[v[i]];
        wl = max_sz(wl, tx_width(c->label));
        wm = max_sz(wm, tx_width(c->module));
        ws = max_sz(ws, tx_width(c->srcloc));
        wb = max_sz(wb, num_width(c->base));
        wn = max_sz(wn, num_width((double)c->new_ticks));
        diff_fmt_delta(buf, sizeof buf, c->delta);
        wd = max_sz(wd, strlen(buf));
        change_text(buf, sizeof buf, c);
        wc = max_sz(wc, strlen(buf));
    }
    fprintf(out, "%-*s %-*s %-*s  %*s %*s %*s %*s\n\n", (int)wl, "COST CENTRE", (int)wm, "MODULE",
            (int)ws, "SRC", (int)wb, "base", (int)wn, "new", (int)wd, "delta", (int)wc, "change");
    for (size_t i = 0; i < n; i++) {
        const diff_cc *c = &d->ccs[v[i]];
        char delta[32], change[32];
        diff_fmt_delta(delta, sizeof delta, c->delta);
        change_text(change, sizeof change, c);
        tx_pad(out, c->label, wl);
        putc(' ', out);
        tx_pad(out, c->module, wm);
        putc(' ', out);
        tx_pad(out, c->srcloc, ws);
        fprintf(out, "  %*.0f %*" PRIu64 " %*s %*s\n", (int)wb, round(c->base), (int)wn,
                c->new_ticks, (int)wd, delta, (int)wc, change);
    }
    fputs("\n\n", out);
    free(v);
    return 0;
}

/* ---- the tree ------------------------------------------------------------ */

typedef struct tree_ctx {
    const diff_prof *d;
    const diff_report_opts *o;
    FILE *out;
    size_t wl, wm, ws, wn;      /* name columns, then every number column */
    uint64_t hidden;
} tree_ctx;

static double share(uint64_t part, uint64_t total)
{
    return total ? 100.0 * (double)part / (double)total : 0.0;
}

static int shown(const tree_ctx *c, const diff_node *nd)
{
    const diff_info *in = &c->d->info;
    if (c->o->max_depth && nd->depth > c->o->max_depth)
        return 0;
    if (c->o->threshold_pct > 0.0 && nd->depth > 0 &&
        share(nd->base_inherited, in->base_total) < c->o->threshold_pct &&
        share(nd->new_inherited, in->new_total) < c->o->threshold_pct)
        return 0;
    return 1;
}

static void tree_widths(tree_ctx *c, uint32_t i)
{
    const diff_node *nd = &c->d->nodes[i];
    if (!shown(c, nd))
        return;
    const diff_cc *cc = &c->d->ccs[nd->cc];
    double scale = c->d->info.scale;
    char buf[32];
    c->wl = max_sz(c->wl, nd->depth + tx_width(cc->label));
    c->wm = max_sz(c->wm, tx_width(cc->module));
    c->ws = max_sz(c->ws, tx_width(cc->srcloc));
    c->wn = max_sz(c->wn, num_width((double)nd->base_inherited * scale));
    c->wn = max_sz(c->wn, num_width((double)nd->new_inherited));
    diff_fmt_delta(buf, sizeof buf, (double)nd->new_inherited - (double)nd->base_inherited * scale);
    c->wn = max_sz(c->wn, strlen(buf));
    diff_fmt_delta(buf, sizeof buf, (double)nd->new_ticks - (double)nd->base_ticks * scale);
    c->wn = max_sz(c->wn, strlen(buf));
    for (uint32_t k = nd->first_child; k != PROF_NONE; k = c->d->nodes[k].next_sibling)
        tree_widths(c, k);
}

static void figures(tree_ctx *c, uint64_t base, uint64_t cur)
{
    double b = (double)base * c->d->info.scale;
    char delta[32];
    diff_fmt_delta(delta, sizeof delta, (double)cur - b);
    fprintf(c->out, " %*.0f %*" PRIu64 " %*s", (int)c->wn, round(b), (int)c->wn, cur,
            (int)c->wn, delta);
}

static void tree_rows(tree_ctx *c, uint32_t i)
{
    const diff_node *nd = &c->d->nodes[i];
    if (!shown(c, nd)) {
        c->hidden++;
        return;
    }
    const diff_cc *cc = &c->d->ccs[nd->cc];
    fprintf(c->out, "%*s", (int)nd->depth, "");
    tx_pad(c->out, cc->label, c->wl - nd->depth);
    putc(' ', c->out);
    tx_pad(c->out, cc->module, c->wm);
    putc(' ', c->out);
    tx_pad(c->out, cc->srcloc, c->ws);
    putc(' ', c->out);
    figures(c, nd->base_ticks, nd->new_ticks);
    fputs("  ", c->out);
    figures(c, nd->base_inherited, nd->new_inherited);
    /* stacks that only one run has */
    fputs(nd->base_inherited == 0 ? "  new stack\n" : nd->new_inherited == 0 ? "  gone\n" : "\n",
          c->out);
    for (uint32_t k = nd->first_child; k != PROF_NONE; k = c->d->nodes[k].next_sibling)
        tree_rows(c, k);
}

ev_status diff_report_text(const diff_prof *d, const diff_report_opts *o, FILE *out)
{
    diff_report_opts defaults;
    if (!o) {
        diff_report_opts_init(&defaults);
        o = &defaults;
    }
    header(d, o, out);
    if (table(d, out) != 0)
        return EV_ERR_NOMEM;
    if (d->num_nodes) {
        tree_ctx c = { d, o, out, 11, 6, 3, 5, 0 };
        tree_widths(&c, 0);
        int col = (int)(3 * c.wn + 3);
        fprintf(out, "%-*s %-*s %-*s  %*s  %*s\n", (int)c.wl, "", (int)c.wm, "", (int)c.ws, "",
                col - 1, "individual", col, "inherited");
        fprintf(out, "%-*s %-*s %-*s  %*s %*s %*s   %*s %*s %*s\n\n", (int)c.wl, "COST CENTRE",
                (int)c.wm, "MODULE", (int)c.ws, "SRC", (int)c.wn, "base", (int)c.wn, "new",
                (int)c.wn, "delta", (int)c.wn, "base", (int)c.wn, "new", (int)c.wn, "delta");
        tree_rows(&c, 0);
        if (c.hidden)
            fprintf(out, "\n%" PRIu64 " subtrees hidden by --threshold/--max-depth.\n", c.hidden);
    }
    return ferror(out) ? EV_ERR_WRITE : EV_OK;
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_side(tx_json *j, const char *key, const char *name, uint64_t total)
{
    tx_json_key(j, key);
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_cstr(j, "source", name);
    tx_json_kv_uint(j, "total_ticks", total);
    tx_json_end(j);
}

static const char *change_name(diff_change c)
{
    return c == DIFF_ADDED ? "added" : c == DIFF_REMOVED ? "removed" : "same";
}

/* a figure compared: "base", "new" (ticks), "delta", "change_pct" */
static void json_compare(tx_json *j, double base, uint64_t cur, double delta)
{
    tx_json_key(j, "base");
    diff_json_num(j, base);
    tx_json_kv_uint(j, "new", cur);
    tx_json_key(j, "delta");
    diff_json_num(j, delta);
    tx_json_key(j, "change_pct");
    diff_json_num(j, diff_pct(base, (double)cur));
}

ev_status diff_report_json(const diff_prof *d, const diff_report_opts *o, FILE *out)
{
    diff_report_opts defaults;
    if (!o) {
        diff_report_opts_init(&defaults);
        o = &defaults;
    }
    const diff_info *in = &d->info;
    size_t n;
    uint32_t *v = diff_ccs_by_delta(d, &n);
    if (!v)
        return EV_ERR_NOMEM;
    double base_total = (double)in->base_total * in->scale;

    tx_json j;
    tx_json_init(&j, out, 2, 0);
    tx_json_object(&j, TX_JSON_FLAT);
    tx_json_kv_cstr(&j, "kind", "time profile");
    json_side(&j, "base", o->base_name, in->base_total);
    json_side(&j, "new", o->new_name, in->new_total);
    tx_json_kv_bool(&j, "normalized", in->normalized);
    tx_json_key(&j, "scale");
    diff_json_num(&j, in->scale);
    tx_json_key(&j, "total");
    tx_json_object(&j, TX_JSON_INLINE);
    json_compare(&j, base_total, in->new_total, (double)in->new_total - base_total);
    tx_json_end(&j);
    tx_json_kv_uint(&j, "added", in->added);
    tx_json_kv_uint(&j, "removed", in->removed);
    tx_json_key(&j, "cost_centres");
    tx_json_array(&j, TX_JSON_BLOCK);
    if (n == 0)
        tx_json_space(&j, "\n");        /* [ and ] on lines of their own */
    for (size_t i = 0; i < n; i++) {
        const diff_cc *c = &d->ccs[v[i]];
        tx_json_object(&j, TX_JSON_INLINE);
        tx_json_kv_cstr(&j, "label", c->label);
        tx_json_kv_cstr(&j, "module", c->module);
        tx_json_kv_cstr(&j, "src_loc", c->srcloc);
        json_compare(&j, c->base, c->new_ticks, c->delta);
        tx_json_kv_cstr(&j, "change", change_name(c->change));
        tx_json_end(&j);
    }
    tx_json_end(&j);
    tx_json_end(&j);
    tx_json_space(&j, "\n");
    free(v);
    return tx_json_finish(&j) != 0 ? EV_ERR_WRITE : EV_OK;
}

/* ---- folded ---------------------------------------------------------------- */

typedef struct fline {
    size_t text;                /* offset into the text buffer, */
    const char *s;              /* and the text, once the buffer is whole */
    size_t len;
    uint64_t base, cur;
    size_t seq;                 /* tree order */
} fline;

typedef struct folded_ctx {
    const diff_prof *d;
    prof_frame_format fmt;
    char *text;                 /* every line's stack text, one after another */
    size_t text_len, text_cap;
    fline *lines;
    size_t n, cap;
    char *path;                 /* the current path's text */
    size_t path_cap;
    int failed;
} folded_ctx;

static int reserve(char **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 1024;
    while (c < need)
        c *= 2;
    char *b = realloc(*buf, c);
    if (!b)
        return -1;
    *buf = b;
    *cap = c;
    return 0;
}

static void fold_visit(folded_ctx *f, uint32_t i, size_t plen)
{
    const diff_node *nd = &f->d->nodes[i];
    const diff_cc *cc = &f->d->ccs[nd->cc];
    const prof_cc *pc = cc->new_cc ? cc->new_cc : cc->base_cc;
    /* a cut marker's stack starts afresh, as prof_report_folded writes it */
    if (nd->parent == 0 && pc->synthetic)
        plen = 0;
    /* a namesake's `name` frame is its `src` one, as prof_report_folded's */
    prof_frame_format fmt = cc->namesake && f->fmt == PROF_FRAME_NAME ? PROF_FRAME_SRC : f->fmt;
    size_t flen = prof_folded_frame(pc, fmt, NULL, 0);
    if (reserve(&f->path, &f->path_cap, plen + 1 + flen + 1) != 0) {
        f->failed = 1;
        return;
    }
    if (plen)
        f->path[plen++] = ';';
    prof_folded_frame(pc, fmt, f->path + plen, flen + 1);
    plen += flen;
    if (nd->base_ticks || nd->new_ticks) {
        if (f->n == f->cap) {
            size_t cap = f->cap ? f->cap * 2 : 256;
            fline *l = realloc(f->lines, cap * sizeof *l);
            if (!l) {
                f->failed = 1;
                return;
            }
            f->lines = l;
            f->cap = cap;
        }
        if (reserve(&f->text, &f->text_cap, f->text_len + plen) != 0) {
            f->failed = 1;
            return;
        }
        memcpy(f->text + f->text_len, f->path, plen);
        f->lines[f->n] = (fline){ f->text_len, NULL, plen, nd->base_ticks, nd->new_ticks, f->n };
        f->text_len += plen;
        f->n++;
    }
    for (uint32_t k = nd->first_child; k != PROF_NONE && !f->failed; k = f->d->nodes[k].next_sibling)
        fold_visit(f, k, plen);
}

static int cmp_text(const void *a, const void *b)
{
    const fline *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->s, y->s, n);
    if (c)
        return c;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_seq(const void *a, const void *b)
{
    const fline *x = a, *y = b;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

ev_status diff_report_folded(const diff_prof *d, const prof_folded_opts *o, FILE *out)
{
    prof_folded_opts defaults;
    if (!o) {
        prof_folded_opts_init(&defaults);
        o = &defaults;
    }
    folded_ctx f = { d, o->frame, NULL, 0, 0, NULL, 0, 0, NULL, 0, 0 };
    if (d->num_nodes)
        fold_visit(&f, 0, 0);
    if (f.failed) {
        free(f.text);
        free(f.lines);
        free(f.path);
        return EV_ERR_NOMEM;
    }
    /* paths that print alike are one stack: merged into the first */
    for (size_t i = 0; i < f.n; i++)
        f.lines[i].s = f.text + f.lines[i].text;
    qsort(f.lines, f.n, sizeof *f.lines, cmp_text);
    size_t m = 0;
    for (size_t i = 0; i < f.n; i++) {
        if (m && f.lines[m - 1].len == f.lines[i].len &&
            memcmp(f.lines[m - 1].s, f.lines[i].s, f.lines[i].len) == 0) {
            f.lines[m - 1].base += f.lines[i].base;
            f.lines[m - 1].cur += f.lines[i].cur;
        } else {
            f.lines[m++] = f.lines[i];
        }
    }
    qsort(f.lines, m, sizeof *f.lines, cmp_seq);
    const diff_info *in = &d->info;
    for (size_t i = 0; i < m; i++) {
        uint64_t base = f.lines[i].base;
        /* difffolded.pl -n: int(count * total2 / total1) */
        if (in->normalized)
            base = (uint64_t)((double)base * (double)in->new_total / (double)in->base_total);
        fwrite(f.lines[i].s, 1, f.lines[i].len, out);
        fprintf(out, " %" PRIu64 " %" PRIu64 "\n", base, f.lines[i].cur);
    }
    free(f.text);
    free(f.lines);
    free(f.path);
    return ferror(out) ? EV_ERR_WRITE : EV_OK;
}
