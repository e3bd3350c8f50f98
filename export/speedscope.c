/* speedscope's file format with a timeline (see include/evprof/speedscope.h
 * and docs/ECOSYSTEM.md). The format: jlfwong/speedscope's
 * src/lib/file-format-spec.ts. */
#include "evprof/speedscope.h"

#include <stdlib.h>
#include <string.h>

#include "evprof/json.h"
#include "evprof/textout.h"
#include "export/srcloc.h"
#include "util/account.h"
#include "util/fmt.h"
#include "util/hash.h"
#include "util/htab.h"
#include "util/idmap.h"

#define NO_STACK UINT32_MAX
#define DEFAULT_TICK_NS 1000000u    /* GHC's default -V, when the log has no 168 */

typedef struct cap_samples {
    uint32_t log;           /* several logs: which (speedscope_timeline_begin_log) */
    uint32_t capno;         /* the samples' own cap field */
    uint32_t *stack;        /* interned stack id per sample */
    uint64_t *time;         /* event time per sample (ns) */
    size_t n, size;
    int unsorted;           /* some sample came before the one added before it */
} cap_samples;

struct speedscope_timeline {
    prof_filter filter;
    /* interned stacks: arena[off] = depth, then depth ids innermost first */
    uint32_t *arena;
    size_t arena_len, arena_size;
    size_t *offsets;        /* per stack id */
    size_t num_stacks, stacks_size;
    tx_htab by_stack;       /* stack -> its id */
    cap_samples *caps;      /* one per capability seen; by capno after finish */
    size_t num_caps, caps_size;
    size_t last_cap;        /* index of the last capability looked up */
    int failed;
    ev_account mem;         /* every array above, charged to the read's budget */
    /* several logs: the current one, its ids translated by the profile */
    uint32_t log, num_logs;
    const prof_profile *profile;
    char **log_names;
    uint32_t ids[EL_MAX_STACK];
};

speedscope_timeline *speedscope_timeline_create(const prof_filter *filter)
{
    speedscope_timeline *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    if (filter)
        t->filter = *filter;
    else
        prof_filter_init(&t->filter);
    return t;
}

void speedscope_timeline_destroy(speedscope_timeline *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->num_caps; i++) {
        free(t->caps[i].stack);
        free(t->caps[i].time);
    }
    free(t->caps);
    for (uint32_t i = 0; i < t->num_logs; i++)
        free(t->log_names[i]);
    free(t->log_names);
    free(t->arena);
    free(t->offsets);
    tx_htab_free(&t->by_stack);
    ev_budget_release(t->mem.budget, t->mem.charged);
    free(t);
}

void speedscope_timeline_set_budget(speedscope_timeline *t, ev_budget *b)
{
    if (ev_account_move(&t->mem, b) != 0)
        t->failed = 1;
}

void speedscope_timeline_count(const speedscope_timeline *t, uint64_t *samples,
                               uint64_t *stacks, uint64_t *bytes)
{
    uint64_t n = 0;
    for (size_t i = 0; i < t->num_caps; i++)
        n += t->caps[i].n;
    *samples = n;
    *stacks = t->num_stacks;
    *bytes = t->mem.charged;
}

/* realloc(p, n * size) with the growth from `had` elements charged to t's
 * account; NULL (nothing charged) when refused or out of memory. */
static void *grow(speedscope_timeline *t, void *p, size_t had, size_t n, size_t size)
{
    size_t more = (n - had) * size;
    if (ev_account_charge(&t->mem, more) != 0)
        return NULL;
    void *q = realloc(p, n * size);
    if (!q)
        ev_account_release(&t->mem, more);
    return q;
}

typedef struct stack_key {
    const uint32_t *s;
    unsigned depth;
} stack_key;

static int stack_eq(const void *ctx, uint32_t id, const void *key)
{
    const speedscope_timeline *t = ctx;
    const stack_key *k = key;
    const uint32_t *c = t->arena + t->offsets[id];
    return c[0] == k->depth && (k->depth == 0 || memcmp(c + 1, k->s, k->depth * sizeof *k->s) == 0);
}

