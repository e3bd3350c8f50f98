/* evprof diff: two runs compared (time profile, GC summary, heap bands or
 * ticky counters), as text, JSON, a differential flame graph's folded
 * lines or a call graph coloured by change. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "evprof/diff.h"
#include "evprof/textout.h"
#include "evprof/info.h"
#include "read.h"
#include "load.h"
#include "outfile.h"
#include "selection.h"


/* exit status of --fail-above */
#define CLI_GREW 3


static const cli_cmd_help help = {
    "diff", "[OPTIONS] BASE NEW",
    "Compares two runs: BASE (before a change) and NEW (after it). For time\n"
    "profiles, a table of cost centres with BASE's ticks, NEW's, the delta and the\n"
    "change, largest delta first, then the cost-centre-stack tree with both runs'\n"
    "ticks. Cost centres are matched by module, label and source location (ids\n"
    "differ between builds), stacks by their path of names.",
    "What is compared follows the logs: time profiles when both have samples,\n"
    "else heap profiles, ticky counters or GC summaries when both hold that;\n"
    "--time, --heap, --ticky and --gc choose (GHC's +RTS -r text on either side\n"
    "is read as ticky counters; heap profiles of different -h breakdowns are\n"
    "refused). --from, --to and --cap apply to both logs. --format folded\n"
    "writes 'stack base new' lines, the input of flamegraph.pl (red grew, blue\n"
    "shrank); a graph format draws NEW's call graph, red where it grew, green\n"
    "where it shrank. Exit status 3: --fail-above was exceeded. Growth is\n"
    "measured against BASE's total: the total's own, and a cost centre's delta\n"
    "as a share of BASE's ticks (a new cost centre counts by its share of\n"
    "them). See docs/DIFF.md.\n",
};

typedef enum kind { K_AUTO, K_TIME, K_GC, K_HEAP, K_TICKY } kind;
typedef enum out_format { F_TEXT, F_JSON, F_FOLDED, F_GRAPH } out_format;

/* One run, read once with every analysis the comparison may need. */
typedef struct side {
    const char *path, *name;
    prof_result *prof;
    gc_summary *gc;             /* a finished snapshot */
    heap_profile *heap;         /* a finished snapshot */
    ticky_set *ticky;
    info_holds h;               /* what else it holds (heap_begin not counted) */
    el_read_result read;        /* how the read ended */
    const ev_select *select;    /* its selection (marks are each log's own) */
    int ticky_text;             /* GHC's +RTS -r text, not an eventlog */
    int code;
} side;

static void side_free(side *s)
{
    prof_result_destroy(s->prof);
    gc_destroy(s->gc);
    heap_destroy(s->heap);
    ticky_destroy(s->ticky);
}

/* Returns 0, or -1 when there is nothing to compare (s->code says how it ended). */
static int load(side *s, kind k, const cli_window *shared)
{
    cli_ctx *c = shared->ctx;
    /* marks are this log's own: each side resolves them in its log */
    cli_window sel = *shared;
    cli_window *w = &sel;
    cli_window_watch(c, NULL, 0);
    int resolved = cli_window_resolve(w, s->path);
    if (resolved != CLI_OK) {
        s->code = resolved;
        return -1;
    }
    cli_window_watch(c, w, 0);     /* this side's read is checked: until it is over */
    s->select = w->src.select;
    prof_filter pf;
    prof_filter_init(&pf);
    if (cli_window_prof_filter(w, &pf) != 0) {
        s->code = CLI_USAGE;
        return -1;
    }
    pf.all = w->all;
    heap_opts ho;
    heap_opts_init(&ho);
    ho.whole_names = 1;

    prof_profile *p = k == K_AUTO || k == K_TIME ? prof_create(&pf) : NULL;
    gc_summary *g = k == K_AUTO || k == K_GC ? gc_create() : NULL;
    heap_profile *h = k == K_AUTO || k == K_HEAP ? heap_create(&ho, NULL, NULL) : NULL;
    cli_analysis an[4];
    size_t n = 0;
    an[n++] = (cli_analysis){ &info_holds_ops, &s->h };
    if (p)
        an[n++] = (cli_analysis){ &prof_analysis_ops, p };
    if (g)
        an[n++] = (cli_analysis){ &gc_analysis_ops, g };
    if (h)
        an[n++] = (cli_analysis){ &heap_analysis_ops, h };
    int rc = -1;
    ev_driver *d = NULL;
    if ((k == K_AUTO || k == K_TIME) != !!p || (k == K_AUTO || k == K_GC) != !!g ||
        (k == K_AUTO || k == K_HEAP) != !!h) {
        fprintf(stderr, "evprof: out of memory\n");
        s->code = CLI_FAIL;
        goto out;
    }
    d = cli_read_src(c, &w->src, s->path, an, n, &s->code);
    cli_window_watch(c, NULL, 0);
    if (!d)
        goto out;
    s->read = ev_driver_stream(d)->read;
    if (cli_read_nothing(ev_driver_stream(d), s->code))
        goto out;
    if ((p && !(s->prof = prof_snapshot(p))) || (g && !(s->gc = gc_snapshot(g))) ||
        (h && !(s->heap = heap_snapshot(h)))) {
        fprintf(stderr, "evprof: %s: out of memory\n", s->name);
        s->code = CLI_FAIL;
        goto out;
    }
    rc = 0;
out:
    ev_driver_destroy(d);
    prof_destroy(p);
    gc_destroy(g);
    heap_destroy(h);
    return rc;
}

