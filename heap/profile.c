/* Heap censuses from the eventlog: assembly, band names, aggregates.
 *
 * A census opens with HEAP_PROF_SAMPLE_BEGIN (162) or, for biographical
 * profiles, HEAP_BIO_PROF_SAMPLE_BEGIN (166, which carries the time the
 * census was taken: GHC writes these at the end of the run), collects
 * cost-centre (163) and string (164) samples, and closes with
 * HEAP_PROF_SAMPLE_END (165). Logs of GHC before 8.8 have no 165: there a
 * census closes where the next opens, or at the log's end marker.
 *
 * Each sample is named as GHC names the band in its .hp file, the name is
 * looked up in an open-addressing table of bands, and the bytes go to the
 * band's entry in the open census (a stamp on the band says whether it
 * already has one: two -hc stacks whose names collide once cut to -L are
 * summed). Nothing is allocated per event; the census array grows to the
 * largest census. A complete census in the time window goes to the sink at
 * once (biographical ones are kept and go, sorted by time, at the end), and
 * updates every band's peak and sum.
 */
#include "evprof/heap.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "heap/internal.h"
#include "util/account.h"
#include "util/hash.h"
#include "util/htab.h"
#include "util/idmap.h"
#include "util/strpool.h"

/* ---- tables ----------------------------------------------------------- */

typedef struct cc_def {
    uint32_t id;
    const char *label, *module;
    uint32_t label_len, module_len;
    int caf;                    /* label is "CAF": GHC prints <module>.CAF */
} cc_def;

typedef struct ipe_def {
    uint64_t info;
    const char *title;          /* heap_band.title of its band */
    uint32_t title_len;
} ipe_def;

/* Per-band state the public heap_band does not show. */
typedef struct band_aux {
    uint64_t stamp;             /* the open census that has an entry for it */
    uint32_t slot;              /* that entry's index */
    uint8_t hi;                 /* an -hi band (its name an address) */
    uint8_t by_symbol;          /* titled by the executable's symbol */
} band_aux;

/* IPE entries kept as evidence for the executable (heap_exe_match): the
 * first ones, enough to tell a build from another. */
#define EXE_IPE_SAMPLE 256

/* The executable's symbols (heap_opts.exe): */
enum {
    EXE_OFF,                    /* not asked, or not an -hi profile */
    EXE_PENDING,                /* asked: decided at the first census with a band
                                   no IPE entry names */
    EXE_USED,
    EXE_UNUSED,
};

typedef struct kept_census {    /* a biographical census waiting for the end */
    uint64_t time, era, seq;
    size_t first, n;
} kept_census;

struct heap_profile {
    heap_opts opts;
    const ev_select *sel;       /* the read's selection (the driver's; NULL: all) */
    ev_span hull;               /* its hull, which a snapshot keeps */
    heap_census_fn sink;
    void *sink_ctx;
    ev_status status;
    int finished;

    strpool strings;
    cc_def *ccs;                /* cost-centre definitions, cc_ids: id -> index */
    size_t num_ccs, cap_ccs;
    tx_idmap cc_ids;
    ipe_def *ipes;              /* IPE entries, by_ipe: info pointer -> index */
    size_t num_ipes, cap_ipes;
    tx_htab by_ipe;
    int keep_ipe;               /* store IPE entries (-hi or breakdown unknown) */

    heap_band *bands;
    band_aux *aux;              /* cap_aux entries, parallel to bands */
    size_t num_bands, cap_bands, cap_aux;
    tx_htab by_name;            /* band name -> index */

    char *name_buf;             /* -hc names: length + 1 bytes */
    /* -hc: stack (the ids as decoded) -> band, see stack_band */
    struct stack_band *sb;          /* sb_by_stack indexes them */
    size_t sb_num, sb_cap;
    tx_htab sb_by_stack;
    uint32_t *sb_arena;
    size_t sb_len, sb_arena_cap;
    size_t sb_charged;
    int sb_full;
    char *scratch;              /* IPE names and the JOB line are built here */
    size_t scratch_cap;
    uint32_t name_cap;
    int named_ccs;              /* a -hc name was made: -L is fixed */

    int end_known;              /* end_events is valid */
    int end_events;             /* the header declares 165 */

    uint64_t damage_blocks;     /* damaged blocks the reader skipped so far */

    /* the open census */
    int open;
    int open_damaged;           /* a damaged block was skipped since it opened */
    int open_keep;              /* its time is inside the selection */
    int open_bio;
    uint64_t open_time, open_era, seq;
    /* HEAP_CLOCK_MUTATOR: the collections so far (GC_START..GC_END) */
    int in_gc;
    uint64_t gc_start, gc_total;
    heap_sample *cur;
    size_t cur_n, cur_cap;

    /* biographical censuses until heap_finish */
    kept_census *kept;
    size_t kept_n, kept_cap;
    heap_sample *kept_samples;
    size_t kept_samples_n, kept_samples_cap;

    heap_info info;

    /* the executable's symbols: the one in use (given, or own: opened from
     * the program the log names), the band address's distance to them */
    int exe_state;
    const heap_exe *exe;
    heap_exe *own_exe;
    uint64_t exe_delta;
    heap_exe_ipe *exe_ipes;     /* until decided */
    size_t exe_ipes_n, exe_ipes_cap;

    /* The memory budget (budget.h) and what this profile charged to it:
     * every growth of its tables, strings and kept censuses. */
    ev_account mem;
};

static int charge(heap_profile *h, size_t bytes)
{
    return ev_account_charge(&h->mem, bytes);
}

/* A charge the profile can do without (the stack cache): refused, it is
 * only not made, and the budget is not marked as reached. */
static int charge_optional(heap_profile *h, size_t bytes)
{
    if (ev_account_try(&h->mem, bytes) != 0)
        return -1;
    h->sb_charged += bytes;
    return 0;
}

static void uncharge(heap_profile *h, size_t bytes)
{
    ev_account_release(&h->mem, bytes);
}

void heap_set_budget(heap_profile *h, ev_budget *b)
{
    if (ev_account_move(&h->mem, b) != 0 && h->status == EV_OK)
        h->status = EV_ERR_NOMEM;
}

void heap_count(const heap_profile *h, heap_counts *c)
{
    c->bands = h->num_bands;
    c->ccs = h->num_ccs;
    c->censuses = h->info.censuses;
    c->kept_samples = h->kept_samples_n;
    c->bytes = h->mem.charged;
    c->over_budget = h->mem.refused;
}

/* A string in the pool, its new chunk charged. */
static const char *pool_add(heap_profile *h, const char *str, uint32_t len)
{
    size_t more = tx_strpool_growth(&h->strings, len);
    if (more && charge(h, more) != 0)
        return NULL;
    return tx_strpool_add(&h->strings, str, len);
}

/* tx_htab_insert with the table's doubling charged. */
static int htab_add(heap_profile *h, tx_htab *t, uint64_t hash, uint32_t item)
{
    return tx_htab_insert_charged(t, hash, item, &h->mem, 0, NULL);
}

static int grow(heap_profile *h, void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    if (charge(h, (n - *cap) * elem) != 0)
        return -1;
    void *a = realloc(*arr, n * elem);
    if (!a) {
        uncharge(h, (n - *cap) * elem);
        return -1;
    }
    *arr = a;
    *cap = n;
    return 0;
}

/* ---- life cycle ------------------------------------------------------- */

