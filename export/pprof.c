/* pprof's profile.proto from the time profile and from heap censuses (see
 * include/evprof/pprof.h). The messages are protobuf-c's, generated at
 * build time from export/profile.proto; this file fills them in, packs
 * them and gzips the bytes. */
#include "evprof/pprof.h"

#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "export/srcloc.h"
#include "profile.pb-c.h"
#include "util/account.h"
#include "util/hash.h"
#include "util/htab.h"
#include "util/strpool.h"

typedef Perftools__Profiles__Profile pb_profile;
typedef Perftools__Profiles__ValueType pb_value_type;
typedef Perftools__Profiles__Sample pb_sample;
typedef Perftools__Profiles__Location pb_location;
typedef Perftools__Profiles__Line pb_line;
typedef Perftools__Profiles__Function pb_function;
typedef Perftools__Profiles__Mapping pb_mapping;

/* Grows *arr (of *size elements of `elem` bytes) to hold n + 1. */
static int reserve(void *arr, size_t *size, size_t n, size_t elem)
{
    if (n < *size)
        return 0;
    size_t s = *size ? *size * 2 : 64;
    void *a = realloc(*(void **)arr, s * elem);
    if (!a)
        return -1;
    *(void **)arr = a;
    *size = s;
    return 0;
}

/* ---- the profile under construction ------------------------------------ */

typedef struct builder {
    strpool pool;
    char **strs;                /* the string table; strs[0] = "" */
    size_t num_strs, strs_size;
    tx_htab by_str;             /* string -> its index */
    pb_function *funcs;         /* function i has id i + 1; so has location i */
    size_t num_funcs, funcs_size;
    pb_sample *samples;
    size_t num_samples, samples_size;
    size_t *sample_locs;        /* per sample: offset into loc_ids */
    size_t sample_locs_size;
    uint64_t *loc_ids;
    size_t num_loc_ids, loc_ids_size;
    int64_t *values;            /* num_values per sample */
    size_t values_len, values_size;
    size_t num_values;
    int64_t program;            /* string index of the program's name */
    int failed;
} builder;

typedef struct str_key {
    const char *s;
    size_t len;
} str_key;

static int str_eq(const void *strs, uint32_t i, const void *key)
{
    const char *c = ((char *const *)strs)[i];
    const str_key *k = key;
    return strncmp(c, k->s, k->len) == 0 && c[k->len] == '\0';
}

/* The string table index of s[0..len); 0 for "" (and on failure, which
 * is sticky in b->failed). */
static int64_t str_index(builder *b, const char *s, size_t len)
{
    if (b->failed)
        return 0;
    uint64_t h = hash_bytes(s, len, 0);
    str_key key = { s, len };
    uint32_t found = tx_htab_find(&b->by_str, h, str_eq, b->strs, &key);
    if (found != TX_HTAB_NONE)
        return found;
    if (len > UINT32_MAX || reserve(&b->strs, &b->strs_size, b->num_strs, sizeof *b->strs) != 0)
        goto nomem;
    const char *copy = tx_strpool_add(&b->pool, s, (uint32_t)len);
    if (!copy || tx_htab_insert(&b->by_str, h, (uint32_t)b->num_strs) != 0)
        goto nomem;
    b->strs[b->num_strs] = (char *)copy;
    return (int64_t)b->num_strs++;
nomem:
    b->failed = 1;
    return 0;
}

static int64_t str_of(builder *b, const char *s)
{
    return str_index(b, s, strlen(s));
}

static int builder_init(builder *b, size_t num_values)
{
    memset(b, 0, sizeof *b);
    tx_strpool_init(&b->pool);
    b->num_values = num_values;
    str_index(b, "", 0);        /* string_table[0] must be "" */
    return b->failed ? -1 : 0;
}

static void builder_free(builder *b)
{
    tx_strpool_destroy(&b->pool);
    free(b->strs);
    tx_htab_free(&b->by_str);
    free(b->funcs);
    free(b->samples);
    free(b->sample_locs);
    free(b->loc_ids);
    free(b->values);
}

