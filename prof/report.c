/* The time profile as text (GHC's .prof layout) and as GHC's -pj JSON.
 * Nothing here aggregates: it walks the finished tree. */
#include "evprof/prof.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "evprof/json.h"
#include "evprof/textout.h"
#include "util/fmt.h"
#include "util/htab.h"
#include "util/error.h"

/* ---- shared ----------------------------------------------------------- */

/* The run's end as a date, like GHC's report (wall clock at the last event). */
static void end_date(const prof_info *in, char *buf, size_t size);

/* One run: the date at its end, as GHC's report; several (a sum of logs
 * or a merged log): the first run's start, the same for both. */
static void report_date(const prof_info *in, char *buf, size_t size)
{
    if (in->num_runs > 1 && in->has_first_wall)
        tx_date(buf, size, (long long)in->first_wall_sec);
    else if (in->num_runs > 1)
        snprintf(buf, size, "(no wall-clock event)");
    else
        end_date(in, buf, size);
}

static void end_date(const prof_info *in, char *buf, size_t size)
{
    if (!in->has_wall_clock) {
        snprintf(buf, size, "(no wall-clock event)");
        return;
    }
    uint64_t after = in->last_time > in->wall_time_ns ? in->last_time - in->wall_time_ns : 0;
    long long sec = (long long)(in->wall_sec + (in->wall_nsec + after) / 1000000000u);
    tx_date(buf, size, sec);
}

void prof_report_opts_init(prof_report_opts *o)
{
    o->threshold_pct = 0.0;
    o->max_depth = 0;
    o->source_name = NULL;
    o->jobs = 1;
}

void prof_runs_header(const prof_info *in, FILE *out)
{
    fprintf(out, "\t%u runs summed (", in->num_runs);
    if (in->num_logs > 1)
        fprintf(out, "%u logs", in->num_logs);
    else
        fputs("one merged log", out);
    fputs("):\n", out);
    for (uint32_t i = 0; i < in->num_run_cmds; i++) {
        fputs("\t   ", out);
        tx_put(out, in->run_cmds[i], strlen(in->run_cmds[i]));
        putc('\n', out);
    }
    if (in->num_runs > in->num_run_cmds)
        fprintf(out, "\t   (%u more without a command line in the log)\n",
                in->num_runs - in->num_run_cmds);
    if (in->selected_cap >= 0)
        fprintf(out, "\n\tthe ticks and the total time are the runs' sums of capability %d's "
                "samples\n\n", (int)in->selected_cap);
    else if (in->min_capabilities == in->capabilities)
        fputs("\n\tthe ticks and the total time are the runs' sums\n\n", out);
    else
        fprintf(out, "\n\tthe ticks are the runs' sum; the total time divides them by the most "
                "processors of any run (%u; the fewest %u), so it is below the sum of the "
                "runs' times\n\n", in->capabilities, in->min_capabilities);
}

/* The processors the ticks are of: the run's (GHC's getNumCapabilities()
 * at the end), or one when --cap selected one capability's samples. */
static uint32_t processors(const prof_info *in)
{
    return in->selected_cap >= 0 || !in->capabilities ? 1 : in->capabilities;
}

static double total_secs(const prof_info *in)
{
    return (double)in->total_ticks * (double)in->interval_ns / (1e9 * (double)processors(in));
}

/* --cap's line under the total time: what the ticks are of. */
static void selected_line(const prof_info *in, FILE *out)
{
    if (in->selected_cap < 0)
        return;
    fprintf(out, "\tselected    =  capability %d of ", (int)in->selected_cap);
    if (in->num_runs > 1 && in->min_capabilities && in->min_capabilities != in->capabilities)
        fprintf(out, "the runs' %u to %u", in->min_capabilities, in->capabilities);
    else
        fprintf(out, "the %s %u", in->num_runs > 1 ? "runs'" : "run's", in->capabilities);
    fprintf(out, " (--cap %d): its samples alone, so the ticks and the time are one "
            "processor's\n", (int)in->selected_cap);
}

static double pct(uint64_t part, uint64_t total)
{
    return total == 0 ? 0.0 : (double)part / (double)total * 100.0;
}

/* Is a node shown under the threshold and depth options? */
static int shown(const prof_node *nd, const prof_info *in, const prof_report_opts *o)
{
    if (o->max_depth && nd->depth > o->max_depth)
        return 0;
    if (o->threshold_pct > 0.0 && nd->depth > 0 &&
        pct(nd->inherited, in->total_ticks) < o->threshold_pct)
        return 0;
    return 1;
}

static int digits(uint64_t v)
{
    int n = 1;
    while (v > 9) {
        v /= 10;
        n++;
    }
    return n;
}

/* ---- text ------------------------------------------------------------- */

