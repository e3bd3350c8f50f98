/* Folded stacks ("collapsed stacks") for flamegraph.pl, inferno and
 * speedscope: one line per distinct stack, frames root to leaf joined by
 * ';', a space, the stack's individual ticks.
 *
 * The format has no escapes, so each frame's text is cleaned (see
 * prof_folded_frame and docs/FLAMEGRAPH.md). GHC gives the same label and
 * module to SCCs at different places (namesakes, prof_namesakes): a
 * frame of `name` is a namesake's `src` frame, so that they stay apart.
 * Cleaning can still give two different cost centres the same text (and
 * `label` drops the module), so two tree paths can print alike: such
 * paths are merged into one line whose count is their sum, as "one line
 * per distinct stack" requires.
 *
 * Memory: the frame texts of the cost centres; when some frame texts
 * coincide, 13 bytes per tree node plus a table of 24 bytes per node
 * that could merge (half full). Lines are gathered in a 256 KiB buffer
 * (util/fmt.h) and written when it fills.
 */
#include "evprof/prof.h"
#include "evprof/textout.h"

#include <stdlib.h>
#include <string.h>

#include "util/fmt.h"
#include "util/hash.h"
#include "util/htab.h"

void prof_folded_opts_init(prof_folded_opts *o)
{
    o->frame = PROF_FRAME_NAME;
}

int prof_frame_format_parse(const char *word, prof_frame_format *f)
{
    static const struct { const char *word; prof_frame_format f; } formats[] = {
        { "name", PROF_FRAME_NAME }, { "label", PROF_FRAME_LABEL }, { "src", PROF_FRAME_SRC },
    };
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (strcmp(word, formats[i].word) == 0) {
            *f = formats[i].f;
            return 0;
        }
    return -1;
}

/* ---- one frame -------------------------------------------------------- */

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Appends the visible form of s (evprof/textout.h: control bytes
 * escaped, bad UTF-8 as U+FFFD) to buf, as far as it fits; returns the
 * new length. */
static size_t put(char *buf, size_t size, size_t len, const char *s)
{
    size_t room = len < size ? size - len : 0;
    return len + tx_vis(room ? buf + len : NULL, room, s, strlen(s));
}

size_t prof_folded_frame(const prof_cc *cc, prof_frame_format f, char *buf, size_t size)
{
    size_t len = 0;
    /* GHC's built-ins (MAIN, GC, IDLE, ...) and evprof's own frames (the
     * cut marker) are known by their label alone */
    int bare = cc->synthetic || strcmp(cc->srcloc, "<built-in>") == 0;

    if (!bare && f != PROF_FRAME_LABEL) {
        len = put(buf, size, len, cc->module);
        len = put(buf, size, len, ".");
    }
    len = put(buf, size, len, cc->label);
    if (!bare && f == PROF_FRAME_SRC) {
        len = put(buf, size, len, " (");
        len = put(buf, size, len, cc->srcloc);
        len = put(buf, size, len, ")");
    }
    if (size == 0)
        return len;
    size_t n = len < size - 1 ? len : size - 1;
    buf[n] = '\0';

    /* ';' separates frames (control characters, which would split or
     * blur the line, are escaped already) */
    for (size_t i = 0; i < n; i++)
        if (buf[i] == ';')
            buf[i] = ':';
    /* A frame never ends in whitespace, nor in whitespace and a number
     * (\d+(\.\d*)?): as the leaf, flamegraph.pl would take that number for
     * a second (differential) count. That whitespace becomes '_'. Done on
     * every frame, so a cost centre prints alike wherever it stands. */
    if (n == len) {
        size_t i = n, q = n;
        while (i > 0 && is_digit(buf[i - 1]))
            i--;
        if (i < n)
            q = i;
        if (i > 0 && buf[i - 1] == '.') {
            size_t k = i - 1;
            while (k > 0 && is_digit(buf[k - 1]))
                k--;
            if (k < i - 1)
                q = k;
        }
        for (size_t j = q; j > 0 && buf[j - 1] == ' '; j--)
            buf[j - 1] = '_';
    }
    return len;
}