/* A new function (and its location); returns its id, 0 on failure. */
static uint64_t add_function(builder *b, const char *name, size_t name_len,
                             const char *system_name, const char *src)
{
    if (b->failed || reserve(&b->funcs, &b->funcs_size, b->num_funcs, sizeof *b->funcs) != 0) {
        b->failed = 1;
        return 0;
    }
    pb_function *f = &b->funcs[b->num_funcs];
    perftools__profiles__function__init(f);
    f->id = b->num_funcs + 1;
    f->name = str_index(b, name, name_len);
    f->system_name = str_of(b, system_name);
    ex_srcloc loc;
    if (src && export_srcloc_parse(src, &loc)) {
        f->filename = str_index(b, loc.file, loc.file_len);
        f->start_line = loc.line;
    }
    b->num_funcs++;
    return b->failed ? 0 : f->id;
}

/* A sample: `n` location ids, leaf first, and b->num_values values. */
static void add_sample(builder *b, const uint64_t *locs, size_t n, const int64_t *values)
{
    if (b->failed)
        return;
    if (reserve(&b->samples, &b->samples_size, b->num_samples, sizeof *b->samples) != 0 ||
        reserve(&b->sample_locs, &b->sample_locs_size, b->num_samples,
                sizeof *b->sample_locs) != 0) {
        b->failed = 1;
        return;
    }
    while (b->num_loc_ids + n > b->loc_ids_size)
        if (reserve(&b->loc_ids, &b->loc_ids_size, b->loc_ids_size, sizeof *b->loc_ids) != 0) {
            b->failed = 1;
            return;
        }
    while (b->values_len + b->num_values > b->values_size)
        if (reserve(&b->values, &b->values_size, b->values_size, sizeof *b->values) != 0) {
            b->failed = 1;
            return;
        }
    pb_sample *s = &b->samples[b->num_samples];
    perftools__profiles__sample__init(s);
    s->n_location_id = n;
    s->n_value = b->num_values;
    b->sample_locs[b->num_samples++] = b->num_loc_ids;
    memcpy(b->loc_ids + b->num_loc_ids, locs, n * sizeof *locs);
    b->num_loc_ids += n;
    memcpy(b->values + b->values_len, values, b->num_values * sizeof *values);
    b->values_len += b->num_values;
}

/* gzip of bytes into out. */
static int gzip(const uint8_t *in, size_t len, pprof_buf *out)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return -1;
    size_t size = deflateBound(&z, (uLong)len) + 64;
    out->data = malloc(size);
    if (!out->data) {
        deflateEnd(&z);
        return -1;
    }
    z.next_in = (Bytef *)in;
    z.avail_in = (uInt)len;
    z.next_out = out->data;
    z.avail_out = (uInt)size;
    int rc = len > UINT32_MAX / 2 ? Z_BUF_ERROR : deflate(&z, Z_FINISH);
    out->len = size - z.avail_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(out->data);
        out->data = NULL;
        out->len = 0;
        return -1;
    }
    return 0;
}

/* Points the messages at the arrays, packs and gzips. `prof` has its
 * scalar fields and value types set. */
static int finish(builder *b, pb_profile *prof, pprof_buf *out)
{
    if (b->failed)
        return -1;
    int rc = -1;
    pb_sample **samples = malloc((b->num_samples + 1) * sizeof *samples);
    pb_function **funcs = malloc((b->num_funcs + 1) * sizeof *funcs);
    pb_location *locs = malloc((b->num_funcs + 1) * sizeof *locs);
    pb_location **loc_ptrs = malloc((b->num_funcs + 1) * sizeof *loc_ptrs);
    pb_line *lines = malloc((b->num_funcs + 1) * sizeof *lines);
    pb_line **line_ptrs = malloc((b->num_funcs + 1) * sizeof *line_ptrs);
    uint8_t *packed = NULL;
    if (!samples || !funcs || !locs || !loc_ptrs || !lines || !line_ptrs)
        goto done;
    for (size_t i = 0; i < b->num_samples; i++) {
        b->samples[i].location_id = b->loc_ids + b->sample_locs[i];
        b->samples[i].value = b->values + i * b->num_values;
        samples[i] = &b->samples[i];
    }
    for (size_t i = 0; i < b->num_funcs; i++) {
        funcs[i] = &b->funcs[i];
        perftools__profiles__line__init(&lines[i]);
        lines[i].function_id = b->funcs[i].id;
        lines[i].line = b->funcs[i].start_line;
        line_ptrs[i] = &lines[i];
        perftools__profiles__location__init(&locs[i]);
        locs[i].id = b->funcs[i].id;
        locs[i].n_line = 1;
        locs[i].line = &line_ptrs[i];
        loc_ptrs[i] = &locs[i];
    }
    /* one mapping, the program, with symbols resolved: no reader tries to
     * symbolise the addresses (there are none) */
    pb_mapping map = PERFTOOLS__PROFILES__MAPPING__INIT;
    pb_mapping *map_ptr = &map;
    map.id = 1;
    map.filename = b->program;
    map.has_functions = map.has_filenames = map.has_line_numbers = 1;
    for (size_t i = 0; i < b->num_funcs; i++)
        locs[i].mapping_id = 1;
    prof->n_mapping = 1;
    prof->mapping = &map_ptr;
    prof->n_sample = b->num_samples;
    prof->sample = samples;
    prof->n_function = b->num_funcs;
    prof->function = funcs;
    prof->n_location = b->num_funcs;
    prof->location = loc_ptrs;
    prof->n_string_table = b->num_strs;
    prof->string_table = b->strs;
    size_t len = perftools__profiles__profile__get_packed_size(prof);
    packed = malloc(len ? len : 1);
    if (!packed)
        goto done;
    if (perftools__profiles__profile__pack(prof, packed) != len)
        goto done;
    rc = gzip(packed, len, out);
done:
    free(packed);
    free(samples);
    free(funcs);
    free(locs);
    free(loc_ptrs);
    free(lines);
    free(line_ptrs);
    return rc;
}