prof_cc_total *prof_summary(const prof_result *p, size_t *nrows)
{
    const prof_info *in = prof_get_info(p);
    size_t nccs = prof_num_ccs(p);
    prof_cc_total *t = calloc(nccs ? nccs : 1, sizeof *t);

    *nrows = 0;
    if (!t)
        return NULL;
    for (size_t i = 0; i < nccs; i++)
        t[i].cc = (uint32_t)i;
    for (size_t i = 0; i < prof_num_nodes(p); i++) {
        const prof_node *nd = prof_node_at(p, (uint32_t)i);
        t[nd->cc].ticks += nd->ticks;
    }
    size_t n = 0;
    for (size_t i = 0; i < nccs; i++)
        if (t[i].ticks > in->total_ticks / 100 && !prof_cc_at(p, t[i].cc)->synthetic)
            t[n++] = t[i];
    /* ticks descending, ties by descending id (GHC's CC_LIST order);
     * insertion sort: at most 100 rows pass the 1% cut */
    for (size_t i = 1; i < n; i++) {
        prof_cc_total x = t[i];
        size_t j = i;
        while (j > 0) {
            const prof_cc_total *y = &t[j - 1];
            uint32_t xid = prof_cc_at(p, x.cc)->id, yid = prof_cc_at(p, y->cc)->id;
            if (!(x.ticks > y->ticks || (x.ticks == y->ticks && xid > yid)))
                break;
            t[j] = t[j - 1];
            j--;
        }
        t[j] = x;
    }
    *nrows = n;
    return t;
}

double prof_summary_pct(uint64_t ticks, uint64_t total)
{
    return total == 0 ? 0.0 : (double)((float)ticks / (float)total * 100.0f);
}

/* GHC's summary table. */
static int summary(const prof_result *p, FILE *out)
{
    const prof_info *in = prof_get_info(p);
    size_t n;
    prof_cc_total *t = prof_summary(p, &n);
    if (!t)
        return -1;

    size_t wl = 11, wm = 6, ws = 3;
    for (size_t i = 0; i < n; i++) {
        const prof_cc *cc = prof_cc_at(p, t[i].cc);
        if (tx_width(cc->label) > wl) wl = tx_width(cc->label);
        if (tx_width(cc->module) > wm) wm = tx_width(cc->module);
        if (tx_width(cc->srcloc) > ws) ws = tx_width(cc->srcloc);
    }
    int tw = digits(in->total_ticks) > 5 ? digits(in->total_ticks) : 5;
    fprintf(out, "%-*s %-*s %-*s %6s  %*s\n\n", (int)wl, "COST CENTRE", (int)wm, "MODULE",
            (int)ws, "SRC", "%time", tw, "ticks");
    for (size_t i = 0; i < n; i++) {
        const prof_cc *cc = prof_cc_at(p, t[i].cc);
        tx_pad(out, cc->label, wl);
        putc(' ', out);
        tx_pad(out, cc->module, wm);
        putc(' ', out);
        tx_pad(out, cc->srcloc, ws);
        fprintf(out, " %6.1f  %*" PRIu64 "\n", prof_summary_pct(t[i].ticks, in->total_ticks),
                tw, t[i].ticks);
    }
    fputs("\n\n", out);
    free(t);
    return 0;
}

/* The tree's rows are written into one output buffer, flushed with a
 * fwrite when it fills. What a row repeats is made once: the visible form
 * of each cost centre's label, and its module and source columns padded
 * and joined (the "tail"), once the widths are known; and the text of a
 * tick count below NUM_CACHE, "%5.1f %*ticks", once per report. Short
 * pieces are copied in fixed sizes (copy_short, spaces_short), which may
 * write up to COPY_SLACK bytes past them. */
#define OUT_CHUNK (1u << 20)
#define NUM_CACHE 4096u
#define COPY_SLACK 64u

typedef struct cc_text {
    uint32_t label, label_len, label_w;     /* visible label in ctx.names */
    uint32_t tail, tail_len;                /* " module  src  " in ctx.tails */
    uint32_t module_w, src_w;
} cc_text;

typedef struct tree_ctx {
    const prof_info *in;
    const prof_report_opts *o;
    const prof_node *nodes;         /* the result's node table */
    FILE *out;
    size_t wl, wm, ws;
    int tw;
    uint64_t hidden;
    const uint32_t *order;          /* shown nodes, in print order */
    uint32_t *own_order;            /* order when not the result's own */
    size_t num_order;
    uint32_t *maxd;                 /* by cost centre: 1 + the deepest shown
                                     * node's depth (NULL: not known) */
    cc_text *cc;
    uint8_t *used;                  /* by cost centre: some node names it */
    char *names, *tails;
    char (*nums)[32];               /* "%5.1f %*ticks" of v < num_nums */
    uint32_t num_nums, nums_len;
    char *buf;
    size_t len, cap;
    int failed;
} tree_ctx;

/* The visible forms of the labels, the widths of the three columns. */
/* Only for the cost centres some node names: a log may define millions
 * and sample a few (the hostile-ccs bench log). */
static int cc_texts(tree_ctx *c, const prof_result *p)
{
    size_t n = prof_num_ccs(p), nn = prof_num_nodes(p), size = 0;
    if (!(c->used = calloc(n ? n : 1, 1)))
        return -1;
    if (c->maxd) {
        for (size_t i = 0; i < n; i++)
            c->used[i] = c->maxd[i] != 0;
    } else {
        for (size_t i = 0; i < nn; i++)
            c->used[c->nodes[i].cc] = 1;
    }
    for (size_t i = 0; i < n; i++)
        if (c->used[i])
            size += 4 * strlen(prof_cc_at(p, (uint32_t)i)->label) + 1;
    c->cc = calloc(n ? n : 1, sizeof *c->cc);
    c->names = malloc(size + COPY_SLACK);     /* copy_short reads past the last */
    if (!c->cc || !c->names)
        return -1;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        if (!c->used[i])
            continue;
        const prof_cc *cc = prof_cc_at(p, (uint32_t)i);
        cc_text *t = &c->cc[i];
        size_t len = strlen(cc->label);
        t->label = (uint32_t)at;
        t->label_len = (uint32_t)tx_vis(c->names + at, size - at, cc->label, len);
        at += t->label_len + 1;
        t->label_w = (uint32_t)tx_vis_width(cc->label, len);
        t->module_w = (uint32_t)tx_width(cc->module);
        t->src_w = (uint32_t)tx_width(cc->srcloc);
    }
    return 0;
}