/* The ticky counters: a read of their own, through the driver like every
 * analysis (charged to the memory budget: a read stopped at the limit
 * says so and compares nothing). */
static int load_ticky(side *s, const cli_window *w)
{
    cli_ctx *c = w->ctx;
    if (strcmp(s->path, "-") == 0) {
        fprintf(stderr, "evprof: diff --ticky reads each log twice: give a file, not '-'\n");
        s->code = CLI_USAGE;
        return -1;
    }
    if (!(s->ticky = ticky_create())) {
        fprintf(stderr, "evprof: out of memory\n");
        s->code = CLI_FAIL;
        return -1;
    }
    int code;
    cli_window_watch(c, w, 0);
    cli_source src = { .select = s->select };
    ev_driver *d = cli_read_src(c, &src, s->path,
                                &(cli_analysis){ &ticky_analysis_ops, s->ticky }, 1, &code);
    cli_window_watch(c, NULL, 0);
    if (!d && code == CLI_USAGE) {      /* the window misses the log */
        s->code = code;
        return -1;
    }
    if (code > s->code)
        s->code = code;
    if (!d) {
        s->code = CLI_FAIL;
        return -1;
    }
    int nothing = cli_read_nothing(ev_driver_stream(d), code);
    ev_driver_destroy(d);
    if (ticky_finish(s->ticky) != 0) {
        fprintf(stderr, "evprof: %s: out of memory\n", s->name);
        s->code = CLI_FAIL;
        return -1;
    }
    return nothing ? -1 : 0;
}

/* GHC's +RTS -r text, read as evprof ticky reads it (ticky/text.c). */
static int load_ticky_text(cli_ctx *c, side *s)
{
    if (!(s->ticky = ticky_create())) {
        fprintf(stderr, "evprof: out of memory\n");
        s->code = CLI_FAIL;
        return -1;
    }
    ticky_set_budget(s->ticky, cli_budget(c));
    FILE *f = fopen(s->path, "rb");
    if (!f) {
        fprintf(stderr, "evprof: %s: cannot open: %s\n", s->name, strerror(errno));
        s->code = CLI_FAIL;
        return -1;
    }
    ev_error err;
    ev_status st = ticky_read_text(s->ticky, f, &err);
    fclose(f);
    if (st != EV_OK) {
        if (err.line)
            fprintf(stderr, "evprof: %s: line %llu: %s\n", s->name,
                    (unsigned long long)err.line, err.msg);
        else
            fprintf(stderr, "evprof: %s: %s\n", s->name, err.msg);
        s->code = CLI_FAIL;
        return -1;
    }
    if (ticky_finish(s->ticky) != 0) {
        fprintf(stderr, "evprof: %s: out of memory\n", s->name);
        s->code = CLI_FAIL;
        return -1;
    }
    return 0;
}

/* 1 when the file is GHC's +RTS -r text (by its first bytes; standard
 * input is never peeked: it is read once, as an eventlog). */
static int is_ticky_text(const char *path)
{
    if (strcmp(path, "-") == 0)
        return 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;           /* the read says why */
    char head[EL_SNIFF_BYTES];
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return el_file_kind_of(head, n) == EL_FILE_TICKY;
}