/* ---- the stacks -------------------------------------------------------- */

typedef struct folded {
    const prof_result *p;
    const prof_node *nodes;     /* p's, in table order */
    tx_obuf out;
    char *texts;                /* the frame texts, one after another */
    size_t *frame;              /* per cost centre in the tree, where its text starts */
    uint32_t *frame_len;
    uint32_t *cls;              /* per cost centre: its distinct frame text */
    uint32_t num_cls;
    uint8_t *shared;            /* per class: more than one cost centre prints so */
    int any_shared;             /* some class is */

    /* merging paths that print alike (only when frame texts coincide) */
    uint8_t *may_merge;         /* per node: at or below a shared class */
    uint32_t *canon;            /* per node: the first printing alike (itself if none) */
    uint64_t *sum;              /* per canonical node: ticks of its class */
    tx_htab merge;              /* (canonical parent, class) -> canonical node */

    /* the line being built: frames of the current path */
    char *line;
    size_t line_cap;
    size_t *depth_len;          /* line length after the frame at each depth */
    size_t *depth_start;        /* where the path of the node at each depth starts */
    int failed;
} folded;

/* A node whose stack starts afresh: MAIN, and the marker under which
 * stacks cut at 255 frames hang (their outer frames, MAIN included, are
 * lost, so the marker is their root). */
static int is_root(const folded *f, uint32_t n)
{
    const prof_node *nd = &f->nodes[n];
    return nd->parent == PROF_NONE ||
           (nd->parent == 0 && prof_cc_at(f->p, nd->cc)->synthetic);
}

/* Does cost centre j print as cost centre *key does? */
static int frame_eq(const void *ctx, uint32_t j, const void *key)
{
    const folded *f = ctx;
    uint32_t i = *(const uint32_t *)key;
    return f->frame_len[j] == f->frame_len[i] &&
           memcmp(f->texts + f->frame[j], f->texts + f->frame[i], f->frame_len[i]) == 0;
}

/* Frame texts of the cost centres some node names (in one block; a log
 * may define millions and sample a few) and the classes of equal texts
 * among them. A namesake's `name` frame is its `src` one. */
static int make_frames(folded *f, prof_frame_format fmt)
{
    size_t n = prof_num_ccs(f->p), nn = prof_num_nodes(f->p), size = 0, used = 0;
    uint8_t *in_tree = calloc(n ? n : 1, 1);
    uint8_t *namesake = NULL;
    if (fmt == PROF_FRAME_NAME) {
        namesake = malloc(n ? n : 1);
        if (!namesake || prof_namesakes(f->p, namesake) < 0) {
            free(in_tree);
            free(namesake);
            return -1;
        }
    }
    f->frame = calloc(n ? n : 1, sizeof *f->frame);
    f->frame_len = calloc(n ? n : 1, sizeof *f->frame_len);
    f->cls = calloc(n ? n : 1, sizeof *f->cls);
    f->shared = calloc(n ? n : 1, 1);
    tx_htab table = { 0 };      /* frame text -> its first cost centre */
    if (!in_tree || !f->frame || !f->frame_len || !f->cls || !f->shared) {
        free(in_tree);
        free(namesake);
        return -1;
    }
    for (size_t i = 0; i < nn; i++)
        in_tree[f->nodes[i].cc] = 1;
    for (size_t i = 0; i < n; i++)
        used += in_tree[i];
    if (tx_htab_reserve(&table, used) != 0) {
        free(in_tree);
        free(namesake);
        return -1;
    }
    /* each text made once, into a block grown as it fills (then cut to
     * what it holds) */
    size_t cap = 16 * used + 4096;
    if (!(f->texts = malloc(cap))) {
        free(in_tree);
        free(namesake);
        tx_htab_free(&table);
        return -1;
    }
    for (uint32_t i = 0; i < n; i++) {
        if (!in_tree[i])
            continue;
        const prof_cc *cc = prof_cc_at(f->p, i);
        prof_frame_format ff = namesake && namesake[i] ? PROF_FRAME_SRC : fmt;
        size_t len = prof_folded_frame(cc, ff, f->texts + size, cap - size);
        if (len >= UINT32_MAX) {
            free(in_tree);
            free(namesake);
            tx_htab_free(&table);
            return -1;
        }
        if (len + 1 > cap - size) {
            size_t want = cap * 2;
            while (want < size + len + 1)
                want *= 2;
            char *t = realloc(f->texts, want);
            if (!t) {
                free(in_tree);
                free(namesake);
                tx_htab_free(&table);
                return -1;
            }
            f->texts = t;
            cap = want;
            prof_folded_frame(cc, ff, f->texts + size, cap - size);
        }
        f->frame[i] = size;
        f->frame_len[i] = (uint32_t)len;
        size += len + 1;
        char *text = f->texts + f->frame[i];
        uint64_t h = hash_bytes(text, f->frame_len[i], 0);
        uint32_t j = tx_htab_find(&table, h, frame_eq, f, &i);
        if (j != TX_HTAB_NONE) {
            f->cls[i] = f->cls[j];
            f->shared[f->cls[i]] = 1;
            f->any_shared = 1;
        } else {
            tx_htab_insert(&table, h, i);       /* reserved: cannot fail */
            f->cls[i] = f->num_cls++;
        }
    }
    char *t = realloc(f->texts, size ? size : 1);
    if (t)
        f->texts = t;
    free(in_tree);
    free(namesake);
    tx_htab_free(&table);
    return 0;
}

