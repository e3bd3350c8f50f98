/* evprof merge: one eventlog from several (runs of a distributed program,
 * a fleet, a test suite), as ghc-events' merge does: one header (the union
 * of the event types), each log's records copied in order with their
 * capability, capset and cost-centre numbers moved apart; times kept. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "evprof/driver.h"
#include "evprof/eventlog.h"
#include "evprof/writer.h"
#include "outfile.h"
#include "read.h"
#include "util/hash.h"


static const cli_cmd_help help = {
    "merge", "[OPTIONS] FILE FILE... -o OUT",
    "One eventlog from several, as ghc-events' merge does: one header with the\n"
    "union of the event types, then each log's events in turn. Capabilities and\n"
    "capsets of each log are numbered after the previous logs' (block markers,\n"
    "CAP_*, CAPSET_*, TASK_*, the capset of RTS and heap events, the capability\n"
    "of samples); cost centres are matched by module, label and source location\n"
    "as 'evprof report A B' matches them (161 definitions of a name seen before\n"
    "are dropped, new ones get fresh ids, stacks of 163 and 167 follow). Times\n"
    "are kept: each log's clock starts at its own RTS start.",
    "Thread ids are numbered after the previous logs' too. A type declared by\n"
    "two logs with different sizes is refused. See docs/ECOSYSTEM.md.\n",
};

/* ---- pass 1: the header and the numbers each log uses ------------------- */

/* Each log is read through the driver (cli_read: the one read loop, its
 * messages), twice: a scan, then the merged records written. */

typedef struct log_facts {
    uint32_t max_cap, max_capset, max_cc, max_thread;   /* + 1; 0: none */
} log_facts;

typedef struct types {
    int32_t size[65536];
    uint8_t declared[65536];
    char *desc[65536];
    const char *first[65536];   /* the log that declared it first */
} types;

typedef struct scan {
    types *t;
    log_facts *f;
    const char *path;
    int header_seen, failed;
} scan;