static int has_samples(const side *s)
{
    return s->prof && prof_get_info(s->prof)->all_samples > 0;
}

static int has_heap(const side *s)
{
    return s->heap && heap_get_info(s->heap)->censuses_seen > 0;
}

/* Heap profiles of different breakdowns (-hc and -hy, ...) have bands of
 * different kinds: every band would be added or removed. 1 after saying
 * so. */
static int different_breakdowns(const side *b, const side *n)
{
    if (!has_heap(b) || !has_heap(n))
        return 0;                       /* lacks() says which has none */
    const heap_info *x = heap_get_info(b->heap), *y = heap_get_info(n->heap);
    if (!x->has_begin || !y->has_begin || x->breakdown == y->breakdown)
        return 0;
    char what[2][96];
    for (int i = 0; i < 2; i++) {
        uint32_t k = i ? y->breakdown : x->breakdown;
        const char *flag = heap_breakdown_flag(k), *name = heap_breakdown_name(k);
        if (flag)
            snprintf(what[i], sizeof what[i], "%s (%s)", flag, name);
        else
            snprintf(what[i], sizeof what[i], "breakdown %u (unknown)", (unsigned)k);
    }
    cli_usage_error(&help, "%s is a heap profile by %s and %s one by %s: their bands are "
                    "different kinds of thing, so every band would be added or removed; "
                    "compare two runs made with the same -h option", b->name, what[0],
                    n->name, what[1]);
    return 1;
}

static const char *kind_flag(kind k)
{
    return k == K_GC ? "--gc" : k == K_HEAP ? "--heap" : k == K_TICKY ? "--ticky" : "--time";
}

/* What the two logs have in common, for the automatic choice. */
static kind choose(const side *b, const side *n)
{
    if (has_samples(b) && has_samples(n))
        return K_TIME;
    if (has_heap(b) && has_heap(n))
        return K_HEAP;
    if (b->h.ticky && n->h.ticky)
        return K_TICKY;
    if (b->gc && n->gc && gc_get_result(b->gc)->has_gc_events &&
        gc_get_result(n->gc)->has_gc_events)
        return K_GC;
    return K_AUTO;
}

/* diff's own formats; then the graph's (cg_formats) draw NEW's call graph,
 * but for a name diff's own take ("json" is the comparison's JSON) */
static const ev_format own_formats[] = {
    [F_TEXT] = { "text", ".txt .text" },
    [F_JSON] = { "json", ".json" },
    [F_FOLDED] = { "folded", ".folded" },
};
#define NUM_OWN (sizeof own_formats / sizeof own_formats[0])

static int parse_format(const char *s, out_format *f, const ev_format **gf)
{
    size_t n;
    const ev_format *g = cg_formats(&n), *o = ev_format_find(own_formats, NUM_OWN, s);
    if (o)
        *f = (out_format)(o - own_formats);
    else if ((*gf = ev_format_find(g, n, s)))
        *f = F_GRAPH;
    else
        return -1;
    return 0;
}

/* From -o's extension; text when it says nothing known. */
static void format_from_path(const char *path, out_format *f, const ev_format **gf)
{
    size_t n;
    const ev_format *g = cg_formats(&n), *o = ev_format_for_path(own_formats, NUM_OWN, path);
    if (o)
        *f = (out_format)(o - own_formats);
    else if ((*gf = ev_format_for_path(g, n, path)))
        *f = F_GRAPH;
    else
        *f = F_TEXT;
}

/* "text, json, folded, svg, ... or dot": every name --format takes */
static void format_names(char *buf, size_t size)
{
    size_t n, len = 0, count = 0, total = NUM_OWN;
    const ev_format *g = cg_formats(&n);
    for (size_t i = 0; i < n; i++)
        total += !ev_format_find(own_formats, NUM_OWN, g[i].name);
    buf[0] = '\0';
    for (size_t i = 0; i < NUM_OWN + n && len < size; i++) {
        const char *name = i < NUM_OWN ? own_formats[i].name : g[i - NUM_OWN].name;
        if (i >= NUM_OWN && ev_format_find(own_formats, NUM_OWN, name))
            continue;
        count++;
        int k = snprintf(buf + len, size - len, "%s%s",
                         count == 1 ? "" : count == total ? " or " : ", ", name);
        len += k > 0 ? (size_t)k : 0;
    }
}