/* The id of the stack s[0..depth), added when new; NO_STACK without memory. */
static uint32_t intern(speedscope_timeline *t, const uint32_t *s, unsigned depth)
{
    uint64_t h = hash_u32s(s, depth, 0);
    stack_key key = { s, depth };
    uint32_t found = tx_htab_find(&t->by_stack, h, stack_eq, t, &key);
    if (found != TX_HTAB_NONE)
        return found;
    if (t->num_stacks + 1 >= NO_STACK)
        return NO_STACK;
    if (t->arena_len + depth + 1 > t->arena_size) {
        size_t size = t->arena_size ? t->arena_size * 2 : 4096;
        while (size < t->arena_len + depth + 1)
            size *= 2;
        uint32_t *a = grow(t, t->arena, t->arena_size, size, sizeof *a);
        if (!a)
            return NO_STACK;
        t->arena = a;
        t->arena_size = size;
    }
    if (t->num_stacks == t->stacks_size) {
        size_t size = t->stacks_size ? t->stacks_size * 2 : 1024;
        size_t *o = grow(t, t->offsets, t->stacks_size, size, sizeof *o);
        if (!o)
            return NO_STACK;
        t->offsets = o;
        t->stacks_size = size;
    }
    if (tx_htab_insert_charged(&t->by_stack, h, (uint32_t)t->num_stacks, &t->mem, 0, NULL) != 0)
        return NO_STACK;
    uint32_t id = (uint32_t)t->num_stacks++;
    t->offsets[id] = t->arena_len;
    t->arena[t->arena_len] = depth;
    if (depth)
        memcpy(t->arena + t->arena_len + 1, s, depth * sizeof *s);
    t->arena_len += depth + 1;
    return id;
}

static int reserve_caps(speedscope_timeline *t)
{
    if (t->num_caps < t->caps_size)
        return 0;
    size_t n = t->caps_size ? t->caps_size * 2 : 8;
    cap_samples *c = grow(t, t->caps, t->caps_size, n, sizeof *c);
    if (!c)
        return -1;
    t->caps = c;
    t->caps_size = n;
    return 0;
}

/* The samples of capability capno, added when new: a handful of
 * capabilities, so a scan from the last one used; a damaged cap field
 * costs one more entry, not an array up to its value. */
static cap_samples *cap_at(speedscope_timeline *t, uint32_t capno)
{
    if (t->last_cap < t->num_caps && t->caps[t->last_cap].capno == capno &&
        t->caps[t->last_cap].log == t->log)
        return &t->caps[t->last_cap];
    for (size_t i = 0; i < t->num_caps; i++)
        if (t->caps[i].capno == capno && t->caps[i].log == t->log) {
            t->last_cap = i;
            return &t->caps[i];
        }
    if (reserve_caps(t) != 0)
        return NULL;
    cap_samples *c = &t->caps[t->num_caps];
    memset(c, 0, sizeof *c);
    c->capno = capno;
    c->log = t->log;
    t->last_cap = t->num_caps++;
    return c;
}

static int push_sample(speedscope_timeline *t, cap_samples *c, uint32_t stack, uint64_t time)
{
    if (c->n == c->size) {
        size_t size = c->size ? c->size * 2 : 4096;
        uint32_t *s = grow(t, c->stack, c->size, size, sizeof *s);
        if (!s)
            return -1;
        c->stack = s;
        uint64_t *tm = grow(t, c->time, c->size, size, sizeof *tm);
        if (!tm) {
            /* the stacks' array is larger already: its charge stays */
            return -1;
        }
        c->time = tm;
        c->size = size;
    }
    if (c->n && time < c->time[c->n - 1])
        c->unsorted = 1;
    c->stack[c->n] = stack;
    c->time[c->n] = time;
    c->n++;
    return 0;
}