void pprof_buf_free(pprof_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = 0;
}

void pprof_meta_init(pprof_meta *m)
{
    memset(m, 0, sizeof *m);
    m->to_ns = UINT64_MAX;
}

/* wall clock (ns since the epoch) at time t of the log's clock */
static int64_t wall_at(uint64_t wall_sec, uint32_t wall_nsec, uint64_t wall_time_ns, uint64_t t)
{
    return (int64_t)(wall_sec * 1000000000u + wall_nsec) - (int64_t)wall_time_ns + (int64_t)t;
}

/* ---- time profile ------------------------------------------------------ */

typedef struct time_walk {
    const prof_result *p;
    builder *b;
    uint64_t *fn_of_cc;         /* function id per cost-centre index; 0: not yet */
    uint8_t *namesake;          /* per cost-centre index (prof_namesakes) */
    uint64_t *path;             /* location ids from MAIN (or the cut marker) */
    size_t depth;
    size_t cut_at;              /* path index of a cut marker, or SIZE_MAX */
    uint64_t *leaf_first;
    uint64_t interval;
    uint64_t samples;
} time_walk;

static uint64_t cc_function(time_walk *w, uint32_t cc_index)
{
    if (w->fn_of_cc[cc_index])
        return w->fn_of_cc[cc_index];
    const prof_cc *cc = prof_cc_at(w->p, cc_index);
    char small[256];
    int ns = w->namesake[cc_index];
    size_t len = export_frame_name(cc, ns, small, sizeof small);
    uint64_t id;
    if (len < sizeof small) {
        id = add_function(w->b, small, len, cc->label, cc->srcloc);
    } else {
        char *big = malloc(len + 1);
        if (!big) {
            w->b->failed = 1;
            return 0;
        }
        export_frame_name(cc, ns, big, len + 1);
        id = add_function(w->b, big, len, cc->label, cc->srcloc);
        free(big);
    }
    return w->fn_of_cc[cc_index] = id;
}

static int time_enter(void *ctx, uint32_t node)
{
    time_walk *w = ctx;
    const prof_node *nd = prof_node_at(w->p, node);
    const prof_cc *cc = prof_cc_at(w->p, nd->cc);
    uint64_t loc = cc_function(w, nd->cc);
    if (!loc)
        return -1;
    if (node != 0 && cc->synthetic)
        w->cut_at = w->depth;   /* the cut marker: its stacks lost MAIN */
    w->path[w->depth++] = loc;
    if (nd->ticks) {
        size_t base = w->cut_at == SIZE_MAX ? 0 : w->cut_at, n = 0;
        for (size_t i = w->depth; i-- > base;)
            w->leaf_first[n++] = w->path[i];
        int64_t v[2] = { (int64_t)nd->ticks, (int64_t)(nd->ticks * w->interval) };
        add_sample(w->b, w->leaf_first, n, v);
        w->samples += nd->ticks;
    }
    return w->b->failed ? -1 : 0;
}

static int time_leave(void *ctx, uint32_t node)
{
    time_walk *w = ctx;
    w->depth--;
    if (w->depth == w->cut_at)
        w->cut_at = SIZE_MAX;
    (void)node;
    return 0;
}

