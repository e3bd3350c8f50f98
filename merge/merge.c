/* One eventlog from several (include/evprof/merge.h), as ghc-events'
 * merge does. Pass 1 scans every log: the union of the headers, the
 * largest numbers of each kind. Pass 2 copies each log's records through
 * el_writer_event_moved, each number moved past the previous logs' (cost
 * centres matched by name instead). */
#include "evprof/merge.h"

#include <stdlib.h>
#include <string.h>

#include "evprof/eventlog.h"
#include "evprof/writer.h"
#include "util/error.h"
#include "util/hash.h"

/* ---- pass 1: the header and the numbers each log uses ------------------- */

typedef struct log_facts {
    uint32_t max_cap, max_capset, max_cc, max_thread;   /* + 1; 0: none */
} log_facts;

/* The union of the headers, by type id. */
typedef struct types {
    int32_t size[65536];
    uint8_t declared[65536];
    char *desc[65536];
    uint32_t first[65536];      /* the log that declared it first */
} types;

/* Cost centres by name (module, label, src) -> merged id, and the current
 * log's GHC id -> merged id: the same matching as prof_begin_log. Hash
 * tables of their own: each slot holds its whole key. */
typedef struct name_slot {
    uint64_t hash;
    char *key;          /* module \0 label \0 src \0 */
    size_t key_len;
    uint32_t id;
} name_slot;

typedef struct id_slot {
    uint32_t ghc, id;
    int used;
} id_slot;

struct ev_merge {
    size_t n;
    log_facts *facts;           /* per log */
    types *t;
    int copying;                /* pass 2: after ev_merge_start */
    uint32_t log;               /* the log being read */
    int header_seen;            /* its header joined the union */
    uint64_t caps, capsets, threads;    /* the scans' totals */
    /* the first failure of an analysis */
    ev_status st;
    ev_error err;
    int has_conflict;
    ev_merge_conflict conflict;
    /* pass 2 */
    el_writer *w;
    uint16_t cap_off;
    uint32_t capset_off;
    uint32_t thread_off;
    uint32_t next_id;
    name_slot *names;
    size_t names_size, names_num;
    id_slot *map;
    size_t map_size, map_num;
    uint32_t def_id;            /* the event's definition's merged id, or UINT32_MAX */
    int move_failed;            /* out of memory moving a number */
    int in_block;
    uint64_t block_end;         /* its end time */
    uint64_t block_stop;        /* the offset past its records */
};

ev_merge *ev_merge_create(size_t num_logs)
{
    ev_merge *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->n = num_logs;
    m->t = calloc(1, sizeof *m->t);
    m->facts = calloc(num_logs ? num_logs : 1, sizeof *m->facts);
    if (!m->t || !m->facts) {
        ev_merge_destroy(m);
        return NULL;
    }
    ev_error_clear(&m->err);
    return m;
}

void ev_merge_destroy(ev_merge *m)
{
    if (!m)
        return;
    el_writer_destroy(m->w);
    for (size_t k = 0; k < m->names_size; k++)
        free(m->names[k].key);
    free(m->names);
    free(m->map);
    if (m->t)
        for (uint32_t ty = 0; ty < 65536; ty++)
            free(m->t->desc[ty]);
    free(m->t);
    free(m->facts);
    free(m);
}

/* The analyses' first failure; returns 1 (stop the read). */
static int failed(ev_merge *m, ev_status st)
{
    if (m->st == EV_OK)
        m->st = st;
    return 1;
}

static void at_least(uint32_t *v, uint32_t n)
{
    if (n + 1 > *v)
        *v = n + 1;
}

/* el_event_numbers: the largest of each kind */
static void see_number(void *ctx, el_num_kind kind, uint32_t v)
{
    log_facts *f = ctx;
    switch (kind) {
    case EL_NUM_CAP: at_least(&f->max_cap, v); break;
    case EL_NUM_CAPSET: at_least(&f->max_capset, v); break;
    case EL_NUM_THREAD: at_least(&f->max_thread, v); break;
    case EL_NUM_CC: at_least(&f->max_cc, v); break;
    }
}