int speedscope_timeline_add_event(speedscope_timeline *t, const el_event *ev)
{
    if (t->failed)
        return -1;
    if (ev->type != EL_PROF_SAMPLE_COST_CENTRE || !ev->decoded)
        return 0;
    uint32_t capno = ev->u.prof_sample.cap;
    if (ev->outside)     /* outside the selection (the driver's stage) */
        return 0;
    const uint32_t *stack = ev->u.prof_sample.stack;
    if (t->profile) {
        prof_log_ids(t->profile, stack, ev->u.prof_sample.depth, t->ids);
        stack = t->ids;
    }
    uint32_t id = intern(t, stack, ev->u.prof_sample.depth);
    cap_samples *c = id == NO_STACK ? NULL : cap_at(t, capno);
    if (!c || push_sample(t, c, id, ev->time) != 0) {
        t->failed = 1;
        return -1;
    }
    return 0;
}

/* Stable merge sort of a capability's samples by time; its second copy
 * is charged while it exists. */
static int sort_cap(speedscope_timeline *t, cap_samples *c)
{
    size_t n = c->n, extra = n * (sizeof(uint32_t) + sizeof(uint64_t));
    if (ev_account_charge(&t->mem, extra) != 0)
        return -1;
    uint32_t *s2 = malloc(n * sizeof *s2);
    uint64_t *t2 = malloc(n * sizeof *t2);
    if (!s2 || !t2) {
        free(s2);
        free(t2);
        ev_account_release(&t->mem, extra);
        return -1;
    }
    uint32_t *sa = c->stack, *sb = s2;
    uint64_t *ta = c->time, *tb = t2;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) {
                size_t from = ta[j] < ta[i] ? j++ : i++;
                sb[k] = sa[from];
                tb[k++] = ta[from];
            }
            for (; i < mid; i++, k++) {
                sb[k] = sa[i];
                tb[k] = ta[i];
            }
            for (; j < hi; j++, k++) {
                sb[k] = sa[j];
                tb[k] = ta[j];
            }
        }
        uint32_t *ts = sa; sa = sb; sb = ts;
        uint64_t *tt = ta; ta = tb; tb = tt;
    }
    c->stack = sa;
    c->time = ta;
    free(sb);
    free(tb);
    c->unsorted = 0;
    /* the arrays freed are the old ones when the result is in the copies:
     * the same sizes charged as before, n apiece (their spare room goes) */
    ev_account_release(&t->mem, extra);
    if (c->stack == s2) {
        ev_account_release(&t->mem, (c->size - n) * (sizeof(uint32_t) + sizeof(uint64_t)));
        c->size = n;
    }
    return 0;
}

static int cmp_capno(const void *a, const void *b)
{
    const cap_samples *x = a, *y = b;
    if (x->log != y->log)
        return x->log < y->log ? -1 : 1;
    return x->capno < y->capno ? -1 : x->capno > y->capno;
}

int speedscope_timeline_finish(speedscope_timeline *t)
{
    if (t->failed)
        return -1;
    if (t->num_caps)
        qsort(t->caps, t->num_caps, sizeof *t->caps, cmp_capno);
    t->last_cap = 0;
    for (size_t i = 0; i < t->num_caps; i++)
        if (t->caps[i].unsorted && sort_cap(t, &t->caps[i]) != 0) {
            t->failed = 1;
            return -1;
        }
    return 0;
}

int speedscope_timeline_begin_log(speedscope_timeline *t, const prof_profile *p,
                                  const char *name)
{
    char **n = realloc(t->log_names, (t->num_logs + 1) * sizeof *n);
    if (!n)
        return -1;
    t->log_names = n;
    if (!(n[t->num_logs] = strdup(name ? name : ""))) 
        return -1;
    t->log = t->num_logs++;
    t->profile = p;
    return 0;
}

/* ---- writing ---------------------------------------------------------- */