typedef struct run {
    kind k;
    out_format fmt;
    const ev_format *gfmt;      /* F_GRAPH: a row of cg_formats */
    diff_opts dopt;
    diff_report_opts ro;
    prof_folded_opts fo;
    cg_opts go;
    int fail_above;
    double fail_pct;
    double min_share;
    int have_format;
} run;

static int write_time(const run *r, side *b, side *n, cli_out *out, int *grew)
{
    diff_prof *d;
    if (diff_prof_create(b->prof, n->prof, &r->dopt, &d) != EV_OK) {
        fprintf(stderr, "evprof: out of memory comparing the profiles\n");
        return -1;
    }
    int rc = 0;
    if (r->fmt == F_GRAPH) {
        ev_error err;
        cg_write_opts wo;
        cg_write_opts_init(&wo);
        wo.source_name = n->name;
        char legend[600];
        snprintf(legend, sizeof legend, "Compared with BASE %s (%llu ticks%s): red grew, green "
                 "shrank; 'base' figures are BASE's", b->name,
                 (unsigned long long)prof_get_info(b->prof)->total_ticks,
                 r->dopt.normalize ? ", scaled to NEW's total" : "");
        wo.filters = legend;
        ev_status st = diff_graph_write(d, &r->go, &wo, r->gfmt->name, out->f, &err);
        if (st == EV_ERR_PATTERN) {
            cli_usage_error(&help, "bad regular expression %s", err.msg);
            rc = -2;
        } else if (st != EV_OK) {
            fprintf(stderr, "evprof: %s: %s\n", n->name, err.msg);
            rc = -1;
        }
    } else {
        ev_status st = r->fmt == F_JSON ? diff_report_json(d, &r->ro, out->f) :
                         r->fmt == F_FOLDED ? diff_report_folded(d, &r->fo, out->f) :
                         diff_report_text(d, &r->ro, out->f);
        if (st == EV_ERR_NOMEM)
            fprintf(stderr, "evprof: out of memory writing the comparison\n");
        rc = st == EV_OK ? 0 : -1;
    }
    uint32_t cc;
    if (rc == 0 && r->fail_above && diff_grew_above(d, r->fail_pct, r->min_share, &cc)) {
        const diff_info *in = diff_get_info(d);
        char pct[32];
        *grew = 1;
        if (cc == PROF_NONE) {
            diff_fmt_pct(pct, sizeof pct, (double)in->base_total * in->scale,
                         (double)in->new_total);
            fprintf(stderr, "evprof: diff: the total grew by %s, more than --fail-above %g%%\n",
                    pct, r->fail_pct);
        } else {
            const diff_cc *c = diff_cc_at(d, cc);
            char delta[32];
            diff_fmt_delta(delta, sizeof delta, c->delta);
            fprintf(stderr, "evprof: diff: cost centre ");
            cli_text_str(stderr, c->module, strlen(c->module));
            fputc('.', stderr);
            cli_text_str(stderr, c->label, strlen(c->label));
            fprintf(stderr, " (");
            cli_text_str(stderr, c->srcloc, strlen(c->srcloc));
            double g = diff_cc_growth(d, c);
            fprintf(stderr, ") grew by %s ticks%s: +%.*f%% of BASE's total%s, more than "
                    "--fail-above %g%%\n", delta,
                    c->base_ticks ? "" : c->change == DIFF_ADDED ? " (new code)" : " (from 0)",
                    g < 0.1 ? 3 : 1, g, in->scale != 1.0 ? " (normalized)" : "", r->fail_pct);
        }
    }
    diff_prof_destroy(d);
    return rc;
}

static int write_other(const run *r, side *b, side *n, FILE *out)
{
    int json = r->fmt == F_JSON;
    ev_status st;
    switch (r->k) {
    case K_GC:
        st = json ? diff_gc_json(gc_get_result(b->gc), gc_get_result(n->gc), &r->ro, out) :
                    diff_gc_text(gc_get_result(b->gc), gc_get_result(n->gc), &r->ro, out);
        break;
    case K_HEAP:
        st = json ? diff_heap_json(b->heap, n->heap, &r->ro, out) :
                    diff_heap_text(b->heap, n->heap, &r->ro, out);
        break;
    case K_TIME:        /* write_time's, and K_AUTO is resolved before: neither comes here */
    case K_AUTO:
    case K_TICKY:
    default:
        st = json ? diff_ticky_json(b->ticky, n->ticky, &r->ro, out) :
                    diff_ticky_text(b->ticky, n->ticky, &r->ro, out);
        break;
    }
    if (st == EV_ERR_NOMEM)
        fprintf(stderr, "evprof: out of memory writing the comparison\n");
    return st == EV_OK ? 0 : -1;
}