static void at_least(uint32_t *m, uint32_t v)
{
    if (v + 1 > *m)
        *m = v + 1;
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
 * cannot. Returns 0, or -1 after a message. */
static int take_header(scan *s, const el_decoder *d)
{
    types *t = s->t;
    for (size_t i = 0; i < el_decoder_num_types(d); i++) {
        const el_event_type *et = el_decoder_type_at(d, i);
        if (t->declared[et->id] && t->size[et->id] != et->size) {
            fprintf(stderr, "evprof: %s: event type %u (%s) has size %d here but %d in "
                    "%s: the logs cannot share one header; not merged\n",
                    cli_display_path(s->path), et->id,
                    el_type_name(et->id) ? el_type_name(et->id) : "unknown", et->size,
                    t->size[et->id], cli_display_path(t->first[et->id]));
            return -1;
        }
        if (!t->declared[et->id]) {
            t->declared[et->id] = 1;
            t->size[et->id] = et->size;
            t->first[et->id] = s->path;
            if (!(t->desc[et->id] = strndup(et->desc.ptr, et->desc.len))) {
                fprintf(stderr, "evprof: out of memory\n");
                return -1;
            }
        }
    }
    return 0;
}

static int scan_event(void *self, const el_event *ev, const ev_stream *st)
{
    scan *s = self;
    if (!s->header_seen) {
        s->header_seen = 1;
        if (take_header(s, st->decoder) != 0) {
            s->failed = 1;
            return 1;
        }
    }
    if (ev->type == EL_BLOCK_MARKER) {
        if (ev->u.block.cap != EL_NO_CAP)
            at_least(&s->f->max_cap, ev->u.block.cap);
        return 0;
    }
    el_event_numbers(ev, see_number, s->f);
    return 0;
}

static const ev_analysis_ops scan_ops = {
    .name = "merge",
    .event = scan_event,
};

/* Reads one log into an analysis of every event. Returns 0, or -1 when
 * the log is not merged (its read failed or was damaged: said). */
static int read_log(const char *path, const ev_analysis_ops *ops, void *self,
                    const int *failed)
{
    int code;
    ev_driver *d = cli_read(path, &(cli_analysis){ ops, self }, 1, &code);
    if (!d)
        return -1;
    const ev_stream *s = ev_driver_stream(d);
    int bad = *failed || code != CLI_OK || s->stopped;
    if (bad && !*failed)
        fprintf(stderr, "evprof: %s: not merged (the log is damaged or cut)\n",
                cli_display_path(path));
    ev_driver_destroy(d);
    return bad ? -1 : 0;
}

/* ---- pass 2: the merged log ------------------------------------------- */

/* Cost centres by name (module, label, src) -> merged id, and the current
 * log's GHC id -> merged id: the same matching as prof_begin_log. */
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

typedef struct merger {
    el_writer *w;
    const char *path;
    uint32_t log;
    uint16_t cap_off;
    uint32_t capset_off;
    uint32_t thread_off;
    uint32_t next_id;
    name_slot *names;
    size_t names_size, names_num;
    id_slot *map;
    size_t map_size, map_num;
    uint32_t def_id;            /* the event's definition's merged id, or UINT32_MAX */
    int failed;
    int in_block;
    uint64_t block_end;         /* its end time */
    uint64_t block_stop;        /* the offset past its records */
} merger;

static id_slot *map_find(merger *m, uint32_t ghc)
{
    for (size_t k = hash_mix64(ghc) & (m->map_size - 1);; k = (k + 1) & (m->map_size - 1))
        if (!m->map[k].used || m->map[k].ghc == ghc)
            return &m->map[k];
}

static int map_put(merger *m, uint32_t ghc, uint32_t id)
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

/* The merged id of a name, or creates it as `id`; *known set when it was there. */
static int name_id(merger *m, const char *key, size_t key_len, uint32_t id, uint32_t *out,
                   int *known)
{
    if ((m->names_num + 1) * 2 > m->names_size) {
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
    }
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
static int merged_id(merger *m, uint32_t ghc, uint32_t *out)
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
    merger *m = ctx;
    uint32_t id;
    switch (kind) {
    case EL_NUM_CAP: return v + m->cap_off;    /* a u16 field keeps its low bits */
    case EL_NUM_CAPSET: return v + m->capset_off;
    case EL_NUM_THREAD: return v + m->thread_off;
    case EL_NUM_CC:
        if (m->def_id != UINT32_MAX)
            return m->def_id;               /* a definition: its merged id */
        if (merged_id(m, v, &id) != 0) {
            m->failed = 1;
            return v;
        }
        return id;
    }
    return v;
}

/* A cost-centre definition: the merged id of its name (module, label,
 * source); 1 when the name is defined already (the event is dropped),
 * -1 out of memory. */
static int define(merger *m, const el_event *ev)
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

static int merge_event(void *self, const el_event *ev, const ev_stream *s)
{
    merger *m = self;
    ev_status st = EV_OK;
    (void)s;
    if (ev->type == EL_BLOCK_MARKER) {
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
        if (rc < 0) {
            fprintf(stderr, "evprof: out of memory\n");
            return 1;
        }
        if (rc > 0)
            return 0;       /* the name is defined already */
    }
    if (st == EV_OK)
        st = el_writer_event_moved(m->w, ev, move_number, m);
    if (m->failed) {
        fprintf(stderr, "evprof: out of memory\n");
        return 1;
    }
done:
    /* a write error is the output's: cli_out_close names it, not this log */
    if (st == EV_ERR_WRITE) {
        m->failed = 1;
        return 1;
    }
    if (st != EV_OK) {
        fprintf(stderr, "evprof: %s: at byte %llu (event type %u): cannot write the merged "
                "log: %s\n", cli_display_path(m->path), (unsigned long long)ev->offset,
                ev->type, el_writer_error_msg(m->w));
        m->failed = 1;
        return 1;
    }
    return 0;
}

static const ev_analysis_ops merge_ops = {
    .name = "merge",
    .event = merge_event,
};

int cmd_merge(int argc, char **argv)
{
    cli_args a;
    int id;
    const char *output = NULL;

    const cli_opt opts[] = {
        OPT_STRING('o', "output", "FILE", &output, "the merged eventlog (required unless "
                   "standard output is not a terminal); written whole or not at all"),
        OPT_END,
    };
    id = cli_parse(&help, opts, argc, argv, &a);
    if (id != CLI_END)
        return cli_done_code(id);
    if (!cli_want_pos(&a, 1, 1 << 16, "FILE"))
        return CLI_USAGE;
    if ((!output || strcmp(output, "-") == 0) && isatty(STDOUT_FILENO)) {
        cli_usage_error(&help, "not writing an eventlog to a terminal: give -o FILE");
        return CLI_USAGE;
    }
    for (int i = 0; i < a.npos; i++) {
        if (cli_out_same_file(&help, output, a.pos[i]))
            return CLI_USAGE;
        if (strcmp(a.pos[i], "-") == 0) {
            fprintf(stderr, "evprof: <stdin>: cannot open: merge reads each log twice: give "
                    "files\n");
            return CLI_FAIL;
        }
    }

    int code = CLI_FAIL;
    types *t = calloc(1, sizeof *t);
    log_facts *facts = calloc(a.npos > 0 ? (size_t)a.npos : 1, sizeof *facts);
    merger m = { 0 };
    cli_out out = { 0 };
    int opened = 0;
    if (!t || !facts) {
        fprintf(stderr, "evprof: out of memory\n");
        goto done;
    }
    uint64_t caps = 0, capsets = 0, threads = 0;
    for (int i = 0; i < a.npos; i++) {
        scan s = { t, &facts[i], a.pos[i], 0, 0 };
        if (read_log(a.pos[i], &scan_ops, &s, &s.failed) != 0)
            goto done;
        caps += facts[i].max_cap;
        capsets += facts[i].max_capset;
        threads += facts[i].max_thread;
    }
    if (caps > 0xfffe || capsets > UINT32_MAX || threads > UINT32_MAX) {
        fprintf(stderr, "evprof: the logs number %llu capabilities, %llu capsets and %llu "
                "threads in all: more than an eventlog numbers; not merged\n",
                (unsigned long long)caps, (unsigned long long)capsets,
                (unsigned long long)threads);
        goto done;
    }
    if (cli_out_open(&out, output) != 0)
        goto done;
    opened = 1;
    if (!(m.w = el_writer_create_file(out.f))) {
        fprintf(stderr, "evprof: out of memory\n");
        goto done;
    }
    for (uint32_t ty = 0; ty < 65536; ty++)
        if (t->declared[ty] &&
            el_writer_declare_type(m.w, (uint16_t)ty, t->size[ty], t->desc[ty]) != EV_OK) {
            fprintf(stderr, "evprof: cannot declare event type %u: %s\n", ty,
                    el_writer_error_msg(m.w));
            goto done;
        }
    m.next_id = facts[0].max_cc;    /* fresh ids above the first log's */
    for (int i = 0; i < a.npos; i++) {
        m.path = a.pos[i];
        m.log = (uint32_t)i;
        if (m.map)
            memset(m.map, 0, m.map_size * sizeof *m.map);
        m.map_num = 0;
        if (read_log(a.pos[i], &merge_ops, &m, &m.failed) != 0)
            goto done;
        if (m.in_block && el_writer_end_block(m.w, m.block_end) != EV_OK)
            goto done;
        m.in_block = 0;
        m.cap_off = (uint16_t)(m.cap_off + facts[i].max_cap);
        m.capset_off += facts[i].max_capset;
        m.thread_off += facts[i].max_thread;
    }
    ev_status fst = el_writer_finish(m.w);
    if (fst != EV_OK) {
        if (fst != EV_ERR_WRITE)    /* a write error: cli_out_close names the output */
            fprintf(stderr, "evprof: %s: cannot write the merged log: %s\n",
                    cli_out_name(output), el_writer_error_msg(m.w));
        goto done;
    }
    code = CLI_OK;
done:
    el_writer_destroy(m.w);
    if (opened && cli_out_close(&out, code == CLI_OK) != 0)
        code = CLI_FAIL;
    for (size_t k = 0; k < m.names_size; k++)
        free(m.names[k].key);
    free(m.names);
    free(m.map);
    if (t)
        for (uint32_t ty = 0; ty < 65536; ty++)
            free(t->desc[ty]);
    free(t);
    free(facts);
    return code;
}