typedef struct writer {
    const prof_result *p;
    const speedscope_timeline *t;
    FILE *out;
    size_t num_frames;          /* profile's cost centres, then extra frames */
    uint32_t *extra_ids;        /* ids no cost centre of the profile has */
    size_t num_extra;
    uint32_t *frames;           /* the arena with ids replaced by frame indices */
    uint32_t main_frame, cut_frame;
    uint64_t tick;
    uint8_t *drop;              /* per stack: dropped by focus/ignore (or NULL) */
    tx_json json;               /* the document, compact */
    tx_obuf arr;                /* a samples or weights array, written by hand */
    char (*frame_text)[8];      /* ",N" per frame index below num_text */
    uint8_t *frame_len;
    uint32_t num_text;
    size_t items;               /* in it so far */
} writer;

static uint32_t find_cc_index(const prof_result *p, const char *label, const char *module,
                              int synthetic)
{
    for (size_t i = 0; i < prof_num_ccs(p); i++) {
        const prof_cc *cc = prof_cc_at(p, (uint32_t)i);
        if (strcmp(cc->label, label) == 0 && strcmp(cc->module, module) == 0 &&
            (!synthetic || cc->synthetic))
            return (uint32_t)i;
    }
    return NO_STACK;
}

/* The cost centres' ids to their indices (util/idmap.h: an array of
 * exactly the ids when they are dense, as GHC numbers them). */
static int id_map_make(tx_idmap *m, const prof_result *p)
{
    size_t nccs = prof_num_ccs(p);
    uint32_t max_id = 0;
    for (size_t i = 0; i < nccs; i++) {
        const prof_cc *cc = prof_cc_at(p, (uint32_t)i);
        if (!cc->synthetic && cc->id > max_id)
            max_id = cc->id;
    }
    if (tx_idmap_reserve(m, max_id, nccs, NULL) != 0)
        return -1;
    for (size_t i = 0; i < nccs; i++) {
        const prof_cc *cc = prof_cc_at(p, (uint32_t)i);
        if (!cc->synthetic && tx_idmap_put(m, cc->id, (uint32_t)i, NULL) != 0)
            return -1;      /* ids are unique */
    }
    return 0;
}

/* Maps the interned stacks' cost-centre ids to frame indices. */
static int map_frames(writer *w)
{
    const prof_result *p = w->p;
    const speedscope_timeline *t = w->t;
    size_t nccs = prof_num_ccs(p);
    tx_idmap ids = { 0 };
    w->frames = malloc((t->arena_len ? t->arena_len : 1) * sizeof *w->frames);
    if (!w->frames || id_map_make(&ids, p) != 0) {
        tx_idmap_free(&ids);
        return -1;
    }
    w->num_frames = nccs;
    w->main_frame = find_cc_index(p, "MAIN", "MAIN", 0);
    w->cut_frame = find_cc_index(p, "<stack cut at 255 frames>", "<evprof>", 1);
    /* frames the profile lacks (it always has MAIN; a cut marker only when
     * it saw a cut stack; ids only when its window matched ours) */
    size_t extra_size = 0;
    int rc = 0, any_cut = 0;
    for (size_t off = 0; off < t->arena_len && rc == 0;) {
        uint32_t depth = t->arena[off];
        any_cut |= depth == EL_MAX_STACK;
        w->frames[off] = depth;
        for (uint32_t k = 1; k <= depth; k++) {
            uint32_t id = t->arena[off + k];
            uint32_t frame = tx_idmap_get(&ids, id);
            if (frame == NO_STACK) {
                size_t e = 0;
                while (e < w->num_extra && w->extra_ids[e] != id)
                    e++;
                if (e == w->num_extra) {
                    if (w->num_extra == extra_size) {
                        extra_size = extra_size ? extra_size * 2 : 16;
                        uint32_t *x = realloc(w->extra_ids, extra_size * sizeof *x);
                        if (!x) {
                            rc = -1;
                            break;
                        }
                        w->extra_ids = x;
                    }
                    w->extra_ids[w->num_extra++] = id;
                }
                frame = (uint32_t)(nccs + e);
            }
            w->frames[off + k] = frame;
        }
        off += depth + 1;
    }
    tx_idmap_free(&ids);
    w->num_frames = nccs + w->num_extra;
    if (w->main_frame == NO_STACK)
        w->main_frame = (uint32_t)w->num_frames++;
    if (w->cut_frame == NO_STACK && any_cut)
        w->cut_frame = (uint32_t)w->num_frames++;
    return rc;
}