void heap_opts_init(heap_opts *o)
{
    o->length = 0;
    o->whole_names = 0;
    o->clock = HEAP_CLOCK_ELAPSED;
    memset(&o->exe, 0, sizeof o->exe);
}

void heap_summary_opts_init(heap_summary_opts *o)
{
    o->top = 20;
    o->source_name = NULL;
}

heap_profile *heap_create(const heap_opts *o, heap_census_fn sink, void *ctx)
{
    heap_profile *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    if (o)
        h->opts = *o;
    else
        heap_opts_init(&h->opts);
    if (h->opts.length && h->opts.length < 4)
        h->opts.length = 4;
    if (h->opts.length > HEAP_MAX_LENGTH)
        h->opts.length = HEAP_MAX_LENGTH;
    h->sink = sink;
    h->sink_ctx = ctx;
    h->keep_ipe = 1;
    h->exe_state = h->opts.exe.given || h->opts.exe.from_log ? EXE_PENDING : EXE_OFF;
    tx_strpool_init(&h->strings);
    h->info.length = h->opts.length ? h->opts.length : HEAP_DEFAULT_LENGTH;
    if (h->opts.whole_names) {
        h->opts.length = h->info.length = HEAP_MAX_LENGTH;
        h->info.whole_names = 1;
    }
    h->info.program = "";
    h->info.job = "";
    h->info.first_time = UINT64_MAX;
    h->hull = ev_select_hull(NULL);
    return h;
}

void heap_destroy(heap_profile *h)
{
    if (!h)
        return;
    free(h->ccs);
    tx_idmap_free(&h->cc_ids);
    free(h->ipes);
    tx_htab_free(&h->by_ipe);
    free(h->exe_ipes);
    heap_exe_close(h->own_exe);
    tx_strpool_destroy(&h->strings);
    free(h->bands);
    free(h->aux);
    tx_htab_free(&h->by_name);
    free(h->name_buf);
    free(h->sb);
    tx_htab_free(&h->sb_by_stack);
    free(h->sb_arena);
    free(h->scratch);
    free(h->cur);
    free(h->kept);
    free(h->kept_samples);
    ev_budget_release(h->mem.budget, h->mem.charged);
    free(h);
}

static ev_status fail(heap_profile *h, ev_status st)
{
    if (h->status == EV_OK)
        h->status = st;
    return h->status;
}

uint64_t heap_window_from(const heap_profile *h) { return h->hull.from_ns; }
uint64_t heap_window_to(const heap_profile *h) { return h->hull.to_ns; }

static void set_select(heap_profile *h, const ev_select *sel)
{
    if (h->sel != sel) {
        h->sel = sel;
        h->hull = ev_select_hull(sel);
    }
}

/* ---- bands ------------------------------------------------------------ */

typedef struct name_key {
    const char *name;
    size_t len;
} name_key;

static int band_eq(const void *items, uint32_t i, const void *key)
{
    const heap_band *b = &((const heap_band *)items)[i];
    const name_key *k = key;
    return b->len == k->len && memcmp(b->name, k->name, k->len) == 0;
}

static int ipe_eq(const void *items, uint32_t i, const void *key)
{
    return ((const ipe_def *)items)[i].info == *(const uint64_t *)key;
}

static cc_def *find_cc(const heap_profile *h, uint32_t id)
{
    uint32_t i = tx_idmap_get(&h->cc_ids, id);
    return i == TX_IDMAP_NONE ? NULL : &h->ccs[i];
}

static ipe_def *find_ipe(const heap_profile *h, uint64_t info)
{
    uint32_t i = tx_htab_find(&h->by_ipe, hash_mix64(info), ipe_eq, h->ipes, &info);
    return i == TX_HTAB_NONE ? NULL : &h->ipes[i];
}

/* The band of this name, created if new. *created says which. Returns
 * UINT32_MAX when memory ran out. */
static uint32_t band_of(heap_profile *h, const char *name, size_t len, int *created)
{
    uint64_t hash = hash_bytes(name, len, 0);
    name_key key = { name, len };
    uint32_t found = tx_htab_find(&h->by_name, hash, band_eq, h->bands, &key);
    *created = 0;
    if (found != TX_HTAB_NONE)
        return found;
    if (h->num_bands >= UINT32_MAX - 1 ||
        grow(h, (void **)&h->bands, &h->cap_bands, h->num_bands + 1, sizeof *h->bands) != 0)
        return UINT32_MAX;
    if (h->cap_aux < h->cap_bands) {
        if (charge(h, (h->cap_bands - h->cap_aux) * sizeof(band_aux)) != 0)
            return UINT32_MAX;
        band_aux *aux = realloc(h->aux, h->cap_bands * sizeof *aux);
        if (!aux)
            return UINT32_MAX;
        h->aux = aux;
        h->cap_aux = h->cap_bands;
    }
    const char *copy = pool_add(h, name, (uint32_t)len);
    if (!copy || htab_add(h, &h->by_name, hash, (uint32_t)h->num_bands) != 0)
        return UINT32_MAX;
    uint32_t i = (uint32_t)h->num_bands++;
    heap_band *b = &h->bands[i];
    memset(b, 0, sizeof *b);
    b->name = b->title = copy;
    b->len = b->title_len = (uint32_t)len;
    memset(&h->aux[i], 0, sizeof h->aux[i]);
    *created = 1;
    return i;
}

size_t heap_num_bands(const heap_profile *h) { return h->num_bands; }

const heap_band *heap_band_at(const heap_profile *h, uint32_t i)
{
    return i < h->num_bands ? &h->bands[i] : NULL;
}

const heap_info *heap_get_info(const heap_profile *h) { return &h->info; }

/* ---- names ------------------------------------------------------------ */

static const char *const breakdown_names[] = {
    [HEAP_BY_COST_CENTRE] = "cost-centre stack",
    [HEAP_BY_MODULE] = "module",
    [HEAP_BY_CLOSURE_DESCR] = "closure description",
    [HEAP_BY_TYPE_DESCR] = "type description",
    [HEAP_BY_RETAINER] = "retainer set",
    [HEAP_BY_BIOGRAPHY] = "biography",
    [HEAP_BY_CLOSURE_TYPE] = "closure type",
    [HEAP_BY_INFO_TABLE] = "info table",
    [HEAP_BY_ERA] = "era",
};
static const char *const breakdown_flags[] = {
    [HEAP_BY_COST_CENTRE] = "-hc",
    [HEAP_BY_MODULE] = "-hm",
    [HEAP_BY_CLOSURE_DESCR] = "-hd",
    [HEAP_BY_TYPE_DESCR] = "-hy",
    [HEAP_BY_RETAINER] = "-hr",
    [HEAP_BY_BIOGRAPHY] = "-hb",
    [HEAP_BY_CLOSURE_TYPE] = "-hT",
    [HEAP_BY_INFO_TABLE] = "-hi",
    [HEAP_BY_ERA] = "-he",
};
_Static_assert(sizeof breakdown_names / sizeof breakdown_names[0] == HEAP_BY_ERA + 1,
               "a name per breakdown");
_Static_assert(sizeof breakdown_flags / sizeof breakdown_flags[0] == HEAP_BY_ERA + 1,
               "a flag per breakdown");

const char *heap_breakdown_name(uint32_t b)
{
    return b <= HEAP_BY_ERA ? breakdown_names[b] : NULL;
}