/* The tails, once the module and source widths are known: " ", the
 * module padded to wm, " ", the source padded to ws, "  ". */
static int cc_tails(tree_ctx *c, const prof_result *p)
{
    size_t n = prof_num_ccs(p), size = 0;
    for (size_t i = 0; i < n; i++) {
        if (!c->used[i])
            continue;
        const prof_cc *cc = prof_cc_at(p, (uint32_t)i);
        size += 4 * (strlen(cc->module) + strlen(cc->srcloc)) + c->wm + c->ws + 6;
    }
    c->tails = malloc(size + COPY_SLACK);
    if (!c->tails)
        return -1;
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        if (!c->used[i])
            continue;
        const prof_cc *cc = prof_cc_at(p, (uint32_t)i);
        cc_text *t = &c->cc[i];
        char *d = c->tails + at;
        *d++ = ' ';
        d += tx_vis(d, size - (size_t)(d - c->tails), cc->module, strlen(cc->module));
        if (t->module_w < c->wm)
            d = tx_put_spaces(d, c->wm - t->module_w);
        *d++ = ' ';
        d += tx_vis(d, size - (size_t)(d - c->tails), cc->srcloc, strlen(cc->srcloc));
        if (t->src_w < c->ws)
            d = tx_put_spaces(d, c->ws - t->src_w);
        *d++ = ' ';
        *d++ = ' ';
        t->tail = (uint32_t)at;
        t->tail_len = (uint32_t)(d - (c->tails + at));
        at += t->tail_len;
    }
    return 0;
}

/* The next shown node down the print order (prof_preorder) from pre[*at]
 * on, or PROF_NONE at the end: a hidden subtree is skipped whole and
 * counted once, at its top, in *hidden. The nodes are fetched ahead:
 * they lie anywhere in a big table. */
static uint32_t next_shown(const prof_result *p, const prof_report_opts *o, const uint32_t *pre,
                           size_t num, size_t *at, uint64_t *hidden)
{
    const prof_info *in = prof_get_info(p);
    uint32_t skip = UINT32_MAX;     /* inside a hidden subtree below this depth */
    while (*at < num) {
        size_t i = (*at)++;
        if (i + 16 < num)
            TX_PREFETCH(prof_node_at(p, pre[i + 16]));
        const prof_node *nd = prof_node_at(p, pre[i]);
        if (nd->depth > skip)
            continue;
        if (pre[i] == 0 || shown(nd, in, o))
            return pre[i];
        (*hidden)++;
        skip = nd->depth;
    }
    return PROF_NONE;
}

/* Without --threshold and --max-depth every node of the print order is
 * shown: the order is the result's own, and the deepest place of each cost
 * centre comes from one pass in table order over the nodes the order
 * holds (marked from it first: a small array), not from a walk that
 * fetches every node in print order. -1 when out of memory. */
static int all_shown(tree_ctx *c, const prof_result *p)
{
    size_t num, nn = prof_num_nodes(p), n = prof_num_ccs(p);
    const uint32_t *pre = prof_preorder(p, &num);
    uint8_t *in = calloc(nn ? nn : 1, 1);
    c->maxd = calloc(n ? n : 1, sizeof *c->maxd);
    if (!in || !c->maxd) {
        free(in);
        return -1;
    }
    for (size_t i = 0; i < num; i++)
        in[pre[i]] = 1;
    for (size_t i = 0; i < nn; i++) {
        const prof_node *nd = &c->nodes[i];
        if (in[i] && nd->depth + 1 > c->maxd[nd->cc])
            c->maxd[nd->cc] = nd->depth + 1;
    }
    free(in);
    c->order = pre;
    c->num_order = num;
    return 0;
}

/* The column widths of the shown nodes, after all_shown and cc_texts. */
static void all_shown_widths(tree_ctx *c, const prof_result *p)
{
    size_t n = prof_num_ccs(p);
    for (size_t i = 0; i < n; i++) {
        if (!c->maxd[i])
            continue;
        const cc_text *t = &c->cc[i];
        if (c->maxd[i] - 1 + t->label_w > c->wl) c->wl = c->maxd[i] - 1 + t->label_w;
        if (t->module_w > c->wm) c->wm = t->module_w;
        if (t->src_w > c->ws) c->ws = t->src_w;
    }
}

/* The shown nodes into c->order, the hidden subtrees counted, the column
 * widths. */
static int walk_shown(tree_ctx *c, const prof_result *p)
{
    size_t num, at = 0;
    const uint32_t *pre = prof_preorder(p, &num);
    c->own_order = malloc((num ? num : 1) * sizeof *c->own_order);
    if (!c->own_order)
        return -1;
    tx_huge_hint(c->own_order, num * sizeof *c->own_order);
    c->order = c->own_order;
    for (uint32_t n; (n = next_shown(p, c->o, pre, num, &at, &c->hidden)) != PROF_NONE;) {
        const prof_node *nd = &c->nodes[n];
        const cc_text *t = &c->cc[nd->cc];
        c->own_order[c->num_order++] = n;
        if (nd->depth + t->label_w > c->wl) c->wl = nd->depth + t->label_w;
        if (t->module_w > c->wm) c->wm = t->module_w;
        if (t->src_w > c->ws) c->ws = t->src_w;
    }
    return 0;
}