/* Pass 1 (only when frame texts coincide): the first node of each
 * distinct printed path, in tree order, collects the ticks of all.
 *
 * Two nodes print alike only below two different cost centres of one
 * text: going up their paths side by side, the frames match until the
 * paths meet (or reach their roots, MAIN and the cut marker, which print
 * apart), and just below where they meet stand two children of one node,
 * so two cost centres, printing alike. A node at or below no such cost
 * centre (may_merge 0) prints a path of its own: it is its own canonical
 * node, never looked up, and stays out of the table. */
typedef struct merge_key {
    uint32_t parent, cls;
} merge_key;

/* The canonical parent of node n's path (PROF_NONE at a root). */
static uint32_t canon_parent(const folded *f, uint32_t n)
{
    return is_root(f, n) ? PROF_NONE : f->canon[f->nodes[n].parent];
}

static int merge_eq(const void *ctx, uint32_t m, const void *key)
{
    const folded *f = ctx;
    const merge_key *k = key;
    return f->cls[f->nodes[m].cc] == k->cls && canon_parent(f, m) == k->parent;
}

static int merge_visit(void *ctx, uint32_t n)
{
    folded *f = ctx;
    const prof_node *nd = &f->nodes[n];
    if (!f->may_merge[n]) {
        f->canon[n] = n;
        return 0;
    }
    merge_key key = { canon_parent(f, n), f->cls[nd->cc] };
    uint64_t h = hash_mix64((uint64_t)key.parent << 32 | key.cls);
    uint32_t m = tx_htab_find(&f->merge, h, merge_eq, f, &key);

    if (m == TX_HTAB_NONE) {
        tx_htab_insert(&f->merge, h, n);        /* reserved: cannot fail */
        m = n;
    }
    f->canon[n] = m;
    f->sum[m] += nd->ticks;
    return 0;
}