/* The stacks that are dropped: by --focus/--ignore (the profile's
 * matcher), and without `all` GHC's built-in stacks (MAIN/GC, MAIN/IDLE,
 * ...: one built-in frame), as the report drops them. */
static int mark_dropped(writer *w)
{
    const prof_filter *f = &w->t->filter;
    enum { FOCUS = 1, IGNORE = 2 };
    if (!f->focus && !f->ignore && f->all)
        return 0;
    size_t nccs = prof_num_ccs(w->p);
    uint8_t *m = calloc(nccs ? nccs : 1, 1);
    w->drop = calloc(w->t->num_stacks ? w->t->num_stacks : 1, 1);
    if (!m || !w->drop || (f->focus && prof_match_ccs(w->p, f->focus, m, FOCUS, NULL) != EV_OK) ||
        (f->ignore && prof_match_ccs(w->p, f->ignore, m, IGNORE, NULL) != EV_OK)) {
        free(m);
        return -1;
    }
    for (size_t id = 0; id < w->t->num_stacks; id++) {
        const uint32_t *s = w->frames + w->t->offsets[id];
        uint8_t st = 0;
        for (uint32_t k = 1; k <= s[0]; k++)
            if (s[k] < nccs)
                st |= m[s[k]];
        w->drop[id] = (f->focus && !(st & FOCUS)) || (st & IGNORE) ||
                      (!f->all && s[0] == 1 && s[1] < nccs && prof_cc_at(w->p, s[1])->builtin);
    }
    free(m);
    return 0;
}

static void put_frame(tx_json *j, const char *name, size_t name_len, const char *src)
{
    ex_srcloc loc;
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_string(j, "name", name, name_len);
    if (src && export_srcloc_parse(src, &loc)) {
        tx_json_kv_string(j, "file", loc.file, loc.file_len);
        tx_json_kv_uint(j, "line", loc.line);
        tx_json_kv_uint(j, "col", loc.col);
    }
    tx_json_end(j);
}

static int write_frames(writer *w)
{
    tx_json *j = &w->json;
    char small[256];
    size_t nccs = prof_num_ccs(w->p);
    uint8_t *ns = malloc(nccs + 1);     /* namesakes: "Module.label (SRC)" */
    if (!ns || prof_namesakes(w->p, ns) < 0) {
        free(ns);
        return -1;
    }
    tx_json_key(j, "shared");
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_key(j, "frames");
    tx_json_array(j, TX_JSON_INLINE);
    for (size_t i = 0; i < w->num_frames; i++) {
        if (i < nccs) {
            const prof_cc *cc = prof_cc_at(w->p, (uint32_t)i);
            size_t len = export_frame_name(cc, ns[i], small, sizeof small);
            if (len < sizeof small) {
                put_frame(j, small, len, cc->srcloc);
            } else {
                char *big = malloc(len + 1);
                if (!big) {
                    free(ns);
                    return -1;
                }
                export_frame_name(cc, ns[i], big, len + 1);
                put_frame(j, big, len, cc->srcloc);
                free(big);
            }
        } else if (i < nccs + w->num_extra) {
            int len = snprintf(small, sizeof small, "<undefined cc %u>",
                               w->extra_ids[i - nccs]);
            put_frame(j, small, (size_t)len, NULL);
        } else if (i == w->main_frame) {
            put_frame(j, "MAIN", 4, NULL);
        } else {
            put_frame(j, "<stack cut at 255 frames>", 25, NULL);
        }
    }
    free(ns);
    tx_json_end(j);
    tx_json_end(j);
    return 0;
}