static void flush(tree_ctx *c)
{
    if (c->len && fwrite(c->buf, 1, c->len, c->out) != c->len)
        c->failed = 1;
    c->len = 0;
}

/* The most bytes node n's row takes: wl columns, the tail, two numbers of
 * at most 32 bytes each with their spaces, the newline; and the slack
 * the fixed-size copies may write past them. */
static size_t row_room(const tree_ctx *c, uint32_t n)
{
    const cc_text *t = &c->cc[c->nodes[n].cc];
    return c->wl + t->label_len + t->tail_len + 2 * (size_t)c->tw + 64 + COPY_SLACK;
}

/* n bytes of s (readable COPY_SLACK / 2 bytes on) */
static inline char *copy_short(char *d, const char *s, size_t n)
{
    memcpy(d, s, n <= COPY_SLACK / 2 ? COPY_SLACK / 2 : n);
    return d + n;
}

static inline char *spaces_short(char *d, size_t n)
{
    static const char sp[COPY_SLACK] = "                                                                ";
    if (n > COPY_SLACK)
        return tx_put_spaces(d, n);
    memcpy(d, sp, COPY_SLACK);
    return d + n;
}

/* "%5.1f %*ticks" of v ticks, of 100% for the root */
static char *put_num_made(const tree_ctx *c, char *d, uint64_t v, int root)
{
    d = tx_put_pct(d, root ? 100.0 : pct(v, c->in->total_ticks));
    *d++ = ' ';
    return tx_put_u64_right(d, v, c->tw);
}

static inline char *put_num(const tree_ctx *c, char *d, uint64_t v)
{
    if (v < c->num_nums) {
        memcpy(d, c->nums[v], sizeof c->nums[v]);
        return d + c->nums_len;
    }
    return put_num_made(c, d, v, 0);
}

/* The texts of the tick counts below NUM_CACHE (none above the total);
 * -1 without memory. */
static int num_texts(tree_ctx *c)
{
    uint64_t total = c->in->total_ticks;
    uint32_t n = total < NUM_CACHE ? (uint32_t)total + 1 : NUM_CACHE;
    if (c->tw + 6 > (int)sizeof c->nums[0])
        return 0;               /* never: tw is at most 20 */
    if (!(c->nums = malloc(n * sizeof *c->nums)))
        return -1;
    for (uint32_t v = 0; v < n; v++) {
        char *d = tx_put_pct(c->nums[v], pct(v, total));
        *d++ = ' ';
        d = tx_put_u64_right(d, v, c->tw);
        /* 5 bytes for every percentage of at most the total, so one
         * length for every count */
        if ((uint32_t)(d - c->nums[v]) != (uint32_t)c->tw + 6)
            return 0;
    }
    c->num_nums = n;
    c->nums_len = (uint32_t)c->tw + 6;
    return 0;
}

/* Node n's row at d; returns its end. */
static char *put_row(const tree_ctx *c, char *d, uint32_t n)
{
    const prof_node *nd = &c->nodes[n];
    const cc_text *t = &c->cc[nd->cc];
    d = spaces_short(d, nd->depth);
    d = copy_short(d, c->names + t->label, t->label_len);
    if (nd->depth + t->label_w < c->wl)
        d = spaces_short(d, c->wl - nd->depth - t->label_w);
    d = copy_short(d, c->tails + t->tail, t->tail_len);
    d = put_num(c, d, nd->ticks);
    memcpy(d, "   ", 3);
    d += 3;
    if (n == 0 && c->in->total_ticks)       /* the root: 100% whatever its ticks */
        d = put_num_made(c, d, nd->inherited, 1);
    else
        d = put_num(c, d, nd->inherited);
    *d++ = '\n';
    return d;
}

/* The rows of c->order[from .. to) into buf (len, cap; grown as needed),
 * or through out's buffer to out->out when out is set (then buf, len and
 * cap are out's). -1: out of memory. The buffer is kept in locals: the
 * formatters of the other threads read c's line, and a store per row to
 * a shared line would make every row a cache miss for them. */
static int put_rows(const tree_ctx *c, size_t from, size_t to, char **buf, size_t *len,
                    size_t *cap, tree_ctx *out)
{
    char *b = *buf;
    size_t n_len = *len, n_cap = *cap;
    int rc = 0;

    for (size_t i = from; i < to; i++) {
        /* the nodes lie anywhere in a big table: fetch ahead */
        if (i + 16 < to)
            TX_PREFETCH(&c->nodes[c->order[i + 16]]);
        if (i + 8 < to)
            TX_PREFETCH(&c->cc[c->nodes[c->order[i + 8]].cc]);
        uint32_t n = c->order[i];
        size_t room = row_room(c, n);
        if (n_len + room > n_cap) {
            if (out) {
                *buf = b;       /* out's own */
                *cap = n_cap;
                out->len = n_len;
                flush(out);
                n_len = 0;
                if (out->failed)
                    break;
            }
            if (n_len + room > n_cap) {
                size_t want = n_cap ? n_cap : OUT_CHUNK;
                while (want < n_len + room)
                    want *= 2;
                char *nb = realloc(b, want);
                if (!nb) {
                    rc = -1;
                    break;
                }
                b = nb;
                n_cap = want;
            }
        }
        n_len = (size_t)(put_row(c, b + n_len, n) - b);
    }
    *buf = b;
    *len = n_len;
    *cap = n_cap;
    return rc;
}