int pprof_time_profile(const prof_result *p, pprof_meta *m, pprof_buf *out)
{
    builder b;
    out->data = NULL;
    out->len = 0;
    if (builder_init(&b, 2) != 0) {
        builder_free(&b);
        return -1;
    }
    const prof_info *in = prof_get_info(p);
    /* a path is at most MAIN, a cut marker and 255 frames */
    enum { MAX_PATH = EL_MAX_STACK + 2 };
    time_walk w = {
        .p = p, .b = &b, .fn_of_cc = calloc(prof_num_ccs(p) + 1, sizeof(uint64_t)),
        .namesake = malloc(prof_num_ccs(p) + 1),
        .path = malloc(MAX_PATH * sizeof(uint64_t)),
        .leaf_first = malloc(MAX_PATH * sizeof(uint64_t)),
        .cut_at = SIZE_MAX, .interval = in->interval_ns,
    };
    int rc = -1;
    pb_value_type st[2] = { PERFTOOLS__PROFILES__VALUE_TYPE__INIT,
                            PERFTOOLS__PROFILES__VALUE_TYPE__INIT };
    pb_value_type *st_ptrs[2] = { &st[0], &st[1] };
    pb_value_type period = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
    pb_profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
    if (!w.fn_of_cc || !w.namesake || !w.path || !w.leaf_first ||
        prof_namesakes(p, w.namesake) < 0)
        goto done;
    st[0].type = str_of(&b, "samples");
    st[0].unit = str_of(&b, "count");
    st[1].type = str_of(&b, "cpu");
    st[1].unit = str_of(&b, "nanoseconds");
    period.type = st[1].type;
    period.unit = st[1].unit;
    if (prof_num_nodes(p) > 0 && prof_walk(p, time_enter, time_leave, &w) != 0)
        goto done;
    prof.n_sample_type = 2;
    prof.sample_type = st_ptrs;
    prof.period_type = &period;
    prof.period = (int64_t)in->interval_ns;
    prof.default_sample_type = st[1].type;

    /* the profile's span: the window clipped to the log */
    uint64_t from = m->from_ns > in->first_time ? m->from_ns : in->first_time;
    uint64_t to = m->to_ns < in->last_time ? m->to_ns : in->last_time;
    if (in->first_time > in->last_time)    /* no events */
        from = to = 0;
    m->duration_nanos = to > from ? (int64_t)(to - from) : 0;
    if (in->num_logs > 1)   /* several runs: their spans add up (the time is the last's) */
        m->duration_nanos = (int64_t)in->span_sum_ns;
    m->has_wall_clock = in->has_wall_clock;
    m->time_nanos = in->has_wall_clock
        ? wall_at(in->wall_sec, in->wall_nsec, in->wall_time_ns, from) : 0;
    m->samples = w.samples;
    prof.duration_nanos = m->duration_nanos;
    prof.time_nanos = m->time_nanos;
    int64_t comment = str_of(&b, in->program);
    b.program = comment;
    if (comment) {
        prof.n_comment = 1;
        prof.comment = &comment;
    }
    rc = finish(&b, &prof, out);
done:
    free(w.fn_of_cc);
    free(w.namesake);
    free(w.path);
    free(w.leaf_first);
    builder_free(&b);
    return rc;
}

/* ---- heap -------------------------------------------------------------- */

struct pprof_census_pick {
    uint64_t want;              /* 0: the peak */
    uint64_t index, time, total;
    int kept;
    heap_sample *samples;
    size_t n, size;
    ev_account mem;             /* the kept census's copy */
};

void pprof_census_pick_set_budget(pprof_census_pick *k, ev_budget *b)
{
    (void)ev_account_move(&k->mem, b);
}

pprof_census_pick *pprof_census_pick_create(uint64_t index)
{
    pprof_census_pick *k = calloc(1, sizeof *k);
    if (k)
        k->want = index;
    return k;
}

void pprof_census_pick_destroy(pprof_census_pick *k)
{
    if (!k)
        return;
    ev_budget_release(k->mem.budget, k->mem.charged);
    free(k->samples);
    free(k);
}