/* Why a log cannot take part in the comparison chosen; 0 when it can. */
static int lacks(const run *r, const side *s)
{
    const char *arg = strcmp(s->path, "-") == 0 ? "-" : s->name;
    switch (r->k) {
    case K_TIME:
        if (has_samples(s))
            return 0;
        if (s->prof)
            cli_no_samples(s->name, arg, s->prof, &s->read);
        else
            fprintf(stderr, "evprof: %s: no time-profile samples (event 167) (see 'evprof info "
                    "%s')\n", s->name, arg);
        return 1;
    case K_HEAP:
        if (has_heap(s))
            return 0;
        fprintf(stderr, "evprof: %s: no heap profile (run with +RTS -hT -l, or -hc ... in a "
                "-prof build)\n", s->name);
        return 1;
    case K_GC:
        if (s->gc && gc_get_result(s->gc)->has_gc_events)
            return 0;
        fprintf(stderr, "evprof: %s: no GC events (run with +RTS -l)\n", s->name);
        return 1;
    case K_AUTO:        /* resolved before (choose): never here */
    case K_TICKY:
    default:
        if (s->ticky && ticky_num_counters(s->ticky))
            return 0;
        fprintf(stderr, "evprof: %s: no ticky counters (build with -ticky, run with "
                "+RTS -lT)\n", s->name);
        return 1;
    }
}

/* ---- the options' callbacks ---- */

static int opt_format(const cli_args *a, void *var, const void *ctx)
{
    run *r = var;
    (void)ctx;
    if (parse_format(a->value, &r->fmt, &r->gfmt) != 0) {
        char names[256], shown[128];
        format_names(names, sizeof names);
        tx_vis(shown, sizeof shown, a->value, strlen(a->value));
        cli_usage_error(a->cmd, "--format wants %s, not '%s'", names, shown);
        return -1;
    }
    r->have_format = 1;
    return 0;
}

static int opt_fail_above(const cli_args *a, void *var, const void *ctx)
{
    run *r = var;
    (void)ctx;
    if (cli_parse_number(a, "fail-above", 0, 1e9, &r->fail_pct) != 0)
        return -1;
    r->fail_above = 1;
    return 0;
}

/* --time, --gc, --heap, --ticky: one kind at a time */
static int opt_kind(const cli_args *a, void *var, const void *ctx)
{
    run *r = var;
    kind k = *(const kind *)ctx;
    if (r->k != K_AUTO && r->k != k) {
        cli_usage_error(a->cmd, "%s and %s: compare one kind of data at a time",
                        kind_flag(r->k), kind_flag(k));
        return -1;
    }
    r->k = k;
    return 0;
}

static int opt_frame_format(const cli_args *a, void *var, const void *ctx)
{
    (void)ctx;
    if (prof_frame_format_parse(a->value, var) != 0) {
        cli_usage_error(a->cmd, "--frame-format wants name, label or src, not '%s'", a->value);
        return -1;
    }
    return 0;
}