/* ---- the rows on several threads (prof_report_opts.jobs) ----------------
 * The shown rows are cut into blocks of ROW_BLOCK; block b is formatted
 * by formatter b % jobs (0: this thread, which also writes), into a slot
 * of a ring of 2 * jobs buffers, and written in block order. A formatter
 * runs at most two blocks ahead of the writer, so the extra memory is a
 * few buffers whatever the report's size; the bytes are those of one
 * thread. */
#define ROW_BLOCK 8192u
#define ROW_MAX_JOBS 16u

typedef struct row_slot {
    char *buf;
    size_t len, cap;
    size_t block;                   /* the block it holds, when ready */
    int ready, failed;
} row_slot;

typedef struct row_pool {
    tree_ctx ro;                    /* the formatters' copy, never written */
    unsigned jobs;
    size_t num_blocks;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    row_slot slots[2 * ROW_MAX_JOBS];
    int stop;                       /* the writer failed: formatters end */
} row_pool;

typedef struct row_worker {
    row_pool *pool;
    unsigned index;                 /* 1 .. jobs - 1 */
} row_worker;

static void *row_formatter(void *arg)
{
    row_worker *w = arg;
    row_pool *rp = w->pool;
    const tree_ctx *c = &rp->ro;
    const unsigned nslots = 2 * rp->jobs;

    for (size_t b = w->index; b < rp->num_blocks; b += rp->jobs) {
        row_slot *s = &rp->slots[b % nslots];
        pthread_mutex_lock(&rp->mu);
        while (s->ready && !rp->stop)
            pthread_cond_wait(&rp->cv, &rp->mu);
        int stop = rp->stop;
        pthread_mutex_unlock(&rp->mu);
        if (stop)
            break;
        size_t from = b * ROW_BLOCK, to = from + ROW_BLOCK < c->num_order ? from + ROW_BLOCK
                                                                           : c->num_order;
        s->len = 0;
        s->failed = put_rows(c, from, to, &s->buf, &s->len, &s->cap, NULL) != 0;
        pthread_mutex_lock(&rp->mu);
        s->block = b;
        s->ready = 1;
        pthread_cond_broadcast(&rp->cv);
        pthread_mutex_unlock(&rp->mu);
    }
    return NULL;
}

/* The rows on rp->jobs threads; 0, or -1 when no thread could be made
 * (nothing written: the caller writes them on this one). */
static int rows_parallel(tree_ctx *c, unsigned jobs)
{
    row_pool *rp = calloc(1, sizeof *rp);
    row_worker w[ROW_MAX_JOBS];
    pthread_t th[ROW_MAX_JOBS];
    unsigned started = 0;

    if (!rp)
        return -1;
    /* a copy, made before the threads start: the writer's stores to its
     * own fields would share their lines (see put_rows) */
    rp->ro = *c;
    rp->jobs = jobs;
    rp->num_blocks = (c->num_order + ROW_BLOCK - 1) / ROW_BLOCK;
    pthread_mutex_init(&rp->mu, NULL);
    pthread_cond_init(&rp->cv, NULL);
    for (unsigned i = 1; i < jobs; i++) {
        w[i] = (row_worker){ rp, i };
        if (pthread_create(&th[i], NULL, row_formatter, &w[i]) != 0)
            break;
        started++;
    }
    if (started + 1 < jobs) {       /* all or none: block b's formatter is fixed */
        pthread_mutex_lock(&rp->mu);
        rp->stop = 1;
        pthread_cond_broadcast(&rp->cv);
        pthread_mutex_unlock(&rp->mu);
        for (unsigned i = 1; i <= started; i++)
            pthread_join(th[i], NULL);
        pthread_cond_destroy(&rp->cv);
        pthread_mutex_destroy(&rp->mu);
        for (unsigned i = 0; i < 2 * jobs; i++)
            free(rp->slots[i].buf);
        free(rp);
        return -1;
    }
    const unsigned nslots = 2 * jobs;
    for (size_t b = 0; b < rp->num_blocks && !c->failed; b++) {
        size_t from = b * ROW_BLOCK, to = from + ROW_BLOCK < c->num_order ? from + ROW_BLOCK
                                                                           : c->num_order;
        if (b % jobs == 0) {
            if (put_rows(c, from, to, &c->buf, &c->len, &c->cap, c) != 0)
                c->failed = 1;
            continue;
        }
        row_slot *s = &rp->slots[b % nslots];
        pthread_mutex_lock(&rp->mu);
        while (!(s->ready && s->block == b))
            pthread_cond_wait(&rp->cv, &rp->mu);
        pthread_mutex_unlock(&rp->mu);
        flush(c);
        if (s->failed || (s->len && fwrite(s->buf, 1, s->len, c->out) != s->len))
            c->failed = 1;
        pthread_mutex_lock(&rp->mu);
        s->ready = 0;
        pthread_cond_broadcast(&rp->cv);
        pthread_mutex_unlock(&rp->mu);
    }
    flush(c);
    pthread_mutex_lock(&rp->mu);
    rp->stop = 1;
    pthread_cond_broadcast(&rp->cv);
    pthread_mutex_unlock(&rp->mu);
    for (unsigned i = 1; i < jobs; i++)
        pthread_join(th[i], NULL);
    pthread_cond_destroy(&rp->cv);
    pthread_mutex_destroy(&rp->mu);
    for (unsigned i = 0; i < nslots; i++)
        free(rp->slots[i].buf);
    free(rp);
    return 0;
}