/* The timeline of one capability as speedscope samples: each sample ends
 * at its event's time. `emit` gets (stack id or NO_STACK for a gap,
 * weight). */
typedef void (*emit_fn)(writer *w, uint32_t stack, uint64_t weight);

static void walk_cap(writer *w, const cap_samples *c, uint64_t start, emit_fn emit,
                     int stacks)
{
    uint64_t pos = start;       /* where the timeline is so far */
    const size_t *offsets = w->t->offsets;
    for (size_t i = 0; i < c->n; i++) {
        /* the stacks lie anywhere in a big arena: their offsets and
         * frames are fetched ahead */
        if (stacks && i + 16 < c->n)
            TX_PREFETCH(&offsets[c->stack[i + 16]]);
        if (stacks && i + 8 < c->n)
            TX_PREFETCH(&w->frames[offsets[c->stack[i + 8]]]);
        uint64_t t = c->time[i];
        uint64_t begin = t > w->tick ? t - w->tick : 0;   /* >= start */
        if (i > 0 && t - c->time[i - 1] <= 2 * w->tick)
            begin = c->time[i - 1];
        if (begin > pos)
            emit(w, NO_STACK, begin - pos);
        /* every sample is written, even one of weight 0 (two at the same
         * time), so that the file holds the report's ticks */
        uint32_t st = c->stack[i];
        if (w->drop && w->drop[st])
            st = NO_STACK;      /* --focus/--ignore: an empty sample, time kept */
        emit(w, st, t - begin);
        pos = t;
    }
}

/* The arrays are written as the compact writer would write them ("[" and
 * "]" around items joined by ","), by hand: a number per frame of every
 * sample through the general writer was most of the file's time. */
static void emit_stack(writer *w, uint32_t stack, uint64_t weight)
{
    (void)weight;
    uint32_t depth = stack == NO_STACK ? 0 : w->frames[w->t->offsets[stack]];
    /* ",[" and "]", the root frame and depth frames of 10 digits and a comma */
    char *d = tx_obuf_room(&w->arr, 3 + 11 * ((size_t)depth + 1));
    if (!d)
        return;
    if (w->items++)
        *d++ = ',';
    *d++ = '[';
    if (stack != NO_STACK) {
        const uint32_t *s = w->frames + w->t->offsets[stack];
        d = tx_put_u64(d, depth == EL_MAX_STACK ? w->cut_frame : w->main_frame);
        for (uint32_t k = depth; k >= 1; k--) {
            uint32_t f = s[k];
            if (f < w->num_text) {
                memcpy(d, w->frame_text[f], 8);     /* room: 11 a frame */
                d += w->frame_len[f];
            } else {
                *d++ = ',';
                d = tx_put_u64(d, f);
            }
        }
    }
    *d++ = ']';
    tx_obuf_done(&w->arr, d);
}

/* ",N" of the frame indices up to 2^16 (768 KiB at most), made once */
static int frame_texts(writer *w)
{
    w->num_text = w->num_frames < (1u << 16) ? (uint32_t)w->num_frames : 1u << 16;
    w->frame_text = malloc((w->num_text ? w->num_text : 1) * sizeof *w->frame_text);
    w->frame_len = malloc(w->num_text ? w->num_text : 1);
    if (!w->frame_text || !w->frame_len) {
        w->num_text = 0;
        return -1;
    }
    for (uint32_t f = 0; f < w->num_text; f++) {
        char *d = w->frame_text[f];
        *d++ = ',';
        w->frame_len[f] = (uint8_t)(tx_put_u64(d, f) - w->frame_text[f]);
    }
    return 0;
}

static void emit_weight(writer *w, uint32_t stack, uint64_t weight)
{
    (void)stack;
    char *d = tx_obuf_room(&w->arr, 21);
    if (!d)
        return;
    if (w->items++)
        *d++ = ',';
    tx_obuf_done(&w->arr, tx_put_u64(d, weight));
}

/* One capability's array of samples or weights as the value of the key
 * just written; -1 on a write error or without memory. */