/* The log's header joins the union; a type declared twice with two sizes
 * cannot. */
static ev_status take_header(ev_merge *m, const el_decoder *d)
{
    types *t = m->t;
    for (size_t i = 0; i < el_decoder_num_types(d); i++) {
        const el_event_type *et = el_decoder_type_at(d, i);
        if (t->declared[et->id] && t->size[et->id] != et->size) {
            m->has_conflict = 1;
            m->conflict = (ev_merge_conflict){ et->id, et->size, t->size[et->id],
                                               t->first[et->id] };
            return EV_ERR_FORMAT;
        }
        if (!t->declared[et->id]) {
            t->declared[et->id] = 1;
            t->size[et->id] = et->size;
            t->first[et->id] = m->log;
            if (!(t->desc[et->id] = strndup(et->desc.ptr, et->desc.len)))
                return EV_ERR_NOMEM;
        }
    }
    return EV_OK;
}

static int scan_event(void *self, const el_event *ev, const ev_stream *st)
{
    ev_merge *m = self;
    log_facts *f = &m->facts[m->log];
    if (!m->header_seen) {
        m->header_seen = 1;
        ev_status hs = take_header(m, st->decoder);
        if (hs != EV_OK)
            return failed(m, hs);
    }
    if (ev->type == EL_BLOCK_MARKER) {
        if (ev->u.block.cap != EL_NO_CAP)
            at_least(&f->max_cap, ev->u.block.cap);
        return 0;
    }
    el_event_numbers(ev, see_number, f);
    return 0;
}

const ev_analysis_ops ev_merge_scan_ops = {
    .name = "merge",
    .event = scan_event,
};

/* ---- pass 2: the merged log --------------------------------------------- */

static id_slot *map_find(ev_merge *m, uint32_t ghc)
{
    for (size_t k = hash_mix64(ghc) & (m->map_size - 1);; k = (k + 1) & (m->map_size - 1))
        if (!m->map[k].used || m->map[k].ghc == ghc)
            return &m->map[k];
}

static int map_put(ev_merge *m, uint32_t ghc, uint32_t id)
{
    if ((m->map_num + 1) * 2 > m->map_size) {
        size_t n = m->map_size ? m->map_size * 2 : 1024;
        id_slot *old = m->map;
        size_t old_size = m->map_size;
        if (!(m->map = calloc(n, sizeof *m->map))) {
            m->map = old;
            return -1;
        }
        m->map_size = n;
        for (size_t k = 0; k < old_size; k++)
            if (old[k].used)
                *map_find(m, old[k].ghc) = old[k];
        free(old);
    }
    id_slot *s = map_find(m, ghc);
    m->map_num += !s->used;
    *s = (id_slot){ ghc, id, 1 };
    return 0;
}

/* Twice the slots of the name table when it is half full. */
static int names_grow(ev_merge *m)
{
    size_t n = m->names_size ? m->names_size * 2 : 1024;
    name_slot *t = calloc(n, sizeof *t);
    if (!t)
        return -1;
    for (size_t k = 0; k < m->names_size; k++)
        if (m->names[k].key) {
            size_t j = m->names[k].hash & (n - 1);
            while (t[j].key)
                j = (j + 1) & (n - 1);
            t[j] = m->names[k];
        }
    free(m->names);
    m->names = t;
    m->names_size = n;
    return 0;
}

/* The merged id of a name, or creates it as `id`; *known set when it was there. */
static int name_id(ev_merge *m, const char *key, size_t key_len, uint32_t id, uint32_t *out,
                   int *known)
{
    if ((m->names_num + 1) * 2 > m->names_size && names_grow(m) != 0)
        return -1;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < key_len; i++)
        h = (h ^ (uint8_t)key[i]) * 0x100000001b3ull;
    h = hash_mix64(h);
    size_t k = h & (m->names_size - 1);
    for (; m->names[k].key; k = (k + 1) & (m->names_size - 1))
        if (m->names[k].hash == h && m->names[k].key_len == key_len &&
            memcmp(m->names[k].key, key, key_len) == 0) {
            *out = m->names[k].id;
            *known = 1;
            return 0;
        }
    char *copy = malloc(key_len ? key_len : 1);
    if (!copy)
        return -1;
    memcpy(copy, key, key_len);
    m->names[k] = (name_slot){ h, copy, key_len, id };
    m->names_num++;
    *out = id;
    *known = 0;
    return 0;
}