/* Pass 2: the line of each stack with ticks. */
static int print_visit(void *ctx, uint32_t n)
{
    folded *f = ctx;
    const prof_node *nd = &f->nodes[n];
    size_t start, base;
    /* a cut marker's path starts afresh, but after MAIN's text, which
     * MAIN's other children still need */
    if (nd->parent == PROF_NONE)
        start = base = 0;
    else if (is_root(f, n))
        start = base = f->depth_len[nd->depth - 1];
    else {
        start = f->depth_start[nd->depth - 1];
        base = f->depth_len[nd->depth - 1];
    }
    size_t flen = f->frame_len[nd->cc];
    size_t need = base + 1 + flen + 1 + 20 + 1;

    if (need > f->line_cap) {
        size_t cap = f->line_cap * 2;
        while (cap < need)
            cap *= 2;
        char *l = realloc(f->line, cap);
        if (!l) {
            f->failed = 1;
            return -1;
        }
        f->line = l;
        f->line_cap = cap;
    }
    size_t len = base;
    if (base > start)
        f->line[len++] = ';';
    memcpy(f->line + len, f->texts + f->frame[nd->cc], flen);
    len += flen;
    f->depth_len[nd->depth] = len;
    f->depth_start[nd->depth] = start;

    uint64_t ticks = !f->canon || !f->may_merge[n] ? nd->ticks
                   : f->canon[n] == n ? f->sum[n] : 0;
    if (!ticks)
        return 0;
    /* the line, a space, at most 20 digits, the newline */
    char *d = tx_obuf_room(&f->out, len - start + 22);
    if (!d)
        return -1;
    memcpy(d, f->line + start, len - start);
    d += len - start;
    *d++ = ' ';
    d = tx_put_u64(d, ticks);
    *d++ = '\n';
    tx_obuf_done(&f->out, d);
    return 0;
}

int prof_report_folded(const prof_result *p, const prof_folded_opts *o, FILE *out)
{
    prof_folded_opts defaults;
    if (!o) {
        prof_folded_opts_init(&defaults);
        o = &defaults;
    }
    folded f = { .p = p, .nodes = prof_nodes(p) };
    size_t num_nodes = prof_num_nodes(p);
    uint32_t max_depth = 0;
    int rc = -1;

    for (uint32_t i = 0; i < num_nodes; i++)
        if (f.nodes[i].depth > max_depth)
            max_depth = f.nodes[i].depth;
    f.line_cap = 4096;
    f.line = malloc(f.line_cap);
    f.depth_len = calloc((size_t)max_depth + 1, sizeof *f.depth_len);
    f.depth_start = calloc((size_t)max_depth + 1, sizeof *f.depth_start);
    if (tx_obuf_open(&f.out, out, TX_OBUF_SIZE) != 0 || !f.line || !f.depth_len ||
        !f.depth_start || make_frames(&f, o->frame) != 0)
        goto done;

    if (f.any_shared) {
        /* which nodes may merge: in table order, a parent before its
         * children (a root's path starts afresh) */
        size_t may = 0;
        if (!(f.may_merge = malloc(num_nodes ? num_nodes : 1)))
            goto done;
        for (uint32_t i = 0; i < num_nodes; i++) {
            const prof_node *nd = &f.nodes[i];
            f.may_merge[i] = f.shared[f.cls[nd->cc]] |
                             (is_root(&f, i) ? 0 : f.may_merge[nd->parent]);
            may += f.may_merge[i];
        }
        if (may) {
            f.canon = malloc(num_nodes * sizeof *f.canon);
            f.sum = calloc(num_nodes, sizeof *f.sum);
            if (!f.canon || !f.sum || tx_htab_reserve(&f.merge, may) != 0)
                goto done;
            prof_walk(f.p, merge_visit, NULL, &f);
            tx_htab_free(&f.merge);
        }
    }
    if (prof_walk(f.p, print_visit, NULL, &f) != 0 || tx_obuf_flush(&f.out) != 0)
        goto done;
    rc = ferror(out) ? -1 : 0;

done:
    tx_obuf_close(&f.out);
    free(f.texts);
    free(f.frame);
    free(f.frame_len);
    free(f.cls);
    free(f.shared);
    free(f.may_merge);
    free(f.canon);
    free(f.sum);
    tx_htab_free(&f.merge);
    free(f.line);
    free(f.depth_len);
    free(f.depth_start);
    return rc;
}