int cmd_diff(cli_ctx *c, int argc, char **argv)
{
    cli_args a;
    cli_window w;
    run r = { .k = K_AUTO, .fmt = F_TEXT };
    int id, have_format = 0;

    cli_window_init(&w, c);
    diff_opts_init(&r.dopt);
    diff_report_opts_init(&r.ro);
    prof_folded_opts_init(&r.fo);
    cg_opts_init(&r.go);
    unsigned long max_depth = 0, max_nodes = r.go.max_nodes;
    static const kind kinds[] = { K_TIME, K_GC, K_HEAP, K_TICKY };
    const cli_opt opts[] = {
        OPT_CALL('f', "format", "FMT", opt_format, &r, NULL, "text (default), json, folded "
                 "(difffolded.pl's lines), or a call graph of NEW coloured by change: svg, "
                 "png, pdf, dot (default: from -o's extension)"),
        OPT_FLAG('n', "normalize", &r.dopt.normalize, "scale BASE to NEW's total ticks (runs "
                 "of different length)"),
        OPT_CALL(0, "fail-above", "PCT", opt_fail_above, &r, NULL, "exit 3 when the total "
                 "grew by more than PCT percent, or a cost centre by more than PCT percent "
                 "of BASE's total ticks"),
        OPT_NUMBER(0, "min-share", "PCT", &r.min_share, 0, 100, "--fail-above leaves out "
                   "cost centres with less than PCT% of the ticks in both runs (sampling "
                   "noise; default 0: none)"),
        OPT_CALL(0, "time", NULL, opt_kind, &r, &kinds[0], "compare the time profiles (the "
                 "default when both logs have samples)"),
        OPT_CALL(0, "gc", NULL, opt_kind, &r, &kinds[1], "compare the +RTS -s summaries"),
        OPT_CALL(0, "heap", NULL, opt_kind, &r, &kinds[2], "compare the heap profiles: peak "
                 "and mean per band"),
        OPT_CALL(0, "ticky", NULL, opt_kind, &r, &kinds[3], "compare the ticky counters by "
                 "name"),
        OPT_FLAG('a', "all", &w.all, "count GC, SYSTEM, IDLE, OVERHEAD_of and DONT_CARE "
                 "samples too, as +RTS -pa does"),
        /* finished logs: no --follow */
        CLI_TIME_OPTS(&w), CLI_CAP_OPT(&w), CLI_FOCUS_OPTS(&w), CLI_MEMORY_OPT(c),
        OPT_NUMBER('t', "threshold", "PCT", &r.ro.threshold_pct, 0, 100, "text: hide "
                   "subtrees with less than PCT% of the ticks in both runs"),
        OPT_COUNT('d', "max-depth", "N", &max_depth, 0, 1000000, "text: hide stack frames "
                  "deeper than N below MAIN"),
        OPT_CALL('F', "frame-format", "FMT", opt_frame_format, &r.fo.frame, NULL, "folded: "
                 "a frame is 'name' (the default), 'label' or 'src', as in evprof folded"),
        OPT_COUNT(0, "max-nodes", "N", &max_nodes, 1, 1000000, "graph: draw at most N cost "
                  "centres (default 80)"),
        CLI_OUTPUT_OPT(&w.output),
        CLI_JOBS_OPT(c),
        OPT_END,
    };
    id = cli_parse(&help, opts, argc, argv, &a);
    r.ro.max_depth = (uint32_t)max_depth;
    r.go.max_nodes = (uint32_t)max_nodes;
    have_format = r.have_format;
    if (id != CLI_END)
        return cli_done_code(id);
    if (!cli_want_pos(&a, 2, 2, "BASE NEW"))
        return CLI_USAGE;
    /* the shared --focus/--ignore select the stacks of both runs (in the
     * profiles' snapshots); the graph of NEW draws the same selection */
    r.go.focus = w.focus;
    r.go.ignore = w.ignore;
    prof_filter pf;         /* checked once, before either log is read */
    int bad = cli_window_prof_filter(&w, &pf);
    if (bad)
        return bad;
    if (w.from_ns >= w.to_ns) {
        cli_usage_error(&help, "--from must be before --to");
        return CLI_USAGE;
    }
    if (strcmp(a.pos[0], "-") == 0 && strcmp(a.pos[1], "-") == 0) {
        cli_usage_error(&help, "BASE and NEW cannot both be standard input");
        return CLI_USAGE;
    }
    if (cli_out_same_file(c, &help, w.output, a.pos[0]) ||
        cli_out_same_file(c, &help, w.output, a.pos[1]))
        return CLI_USAGE;
    int to_stdout = !w.output || strcmp(w.output, "-") == 0;
    if (!have_format && !to_stdout)
        format_from_path(w.output, &r.fmt, &r.gfmt);
    if (to_stdout && r.fmt == F_GRAPH && (r.gfmt->flags & EV_FORMAT_BINARY) &&
        isatty(STDOUT_FILENO)) {
        cli_usage_error(&help, "not writing %s to a terminal: give -o FILE or redirect",
                        r.gfmt->name);
        return CLI_USAGE;
    }
    if (r.k != K_AUTO && r.k != K_TIME && (r.fmt == F_FOLDED || r.fmt == F_GRAPH)) {
        cli_usage_error(&help, "%s compares as text or json only", kind_flag(r.k));
        return CLI_USAGE;
    }

    side s[2] = { { .path = a.pos[0] }, { .path = a.pos[1] } };
    s[0].name = cli_display_path(c, s[0].path);
    s[1].name = cli_display_path(c, s[1].path);
    /* GHC's +RTS -r text on either side: ticky counters, totals only */
    for (int i = 0; i < 2; i++) {
        if (!(s[i].ticky_text = is_ticky_text(s[i].path)))
            continue;
        if (r.k != K_AUTO && r.k != K_TICKY) {
            cli_usage_error(&help, "%s is GHC's ticky-ticky report (+RTS -r): it holds ticky "
                            "counters only, which diff compares with --ticky, not %s",
                            s[i].name, kind_flag(r.k));
            return CLI_USAGE;
        }
        if (w.from_ns || w.to_ns != UINT64_MAX || w.from_marker || w.to_marker || w.between ||
            w.phase || w.cap >= 0) {
            cli_usage_error(&help, "%s is GHC's +RTS -r text, which has totals only: --from, "
                            "--to, --between, --phase and --cap need an eventlog (+RTS -lT)",
                            s[i].name);
            return CLI_USAGE;
        }
        r.k = K_TICKY;
    }
    int code = CLI_OK, failed = 0;
    for (int i = 0; i < 2; i++) {
        if (s[i].ticky_text)
            continue;
        if (load(&s[i], r.k, &w) != 0)
            failed = 1;
        if (s[i].code > code)
            code = s[i].code;
    }
    if (!failed && r.k == K_AUTO) {
        r.k = choose(&s[0], &s[1]);
        /* one log has samples, the other none: say what is compared instead */
        if (r.k != K_TIME && r.k != K_AUTO && has_samples(&s[0]) != has_samples(&s[1]))
            fprintf(stderr, "evprof: diff: %s has no time-profile samples: comparing %s "
                    "(%s)\n", has_samples(&s[0]) ? s[1].name : s[0].name,
                    r.k == K_GC ? "GC summaries" : r.k == K_HEAP ? "heap profiles" :
                    "ticky counters", kind_flag(r.k));
        if (r.k == K_AUTO) {
            fprintf(stderr, "evprof: diff: %s and %s hold no kind of data in common to compare "
                    "(time samples, heap censuses, ticky counters, GC events): see 'evprof "
                    "info'\n", s[0].name, s[1].name);
            failed = 1;
            code = CLI_FAIL;
        }
    }
    if (!failed && r.k != K_TIME && (r.fmt == F_FOLDED || r.fmt == F_GRAPH || r.fail_above)) {
        cli_usage_error(&help, "the logs hold no time profiles to compare: %s compares %s",
                        r.fmt == F_FOLDED ? "--format folded" :
                        r.fmt == F_GRAPH ? "a graph format" : "--fail-above",
                        "time profiles only");
        failed = 1;
        code = CLI_USAGE;
    }
    for (int i = 0; i < 2 && !failed && r.k == K_TICKY; i++) {
        if ((s[i].ticky_text ? load_ticky_text(c, &s[i]) : load_ticky(&s[i], &w)) != 0)
            failed = 1;
        if (s[i].code > code)
            code = s[i].code;
    }
    if (!failed && r.k == K_HEAP && different_breakdowns(&s[0], &s[1])) {
        failed = 1;
        code = CLI_USAGE;
    }
    for (int i = 0; i < 2 && !failed; i++)
        if (lacks(&r, &s[i])) {
            failed = 1;
            if (code == CLI_OK)
                code = CLI_FAIL;
        }
    if (failed) {
        side_free(&s[0]);
        side_free(&s[1]);
        return code == CLI_OK ? CLI_FAIL : code;
    }

    r.ro.base_name = s[0].name;
    r.ro.new_name = s[1].name;
    int grew = 0, rc;
    cli_out out;
    if (cli_out_open(c, &out, w.output) != 0) {
        side_free(&s[0]);
        side_free(&s[1]);
        return CLI_FAIL;
    }
    rc = r.k == K_TIME ? write_time(&r, &s[0], &s[1], &out, &grew) : write_other(&r, &s[0], &s[1], out.f);
    if (cli_out_close(&out, rc == 0) != 0 && code == CLI_OK)
        code = CLI_FAIL;
    if (rc == -2)
        code = CLI_USAGE;
    else if (rc != 0 && code == CLI_OK)
        code = CLI_FAIL;
    side_free(&s[0]);
    side_free(&s[1]);
    return code == CLI_OK && grew ? CLI_GREW : code;
}