/* The merged id of the current log's id `ghc` (a placeholder when the log
 * never defined it). The first log keeps its ids. */
static int merged_id(ev_merge *m, uint32_t ghc, uint32_t *out)
{
    if (m->log == 0) {
        *out = ghc;
        return 0;
    }
    id_slot *s = m->map_size ? map_find(m, ghc) : NULL;
    if (s && s->used) {
        *out = s->id;
        return 0;
    }
    *out = m->next_id++;
    return map_put(m, ghc, *out);
}

/* el_writer_event_moved: each number of the current log moved */
static uint32_t move_number(void *ctx, el_num_kind kind, uint32_t v)
{
    ev_merge *m = ctx;
    uint32_t id;
    switch (kind) {
    case EL_NUM_CAP: return v + m->cap_off;    /* a u16 field keeps its low bits */
    case EL_NUM_CAPSET: return v + m->capset_off;
    case EL_NUM_THREAD: return v + m->thread_off;
    case EL_NUM_CC:
        if (m->def_id != UINT32_MAX)
            return m->def_id;               /* a definition: its merged id */
        if (merged_id(m, v, &id) != 0) {
            m->move_failed = 1;
            return v;
        }
        return id;
    }
    return v;
}

/* A cost-centre definition: the merged id of its name (module, label,
 * source); 1 when the name is defined already (the event is dropped),
 * -1 out of memory. */
static int define(ev_merge *m, const el_event *ev)
{
    const el_str *f[3] = { &ev->u.cost_centre.module, &ev->u.cost_centre.label,
                           &ev->u.cost_centre.srcloc };
    size_t key_len = f[0]->len + f[1]->len + f[2]->len + 3, o = 0;
    char *key = malloc(key_len);
    if (!key)
        return -1;
    for (int k = 0; k < 3; k++) {     /* module \0 label \0 src */
        memcpy(key + o, f[k]->ptr, f[k]->len);
        o += f[k]->len;
        key[o++] = '\0';
    }
    uint32_t ghc = ev->u.cost_centre.id, id;
    int known;
    uint32_t fresh = m->log == 0 ? ghc : m->next_id;
    int rc = name_id(m, key, key_len, fresh, &id, &known);
    free(key);
    if (rc != 0)
        return -1;
    if (m->log == 0) {
        m->def_id = ghc;
        return 0;
    }
    if (!known)
        m->next_id++;
    if (map_put(m, ghc, id) != 0)
        return -1;
    m->def_id = id;
    return known;
}

/* A block marker: the block before it ends, the log's block begins with
 * its capability moved. */
static ev_status copy_block(ev_merge *m, const el_event *ev)
{
    ev_status st = EV_OK;
    if (m->in_block)
        st = el_writer_end_block(m->w, m->block_end);
    uint16_t cap = ev->u.block.cap;
    if (cap != EL_NO_CAP)
        cap = (uint16_t)(cap + m->cap_off);
    if (st == EV_OK)
        st = el_writer_begin_block(m->w, cap, ev->time);
    m->in_block = 1;
    m->block_end = ev->u.block.end_time;
    m->block_stop = ev->offset + ev->u.block.size;
    return st;
}