static int write_array(writer *w, const cap_samples *c, uint64_t start, emit_fn emit)
{
    tx_json *j = &w->json;
    FILE *f = tx_json_raw_begin(j);
    if (!f)
        return -1;
    int rc = tx_obuf_open(&w->arr, f, TX_OBUF_SIZE);
    w->items = 0;
    if (rc == 0 && fputc('[', f) == EOF)
        rc = -1;
    if (rc == 0) {
        walk_cap(w, c, start, emit, emit == emit_stack);
        rc = tx_obuf_flush(&w->arr);
    }
    if (tx_obuf_close(&w->arr) != 0 || (rc == 0 && fputc(']', f) == EOF))
        rc = -1;
    tx_json_raw_end(j);
    if (rc != 0)
        j->failed = 1;
    return rc;
}

static int write_log(writer *wp, uint32_t log, const char *name);

int speedscope_write(const prof_result *p, const speedscope_timeline *t,
                     const speedscope_opts *o, FILE *out)
{
    if (t->failed)
        return -1;
    writer w = { .p = p, .t = t, .out = out };
    const prof_info *in = prof_get_info(p);
    w.tick = in->interval_ns ? in->interval_ns : DEFAULT_TICK_NS;
    if (map_frames(&w) != 0 || mark_dropped(&w) != 0 || frame_texts(&w) != 0) {
        free(w.frames);
        free(w.extra_ids);
        free(w.drop);
        free(w.frame_text);
        free(w.frame_len);
        return -1;
    }

    int rc = 0;
    const char *name = o && o->name ? o->name : "";
    tx_json *j = &w.json;
    tx_json_init(j, out, 0, 1);
    tx_json_object(j, TX_JSON_INLINE);
    tx_json_kv_cstr(j, "$schema", "https://www.speedscope.app/file-format-schema.json");
    tx_json_kv_cstr(j, "exporter", "evprof");
    tx_json_kv_cstr(j, "name", name);
    tx_json_kv_uint(j, "activeProfileIndex", 0);
    rc = write_frames(&w);
    tx_json_key(j, "profiles");
    tx_json_array(j, TX_JSON_INLINE);
    /* several logs: a group of profiles each, named by the log */
    for (uint32_t log = 0; log < (t->num_logs > 1 ? t->num_logs : 1) && rc == 0; log++) {
        const char *group = t->num_logs > 1 ? t->log_names[log] : name;
        rc = write_log(&w, log, group);
    }
    tx_json_end(j);
    tx_json_end(j);
    tx_json_space(j, "\n");
    free(w.frames);
    free(w.extra_ids);
    free(w.drop);
    free(w.frame_text);
    free(w.frame_len);
    if (tx_json_finish(j) != 0)
        rc = -1;
    return rc;
}

/* The profiles (one per capability) of one log. */
static int write_log(writer *wp, uint32_t log, const char *name)
{
    writer *w = wp;
    const speedscope_timeline *t = w->t;
    tx_json *j = &wp->json;
    int rc = 0;
    /* one time axis for every capability */
    uint64_t start = UINT64_MAX, end = 0;
    for (size_t c = 0; c < t->num_caps; c++) {
        const cap_samples *cs = &t->caps[c];
        if (cs->log != log)
            continue;
        if (!cs->n)
            continue;
        uint64_t s = cs->time[0] > w->tick ? cs->time[0] - w->tick : 0;
        if (s < start)
            start = s;
        if (cs->time[cs->n - 1] > end)
            end = cs->time[cs->n - 1];
    }
    if (start == UINT64_MAX)
        start = end = 0;

    for (size_t c = 0; c < t->num_caps && rc == 0; c++) {
        const cap_samples *cs = &t->caps[c];
        if (!cs->n || cs->log != log)
            continue;
        tx_json_object(j, TX_JSON_INLINE);
        tx_json_kv_cstr(j, "type", "sampled");
        tx_json_key(j, "name");
        char label[64];
        snprintf(label, sizeof label, "capability %u", cs->capno);
        if (*name) {
            size_t len = strlen(name) + strlen(label) + 2;
            char *full = malloc(len);
            if (!full) {
                rc = -1;
                break;
            }
            snprintf(full, len, "%s %s", name, label);
            tx_json_cstr(j, full);
            free(full);
        } else {
            tx_json_cstr(j, label);
        }
        tx_json_kv_cstr(j, "unit", "nanoseconds");
        tx_json_kv_uint(j, "startValue", start);
        tx_json_kv_uint(j, "endValue", end);
        tx_json_key(j, "samples");
        rc = write_array(w, cs, start, emit_stack);
        tx_json_key(j, "weights");
        if (rc == 0)
            rc = write_array(w, cs, start, emit_weight);
        tx_json_end(j);
    }
    return rc;
}