static void rows(tree_ctx *c, unsigned jobs)
{
    if (jobs > ROW_MAX_JOBS)
        jobs = ROW_MAX_JOBS;
    /* a thread pays for itself from a few blocks each */
    if (jobs > 1 && c->num_order >= 4 * (size_t)ROW_BLOCK * jobs && rows_parallel(c, jobs) == 0)
        return;
    if (put_rows(c, 0, c->num_order, &c->buf, &c->len, &c->cap, c) != 0)
        c->failed = 1;
    flush(c);
}

int prof_report_text(const prof_result *p, const prof_report_opts *o, FILE *out)
{
    prof_report_opts defaults;
    if (!o) {
        prof_report_opts_init(&defaults);
        o = &defaults;
    }
    const prof_info *in = prof_get_info(p);
    char date[64];

    report_date(in, date, sizeof date);
    fprintf(out, "\t%s Time Profiling Report  (from the eventlog)\n\n", date);
    if (in->num_runs > 1) {
        /* a sum of runs (report A B, or a merged log): the same header */
        prof_runs_header(in, out);
    } else {
        fputs("\t   ", out);
        tx_put(out, in->program, strlen(in->program));
        fputs(" +RTS", out);
        for (uint32_t i = 0; i < in->num_rts_args; i++) {
            putc(' ', out);
            tx_put(out, in->rts_args[i], strlen(in->rts_args[i]));
        }
        fputs(" -RTS", out);
        for (uint32_t i = 0; i < in->num_args; i++) {
            putc(' ', out);
            tx_put(out, in->args[i], strlen(in->args[i]));
        }
        fputs("\n\n", out);
    }
    fprintf(out, "\ttotal time  = %11.2f secs   (%" PRIu64 " ticks @ %" PRIu64 " us, %u processor%s)\n",
            total_secs(in), in->total_ticks, in->interval_ns / 1000, processors(in),
            processors(in) > 1 ? "s" : "");
    selected_line(in, out);
    fputs("\ttotal alloc =  not in the eventlog (GHC issue 24106): no entries or %alloc columns\n\n",
          out);

    if (summary(p, out) != 0)
        return -1;

    tree_ctx c = { 0 };
    c.in = in;
    c.o = o;
    c.nodes = prof_node_at(p, 0);   /* the table is contiguous */
    c.out = out;
    c.wl = 11;
    c.wm = 6;
    c.ws = 3;
    c.tw = digits(in->total_ticks) > 5 ? digits(in->total_ticks) : 5;
    c.cap = OUT_CHUNK;
    c.buf = malloc(c.cap);
    int every = !o->max_depth && !(o->threshold_pct > 0.0);
    if (!c.buf || (every && all_shown(&c, p) != 0) || cc_texts(&c, p) != 0 ||
        (every ? (all_shown_widths(&c, p), 0) : walk_shown(&c, p)) != 0 || cc_tails(&c, p) != 0 ||
        num_texts(&c) != 0)
        c.failed = 1;
    if (!c.failed) {
        int col = 5 + 1 + c.tw;
        fprintf(out, "%-*s %-*s %-*s  %*s   %*s\n", (int)c.wl, "", (int)c.wm, "", (int)c.ws,
                "", col, "individual", col, "inherited");
        fprintf(out, "%-*s %-*s %-*s  %5s %*s   %5s %*s\n\n", (int)c.wl, "COST CENTRE",
                (int)c.wm, "MODULE", (int)c.ws, "SRC", "%time", c.tw, "ticks", "%time", c.tw,
                "ticks");
        rows(&c, o->jobs);
    }
    free(c.buf);
    free(c.own_order);
    free(c.maxd);
    free(c.cc);
    free(c.used);
    free(c.names);
    free(c.tails);
    free(c.nums);
    if (c.failed)
        return -1;

    /* what the numbers leave out, said plainly */
    int notes = 0;
#define NOTE(...) do { if (!notes++) fputs("\n", out); fprintf(out, __VA_ARGS__); } while (0)
    if (in->ignored_ticks)
        NOTE("%" PRIu64 " ticks in GHC's built-in stacks (GC, SYSTEM, IDLE, OVERHEAD_of, "
             "DONT_CARE) are not counted, as with +RTS -p; --all counts them.\n",
             in->ignored_ticks);
    if (in->filtered_ticks)
        NOTE("%" PRIu64 " of %" PRIu64 " samples are outside the time window or capability "
             "selected.\n", in->filtered_ticks, in->all_samples);
    if (in->undefined_ccs)
        NOTE("%" PRIu64 " cost-centre ids are named by samples but never defined in the log "
             "(GHC issue 24148): shown as <undefined cc N>.\n", in->undefined_ccs);
    if (in->cut_samples)
        NOTE("%" PRIu64 " samples had stacks deeper than 255 frames; their root frames are "
             "lost, so they hang under <stack cut at 255 frames>.\n", in->cut_samples);
    if (c.hidden)
        NOTE("%" PRIu64 " subtrees hidden by --threshold/--max-depth.\n", c.hidden);
    /* what the ticks are, and what GHC's own .prof of the run was seen to
     * do beside them (docs/PROF.md): observations, never a bound */
    prof_agreement ag;
    if (prof_ghc_agreement(in->rts_version, &ag)) {
        const char *rts = ag.threaded ? "threaded" : "non-threaded";
        NOTE("Every tick above is one of the log's own samples (event 167), counted once.");
        if (!ag.exact)
            fputs(" GHC's own .prof of the same run can differ by no fixed amount: GHC reads "
                  "the stack twice per tick, and the program runs on between the two reads.",
                  out);
        fprintf(out, "\nGHC %s, %s RTS: ", ag.log_ghc, rts);
        if (!ag.measured)
            fprintf(out, "not measured; on GHC %s's, ", ag.ghc);
        if (ag.exact)
            fprintf(out, "GHC's own .prof of the same run had the same ticks, every row and "
                    "the total, in all %u runs measured (%u programs, docs/PROF.md).\n",
                    ag.runs, ag.programs);
        else {
            fprintf(out, "seen so far (docs/PROF.md: %u runs of %u programs%s): a row differed "
                    "by up to %u.%u%% of its run's total (%s: %s), ", ag.runs, ag.programs,
                    ag.others ? ", and earlier observations" : "", ag.row_permille / 10,
                    ag.row_permille % 10, ag.row_program, ag.row_kind);
            if (ag.total_ticks)
                fprintf(out, "a total by up to %u ticks.\n", ag.total_ticks);
            else
                fputs("the totals never.\n", out);
        }
    }
    if (in->interval_ns == 0)
        NOTE("The log has no PROF_BEGIN event: the tick interval, and so the total time, "
             "are unknown.\n");
#undef NOTE
    return ferror(out) ? -1 : 0;
}