static int copy_event(void *self, const el_event *ev, const ev_stream *s)
{
    ev_merge *m = self;
    ev_status st = EV_OK;
    (void)s;
    if (ev->type == EL_BLOCK_MARKER) {
        st = copy_block(m, ev);
        goto done;
    }
    if (m->in_block && ev->offset >= m->block_stop) {
        /* the block ended before this event (outside any block) */
        st = el_writer_end_block(m->w, m->block_end);
        m->in_block = 0;
    }
    m->def_id = UINT32_MAX;
    if (ev->type == EL_HEAP_PROF_COST_CENTRE && ev->decoded) {
        int rc = define(m, ev);
        if (rc < 0)
            return failed(m, EV_ERR_NOMEM);
        if (rc > 0)
            return 0;       /* the name is defined already */
    }
    if (st == EV_OK)
        st = el_writer_event_moved(m->w, ev, move_number, m);
    if (m->move_failed)
        return failed(m, EV_ERR_NOMEM);
done:
    if (st == EV_OK)
        return 0;
    /* a write error is the output's: the caller names it, not this log */
    if (st != EV_ERR_WRITE) {
        ev_error_set(&m->err, st, "%s", el_writer_error_msg(m->w));
        m->err.offset = ev->offset;
        m->err.type = ev->type;
    }
    return failed(m, st);
}

const ev_analysis_ops ev_merge_copy_ops = {
    .name = "merge",
    .event = copy_event,
};

/* ---- the passes ----------------------------------------------------------- */

void ev_merge_begin_log(ev_merge *m, size_t i)
{
    m->log = (uint32_t)i;
    m->header_seen = 0;
    if (!m->copying)
        return;
    if (m->map)
        memset(m->map, 0, m->map_size * sizeof *m->map);
    m->map_num = 0;
}

ev_status ev_merge_end_log(ev_merge *m, ev_error *err)
{
    const log_facts *f = &m->facts[m->log];
    ev_error_clear(err);
    if (!m->copying) {
        m->caps += f->max_cap;
        m->capsets += f->max_capset;
        m->threads += f->max_thread;
        return EV_OK;
    }
    if (m->in_block) {
        ev_status st = el_writer_end_block(m->w, m->block_end);
        if (st != EV_OK)
            return ev_error_set(err, st, "%s", el_writer_error_msg(m->w));
    }
    m->in_block = 0;
    m->cap_off = (uint16_t)(m->cap_off + f->max_cap);
    m->capset_off += f->max_capset;
    m->thread_off += f->max_thread;
    return EV_OK;
}

ev_status ev_merge_fits(const ev_merge *m, ev_error *err)
{
    ev_error_clear(err);
    if (m->caps > 0xfffe || m->capsets > UINT32_MAX || m->threads > UINT32_MAX)
        return ev_error_set(err, EV_ERR_LIMIT, "the logs number %llu capabilities, %llu "
                            "capsets and %llu threads in all: more than an eventlog numbers",
                            (unsigned long long)m->caps, (unsigned long long)m->capsets,
                            (unsigned long long)m->threads);
    return EV_OK;
}

ev_status ev_merge_start(ev_merge *m, FILE *out, ev_error *err)
{
    ev_status st = ev_merge_fits(m, err);
    if (st != EV_OK)
        return st;
    if (!(m->w = el_writer_create_file(out)))
        return ev_error_set(err, EV_ERR_NOMEM, "out of memory");
    for (uint32_t ty = 0; ty < 65536; ty++) {
        if (!m->t->declared[ty])
            continue;
        st = el_writer_declare_type(m->w, (uint16_t)ty, m->t->size[ty], m->t->desc[ty]);
        if (st != EV_OK)
            return ev_error_set(err, st, "cannot declare event type %u: %s", ty,
                                el_writer_error_msg(m->w));
    }
    m->copying = 1;
    m->next_id = m->facts[0].max_cc;    /* fresh ids above the first log's */
    return EV_OK;
}

ev_status ev_merge_finish(ev_merge *m, ev_error *err)
{
    ev_error_clear(err);
    ev_status st = el_writer_finish(m->w);
    if (st != EV_OK)
        return ev_error_set(err, st, "%s", el_writer_error_msg(m->w));
    return EV_OK;
}

ev_status ev_merge_status(const ev_merge *m, ev_error *err)
{
    if (err) {
        *err = m->err;
        err->status = m->st;
    }
    return m->st;
}

int ev_merge_conflict_of(const ev_merge *m, ev_merge_conflict *c)
{
    if (m->has_conflict)
        *c = m->conflict;
    return m->has_conflict;
}