int pprof_census_keep(void *ctx, const heap_profile *h, const heap_census *c)
{
    pprof_census_pick *k = ctx;
    (void)h;
    if (k->want ? c->index != k->want : k->kept && c->total <= k->total)
        return 0;
    if (k->mem.refused)
        return -1;
    if (c->n > k->size) {
        /* charged: a refusal fails the census, which stops the read */
        if (ev_account_charge(&k->mem, (c->n - k->size) * sizeof *k->samples) != 0)
            return -1;
        heap_sample *s = realloc(k->samples, c->n * sizeof *s);
        if (!s) {
            ev_account_release(&k->mem, (c->n - k->size) * sizeof *k->samples);
            return -1;
        }
        k->samples = s;
        k->size = c->n;
    }
    if (c->n)
        memcpy(k->samples, c->samples, c->n * sizeof *c->samples);
    k->n = c->n;
    k->index = c->index;
    k->time = c->time;
    k->total = c->total;
    k->kept = 1;
    return 0;
}

/* The function id of one heap frame, found by its name's string index. */
static uint64_t heap_function(builder *b, uint64_t **fn_of_str, size_t *size, const char *s,
                              size_t len)
{
    int64_t si = str_index(b, s, len);
    if (b->failed)
        return 0;
    if ((size_t)si >= *size) {
        size_t n = *size ? *size : 64;
        while (n <= (size_t)si)
            n *= 2;
        uint64_t *a = realloc(*fn_of_str, n * sizeof *a);
        if (!a) {
            b->failed = 1;
            return 0;
        }
        memset(a + *size, 0, (n - *size) * sizeof *a);
        *fn_of_str = a;
        *size = n;
    }
    if (!(*fn_of_str)[si])
        (*fn_of_str)[si] = add_function(b, s, len, "", NULL);
    return (*fn_of_str)[si];
}

int pprof_heap_profile(const heap_profile *h, const pprof_census_pick *k, pprof_meta *m,
                       pprof_buf *out)
{
    out->data = NULL;
    out->len = 0;
    if (!k->kept)
        return 1;
    builder b;
    if (builder_init(&b, 1) != 0) {
        builder_free(&b);
        return -1;
    }
    const heap_info *in = heap_get_info(h);
    int by_ccs = in->breakdown == HEAP_BY_COST_CENTRE;
    uint64_t *fn_of_str = NULL, *locs = NULL;
    size_t fn_size = 0, locs_size = 0;
    int rc = -1;
    pb_value_type st = PERFTOOLS__PROFILES__VALUE_TYPE__INIT;
    pb_value_type *st_ptr = &st;
    pb_profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
    st.type = str_of(&b, "inuse_space");
    st.unit = str_of(&b, "bytes");
    for (size_t i = 0; i < k->n && !b.failed; i++) {
        const heap_band *band = heap_band_at(h, k->samples[i].band);
        const char *s = by_ccs ? band->name : band->title;   /* -hi: its IPE entry */
        size_t len = by_ccs ? band->len : band->title_len, n = 0;
        if (by_ccs && len && s[0] == '(') {    /* "(123)f/g/main": the stack's id first */
            const char *close = memchr(s, ')', len);
            if (close) {
                len -= (size_t)(close + 1 - s);
                s = close + 1;
            }
        }
        /* frames innermost first: split at '/' for -hc bands */
        size_t start = 0;
        for (size_t j = 0; j <= len; j++) {
            if (j < len && (!by_ccs || s[j] != '/'))
                continue;
            if (reserve(&locs, &locs_size, n, sizeof *locs) != 0) {
                b.failed = 1;
                break;
            }
            locs[n] = heap_function(&b, &fn_of_str, &fn_size, s + start, j - start);
            if (!locs[n])
                break;
            n++;
            start = j + 1;
        }
        int64_t v = (int64_t)k->samples[i].bytes;
        add_sample(&b, locs, n, &v);
    }
    prof.n_sample_type = 1;
    prof.sample_type = &st_ptr;
    prof.period_type = &st;
    prof.period = 0;
    m->duration_nanos = 0;
    m->has_wall_clock = in->has_wall_clock;
    m->time_nanos = in->has_wall_clock ? wall_at(in->wall_sec, 0, in->wall_time_ns, k->time) : 0;
    m->samples = k->total;
    prof.time_nanos = m->time_nanos;
    char note[96];
    snprintf(note, sizeof note, "census %llu at %.6f s", (unsigned long long)k->index,
             (double)k->time / 1e9);
    int64_t c = str_of(&b, note);
    prof.n_comment = 1;
    prof.comment = &c;
    b.program = str_of(&b, in->program);
    rc = finish(&b, &prof, out);
    free(fn_of_str);
    free(locs);
    builder_free(&b);
    return rc;
}