/* ---- the driver ----------------------------------------------------------- */

static int timeline_event(void *self, const el_event *ev, const ev_stream *s)
{
    speedscope_timeline *t = self;
    if (s->budget && s->budget != t->mem.budget)
        speedscope_timeline_set_budget(t, s->budget);
    return speedscope_timeline_add_event(t, ev) != 0;
}

static const uint16_t timeline_types[] = { EL_PROF_SAMPLE_COST_CENTRE };

static int timeline_holds(const void *self, char *buf, size_t size)
{
    uint64_t samples, stacks, bytes;
    speedscope_timeline_count(self, &samples, &stacks, &bytes);
    snprintf(buf, size, "the speedscope time line: %llu samples of %llu stacks in %.1f MiB",
             (unsigned long long)samples, (unsigned long long)stacks,
             (double)bytes / (1 << 20));
    return 1;
}

/* ---- the parallel read: a partial per range, merged in file order ---- */

static void *timeline_fork(void *self)
{
    const speedscope_timeline *t = self;
    /* several logs translate ids as they go: read sequentially */
    if (t->failed || t->profile)
        return NULL;
    speedscope_timeline *q = speedscope_timeline_create(&t->filter);
    if (q) {
        q->log = t->log;
        if (t->mem.budget)
            speedscope_timeline_set_budget(q, t->mem.budget);
    }
    return q;
}

/* part read the stretch after self's: its stacks are interned into self
 * in the order they first came (its ids' order), its samples appended to
 * the same capabilities, which self meets in the order they first came:
 * the sequential read's ids, capabilities and samples. */
static int timeline_merge(void *self, void *part)
{
    speedscope_timeline *t = self;
    const speedscope_timeline *q = part;
    if (t->failed || q->failed)
        return -1;
    uint32_t *map = malloc((q->num_stacks ? q->num_stacks : 1) * sizeof *map);
    if (!map)
        return -1;
    int rc = 0;
    for (size_t i = 0; i < q->num_stacks && rc == 0; i++) {
        const uint32_t *c = q->arena + q->offsets[i];
        if ((map[i] = intern(t, c + 1, c[0])) == NO_STACK)
            rc = -1;
    }
    for (size_t k = 0; k < q->num_caps && rc == 0; k++) {
        const cap_samples *qc = &q->caps[k];
        uint32_t log = t->log;
        t->log = qc->log;
        cap_samples *c = cap_at(t, qc->capno);
        t->log = log;
        for (size_t j = 0; j < qc->n && rc == 0; j++)
            if (!c || push_sample(t, c, map[qc->stack[j]], qc->time[j]) != 0)
                rc = -1;
    }
    free(map);
    if (rc != 0)
        t->failed = 1;
    return rc;
}

static void timeline_drop(void *part) { speedscope_timeline_destroy(part); }

const ev_analysis_ops speedscope_timeline_ops = {
    .name = "speedscope timeline",
    .types = timeline_types,
    .num_types = 1,
    .event = timeline_event,
    .fork = timeline_fork,
    .merge = timeline_merge,
    .drop = timeline_drop,
    .holds = timeline_holds,
};