/* ---- JSON (-pj) -------------------------------------------------------- */

/* The tree, as tx_json writes inline objects (", " between items, ": "
 * after a key), but written by hand into an output buffer (util/fmt.h):
 * two containers, five keys and five numbers per stack through the
 * general writer were most of the JSON's time. */
#define TREE_LIT(d, s) (memcpy(d, s, sizeof s - 1), (d) + sizeof s - 1)

static void json_tree(const prof_result *p, const prof_report_opts *o, tx_json *j)
{
    tx_obuf t;
    FILE *f = tx_json_raw_begin(j);
    if (!f || tx_obuf_open(&t, f, TX_OBUF_SIZE) != 0) {
        if (f)
            tx_json_raw_end(j);
        else
            tx_json_null(j);    /* the document stays whole; finish reports it */
        j->failed = 1;
        return;
    }
    /* down the print order: a node's object opens when it comes and
     * closes when a node no deeper comes */
    size_t num, at = 0;
    const uint32_t *pre = prof_preorder(p, &num);
    uint64_t hidden = 0;
    uint8_t has_child[EL_MAX_STACK + 3];
    size_t top = 0;
    for (uint32_t n; (n = next_shown(p, o, pre, num, &at, &hidden)) != PROF_NONE;) {
        const prof_node *nd = prof_node_at(p, n);
        if (nd->depth >= sizeof has_child)
            break;              /* never: depth is the parent's + 1 */
        /* the closings (2 bytes each), then at most 101 bytes */
        char *d = tx_obuf_room(&t, 2 * (top - (top > nd->depth ? nd->depth : top)) + 128);
        if (!d)
            break;
        for (; top > nd->depth; top--)
            d = TREE_LIT(d, "]}");
        if (top > 0 && has_child[top - 1])
            d = TREE_LIT(d, ", ");
        if (top > 0)
            has_child[top - 1] = 1;
        d = TREE_LIT(d, "{\"id\": ");
        d = tx_put_u64(d, prof_cc_at(p, nd->cc)->id);
        d = TREE_LIT(d, ", \"entries\": 0, \"alloc\": 0, \"ticks\": ");
        d = tx_put_u64(d, nd->ticks);
        d = TREE_LIT(d, ", \"children\": [");
        tx_obuf_done(&t, d);
        has_child[top++] = 0;
    }
    char *d = tx_obuf_room(&t, 2 * top);
    if (d) {
        for (; top > 0; top--)
            d = TREE_LIT(d, "]}");
        tx_obuf_done(&t, d);
    }
    if (tx_obuf_close(&t) != 0)
        j->failed = 1;
    tx_json_raw_end(j);
}

/* prof_cc_total reused with the id in `ticks` */
static int cmp_desc_id(const void *a, const void *b)
{
    const prof_cc_total *x = a, *y = b;
    return x->ticks > y->ticks ? -1 : x->ticks < y->ticks;
}