const char *heap_breakdown_flag(uint32_t b)
{
    return b <= HEAP_BY_ERA ? breakdown_flags[b] : NULL;
}

static int ensure_name_buf(heap_profile *h)
{
    uint32_t need = h->info.length + 1;
    if (h->name_cap >= need)
        return 0;
    char *b = realloc(h->name_buf, need);
    if (!b)
        return -1;
    h->name_buf = b;
    h->name_cap = need;
    return 0;
}

/* GHC's fprint_ccs (rts/ProfHeap.c), without the "(ccsID)" prefix that the
 * eventlog cannot give: frames innermost first, each its label, or
 * "<module>.CAF" for a cost centre labelled CAF, joined by '/'; the bare
 * empty stack is "MAIN". Frames are appended into a buffer of L + 1 bytes;
 * once it is full (the name is longer than L) the name is its first L - 4
 * bytes and "...". Returns the length; the name is in h->name_buf. */
static size_t ccs_name(heap_profile *h, const uint32_t *stack, unsigned depth)
{
    char *buf = h->name_buf;
    size_t end = (size_t)h->info.length + 1, p = 0;
    char undef[32];

    if (depth == 0) {
        memcpy(buf, "MAIN", 4);
        return 4;
    }
#define APPEND(s, n)                                                                         \
    do {                                                                                     \
        size_t n_ = (n) < end - p ? (n) : end - p;                                           \
        memcpy(buf + p, (s), n_);                                                            \
        p += n_;                                                                             \
    } while (0)
    for (unsigned i = 0; i < depth; i++) {
        uint32_t id = stack[i];
        const cc_def *c = find_cc(h, id);
        if (!c) {
            h->info.undefined_ccs++;
            int n = snprintf(undef, sizeof undef, "<undefined cc %u>", id);
            APPEND(undef, (size_t)n);
        } else if (c->caf) {
            APPEND(c->module, c->module_len);
            APPEND(".CAF", 4);
        } else {
            APPEND(c->label, c->label_len);
        }
        if (i + 1 < depth)
            APPEND("/", 1);
        if (p >= end) {
            memcpy(buf + h->info.length - 4, "...", 3);
            return h->info.length - 1;
        }
    }
#undef APPEND
    return p;
}

static int hex_value(const char *s, size_t n, uint64_t *v)
{
    if (n < 3 || n > 18 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
        return 0;
    uint64_t x = 0;
    for (size_t i = 2; i < n; i++) {
        char c = s[i];
        unsigned d;
        if (c >= '0' && c <= '9')
            d = (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            d = (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            d = (unsigned)(c - 'A' + 10);
        else
            return 0;
        x = x << 4 | d;
    }
    *v = x;
    return 1;
}

/* ---- census assembly -------------------------------------------------- */

/* Band b's bytes in the open census. */
static ev_status census_add(heap_profile *h, uint32_t b, uint64_t bytes)
{
    band_aux *a = &h->aux[b];
    if (a->stamp == h->seq) {
        h->cur[a->slot].bytes += bytes;
        return EV_OK;
    }
    if (grow(h, (void **)&h->cur, &h->cur_cap, h->cur_n + 1, sizeof *h->cur) != 0)
        return fail(h, EV_ERR_NOMEM);
    a->stamp = h->seq;
    a->slot = (uint32_t)h->cur_n;
    h->cur[h->cur_n].band = b;
    h->cur[h->cur_n].bytes = bytes;
    h->cur_n++;
    return EV_OK;
}

/* ---- names from the executable's symbols --------------------------------- */

/* Band b, an -hi band no IPE entry names, titled by the symbol at its
 * address (when the executable has one there). */
static int symbol_title(heap_profile *h, uint32_t b)
{
    heap_band *band = &h->bands[b];
    uint64_t addr;
    if (!hex_value(band->name, band->len, &addr))
        return 0;
    const char *sym = heap_exe_symbol(h->exe, addr + h->exe_delta);
    if (!sym)
        return 0;
    /* decoding can grow a name (a tuple Z64T is 65 bytes) */
    size_t cap = 20 * strlen(sym) + 64;
    if (grow(h, (void **)&h->scratch, &h->scratch_cap, cap, 1) != 0)
        return -1;
    size_t n = heap_exe_title(sym, h->scratch, cap);
    const char *t = n ? pool_add(h, h->scratch, (uint32_t)n) : NULL;
    if (!t)
        return -1;
    band->title = t;
    band->title_len = (uint32_t)n;
    h->aux[b].by_symbol = 1;
    h->info.symbol_bands++;
    return 0;
}

static void exe_unused(heap_profile *h, const char *why)
{
    h->exe_state = EXE_UNUSED;
    h->info.exe_state = HEAP_EXE_UNUSED;
    h->info.exe_why = pool_add(h, why, (uint32_t)strlen(why));
    heap_exe_close(h->own_exe);
    h->own_exe = NULL;
    h->exe = NULL;
}

/* The program the log names: argv[0], a relative one taken from the
 * folder opts.exe.dir (the log's). In the scratch buffer. */
static const char *program_path(heap_profile *h)
{
    const char *a = h->info.program_path;
    const char *dir = h->opts.exe.dir;
    if (a[0] != '/' && dir && *dir)
        while (a[0] == '.' && a[1] == '/')
            a += 2;
    size_t al = strlen(a), dl = a[0] != '/' && dir && *dir ? strlen(dir) : 0;
    if (grow(h, (void **)&h->scratch, &h->scratch_cap, al + dl + 2, 1) != 0)
        return NULL;
    char *p = h->scratch;
    size_t n = 0;
    if (dl) {
        memcpy(p, dir, dl);
        n = dl;
        if (p[n - 1] != '/')
            p[n++] = '/';
    }
    memcpy(p + n, a, al + 1);
    return p;
}

/* The first census with -hi bands no IPE entry names: open the
 * executable (the one given, or the program the log names), check that
 * it is the run's (heap_exe_match) and title those bands by its symbols;
 * or say why not. Runs before the census goes to the sink. */
static ev_status exe_decide(heap_profile *h)
{
    size_t n = 0;
    for (size_t i = 0; i < h->cur_n; i++) {
        uint32_t b = h->cur[i].band;
        n += h->aux[b].hi && h->bands[b].title == h->bands[b].name;
    }
    if (!n)
        return EV_OK;           /* nothing to name yet */
    if (charge(h, n * sizeof(uint64_t)) != 0)
        return fail(h, EV_ERR_NOMEM);
    uint64_t *addrs = malloc(n * sizeof *addrs);
    if (!addrs) {
        uncharge(h, n * sizeof(uint64_t));
        return fail(h, EV_ERR_NOMEM);
    }
    size_t k = 0;
    for (size_t i = 0; i < h->cur_n; i++) {
        const heap_band *b = &h->bands[h->cur[i].band];
        if (h->aux[h->cur[i].band].hi && b->title == b->name && hex_value(b->name, b->len,
                                                                           &addrs[k]))
            k++;
    }
    heap_info *in = &h->info;
    char why[600];
    const heap_exe *x = h->opts.exe.given;
    in->exe_given = x != NULL;
    if (!x) {
        const char *path = in->program_path ? program_path(h) : NULL;
        if (in->program_path && !path) {
            free(addrs);
            uncharge(h, n * sizeof(uint64_t));
            return fail(h, EV_ERR_NOMEM);
        }
        if (path && !(in->exe_path = pool_add(h, path, (uint32_t)strlen(path)))) {
            free(addrs);
            uncharge(h, n * sizeof(uint64_t));
            return fail(h, EV_ERR_NOMEM);
        }
        ev_error err;
        if (!path) {
            snprintf(why, sizeof why, "the log names no program (no PROGRAM_ARGS event)");
        } else if (!(h->own_exe = heap_exe_open(path, h->mem.budget, &err))) {
            if (err.status == EV_ERR_IO)
                snprintf(why, sizeof why, "it cannot be opened: %s", err.msg);
            else
                snprintf(why, sizeof why, "%s", err.msg);
        }
        x = h->own_exe;
    } else if (h->opts.exe.given_path &&
               !(in->exe_path = pool_add(h, h->opts.exe.given_path,
                                         (uint32_t)strlen(h->opts.exe.given_path)))) {
        free(addrs);
        uncharge(h, n * sizeof(uint64_t));
        return fail(h, EV_ERR_NOMEM);
    }
    heap_exe_result m;
    if (x) {
        heap_exe_match(x, addrs, k, h->exe_ipes, h->exe_ipes_n, &m);
        if (!m.ok)
            snprintf(why, sizeof why, "%s", m.why);
    }
    free(addrs);
    uncharge(h, n * sizeof(uint64_t));
    free(h->exe_ipes);
    uncharge(h, h->exe_ipes_cap * sizeof *h->exe_ipes);
    h->exe_ipes = NULL;
    h->exe_ipes_n = h->exe_ipes_cap = 0;
    if (!x || !m.ok) {
        exe_unused(h, why);
        return in->exe_why ? EV_OK : fail(h, EV_ERR_NOMEM);
    }
    h->exe = x;
    h->exe_state = EXE_USED;
    h->exe_delta = m.delta;
    in->exe_state = HEAP_EXE_USED;
    in->exe_delta = m.delta;
    in->exe_sample = m.sample;
    in->exe_hits = m.hits;
    in->exe_ipe_agree = m.ipe_agree;
    for (size_t b = 0; b < h->num_bands; b++)
        if (h->aux[b].hi && h->bands[b].title == h->bands[b].name &&
            symbol_title(h, (uint32_t)b) != 0)
            return fail(h, EV_ERR_NOMEM);
    return EV_OK;
}

/* An IPE entry kept as evidence until the executable is decided on. */
static int keep_exe_ipe(heap_profile *h, const el_event *ev)
{
    if (h->exe_state != EXE_PENDING || h->exe_ipes_n >= EXE_IPE_SAMPLE)
        return 0;
    el_str t = ev->u.ipe.table_name, m = ev->u.ipe.module;
    const char *ts = pool_add(h, t.ptr, t.len), *ms = ts ? pool_add(h, m.ptr, m.len) : NULL;
    if (!ms || grow(h, (void **)&h->exe_ipes, &h->exe_ipes_cap, h->exe_ipes_n + 1,
                    sizeof *h->exe_ipes) != 0)
        return -1;
    h->exe_ipes[h->exe_ipes_n++] = (heap_exe_ipe){ ev->u.ipe.info, ts, ms, t.len, m.len };
    return 0;
}

/* `ipe`: an -hi sample (the band is the address, as GHC's .hp names it),
 * its IPE entry or NULL when the log has none. */
static ev_status add_sample(heap_profile *h, const char *name, size_t len, uint64_t bytes,
                              int hi, const ipe_def *ipe)
{
    int created;
    uint32_t b = band_of(h, name, len, &created);
    if (b == UINT32_MAX)
        return fail(h, EV_ERR_NOMEM);
    if (created && hi) {
        h->aux[b].hi = 1;
        if (!ipe) {
            h->info.unresolved_ipe++;
            if (h->exe_state == EXE_USED && symbol_title(h, b) != 0)
                return fail(h, EV_ERR_NOMEM);
        }
    }
    if (created && ipe) {
        h->bands[b].title = ipe->title;
        h->bands[b].title_len = ipe->title_len;
    }
    return census_add(h, b, bytes);
}

/* ---- -hc stacks to bands ------------------------------------------------ */

/* A census by cost-centre stack names each sample's stack (ccs_name) and
 * finds its band by that name: on deep stacks shown whole (html) the
 * names are kilobytes, made and hashed byte by byte for every sample.
 * This cache maps the stack's ids to the band (util/htab.h over a hash of
 * the ids, then one compare), with the undefined cost centres its name
 * counted. Names
 * depend on the definitions: a definition empties it. Its memory is
 * capped and optional: past the cap, names are made as before. */
typedef struct stack_band {
    uint32_t off, depth;        /* the ids in sb_arena */
    uint32_t band, undefined;
} stack_band;

#define SB_MAX_BYTES ((size_t)16 << 20)

typedef struct stack_key {
    const uint32_t *stack, *arena;
    unsigned depth;
} stack_key;

static int stack_eq(const void *items, uint32_t i, const void *key)
{
    const stack_band *e = &((const stack_band *)items)[i];
    const stack_key *k = key;
    return e->depth == k->depth &&
           (k->depth == 0 || memcmp(k->arena + e->off, k->stack, k->depth * sizeof *k->stack) == 0);
}

static const stack_band *sb_find(const heap_profile *h, const uint32_t *stack, unsigned depth,
                                 uint64_t hash)
{
    stack_key k = { stack, h->sb_arena, depth };
    uint32_t i = tx_htab_find(&h->sb_by_stack, hash, stack_eq, h->sb, &k);
    return i == TX_HTAB_NONE ? NULL : &h->sb[i];
}

static void uncharge_sb(heap_profile *h, size_t bytes)
{
    uncharge(h, bytes);
    h->sb_charged -= bytes;
}

/* *arr grown to `need` elements within the cache's cap; -1 (the cache
 * then full for good) when the cap or the budget says no. */
static int sb_grow(heap_profile *h, void **arr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? 2 * *cap : 1024;
    while (n < need)
        n *= 2;
    size_t more = (n - *cap) * elem;
    void *a;
    if (h->sb_charged + more > SB_MAX_BYTES || charge_optional(h, more) != 0) {
        h->sb_full = 1;
        return -1;
    }
    if (!(a = realloc(*arr, n * elem))) {
        uncharge_sb(h, more);
        h->sb_full = 1;
        return -1;
    }
    *arr = a;
    *cap = n;
    return 0;
}

static void sb_add(heap_profile *h, const uint32_t *stack, unsigned depth, uint64_t hash,
                   uint32_t band, uint32_t undefined)
{
    if (h->sb_full ||
        sb_grow(h, (void **)&h->sb_arena, &h->sb_arena_cap, h->sb_len + depth,
                sizeof *h->sb_arena) != 0 ||
        sb_grow(h, (void **)&h->sb, &h->sb_cap, h->sb_num + 1, sizeof *h->sb) != 0)
        return;
    size_t grown;
    if (h->sb_charged + tx_htab_growth(&h->sb_by_stack) > SB_MAX_BYTES ||
        tx_htab_insert_charged(&h->sb_by_stack, hash, (uint32_t)h->sb_num, &h->mem, 1,
                               &grown) != 0) {
        h->sb_full = 1;
        return;
    }
    h->sb_charged += grown;
    h->sb[h->sb_num++] = (stack_band){ (uint32_t)h->sb_len, depth, band, undefined };
    if (depth)
        memcpy(h->sb_arena + h->sb_len, stack, depth * sizeof *stack);
    h->sb_len += depth;
}

/* Every name may have changed: the cache starts again (its memory kept). */
static void sb_clear(heap_profile *h)
{
    uncharge_sb(h, h->sb_by_stack.cap * sizeof(tx_htab_slot));
    tx_htab_free(&h->sb_by_stack);
    h->sb_num = 0;
    h->sb_len = 0;
}

/* A complete census: aggregates, then the sink. */
static ev_status emit(heap_profile *h, uint64_t time, uint64_t era, int bio,
                        const heap_sample *s, size_t n)
{
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += s[i].bytes;
    heap_info *in = &h->info;
    in->censuses++;
    if (time < in->first_time)
        in->first_time = time;
    if (time > in->last_time)
        in->last_time = time;
    if (in->censuses == 1 || total > in->peak_total) {
        in->peak_total = total;
        in->peak_total_time = time;
    }
    for (size_t i = 0; i < n; i++) {
        heap_band *b = &h->bands[s[i].band];
        b->sum += s[i].bytes;
        b->present++;
        if (b->present == 1 || s[i].bytes > b->peak) {
            b->peak = s[i].bytes;
            b->peak_time = time;
            b->peak_total = total;
        }
    }
    if (!h->sink)
        return EV_OK;
    heap_census c = { in->censuses, time, era, bio, total, n, s };
    if (h->sink(h->sink_ctx, h, &c) != 0)
        return fail(h, EV_ERR_SINK);
    return EV_OK;
}

static void drop_open(heap_profile *h, heap_drop_reason why)
{
    if (h->open && h->open_keep) {
        if (!h->info.dropped++) {
            h->info.drop_reason = why;
            h->info.drop_time = h->open_time;
        }
    }
    h->open = 0;
    h->cur_n = 0;
}

static ev_status close_open(heap_profile *h)
{
    ev_status st = EV_OK;
    if (h->open && h->open_damaged) {
        drop_open(h, HEAP_DROP_DAMAGED);
        return st;
    }
    if (h->open && h->open_keep && h->exe_state == EXE_PENDING &&
        h->info.breakdown == HEAP_BY_INFO_TABLE && (st = exe_decide(h)) != EV_OK) {
        h->open = 0;
        h->cur_n = 0;
        return st;
    }
    if (h->open && h->open_keep) {
        if (!h->open_bio) {
            st = emit(h, h->open_time, h->open_era, 0, h->cur, h->cur_n);
        } else if (grow(h, (void **)&h->kept, &h->kept_cap, h->kept_n + 1, sizeof *h->kept) != 0 ||
                   grow(h, (void **)&h->kept_samples, &h->kept_samples_cap,
                        h->kept_samples_n + h->cur_n, sizeof *h->kept_samples) != 0) {
            st = fail(h, EV_ERR_NOMEM);
        } else {
            kept_census *k = &h->kept[h->kept_n++];
            k->time = h->open_time;
            k->era = h->open_era;
            k->seq = h->seq;
            k->first = h->kept_samples_n;
            k->n = h->cur_n;
            if (h->cur_n)
                memcpy(h->kept_samples + h->kept_samples_n, h->cur, h->cur_n * sizeof *h->cur);
            h->kept_samples_n += h->cur_n;
        }
    }
    h->open = 0;
    h->cur_n = 0;
    return st;
}

static ev_status open_census(heap_profile *h, uint64_t time, uint64_t era, int bio)
{
    ev_status st = EV_OK;
    if (h->open) {
        if (h->end_events && !h->open_damaged)
            drop_open(h, HEAP_DROP_NO_END);
        else
            st = close_open(h);
    }
    h->info.censuses_seen++;
    h->open = 1;
    h->open_damaged = 0;
    h->open_bio = bio;
    /* a census is in the selection when the time it was taken is (for a
     * biographical one its own, not its event's) */
    h->open_keep = ev_select_has(h->sel, time);
    if (h->opts.clock == HEAP_CLOCK_MUTATOR) {
        /* GHC takes the census inside a collection and stamps it with the
         * mutator CPU time at the collection's start: estimated as the
         * elapsed time then, minus the collections before (docs/HEAP.md) */
        uint64_t at = h->in_gc && h->gc_start <= time ? h->gc_start : time;
        time = at > h->gc_total ? at - h->gc_total : 0;
    }
    h->open_time = time;
    h->open_era = era;
    if (!h->open_keep)
        h->info.filtered++;
    h->seq++;
    h->cur_n = 0;
    return st;
}

/* ---- run description -------------------------------------------------- */

/* PROGRAM_ARGS: NUL-separated argv. GHC's .hp JOB is the program's name
 * (basename of argv[0]), its arguments, " +RTS" and the RTS options (those
 * between +RTS and -RTS, or to the end; "--RTS" ends option parsing). The
 * last -L<n> among the RTS options is the -hc band length GHC used. */
/* A profiled RTS: the RTS_IDENTIFIER's flavour ("GHC-9.6.6 rts_thr_p")
 * has the way "p" among its '_'-separated words. */
static int profiled_rts(const char *rts)
{
    const char *p = strchr(rts, ' ');
    if (!p)
        return 0;
    for (p++; *p && *p != ' ';) {
        size_t len = strcspn(p, "_ ");
        if (len == 1 && *p == 'p')
            return 1;
        p += len;
        if (*p == '_')
            p++;
    }
    return 0;
}

static int take_args(heap_profile *h, el_str args)
{
    const char *s = args.ptr;
    size_t n = args.len;
    /* the JOB line in the first half of the scratch buffer, the RTS
     * options in the second; neither is longer than the list plus " +RTS" */
    size_t half = n + 8;
    if (grow(h, (void **)&h->scratch, &h->scratch_cap, 2 * half, 1) != 0)
        return -1;
    char *job = h->scratch, *rts = h->scratch + half;
    size_t jl = 0, rl = 0;
    int in_rts = 0, argi = 0, only_prog = 0;
    long length = 0;
    const char *prog = "";
    size_t prog_len = 0;
    for (size_t i = 0; i < n; argi++) {
        const char *a = s + i;
        const char *nul = memchr(a, '\0', n - i);
        size_t len = nul ? (size_t)(nul - a) : n - i;
        i += len + 1;
        if (argi == 0) {
            const char *slash = a;
            for (size_t k = 0; k < len; k++)
                if (a[k] == '/')
                    slash = a + k + 1;
            prog = slash;
            prog_len = len - (size_t)(slash - a);
            memcpy(job, prog, prog_len);
            jl = prog_len;
            continue;
        }
        if (!only_prog && len == 4 && memcmp(a, "+RTS", 4) == 0) {
            in_rts = 1;
            continue;
        }
        if (!only_prog && len == 4 && memcmp(a, "-RTS", 4) == 0) {
            in_rts = 0;
            continue;
        }
        if (!only_prog && !in_rts && len == 5 && memcmp(a, "--RTS", 5) == 0) {
            only_prog = 1;
            continue;
        }
        if (in_rts) {
            rts[rl++] = ' ';
            memcpy(rts + rl, a, len);
            rl += len;
            if (len > 2 && a[0] == '-' && a[1] == 'L') {
                long v = 0;
                size_t k = 2;
                while (k < len && a[k] >= '0' && a[k] <= '9' && v < 100000000)
                    v = v * 10 + (a[k++] - '0');
                if (k > 2 && (k == len || a[k] == '.'))
                    length = v;
            }
        } else {
            job[jl++] = ' ';
            memcpy(job + jl, a, len);
            jl += len;
        }
    }
    if (h->info.rts_version && !profiled_rts(h->info.rts_version)) {
        jl = prog_len;          /* GHC's non-profiled RTS writes the program only */
    } else {
        memcpy(job + jl, " +RTS", 5);
        jl += 5;
        memmove(job + jl, rts, rl);
        jl += rl;
    }
    const char *j = pool_add(h, job, (uint32_t)jl);
    const char *p = j ? pool_add(h, prog, (uint32_t)prog_len) : NULL;
    const char *a0 = p ? pool_add(h, s, (uint32_t)strnlen(s, n)) : NULL;
    if (!j || !p || !a0)
        return -1;
    h->info.job = j;
    h->info.program = p;
    h->info.program_path = a0;
    if (length > 0 && !h->opts.length && !h->named_ccs) {
        /* GHC rejects -L0; below 4 its cut would write before the buffer */
        h->info.length = length < 4 ? 4 : length > (long)HEAP_MAX_LENGTH ? HEAP_MAX_LENGTH
                                                                       : (uint32_t)length;
        h->info.length_from_log = 1;
    }
    return 0;
}

static int define_cc(heap_profile *h, const el_event *ev)
{
    uint32_t id = ev->u.cost_centre.id;
    sb_clear(h);
    el_str l = ev->u.cost_centre.label, m = ev->u.cost_centre.module;
    cc_def *c = find_cc(h, id);
    if (!c) {
        if (h->num_ccs >= UINT32_MAX - 1 ||
            grow(h, (void **)&h->ccs, &h->cap_ccs, h->num_ccs + 1, sizeof *h->ccs) != 0 ||
            tx_idmap_put(&h->cc_ids, id, (uint32_t)h->num_ccs, &h->mem) != 0)
            return -1;
        c = &h->ccs[h->num_ccs++];
        memset(c, 0, sizeof *c);
        c->id = id;
    }
    c->label = pool_add(h, l.ptr, l.len);
    c->module = pool_add(h, m.ptr, m.len);
    if (!c->label || !c->module)
        return -1;
    c->label_len = l.len;
    c->module_len = m.len;
    c->caf = l.len == 3 && memcmp(l.ptr, "CAF", 3) == 0;
    return 0;
}

/* GHC's closure types (rts/include/rts/storage/ClosureTypes.h, the same
 * numbers from GHC 8.2 to 9.12): IPE's closure description is one of
 * these numbers written in decimal. */
static const char *const closure_types[] = {
    "INVALID_OBJECT", "CONSTR", "CONSTR_1_0", "CONSTR_0_1", "CONSTR_2_0", "CONSTR_1_1",
    "CONSTR_0_2", "CONSTR_NOCAF", "FUN", "FUN_1_0", "FUN_0_1", "FUN_2_0", "FUN_1_1",
    "FUN_0_2", "FUN_STATIC", "THUNK", "THUNK_1_0", "THUNK_0_1", "THUNK_2_0", "THUNK_1_1",
    "THUNK_0_2", "THUNK_STATIC", "THUNK_SELECTOR", "BCO", "AP", "PAP", "AP_STACK", "IND",
    "IND_STATIC", "RET_BCO", "RET_SMALL", "RET_BIG", "RET_FUN", "UPDATE_FRAME",
    "CATCH_FRAME", "UNDERFLOW_FRAME", "STOP_FRAME", "BLOCKING_QUEUE", "BLACKHOLE",
    "MVAR_CLEAN", "MVAR_DIRTY", "TVAR", "ARR_WORDS", "MUT_ARR_PTRS_CLEAN",
    "MUT_ARR_PTRS_DIRTY", "MUT_ARR_PTRS_FROZEN_DIRTY", "MUT_ARR_PTRS_FROZEN_CLEAN",
    "MUT_VAR_CLEAN", "MUT_VAR_DIRTY", "WEAK", "PRIM", "MUT_PRIM", "TSO", "STACK",
    "TREC_CHUNK", "ATOMICALLY_FRAME", "CATCH_RETRY_FRAME", "CATCH_STM_FRAME", "WHITEHOLE",
    "SMALL_MUT_ARR_PTRS_CLEAN", "SMALL_MUT_ARR_PTRS_DIRTY",
    "SMALL_MUT_ARR_PTRS_FROZEN_DIRTY", "SMALL_MUT_ARR_PTRS_FROZEN_CLEAN", "COMPACT_NFDATA",
    "CONTINUATION", "ANN_FRAME",
};

/* IPE's closure description as a closure type's name: a number in the
 * table's range becomes its name, anything else stays as written. */
static el_str closure_type(el_str d)
{
    unsigned v = 0;
    if (d.len == 0 || d.len > 3)
        return d;
    for (uint32_t i = 0; i < d.len; i++) {
        if (d.ptr[i] < '0' || d.ptr[i] > '9')
            return d;
        v = v * 10 + (unsigned)(d.ptr[i] - '0');
    }
    if (v >= sizeof closure_types / sizeof closure_types[0])
        return d;
    el_str n = { closure_types[v], (uint32_t)strlen(closure_types[v]) };
    return n;
}

/* An -hi band's title from its IPE entry: "TABLE (CLOSURE :: TYPE, LABEL,
 * MODULE, SRCLOC)", the parts that are empty left out (heap.h). Built in
 * the scratch buffer, kept in the pool; the bands already named by the
 * entry's address take it. */
static int define_ipe(heap_profile *h, const el_event *ev)
{
    el_str t = ev->u.ipe.table_name, ct = closure_type(ev->u.ipe.closure_desc);
    el_str parts[4] = { ev->u.ipe.ty_desc, ev->u.ipe.label, ev->u.ipe.module,
                        ev->u.ipe.srcloc };
    if (parts[3].len == 1 && parts[3].ptr[0] == ':')
        parts[3].len = 0;       /* GHC 9.4+ writes file ":" span: both empty */
    size_t n = (size_t)t.len + 3 + ct.len + 4;
    for (int i = 0; i < 4; i++)
        n += (size_t)parts[i].len + 2;
    if (grow(h, (void **)&h->scratch, &h->scratch_cap, n + 1, 1) != 0)
        return -1;
    char *tmp = h->scratch;
    size_t len = 0, open;
#define PUT(p, l) do { memcpy(tmp + len, (p), (l)); len += (l); } while (0)
    PUT(t.ptr, t.len);
    PUT(" (", 2);
    open = len;
    PUT(ct.ptr, ct.len);
    if (parts[0].len) {
        if (len > open)
            PUT(" :: ", 4);
        PUT(parts[0].ptr, parts[0].len);
    }
    for (int i = 1; i < 4; i++)
        if (parts[i].len) {
            if (len > open)
                PUT(", ", 2);
            PUT(parts[i].ptr, parts[i].len);
        }
    if (len == open)
        len -= 2;               /* nothing but the table's name */
    else
        PUT(")", 1);
#undef PUT
    const char *title = pool_add(h, tmp, (uint32_t)len);
    if (!title)
        return -1;
    uint64_t info = ev->u.ipe.info;
    ipe_def *e = find_ipe(h, info);
    if (!e) {
        if (h->num_ipes >= UINT32_MAX - 1 ||
            grow(h, (void **)&h->ipes, &h->cap_ipes, h->num_ipes + 1, sizeof *h->ipes) != 0 ||
            htab_add(h, &h->by_ipe, hash_mix64(info), (uint32_t)h->num_ipes) != 0)
            return -1;
        e = &h->ipes[h->num_ipes++];
        memset(e, 0, sizeof *e);
        e->info = info;
    }
    e->title = title;
    e->title_len = (uint32_t)len;
    /* an entry after its address's samples (GHC writes them first) */
    char addr[24];
    int an = snprintf(addr, sizeof addr, "0x%" PRIx64, info);
    name_key key = { addr, (size_t)an };
    uint32_t b = h->num_bands ? tx_htab_find(&h->by_name, hash_bytes(addr, (size_t)an, 0),
                                             band_eq, h->bands, &key)
                              : TX_HTAB_NONE;
    if (b != TX_HTAB_NONE && h->info.breakdown == HEAP_BY_INFO_TABLE) {
        if ((h->bands[b].title == h->bands[b].name || h->aux[b].by_symbol) &&
            h->info.unresolved_ipe)
            h->info.unresolved_ipe--;
        if (h->aux[b].by_symbol && h->info.symbol_bands) {
            h->info.symbol_bands--;
            h->aux[b].by_symbol = 0;
        }
        h->bands[b].title = title;
        h->bands[b].title_len = (uint32_t)len;
    }
    return 0;
}

/* ---- events ----------------------------------------------------------- */

ev_status heap_add_event(heap_profile *h, const el_event *ev, const el_decoder *d)
{
    if (h->status != EV_OK)
        return h->status;
    if (h->finished)
        return EV_ERR_FINISHED;
    if (d) {
        if (!h->end_known && el_decoder_header_done(d)) {
            h->end_known = 1;
            h->end_events = el_decoder_type(d, EL_HEAP_PROF_SAMPLE_END) != NULL;
        }
        /* with resync, a damaged block was skipped before this event: the
         * open census may have lost samples in it */
        uint64_t blocks = el_decoder_damage(d)->blocks;
        if (blocks != h->damage_blocks) {
            h->damage_blocks = blocks;
            if (h->open)
                h->open_damaged = 1;
        }
    }
    if (!ev->decoded)
        return EV_OK;
    heap_info *in = &h->info;
    switch (ev->type) {
    case EL_GC_START:
        if (!h->in_gc) {        /* one collection, whatever caps post it */
            h->in_gc = 1;
            h->gc_start = ev->time;
        }
        return EV_OK;
    case EL_GC_END:
        if (h->in_gc && ev->time >= h->gc_start) {
            h->gc_total += ev->time - h->gc_start;
            h->in_gc = 0;
        }
        return EV_OK;
    case EL_HEAP_PROF_BEGIN:
        if (!in->has_begin) {
            in->has_begin = 1;
            in->breakdown = ev->u.heap_prof_begin.breakdown;
            in->period_ns = ev->u.heap_prof_begin.period;
            if (in->breakdown != HEAP_BY_INFO_TABLE) {
                h->keep_ipe = 0;
                h->exe_state = EXE_OFF;
            }
        }
        return EV_OK;
    case EL_HEAP_PROF_COST_CENTRE:
        return define_cc(h, ev) == 0 ? EV_OK : fail(h, EV_ERR_NOMEM);
    case EL_IPE:
        if (!h->keep_ipe)
            return EV_OK;
        return define_ipe(h, ev) == 0 && keep_exe_ipe(h, ev) == 0 ? EV_OK
                                                                 : fail(h, EV_ERR_NOMEM);
    case EL_HEAP_PROF_SAMPLE_BEGIN:
        return open_census(h, ev->time, ev->u.heap_sample.era, 0);
    case EL_HEAP_BIO_PROF_SAMPLE_BEGIN:
        return open_census(h, ev->u.heap_sample.time, ev->u.heap_sample.era, 1);
    case EL_HEAP_PROF_SAMPLE_END:
        if (!h->open) {
            in->stray_samples++;
            return EV_OK;
        }
        return close_open(h);
    case EL_HEAP_PROF_SAMPLE_COST_CENTRE: {
        if (!h->open) {
            in->stray_samples++;
            return EV_OK;
        }
        if (!h->open_keep)
            return EV_OK;
        const uint32_t *stack = ev->u.heap_sample_data.stack;
        unsigned depth = ev->u.heap_sample_data.depth;
        uint64_t hash = hash_u32s(stack, depth, 0);
        const stack_band *known = sb_find(h, stack, depth, hash);
        h->named_ccs = 1;
        if (known) {
            in->undefined_ccs += known->undefined;
            return census_add(h, known->band, ev->u.heap_sample_data.residency);
        }
        if (ensure_name_buf(h) != 0)
            return fail(h, EV_ERR_NOMEM);
        uint64_t undefined = in->undefined_ccs;
        size_t len = ccs_name(h, stack, depth);
        int created;
        uint32_t b = band_of(h, h->name_buf, len, &created);
        if (b == UINT32_MAX)
            return fail(h, EV_ERR_NOMEM);
        sb_add(h, stack, depth, hash, b, (uint32_t)(in->undefined_ccs - undefined));
        return census_add(h, b, ev->u.heap_sample_data.residency);
    }
    case EL_HEAP_PROF_SAMPLE_STRING: {
        if (!h->open) {
            in->stray_samples++;
            return EV_OK;
        }
        if (!h->open_keep)
            return EV_OK;
        el_str l = ev->u.heap_sample_data.label;
        uint64_t info;
        if (in->breakdown == HEAP_BY_INFO_TABLE && hex_value(l.ptr, l.len, &info))
            return add_sample(h, l.ptr, l.len, ev->u.heap_sample_data.residency, 1,
                              find_ipe(h, info));
        return add_sample(h, l.ptr, l.len, ev->u.heap_sample_data.residency, 0, NULL);
    }
    case EL_PROGRAM_ARGS:
        return take_args(h, ev->u.text.str) == 0 ? EV_OK : fail(h, EV_ERR_NOMEM);
    case EL_RTS_IDENTIFIER:
        if (!in->rts_version) {
            in->rts_version = pool_add(h, ev->u.text.str.ptr, ev->u.text.str.len);
            if (!in->rts_version)
                return fail(h, EV_ERR_NOMEM);
        }
        return EV_OK;
    case EL_WALL_CLOCK_TIME:
        if (!in->has_wall_clock) {
            in->has_wall_clock = 1;
            in->wall_sec = ev->u.wall_clock.sec;
            in->wall_time_ns = ev->time;
        }
        return EV_OK;
    default:
        return EV_OK;
    }
}

static int by_time(const void *a, const void *b)
{
    const kept_census *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

ev_status heap_finish(heap_profile *h, const el_read_result *r)
{
    if (h->finished)
        return h->status;
    h->finished = 1;
    int end_marker = 0;
    if (r) {
        if (r->has_time_span) {
            h->info.log_first = r->first_time;
            h->info.log_last = r->last_time;
            /* the mutator clock ends where the program did, less its GCs */
            if (h->opts.clock == HEAP_CLOCK_MUTATOR)
                h->info.log_last = r->last_time > h->gc_total ? r->last_time - h->gc_total : 0;
        }
        end_marker = r->status == EV_END;
        if (r->damage.blocks != h->damage_blocks && h->open)
            h->open_damaged = 1;   /* damage after the last event seen */
    }
    if (h->status != EV_OK)
        return h->status;
    if (h->open) {
        if (h->open_damaged) {
            drop_open(h, HEAP_DROP_DAMAGED);
        } else if (end_marker && !h->end_events) {
            if (close_open(h) != EV_OK)
                return h->status;
        } else {
            drop_open(h, HEAP_DROP_CUT);
        }
    }
    if (h->kept_n) {
        qsort(h->kept, h->kept_n, sizeof *h->kept, by_time);
        for (size_t i = 0; i < h->kept_n && h->status == EV_OK; i++) {
            const kept_census *k = &h->kept[i];
            emit(h, k->time, k->era, 1, h->kept_samples + k->first, k->n);
        }
    }
    if (h->info.first_time == UINT64_MAX)
        h->info.first_time = 0;
    return h->status;
}

/* ---- summary order ---------------------------------------------------- */

static int by_peak(const void *a, const void *b)
{
    const heap_band *x = *(const heap_band *const *)a, *y = *(const heap_band *const *)b;
    if (x->peak != y->peak)
        return x->peak > y->peak ? -1 : 1;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->name, y->name, n);
    if (c)
        return c;
    return (x->len > y->len) - (x->len < y->len);
}

uint32_t *heap_bands_by_peak(const heap_profile *h, size_t *n)
{
    const heap_band **v = malloc((h->num_bands ? h->num_bands : 1) * sizeof *v);
    uint32_t *out = malloc((h->num_bands ? h->num_bands : 1) * sizeof *out);
    if (!v || !out) {
        free(v);
        free(out);
        return NULL;
    }
    size_t k = 0;
    for (size_t i = 0; i < h->num_bands; i++)
        if (h->bands[i].present)
            v[k++] = &h->bands[i];
    qsort(v, k, sizeof *v, by_peak);
    for (size_t i = 0; i < k; i++)
        out[i] = (uint32_t)(v[i] - h->bands);
    free(v);
    *n = k;
    return out;
}

/* ---- snapshots and the driver --------------------------------------------- */

static const char *copy_str(strpool *sp, const char *s)
{
    return s ? tx_strpool_add(sp, s, (uint32_t)strlen(s)) : NULL;
}

heap_profile *heap_snapshot(const heap_profile *h)
{
    if (!h || h->status == EV_ERR_NOMEM)
        return NULL;
    heap_profile *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->opts = h->opts;
    c->hull = h->hull;
    c->status = h->status;
    c->finished = 1;
    tx_strpool_init(&c->strings);
    c->info = h->info;
    if ((h->info.program && !(c->info.program = copy_str(&c->strings, h->info.program))) ||
        (h->info.job && !(c->info.job = copy_str(&c->strings, h->info.job))) ||
        (h->info.rts_version &&
         !(c->info.rts_version = copy_str(&c->strings, h->info.rts_version))) ||
        (h->info.program_path &&
         !(c->info.program_path = copy_str(&c->strings, h->info.program_path))) ||
        (h->info.exe_path && !(c->info.exe_path = copy_str(&c->strings, h->info.exe_path))) ||
        (h->info.exe_why && !(c->info.exe_why = copy_str(&c->strings, h->info.exe_why))))
        goto nomem;
    if (h->num_bands) {
        if (!(c->bands = malloc(h->num_bands * sizeof *c->bands)))
            goto nomem;
        for (size_t i = 0; i < h->num_bands; i++) {
            c->bands[i] = h->bands[i];
            if (!(c->bands[i].name = tx_strpool_add(&c->strings, h->bands[i].name, h->bands[i].len)))
                goto nomem;
            c->bands[i].title = c->bands[i].name;
            if (h->bands[i].title != h->bands[i].name &&
                !(c->bands[i].title = tx_strpool_add(&c->strings, h->bands[i].title,
                                                     h->bands[i].title_len)))
                goto nomem;
        }
        c->num_bands = c->cap_bands = h->num_bands;
    }
    /* biographical censuses wait for the end of the log to be ordered:
     * count them in, in time order, as the end would */
    if (h->kept_n && !h->finished) {
        kept_census *k = malloc(h->kept_n * sizeof *k);
        if (!k)
            goto nomem;
        memcpy(k, h->kept, h->kept_n * sizeof *k);
        qsort(k, h->kept_n, sizeof *k, by_time);
        for (size_t i = 0; i < h->kept_n; i++)
            emit(c, k[i].time, k[i].era, 1, h->kept_samples + k[i].first, k[i].n);
        free(k);
    }
    if (c->info.first_time == UINT64_MAX)
        c->info.first_time = 0;
    return c;

nomem:
    heap_destroy(c);
    return NULL;
}

static int heap_op_event(void *self, const el_event *ev, const ev_stream *s)
{
    heap_profile *h = self;
    if (s->budget != h->mem.budget && s->budget)
        heap_set_budget(h, s->budget);
    set_select(h, s->select);
    return heap_add_event(h, ev, s->decoder) != EV_OK;
}

static void heap_op_end(void *self, const ev_stream *s)
{
    set_select(self, s->select);
    heap_finish(self, &s->read);
}

static void *heap_op_snapshot(void *self) { return heap_snapshot(self); }
static void heap_op_release(void *snap) { heap_destroy(snap); }

static const uint16_t heap_types[] = {
    EL_HEAP_PROF_BEGIN, EL_HEAP_PROF_COST_CENTRE, EL_HEAP_PROF_SAMPLE_BEGIN,
    EL_HEAP_PROF_SAMPLE_COST_CENTRE, EL_HEAP_PROF_SAMPLE_STRING, EL_HEAP_PROF_SAMPLE_END,
    EL_HEAP_BIO_PROF_SAMPLE_BEGIN, EL_IPE, EL_PROGRAM_ARGS, EL_RTS_IDENTIFIER,
    EL_WALL_CLOCK_TIME, EL_GC_START, EL_GC_END,
};

static int heap_op_holds(const void *self, char *buf, size_t size)
{
    heap_counts c;
    heap_count(self, &c);
    snprintf(buf, size, "the heap profile holds %llu bands, %llu cost centres, %llu censuses, "
             "%llu samples of biographical censuses in %.1f MiB", (unsigned long long)c.bands,
             (unsigned long long)c.ccs, (unsigned long long)c.censuses,
             (unsigned long long)c.kept_samples, (double)c.bytes / (1 << 20));
    return c.censuses || c.bands || c.kept_samples;
}

const ev_analysis_ops heap_analysis_ops = {
    .name = "heap profile",
    .types = heap_types,
    .num_types = sizeof heap_types / sizeof heap_types[0],
    .event = heap_op_event,
    .end = heap_op_end,
    .snapshot = heap_op_snapshot,
    .release = heap_op_release,
    .holds = heap_op_holds,
};

const ev_analysis_ops heap_analysis_ordered_ops = {
    .name = "heap profile",
    .types = heap_types,
    .num_types = sizeof heap_types / sizeof heap_types[0],
    .flags = EV_ORDERED,
    .event = heap_op_event,
    .end = heap_op_end,
    .snapshot = heap_op_snapshot,
    .release = heap_op_release,
    .holds = heap_op_holds,
};

const ev_analysis_ops *heap_analysis_for(const heap_profile *h)
{
    return h->opts.clock == HEAP_CLOCK_MUTATOR ? &heap_analysis_ordered_ops : &heap_analysis_ops;
}