int prof_report_json(const prof_result *p, const prof_report_opts *o, FILE *out)
{
    prof_report_opts defaults;
    if (!o) {
        prof_report_opts_init(&defaults);
        o = &defaults;
    }
    const prof_info *in = prof_get_info(p);
    char date[64];
    /* GHC lists the cost centres newest first: descending id */
    size_t n = prof_num_ccs(p);
    prof_cc_total *order = malloc((n ? n : 1) * sizeof *order);
    tx_json *j = malloc(sizeof *j);
    if (!order || !j) {
        free(order);
        free(j);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        order[i].cc = (uint32_t)i;
        order[i].ticks = prof_cc_at(p, (uint32_t)i)->id;
    }
    qsort(order, n, sizeof *order, cmp_desc_id);

    report_date(in, date, sizeof date);
    /* GHC's layout: one key a line, unindented */
    tx_json_init(j, out, 0, 0);
    tx_json_object(j, TX_JSON_BLOCK);
    tx_json_kv_cstr(j, "program", in->program);
    tx_json_key(j, "arguments");
    tx_json_array(j, TX_JSON_INLINE);
    for (uint32_t i = 0; i < in->num_args + (in->argc ? 1 : 0); i++)
        tx_json_cstr(j, i == 0 ? in->argv[0] : in->args[i - 1]);
    tx_json_end(j);
    tx_json_key(j, "rts_arguments");
    tx_json_array(j, TX_JSON_INLINE);
    for (uint32_t i = 0; i < in->num_rts_args; i++)
        tx_json_cstr(j, in->rts_args[i]);
    tx_json_end(j);
    tx_json_kv_cstr(j, "end_time", date);
    tx_json_kv_uint(j, "initial_capabilities", in->initial_capabilities);
    tx_json_key(j, "total_time");
    tx_json_fixed(j, total_secs(in), 11, 2);        /* GHC's %11.2f */
    tx_json_kv_uint(j, "total_ticks", in->total_ticks);
    tx_json_kv_uint(j, "tick_interval", in->interval_ns / 1000);
    tx_json_kv_uint(j, "total_alloc", 0);
    tx_json_kv_cstr(j, "evprof_note", "Built from the eventlog by evprof: entries and alloc are not recorded in "
                    "eventlogs (GHC issue 24106) and are written as 0.");
    if (in->num_runs > 1) {
        /* a sum of runs: which, and what the totals are (the text's header) */
        tx_json_key(j, "evprof_runs");
        tx_json_object(j, TX_JSON_INLINE);
        tx_json_kv_uint(j, "count", in->num_runs);
        tx_json_kv_uint(j, "logs", in->num_logs);
        tx_json_key(j, "command_lines");
        tx_json_array(j, TX_JSON_INLINE);
        for (uint32_t i = 0; i < in->num_run_cmds; i++)
            tx_json_cstr(j, in->run_cmds[i]);
        tx_json_end(j);
        tx_json_kv_uint(j, "fewest_capabilities", in->min_capabilities);
        tx_json_kv_uint(j, "most_capabilities", in->capabilities);
        tx_json_key(j, "note");
        tx_json_cstr(j, in->selected_cap >= 0
                     ? "program, arguments and rts_arguments are the last run's; total_ticks "
                       "and total_time are the runs' sums of the selected capability's "
                       "samples (evprof_selected); initial_capabilities the most of any run"
                     : "program, arguments and rts_arguments are the last run's; total_ticks "
                       "and total_time are the runs' sums, total_time over the most "
                       "capabilities of any run (most_capabilities); initial_capabilities "
                       "the most of any run");
        tx_json_end(j);
    }
    if (in->selected_cap >= 0) {
        /* --cap: the ticks are one capability's (the text's "selected" line) */
        tx_json_key(j, "evprof_selected");
        tx_json_object(j, TX_JSON_INLINE);
        tx_json_kv_uint(j, "capability", (uint64_t)in->selected_cap);
        tx_json_kv_uint(j, "capabilities", in->capabilities);
        tx_json_key(j, "note");
        tx_json_cstr(j, "total_ticks, total_time and the profile's ticks are this capability's "
                        "samples alone: total_time is one processor's");
        tx_json_end(j);
    }
    tx_json_key(j, "cost_centres");
    tx_json_array(j, TX_JSON_INLINE);
    tx_json_space(j, "\n");
    for (size_t i = 0; i < n; i++) {
        const prof_cc *cc = prof_cc_at(p, order[i].cc);
        tx_json_object(j, TX_JSON_INLINE);
        tx_json_kv_uint(j, "id", cc->id);
        tx_json_kv_cstr(j, "label", cc->label);
        tx_json_kv_cstr(j, "module", cc->module);
        tx_json_kv_cstr(j, "src_loc", cc->srcloc);
        tx_json_kv_bool(j, "is_caf", cc->is_caf);
        tx_json_end(j);
    }
    free(order);
    tx_json_end(j);
    tx_json_key(j, "profile");
    json_tree(p, o, j);
    tx_json_end(j);
    tx_json_space(j, "\n");
    int rc = tx_json_finish(j);
    free(j);
    return rc;
}

/* ---- the table of formats (evprof/format.h) ---- */

static ev_status write_text(const void *r, const void *o, FILE *out, ev_error *err)
{
    return ev_write_status(prof_report_text(r, o, out), err, "the report");
}

static ev_status write_json(const void *r, const void *o, FILE *out, ev_error *err)
{
    return ev_write_status(prof_report_json(r, o, out), err, "the JSON report");
}

static const ev_format formats[] = {
    { "text", ".prof .txt", write_text, 0 },
    { "json", ".json", write_json, 0 },
};

const ev_format *prof_formats(size_t *count)
{
    *count = sizeof formats / sizeof formats[0];
    return formats;
}
