/* Aggregation of PROF_SAMPLE_COST_CENTRE stacks into a cost-centre-stack
 * tree.
 *
 * Nodes live in one array; a node's children are found through an
 * open-addressing table keyed by (parent node, cost-centre id). That costs
 * 4 bytes per slot instead of a hash handle per node (uthash's is 56
 * bytes), which is what keeps 1.7 million distinct stack nodes well under
 * 256 MB. Consecutive samples of a capability usually share the outer
 * part of their stack, so each capability's previous path is kept and
 * only the differing inner frames are looked up; below the first new node
 * every frame is new, and is created without a lookup. Cost centres (a
 * few thousand at most) are found by GHC's id through util/htab.h.
 *
 * The child table and the stack cache are this file's own tables, not
 * util/htab.h: they are the hot path (a probe per frame of every sample
 * not in the cache, one cache probe per sample), measured on the bench
 * logs. The child slot holds the whole key (parent, cc) so that a probe
 * never visits the node, and a cache entry holds the stack's full 64-bit
 * hash and its arena offset; the general table's (hash, index) slot plus
 * an equality callback would add a visit to the caller's array per probe.
 */
#include "evprof/prof.h"

#include <pthread.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/account.h"
#include "util/hash.h"
#include "util/htab.h"
#include "util/strpool.h"

/* A slot of the child table holds its key, so a probe does not have to
 * visit the node (a cache miss per probe on big trees). node + 1; 0 empty.
 * Not util/htab.h (whose slot holds a hash and an index, and whose probe
 * visits the caller's item to compare keys): this is the measured hot
 * path, see the top of the file.
 *
 * A node's slot is placed by the hash of its path of cost-centre ids from
 * the root (hash_path_step), not by (parent, cc): a new stack's ids give
 * the slots of all its levels before any of them is read, so their cache
 * misses are fetched together rather than one after the other (the probe
 * of level j needs the node found at level j - 1 only to compare). The
 * node keeps the low 32 bits of that hash (prof_node.reserved: its
 * padding) for growing the table. */
struct child_slot {
    uint32_t parent, cc, node;
};

/* The path hash of the root and of the synthetic parent of cut stacks. */
#define PATH_ROOT 0x243f6a8885a308d3ull
#define PATH_CUT 0x13198a2e03707344ull

static inline uint32_t path_pos(uint64_t path_hash)
{
    return (uint32_t)hash_mix64(path_hash);
}

/* The previous sample's path on one capability, outer frame first. */
struct cap_path {
    uint32_t cap;
    uint32_t depth;                 /* 0: nothing to share */
    uint32_t start;                 /* the root or the cut node */
    /* When the previous sample was found in the stack cache its path is
     * the cache entry's (ids, then nodes), not ids[] and path[]. */
    int from_cache;
    uint64_t cache_off;             /* into sc_arena */
    uint32_t ids[EL_MAX_STACK];
    uint32_t path[EL_MAX_STACK + 1];
};

/* Capabilities are numbered from 0; more than this many share slots (the
 * sharing is then only less frequent, never wrong). */
#define CAP_PATHS 64

/* Nodes while aggregating: `cc` holds GHC's id; a snapshot maps it to a
 * table index in its own copy. */
/* Capsets whose capabilities are counted (ids above: not counted). */
#define PROF_CAPSETS 256

struct prof_profile {
    prof_filter filter;
    const ev_select *sel;       /* the read's selection (its hull clips the log's span) */
    int failed;

    prof_node *nodes;
    size_t num_nodes, cap_nodes;
    struct child_slot *slots;   /* child table, open addressing */
    size_t num_slots;           /* power of two */
    int slots_stale;            /* nodes a merge added are not in it yet: */
    size_t stale_from;          /* those from this index on */
    uint32_t cut_node;          /* synthetic parent of stacks cut at 255 */

    /* whole stacks seen before -> their leaf node (see stack_cache_*) */
    struct sc_entry *sc_table;      /* open addressing; hash 0 = empty */
    size_t sc_num, sc_size;
    uint32_t *sc_arena;             /* the stacks' ids, as decoded */
    size_t sc_arena_len, sc_arena_cap;
    int sc_full;                    /* memory cap reached: no more inserts */
    int sc_pending;                 /* some entry has pending samples */
    size_t sc_cap;                  /* SC_MAX_BYTES, less for a partial */
    unsigned jobs;                  /* threads a snapshot may use (prof_set_jobs) */
    uint64_t walks, walks_known;    /* tree walks; of them, stacks seen before */

    struct cap_path *cap_paths;     /* [CAP_PATHS], by capability */
    uint32_t short_stack[EL_MAX_STACK];     /* a stack cut to filter.max_depth */

    prof_cc *ccs;
    size_t num_ccs, cap_ccs;
    tx_htab cc_by_id;           /* GHC's id -> index into ccs (sparse ids) */
    uint32_t *cc_dense;         /* GHC's id -> index + 1, 0 none (see add_cc) */
    size_t cc_dense_cap;
    strpool strings;

    prof_info info;
    uint32_t cap_creates;
    uint32_t max_sample_cap;
    const char **argv_store;
    struct prof_runs *runs;     /* several logs (prof_begin_log); NULL: one */
    /* The runs of this log (one per PROGRAM_ARGS: a merged log holds
     * several) and their command lines (pool strings), and the processors
     * of each: CAPSET_ASSIGN_CAP counted per OS-process capset. */
    uint32_t runs_seen;
    const char **run_cmds;          /* [PROF_MAX_RUN_CMDS], or NULL */
    uint32_t num_run_cmds;
    uint8_t capset_osproc[PROF_CAPSETS];
    uint16_t capset_caps[PROF_CAPSETS];
    unsigned seen;              /* PROF_SEEN_*: facts a merge must carry over */

    /* The memory budget (budget.h) and what this profile has charged to
     * it: every growth of the nodes, child table, stack cache, cost-centre
     * table and strings, so that a read stops at the limit. */
    ev_account mem;             /* a refused charge sets failed too */
    size_t sc_charged;          /* of mem.charged, the stack cache's */
};

/* Facts whose last event wins: a partial that saw one passes it on. */
enum { PROF_SEEN_INTERVAL = 1, PROF_SEEN_RTS = 2, PROF_SEEN_PROGRAM = 4 };

struct prof_runs;
static void runs_free(struct prof_runs *r);
static int runs_translating(const prof_profile *p);
static int runs_define(prof_profile *p, const el_event *ev);
static int runs_sample(prof_profile *p, const el_event *ev);
static void runs_info(const prof_profile *p, prof_info *in);
static uint64_t log_span(const prof_profile *p);

void prof_filter_init(prof_filter *f)
{
    f->all = 0;
    f->focus = NULL;
    f->ignore = NULL;
    f->max_depth = 0;
}

static int check_regex(const char *pattern, char *err, size_t errsize)
{
    regex_t re;
    int rc = regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char msg[200];
        regerror(rc, &re, msg, sizeof msg);
        if (errsize)
            snprintf(err, errsize, "'%s': %s", pattern, msg);
        return -1;
    }
    regfree(&re);
    return 0;
}

int prof_filter_check(const prof_filter *f, char *err, size_t errsize)
{
    if (f->focus && check_regex(f->focus, err, errsize) != 0)
        return -1;
    if (f->ignore && check_regex(f->ignore, err, errsize) != 0)
        return -1;
    return 0;
}

void prof_report_opts_init(prof_report_opts *o)
{
    o->threshold_pct = 0.0;
    o->max_depth = 0;
    o->source_name = NULL;
    o->jobs = 1;
}

/* ---- memory budget -------------------------------------------------------- */

/* Charges bytes about to be allocated; -1 when the budget refuses them. */
static int charge(prof_profile *p, size_t bytes)
{
    return ev_account_charge(&p->mem, bytes);
}

/* The same for the stack cache, which can do without: no stop. */
static int charge_optional(prof_profile *p, size_t bytes)
{
    if (ev_account_try(&p->mem, bytes) != 0)
        return -1;
    p->sc_charged += bytes;
    return 0;
}

static void uncharge(prof_profile *p, size_t bytes)
{
    ev_account_release(&p->mem, bytes);
}

static void uncharge_sc(prof_profile *p, size_t bytes)
{
    uncharge(p, bytes);
    p->sc_charged -= bytes;
}

void prof_set_jobs(prof_profile *p, unsigned jobs)
{
    if (p)
        p->jobs = jobs ? jobs : 1;
}

void prof_set_budget(prof_profile *p, ev_budget *b)
{
    if (ev_account_move(&p->mem, b) != 0)
        p->failed = 1;
}

/* A string kept in the profile's pool, its new chunk charged. */
static const char *pool_add(prof_profile *p, const char *str, uint32_t len)
{
    size_t grow = tx_strpool_growth(&p->strings, len);
    if (grow && charge(p, grow) != 0)
        return NULL;
    return tx_strpool_add(&p->strings, str, len);
}

static void sc_flush(prof_profile *p);

void prof_count(const prof_profile *p, prof_counts *c)
{
    sc_flush((prof_profile *)p);    /* not a change: the ticks stay the same */
    c->ccs = p->num_ccs;
    c->nodes = p->num_nodes;
    c->stacks = 0;
    for (size_t i = 0; i < p->num_nodes; i++)
        c->stacks += p->nodes[i].ticks != 0;
    c->bytes = p->mem.charged;
    c->over_budget = p->mem.refused;
}

/* ---- nodes ------------------------------------------------------------ */

static size_t slot_of(const prof_profile *p, uint32_t pos)
{
    return (size_t)pos & (p->num_slots - 1);
}

/* Nodes from..num_nodes into the child table s of n slots, read in order
 * (every node but the root and the cut marker has a slot; its place is
 * the path hash the node keeps). */
static void put_slots(const prof_profile *p, struct child_slot *s, size_t n, size_t from)
{
    for (size_t i = from; i < p->num_nodes; i++) {
        const prof_node *nd = &p->nodes[i];
        if (i + 16 < p->num_nodes)      /* the slots are random: fetch ahead */
            TX_PREFETCH(&s[(size_t)p->nodes[i + 16].reserved & (n - 1)]);
        if ((uint32_t)i == p->cut_node)
            continue;
        size_t k = (size_t)nd->reserved & (n - 1);
        while (s[k].node)
            k = (k + 1) & (n - 1);
        s[k].parent = nd->parent;
        s[k].cc = nd->cc;
        s[k].node = (uint32_t)i + 1;
    }
}

/* A child table of n slots filled from the nodes, instead of p's. */
static int fill_slots(prof_profile *p, size_t n)
{
    if (charge(p, n * sizeof(struct child_slot)) != 0)
        return -1;
    struct child_slot *s = tx_table_alloc(n, sizeof *s);

    if (!s) {
        uncharge(p, n * sizeof *s);
        return -1;
    }
    put_slots(p, s, n, 1);
    free(p->slots);
    uncharge(p, p->num_slots * sizeof *s);
    p->slots = s;
    p->num_slots = n;
    p->slots_stale = 0;
    return 0;
}

/* The child table made anew, big enough for one more node (at most 3/4
 * full): doubled, or more after a merge that added nodes. */
static int grow_slots(prof_profile *p)
{
    size_t n = p->num_slots ? p->num_slots * 2 : 1024;
    while ((p->num_nodes + 1) * 4 > n * 3)
        n *= 2;
    return fill_slots(p, n);
}

/* The nodes a merge added (stale_from on) put into the child table, which
 * grows as it would have had they come one by one: the same work as
 * then, only later (and never, when a snapshot takes the tree first). */
static int catch_up_slots(prof_profile *p)
{
    if ((p->num_nodes + 1) * 4 > p->num_slots * 3)
        return grow_slots(p);
    put_slots(p, p->slots, p->num_slots, p->stale_from);
    p->slots_stale = 0;
    return 0;
}

/* Node arrays up to this many nodes (40 MB) grow by doubling. */
#define NODES_DOUBLING ((size_t)1 << 20)

static uint32_t new_node(prof_profile *p, uint32_t parent, uint32_t cc)
{
    if (p->num_nodes == p->cap_nodes) {
        /* doubled while small, then by a quarter: a big array grows in
         * place or by remapping, so the spare capacity stays small */
        size_t cap = p->cap_nodes < 1024 ? 1024
                   : p->cap_nodes < NODES_DOUBLING ? p->cap_nodes * 2
                   : p->cap_nodes + p->cap_nodes / 4;
        if (cap >= PROF_NONE)
            return PROF_NONE;
        if (charge(p, (cap - p->cap_nodes) * sizeof(prof_node)) != 0)
            return PROF_NONE;
        prof_node *n = realloc(p->nodes, cap * sizeof *n);
        if (!n) {
            uncharge(p, (cap - p->cap_nodes) * sizeof *n);
            return PROF_NONE;
        }
        p->nodes = n;
        p->cap_nodes = cap;
    }
    uint32_t i = (uint32_t)p->num_nodes++;
    prof_node *nd = &p->nodes[i];
    nd->cc = cc;
    nd->parent = parent;
    nd->first_child = PROF_NONE;
    nd->next_sibling = PROF_NONE;
    nd->ticks = 0;
    nd->inherited = 0;
    nd->depth = parent == PROF_NONE ? 0 : p->nodes[parent].depth + 1;
    nd->reserved = 0;
    if (parent != PROF_NONE) {
        nd->next_sibling = p->nodes[parent].first_child;
        p->nodes[parent].first_child = i;
    }
    return i;
}

/* A new child of `parent` for cost-centre id `cc`, which has none yet;
 * pos: path_pos of its path; k: its free slot in the child table, or
 * SIZE_MAX to find one. */
static uint32_t add_child(prof_profile *p, uint32_t parent, uint32_t cc, uint32_t pos, size_t k)
{
    if ((p->num_nodes + 1) * 4 > p->num_slots * 3) {     /* at most 3/4 full */
        if (grow_slots(p) != 0)
            return PROF_NONE;
        k = SIZE_MAX;
    }
    if (k == SIZE_MAX) {
        k = slot_of(p, pos);
        while (p->slots[k].node)
            k = (k + 1) & (p->num_slots - 1);
    }
    uint32_t i = new_node(p, parent, cc);
    if (i != PROF_NONE) {
        p->slots[k].parent = parent;
        p->slots[k].cc = cc;
        p->slots[k].node = i + 1;
        p->nodes[i].reserved = pos;
    }
    return i;
}

/* The child of `parent` for cost-centre id `cc` (pos: path_pos of its
 * path), created if new (then *created is set). */
/* The child of `parent` for cost-centre id `cc` in the child table (pos:
 * path_pos of its path), or PROF_NONE with *empty the free slot where
 * the probe stopped. */
static inline uint32_t find_child(const prof_profile *p, uint32_t parent, uint32_t cc,
                                  uint32_t pos, size_t *empty)
{
    for (size_t k = slot_of(p, pos);; k = (k + 1) & (p->num_slots - 1)) {
        const struct child_slot *sl = &p->slots[k];
        if (!sl->node) {
            *empty = k;
            return PROF_NONE;
        }
        if (sl->parent == parent && sl->cc == cc)
            return sl->node - 1;
    }
}

static uint32_t child(prof_profile *p, uint32_t parent, uint32_t cc, uint32_t pos, int *created)
{
    /* A path created in one go lies in consecutive nodes: the next node,
     * next to this one in memory, is often the child (the cut marker is
     * no one's child in the table). */
    uint32_t next = parent + 1;
    if (next < p->num_nodes && p->nodes[next].parent == parent && p->nodes[next].cc == cc &&
        next != p->cut_node)
        return next;

    size_t k;
    uint32_t n = find_child(p, parent, cc, pos, &k);
    if (n != PROF_NONE)
        return n;
    *created = 1;
    return add_child(p, parent, cc, pos, k);
}

/* ---- stack cache ------------------------------------------------------ */

/* Real programs sample a limited set of distinct stacks over and over.
 * Walking a deep stack down the tree costs a random memory access per
 * frame; this cache maps the whole stack (hash, then an exact compare with
 * a stored copy) to its leaf node in about three. Next to the copy it
 * keeps the stack's path of nodes, so that the capability's next sample
 * can share its outer part. Its memory is capped: past the cap, new
 * stacks simply take the tree walk. */
#define SC_MAX_BYTES (64u << 20)

/* A stack that differs from its capability's previous one in at most
 * this many innermost frames takes the walk, not the cache (add_sample):
 * the walk fetches the slots of all its levels at once, so a few levels
 * cost about what the cache's probe and stored stack do, without the
 * hash of every frame and the copy of a stack that is often new.
 * Measured (report -j 1, 2026-11-27), 2 / 8 / 16 / every shared prefix:
 * hard 0.65 / 0.61 / 0.62 / 0.61 s; repeat 1.46-1.52 / 1.51 / 1.55 / 3.30 s
 * (deep pool stacks sharing long prefixes: many probes); synth1g 2.45 /
 * 2.46 s (2.88 s with none). */
#define NEAR_FRAMES 8u

/* The least children whose sorting a snapshot shares with a thread. */
#define SORT_SPLIT_MIN ((size_t)1 << 16)

/* The cache's cap: sc_cap (SC_MAX_BYTES; a partial of the parallel read
 * half of it, so that the two caches of two cores take what one takes),
 * and never more than a quarter of what the budget leaves to it and the
 * tree, so that the tree keeps the rest (the cache's charges are
 * optional: refused, they only stop caching). */
static size_t sc_max_bytes(const prof_profile *p)
{
    uint64_t limit = ev_budget_limit(p->mem.budget);
    if (!limit)
        return p->sc_cap;
    uint64_t others = ev_budget_used(p->mem.budget) - p->sc_charged;
    uint64_t avail = limit > others ? (limit - others) / 4 : 0;
    return avail < p->sc_cap ? (size_t)avail : p->sc_cap;
}

/* Not util/htab.h: one probe per sample, measured; the entry keeps the
 * full 64-bit hash and the arena offset next to each other. */
struct sc_entry {
    uint64_t hash;          /* never 0 for a used entry */
    uint32_t arena_off;     /* ids (as decoded), then nodes (outer first) */
    uint32_t node;
    uint32_t depth;         /* + 256 for a cut stack */
    /* The samples of this stack not yet added to its node's ticks: a hit
     * then touches the entry and the stored stack, not the node too (a
     * third cache miss on logs of many distinct stacks). sc_flush adds
     * them before anything reads the ticks. */
    uint32_t pending;
};

/* util/hash.h's four-lane stack hash; 0 marks an empty cache entry. */
static uint64_t stack_hash(const uint32_t *s, unsigned depth, unsigned tag)
{
    return hash_u32s(s, depth, tag) | 1;
}

static struct sc_entry *sc_lookup(const prof_profile *p, const uint32_t *s, unsigned depth,
                                  unsigned tag, uint64_t h)
{
    if (!p->sc_size)
        return NULL;
    for (size_t k = h & (p->sc_size - 1);; k = (k + 1) & (p->sc_size - 1)) {
        struct sc_entry *en = &p->sc_table[k];
        if (!en->hash)
            return NULL;
        if (en->hash == h && en->depth == depth + tag &&
            memcmp(p->sc_arena + en->arena_off, s, depth * sizeof *s) == 0)
            return en;
    }
}

static void sc_put(struct sc_entry *table, size_t size, const struct sc_entry *e)
{
    size_t k = e->hash & (size - 1);
    while (table[k].hash)
        k = (k + 1) & (size - 1);
    table[k] = *e;
}

/* Remembers stack -> node; silently does nothing once the cap is hit. */
static void sc_insert(prof_profile *p, const uint32_t *s, const uint32_t *path,
                      unsigned depth, unsigned tag, uint64_t h, uint32_t node)
{
    if (p->sc_full)
        return;
    size_t need = 2 * (size_t)depth;        /* ids and nodes */
    size_t bytes = (p->sc_arena_len + need) * sizeof *p->sc_arena +
                   2 * (p->sc_num + 1) * sizeof(struct sc_entry);
    size_t max = sc_max_bytes(p);
    if (bytes > max) {
        p->sc_full = 1;
        return;
    }
    if (p->sc_arena_len + need > p->sc_arena_cap) {
        size_t cap = p->sc_arena_cap ? p->sc_arena_cap * 2 : 65536;
        while (cap < p->sc_arena_len + need)
            cap *= 2;
        if (cap > max / sizeof *p->sc_arena)        /* never past the cap */
            cap = max / sizeof *p->sc_arena;
        if (charge_optional(p, (cap - p->sc_arena_cap) * sizeof *p->sc_arena) != 0) {
            p->sc_full = 1;
            return;
        }
        uint32_t *a = realloc(p->sc_arena, cap * sizeof *a);
        if (!a) {
            uncharge_sc(p, (cap - p->sc_arena_cap) * sizeof *a);
            p->sc_full = 1;
            return;
        }
        p->sc_arena = a;
        p->sc_arena_cap = cap;
    }
    if ((p->sc_num + 1) * 2 > p->sc_size) {     /* at most half full */
        size_t n = p->sc_size ? p->sc_size * 2 : 2048;
        if (charge_optional(p, n * sizeof(struct sc_entry)) != 0) {
            p->sc_full = 1;
            return;
        }
        struct sc_entry *t = tx_table_alloc(n, sizeof *t);
        if (!t) {
            uncharge_sc(p, n * sizeof *t);
            p->sc_full = 1;
            return;
        }
        for (size_t i = 0; i < p->sc_size; i++)
            if (p->sc_table[i].hash)
                sc_put(t, n, &p->sc_table[i]);
        free(p->sc_table);
        uncharge_sc(p, p->sc_size * sizeof *t);
        p->sc_table = t;
        p->sc_size = n;
    }
    struct sc_entry en = { h, (uint32_t)p->sc_arena_len, node, depth + tag, 0 };
    if (depth) {    /* an empty stack has no arena yet: no NULL to memcpy */
        memcpy(p->sc_arena + p->sc_arena_len, s, depth * sizeof *s);
        memcpy(p->sc_arena + p->sc_arena_len + depth, path, depth * sizeof *path);
    }
    p->sc_arena_len += need;
    sc_put(p->sc_table, p->sc_size, &en);
    p->sc_num++;
}

/* The cached stacks' pending samples into their nodes' ticks. */
static void sc_flush(prof_profile *p)
{
    if (!p->sc_pending)
        return;
    for (size_t i = 0; i < p->sc_size; i++) {
        struct sc_entry *en = &p->sc_table[i];
        if (en->hash && en->pending) {
            p->nodes[en->node].ticks += en->pending;
            en->pending = 0;
        }
    }
    p->sc_pending = 0;
}

/* Frees the stack cache (it refills from the next samples): a finished
 * partial of the parallel read needs it no more, and its memory would
 * stay beside the merged tree. The capabilities' previous paths that
 * point into it are forgotten. */
static void sc_drop(prof_profile *p)
{
    sc_flush(p);
    uncharge_sc(p, p->sc_size * sizeof *p->sc_table + p->sc_arena_cap * sizeof *p->sc_arena);
    free(p->sc_table);
    free(p->sc_arena);
    p->sc_table = NULL;
    p->sc_arena = NULL;
    p->sc_num = p->sc_size = 0;
    p->sc_arena_len = p->sc_arena_cap = 0;
    p->sc_full = 0;
    for (size_t i = 0; p->cap_paths && i < CAP_PATHS; i++)
        if (p->cap_paths[i].from_cache) {
            p->cap_paths[i].from_cache = 0;
            p->cap_paths[i].depth = 0;
        }
}

/* ---- lifecycle -------------------------------------------------------- */

prof_profile *prof_create(const prof_filter *filter)
{
    prof_profile *p = calloc(1, sizeof *p);

    if (!p)
        return NULL;
    if (filter)
        p->filter = *filter;
    else
        prof_filter_init(&p->filter);
    if (p->filter.focus || p->filter.ignore)
        p->filter.max_depth = 0;    /* they need every frame */
    tx_strpool_init(&p->strings);
    p->cut_node = PROF_NONE;
    p->sc_cap = SC_MAX_BYTES;
    p->jobs = 1;
    p->cap_paths = calloc(CAP_PATHS, sizeof *p->cap_paths);
    if (!p->cap_paths || grow_slots(p) != 0 || new_node(p, PROF_NONE, 0) != 0) {
        prof_destroy(p);
        return NULL;
    }
    p->info.program = "";
    p->info.rts_version = "";
    p->info.first_time = UINT64_MAX;
    return p;
}

void prof_destroy(prof_profile *p)
{
    if (!p)
        return;
    tx_htab_free(&p->cc_by_id);
    free(p->cc_dense);
    free(p->nodes);
    free(p->slots);
    free(p->cap_paths);
    free(p->sc_table);
    free(p->sc_arena);
    free(p->ccs);
    free(p->argv_store);
    free(p->run_cmds);
    runs_free(p->runs);
    tx_strpool_destroy(&p->strings);
    ev_budget_release(p->mem.budget, p->mem.charged);
    free(p);
}

/* ---- cost centres ----------------------------------------------------- */

static const struct { const char *label, *module; } builtins[] = {
    { "GC", "GC" }, { "SYSTEM", "SYSTEM" }, { "IDLE", "IDLE" },
    { "OVERHEAD_of", "PROFILING" }, { "DONT_CARE", "MAIN" },
};

int prof_cc_builtin(const char *label, const char *module, const char *src)
{
    if (strcmp(src, "<built-in>") != 0)
        return 0;
    for (size_t i = 0; i < sizeof builtins / sizeof builtins[0]; i++)
        if (strcmp(label, builtins[i].label) == 0 && strcmp(module, builtins[i].module) == 0)
            return 1;
    return 0;
}

/* Maps GHC's id to index `i` of p->ccs; -1 when out of memory.
 * GHC numbers cost centres from 1 up: an id below a few times the count
 * so far gets a slot in a plain array (one load to find it; 4 bytes an
 * id), a sparse one (hand-made logs) the hash table. With 10M
 * definitions the table took 23% of the read in cache misses. */
static int map_id(prof_profile *p, uint32_t id, uint32_t i)
{
    if (id < p->cc_dense_cap || id < 4 * ((uint64_t)i + 1) + 4096) {
        if (id >= p->cc_dense_cap) {
            size_t cap = p->cc_dense_cap ? 2 * p->cc_dense_cap : 4096;
            while (cap <= id)
                cap *= 2;
            if (charge(p, (cap - p->cc_dense_cap) * sizeof *p->cc_dense) != 0)
                return -1;
            uint32_t *d = realloc(p->cc_dense, cap * sizeof *d);
            if (!d) {
                uncharge(p, (cap - p->cc_dense_cap) * sizeof *d);
                return -1;
            }
            memset(d + p->cc_dense_cap, 0, (cap - p->cc_dense_cap) * sizeof *d);
            p->cc_dense = d;
            p->cc_dense_cap = cap;
            /* ids met while they were sparse (GHC defines the newest,
             * highest first) move in too: a lookup is one load */
            for (uint32_t k = 0; k < i; k++)
                if (p->ccs[k].id < cap)
                    p->cc_dense[p->ccs[k].id] = k + 1;
        }
        p->cc_dense[id] = i + 1;
        return 0;
    }
    return tx_htab_insert_charged(&p->cc_by_id, hash_mix64(id), i, &p->mem, 0, NULL);
}

/* A new cost-centre record; NULL when out of memory. */
static prof_cc *add_cc(prof_profile *p, uint32_t id)
{
    if (p->num_ccs == p->cap_ccs) {
        size_t cap = p->cap_ccs ? p->cap_ccs * 2 : 256;
        if (charge(p, (cap - p->cap_ccs) * sizeof(prof_cc)) != 0)
            return NULL;
        prof_cc *n = realloc(p->ccs, cap * sizeof *n);
        if (!n) {
            uncharge(p, (cap - p->cap_ccs) * sizeof *n);
            return NULL;
        }
        p->ccs = n;
        p->cap_ccs = cap;
    }
    if (map_id(p, id, (uint32_t)p->num_ccs) != 0)
        return NULL;
    prof_cc *cc = &p->ccs[p->num_ccs++];
    memset(cc, 0, sizeof *cc);
    cc->id = id;
    return cc;
}

static int cc_id_eq(const void *items, uint32_t i, const void *key)
{
    return ((const prof_cc *)items)[i].id == *(const uint32_t *)key;
}

/* The index of the cost centre with GHC's id `id` in `ccs` by table t,
 * or TX_HTAB_NONE. */
static uint32_t htab_cc_index(const tx_htab *t, const prof_cc *ccs, uint32_t id)
{
    return tx_htab_find(t, hash_mix64(id), cc_id_eq, ccs, &id);
}

/* The same in p's ids (`ccs`: p's table, or the result's that took it). */
static uint32_t cc_index(const prof_profile *p, const prof_cc *ccs, uint32_t id)
{
    if (id < p->cc_dense_cap && p->cc_dense[id])
        return p->cc_dense[id] - 1;
    return p->cc_by_id.count ? htab_cc_index(&p->cc_by_id, ccs, id) : TX_HTAB_NONE;
}

static prof_cc *find_cc(prof_profile *p, uint32_t id)
{
    uint32_t i = cc_index(p, p->ccs, id);
    return i == TX_HTAB_NONE ? NULL : &p->ccs[i];
}

static int define_cc(prof_profile *p, const el_event *ev)
{
    prof_cc *cc = find_cc(p, ev->u.cost_centre.id);

    if (!cc && !(cc = add_cc(p, ev->u.cost_centre.id)))
        return -1;
    cc->label = pool_add(p, ev->u.cost_centre.label.ptr, ev->u.cost_centre.label.len);
    cc->module = pool_add(p, ev->u.cost_centre.module.ptr, ev->u.cost_centre.module.len);
    cc->srcloc = pool_add(p, ev->u.cost_centre.srcloc.ptr, ev->u.cost_centre.srcloc.len);
    if (!cc->label || !cc->module || !cc->srcloc)
        return -1;
    cc->is_caf = ev->u.cost_centre.flags & 1;
    cc->defined = 1;
    cc->builtin = (uint8_t)prof_cc_builtin(cc->label, cc->module, cc->srcloc);
    return 0;
}

/* ---- samples ---------------------------------------------------------- */

static int add_sample(prof_profile *p, const el_event *ev)
{
    unsigned depth = ev->u.prof_sample.depth;
    const uint32_t *s = ev->u.prof_sample.stack;
    uint32_t start = 0;

    if (depth == EL_MAX_STACK) {
        /* GHC kept the 255 innermost frames: hang them under a marked
         * frame instead of pretending they start at MAIN. */
        if (p->cut_node == PROF_NONE && (p->cut_node = new_node(p, 0, 0)) == PROF_NONE)
            return -1;
        start = p->cut_node;
        p->info.cut_samples++;
    }

    /* --max-depth N: the outer frames down to depth N + 1 (the report's
     * hidden subtrees are counted there) and the innermost frame below
     * them (its individual ticks, for the summary by cost centre). A
     * stack that coincides with a real one shares its nodes: both give
     * the innermost cost centre a tick and every shown frame the same
     * inherited tick. */
    if (p->filter.max_depth) {
        unsigned keep = p->filter.max_depth + 1 - (start ? 1u : 0u);
        if (depth > keep + 1) {
            p->short_stack[0] = s[0];
            memcpy(p->short_stack + 1, s + depth - keep, keep * sizeof *s);
            s = p->short_stack;
            depth = keep + 1;
        }
    }

    /* the same stack as the capability's previous sample (a function
     * that runs for several ticks): no hashing, nothing new to touch */
    uint32_t cap = ev->u.prof_sample.cap;
    struct cap_path *cp = &p->cap_paths[cap % CAP_PATHS];
    if (cp->cap == cap && cp->start == start && cp->depth == depth) {
        uint32_t leaf = PROF_NONE;
        if (depth == 0) {
            leaf = start;
        } else if (cp->from_cache) {
            const uint32_t *ids = p->sc_arena + cp->cache_off;
            if (memcmp(ids, s, depth * sizeof *s) == 0)
                leaf = ids[2 * depth - 1];      /* the path's last node */
        } else {
            unsigned j = 0;
            while (j < depth && cp->ids[j] == s[depth - 1 - j])
                j++;
            if (j == depth)
                leaf = cp->path[depth];
        }
        if (leaf != PROF_NONE) {
            p->nodes[leaf].ticks++;
            return 0;
        }
    }

    /* the outer frames shared with the capability's previous sample */
    unsigned k = 0;
    if (cp->cap == cap && cp->start == start) {
        unsigned lim = depth < cp->depth ? depth : cp->depth;
        if (cp->from_cache) {
            const uint32_t *ids = p->sc_arena + cp->cache_off, *path = ids + cp->depth;
            while (k < lim && ids[cp->depth - 1 - k] == s[depth - 1 - k]) {
                cp->ids[k] = s[depth - 1 - k];
                cp->path[k + 1] = path[k];
                k++;
            }
        } else {
            while (k < lim && cp->ids[k] == s[depth - 1 - k])
                k++;
        }
    }

    /* A stack that is the previous one with a frame or two changed at
     * its end (a function's callees on fine ticks) is found, or made, by
     * the walk from the shared frames: a probe or two of the child table,
     * where the stack cache costs a hash of every frame, a probe and a
     * compare of the stored stack, for a stack that is often new. */
    unsigned tag = start ? 256u : 0u; /* cut stacks and whole ones differ */
    uint64_t h = 0;
    int near = k > 0 && depth - k <= NEAR_FRAMES;
    if (!near) {
        h = stack_hash(s, depth, tag);
        struct sc_entry *hit = sc_lookup(p, s, depth, tag, h);
        if (hit) {
            if (++hit->pending == UINT32_MAX) {
                p->nodes[hit->node].ticks += hit->pending;
                hit->pending = 0;
            }
            p->sc_pending = 1;
            cp->cap = cap;
            cp->start = start;
            cp->depth = depth;
            cp->from_cache = 1;
            cp->cache_off = hit->arena_off;
            return 0;
        }
    }

    if (p->slots_stale && catch_up_slots(p) != 0)
        return -1;
    uint32_t node = k ? cp->path[k] : start;
    cp->cap = cap;
    cp->start = start;
    cp->depth = 0;
    cp->from_cache = 0;
    cp->path[0] = start;
    /* the slots of every level still to walk, fetched before the walk
     * (see struct child_slot) */
    uint32_t pos[EL_MAX_STACK];
    uint64_t ph = start ? PATH_CUT : PATH_ROOT;
    for (unsigned j = 0; j < depth; j++) {
        ph = hash_path_step(ph, s[depth - 1 - j]);
        if (j >= k) {
            pos[j] = path_pos(ph);
            if (p->num_slots)
                TX_PREFETCH(&p->slots[slot_of(p, pos[j])]);
        }
    }
    /* below the first new node every node is new: no lookups */
    int created = 0;
    for (unsigned j = k; j < depth; j++) {
        uint32_t id = s[depth - 1 - j];
        node = created ? add_child(p, node, id, pos[j], SIZE_MAX)
                       : child(p, node, id, pos[j], &created);
        if (node == PROF_NONE)
            return -1;
        cp->ids[j] = id;
        cp->path[j + 1] = node;
    }
    cp->depth = depth;
    p->nodes[node].ticks++;
    /* A stack that made new nodes is new. When stacks the cache misses
     * are nearly always new (logs of rarely repeating stacks), a new stack
     * is most likely a one-off: it goes into the cache when seen again,
     * not now, which saves the copy and its memory. */
    if (near)
        return 0;
    p->walks++;
    p->walks_known += !created;
    if (!created || p->walks < 4096 || p->walks_known * 8 >= p->walks)
        sc_insert(p, s, cp->path + 1, depth, tag, h, node);
    return 0;
}

/* One more run's command line, as the report's header shows it:
 * "program +RTS r1 r2 -RTS a1 a2" (NULL-free; the first PROF_MAX_RUN_CMDS). */
static int add_run_cmd(prof_profile *p, const char *program, const char **rts, uint32_t nr,
                       const char **args, uint32_t na)
{
    p->runs_seen++;
    if (p->num_run_cmds >= PROF_MAX_RUN_CMDS)
        return 0;
    if (!p->run_cmds && !(p->run_cmds = calloc(PROF_MAX_RUN_CMDS, sizeof *p->run_cmds)))
        return -1;
    size_t len = strlen(program) + sizeof " +RTS -RTS";
    for (uint32_t i = 0; i < nr; i++)
        len += strlen(rts[i]) + 1;
    for (uint32_t i = 0; i < na; i++)
        len += strlen(args[i]) + 1;
    char *buf = malloc(len), *at = buf;
    if (!buf)
        return -1;
    at += sprintf(at, "%s +RTS", program);
    for (uint32_t i = 0; i < nr; i++)
        at += sprintf(at, " %s", rts[i]);
    at += sprintf(at, " -RTS");
    for (uint32_t i = 0; i < na; i++)
        at += sprintf(at, " %s", args[i]);
    const char *kept = pool_add(p, buf, (uint32_t)(at - buf));
    free(buf);
    if (!kept)
        return -1;
    p->run_cmds[p->num_run_cmds++] = kept;
    return 0;
}

/* The processors of the runs read so far: the fewest and the most
 * capabilities assigned to an OS-process capset (one per run; a merged
 * log's runs have capsets of their own), else the CAP_CREATE events, else
 * the capabilities the samples name. */
static void run_caps(const prof_profile *p, uint32_t *lo, uint32_t *hi)
{
    *lo = UINT32_MAX;
    *hi = 0;
    for (size_t i = 0; i < PROF_CAPSETS; i++) {
        if (!p->capset_osproc[i] || !p->capset_caps[i])
            continue;
        if (p->capset_caps[i] < *lo)
            *lo = p->capset_caps[i];
        if (p->capset_caps[i] > *hi)
            *hi = p->capset_caps[i];
    }
    if (*hi == 0)
        *lo = *hi = p->cap_creates ? p->cap_creates : p->max_sample_cap ? p->max_sample_cap : 1;
}

static int keep_args(prof_profile *p, el_str args, int new_run)
{
    /* NUL-separated, NUL-terminated list */
    uint32_t n = 0;
    for (uint32_t i = 0; i < args.len; i++)
        if (args.ptr[i] == '\0')
            n++;
    if (args.len && args.ptr[args.len - 1] != '\0')
        n++;
    const char **v = calloc(n ? 3 * (size_t)n : 1, sizeof *v);
    if (!v)
        return -1;
    uint32_t argc = 0;
    for (uint32_t i = 0; i < args.len;) {
        const char *a = args.ptr + i;
        const char *nul = memchr(a, '\0', args.len - i);
        uint32_t len = nul ? (uint32_t)(nul - a) : args.len - i;
        if (!(v[argc++] = pool_add(p, a, len))) {
            free(v);
            return -1;
        }
        i += len + 1;
    }
    /* GHC's report: program = basename of argv[0]; RTS options are the
     * words between +RTS and -RTS (or to the end); the rest are the
     * program's. Slots: [0, argc) argv, then rts args, then args. */
    const char **rts = v + argc, **prog = v + 2 * argc;
    uint32_t nr = 0, np = 0;
    int in_rts = 0;
    for (uint32_t i = 1; i < argc; i++) {
        if (strcmp(v[i], "+RTS") == 0) { in_rts = 1; continue; }
        if (strcmp(v[i], "-RTS") == 0) { in_rts = 0; continue; }
        if (!in_rts && strcmp(v[i], "--RTS") == 0) {
            for (i++; i < argc; i++)
                prog[np++] = v[i];
            break;
        }
        if (in_rts)
            rts[nr++] = v[i];
        else
            prog[np++] = v[i];
    }
    free(p->argv_store);
    p->argv_store = v;
    p->info.argv = v;
    p->info.argc = argc;
    p->info.rts_args = rts;
    p->info.num_rts_args = nr;
    p->info.args = prog;
    p->info.num_args = np;
    if (argc) {
        const char *slash = strrchr(v[0], '/');
        p->info.program = slash ? slash + 1 : v[0];
        p->seen |= PROF_SEEN_PROGRAM;
    }
    if (new_run)
        return add_run_cmd(p, argc ? p->info.program : "", rts, nr, prog, np);
    return 0;
}

int prof_add_event(prof_profile *p, const el_event *ev)
{
    if (p->failed)
        return -1;
    if (ev->time < p->info.first_time)
        p->info.first_time = ev->time;
    if (ev->time > p->info.last_time)
        p->info.last_time = ev->time;
    if (!ev->decoded)
        return 0;

    int rc = 0;
    switch (ev->type) {
    case EL_PROF_SAMPLE_COST_CENTRE:
        p->info.all_samples++;
        if (ev->u.prof_sample.cap + 1 > p->max_sample_cap)
            p->max_sample_cap = ev->u.prof_sample.cap + 1;
        if (ev->outside) {     /* outside the selection (the driver's stage) */
            p->info.filtered_ticks++;
            break;
        }
        rc = runs_translating(p) ? runs_sample(p, ev) : add_sample(p, ev);
        break;
    case EL_HEAP_PROF_COST_CENTRE:
        rc = runs_translating(p) ? runs_define(p, ev) : define_cc(p, ev);
        break;
    case EL_PROF_BEGIN:
        p->info.interval_ns = ev->u.prof_begin.interval_ns;
        p->seen |= PROF_SEEN_INTERVAL;
        break;
    case EL_CAP_CREATE:
        p->cap_creates++;
        break;
    case EL_CAPSET_CREATE:
        if (ev->u.capset_create.capset < PROF_CAPSETS)
            p->capset_osproc[ev->u.capset_create.capset] = ev->u.capset_create.type == 2;
        break;
    case EL_CAPSET_ASSIGN_CAP:
        if (ev->u.capset_cap.capset < PROF_CAPSETS &&
            p->capset_caps[ev->u.capset_cap.capset] < UINT16_MAX)
            p->capset_caps[ev->u.capset_cap.capset]++;
        break;
    case EL_PROGRAM_ARGS:
        rc = keep_args(p, ev->u.text.str, 1);
        break;
    case EL_RTS_IDENTIFIER:
        p->info.rts_version = pool_add(p, ev->u.text.str.ptr, ev->u.text.str.len);
        rc = p->info.rts_version ? 0 : -1;
        p->seen |= PROF_SEEN_RTS;
        break;
    case EL_WALL_CLOCK_TIME:
        if (!p->info.has_wall_clock) {
            p->info.has_wall_clock = 1;
            p->info.wall_sec = ev->u.wall_clock.sec;
            p->info.wall_nsec = ev->u.wall_clock.nsec;
            p->info.wall_time_ns = ev->time;
        }
        break;
    default:
        break;
    }
    if (rc != 0)
        p->failed = 1;
    return rc;
}

void prof_set_time_span(prof_profile *p, uint64_t first, uint64_t last)
{
    if (first < p->info.first_time)
        p->info.first_time = first;
    if (last > p->info.last_time)
        p->info.last_time = last;
}

/* ---- partial profiles (the parallel read) ------------------------------ */

prof_profile *prof_fork(const prof_profile *p)
{
    if (p->failed || p->runs)
        return NULL;        /* several logs translate ids: read sequentially */
    prof_profile *q = prof_create(&p->filter);
    if (q) {
        q->sc_cap = SC_MAX_BYTES / 4;
        q->sel = p->sel;
    }
    if (q && p->mem.budget) {
        prof_set_budget(q, p->mem.budget);  /* the partials share the read's budget */
        if (q->failed) {
            prof_destroy(q);
            return NULL;
        }
    }
    return q;
}

/* A profile that has taken no event at all. */
static int pristine(const prof_profile *p)
{
    return !p->failed && p->info.first_time == UINT64_MAX && p->num_nodes == 1 &&
           p->nodes[0].ticks == 0 && p->num_ccs == 0 && p->cut_node == PROF_NONE &&
           !p->argv_store && !p->seen && !p->info.has_wall_clock && !p->cap_creates &&
           !p->runs_seen &&
           !p->max_sample_cap && !p->info.all_samples && !p->info.filtered_ticks;
}

/* A cost centre defined (again) as q's: define_cc with strings. */
static int merge_cc(prof_profile *p, const prof_cc *qc)
{
    prof_cc *cc = find_cc(p, qc->id);

    if (!cc && !(cc = add_cc(p, qc->id)))
        return -1;
    cc->label = pool_add(p, qc->label, (uint32_t)strlen(qc->label));
    cc->module = pool_add(p, qc->module, (uint32_t)strlen(qc->module));
    cc->srcloc = pool_add(p, qc->srcloc, (uint32_t)strlen(qc->srcloc));
    if (!cc->label || !cc->module || !cc->srcloc)
        return -1;
    cc->is_caf = qc->is_caf;
    cc->defined = 1;
    cc->builtin = qc->builtin;
    return 0;
}

/* q's last program arguments as the event held them (NUL-terminated
 * words), taken as keep_args takes an event's. */
static int merge_args(prof_profile *p, const prof_profile *q)
{
    size_t len = 0;
    for (uint32_t i = 0; i < q->info.argc; i++)
        len += strlen(q->info.argv[i]) + 1;
    char *buf = malloc(len ? len : 1), *at = buf;
    if (!buf)
        return -1;
    for (uint32_t i = 0; i < q->info.argc; i++) {
        size_t n = strlen(q->info.argv[i]) + 1;
        memcpy(at, q->info.argv[i], n);
        at += n;
    }
    int rc = keep_args(p, (el_str){ buf, (uint32_t)len }, 0);
    free(buf);
    return rc;
}

/* q's tree into p's: q's nodes in q's creation order (parents first), each
 * found or created under its parent's image. Nodes that are new to p are
 * so appended in the order q made them, which is the order of their first
 * sample in q's stretch of the log: after p's stretch, that is their first
 * sample in the whole log, the order one sequential read creates them in
 * (children lists, and so ties in a snapshot, follow it). */
/* q's nodes into p's tree, in q's creation order. Only the nodes p had
 * before are looked up in the child table (q's paths are distinct, so no
 * two of q's nodes meet the same parent and cost centre here, and a node
 * added here has only added children); the added nodes get their slots
 * when p next needs the table (slots_stale): never, when the merge is the
 * read's last and a snapshot takes the tree. */
static int merge_nodes(prof_profile *p, const prof_profile *q)
{
    if (p->slots_stale && catch_up_slots(p) != 0)
        return -1;
    uint32_t *img = malloc(q->num_nodes * sizeof *img);
    const size_t had = p->num_nodes;

    if (!img)
        return -1;
    img[0] = 0;
    p->nodes[0].ticks += q->nodes[0].ticks;
    for (size_t i = 1; i < q->num_nodes; i++) {
        const prof_node *qn = &q->nodes[i];
        /* q's nodes keep where their slots go (the same paths hash the
         * same in p): fetch the slots of the nodes ahead */
        if (i + 16 < q->num_nodes && p->num_slots)
            TX_PREFETCH(&p->slots[slot_of(p, q->nodes[i + 16].reserved)]);
        uint32_t n = PROF_NONE, parent = img[qn->parent];
        if ((uint32_t)i == q->cut_node) {
            if (p->cut_node == PROF_NONE && (p->cut_node = new_node(p, 0, 0)) == PROF_NONE) {
                free(img);
                return -1;
            }
            n = p->cut_node;
        } else {
            size_t empty;
            if (parent < had && p->num_slots)
                n = find_child(p, parent, qn->cc, qn->reserved, &empty);
            if (n == PROF_NONE) {
                if ((n = new_node(p, parent, qn->cc)) == PROF_NONE) {
                    free(img);
                    return -1;
                }
                p->nodes[n].reserved = qn->reserved;
                if (!p->slots_stale) {
                    p->slots_stale = 1;
                    p->stale_from = n;
                }
            }
        }
        p->nodes[n].ticks += qn->ticks;
        img[i] = n;
    }
    free(img);
    return 0;
}

int prof_merge(prof_profile *p, prof_profile *q)
{
    if (p->failed)
        return -1;
    sc_flush(p);
    sc_flush(q);
    if (q->failed || runs_translating(p) || q->runs) {
        p->failed = 1;
        return -1;
    }
    if (pristine(p)) {
        /* the first stretch: p takes q's aggregate whole (q keeps p's
         * empty one); the options and the several-logs state stay p's */
        prof_profile t = *p;
        *p = *q;
        *q = t;
        prof_filter qf = p->filter;
        p->filter = t.filter;
        q->filter = qf;
        const ev_select *qs = p->sel;
        p->sel = t.sel;
        q->sel = qs;
        unsigned qj = p->jobs;
        p->jobs = t.jobs;
        q->jobs = qj;
        struct prof_runs *qr = p->runs;
        p->runs = t.runs;
        q->runs = qr;
        return 0;
    }
    /* q's stretch is read; p's caches only what came before it: the
     * merged tree grows next to neither */
    sc_drop(q);
    sc_drop(p);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < q->num_ccs; i++)
        rc = merge_cc(p, &q->ccs[i]);
    if (rc == 0)
        rc = merge_nodes(p, q);
    if (rc == 0 && q->argv_store)
        rc = merge_args(p, q);
    /* q's runs come after p's; a capset's capabilities may be assigned in
     * both stretches */
    for (uint32_t i = 0; rc == 0 && i < q->num_run_cmds; i++) {
        uint32_t before = p->runs_seen;
        if (p->num_run_cmds < PROF_MAX_RUN_CMDS) {
            if (!p->run_cmds && !(p->run_cmds = calloc(PROF_MAX_RUN_CMDS, sizeof *p->run_cmds)))
                rc = -1;
            else if (!(p->run_cmds[p->num_run_cmds] =
                           pool_add(p, q->run_cmds[i], (uint32_t)strlen(q->run_cmds[i]))))
                rc = -1;
            else
                p->num_run_cmds++;
        }
        p->runs_seen = before;
    }
    p->runs_seen += q->runs_seen;
    for (size_t i = 0; i < PROF_CAPSETS; i++) {
        p->capset_osproc[i] |= q->capset_osproc[i];
        uint32_t c = (uint32_t)p->capset_caps[i] + q->capset_caps[i];
        p->capset_caps[i] = c > UINT16_MAX ? UINT16_MAX : (uint16_t)c;
    }
    if (rc == 0 && (q->seen & PROF_SEEN_PROGRAM)) {
        p->info.program = pool_add(p, q->info.program,
                                         (uint32_t)strlen(q->info.program));
        p->seen |= PROF_SEEN_PROGRAM;
        rc = p->info.program ? 0 : -1;
    }
    if (rc == 0 && (q->seen & PROF_SEEN_RTS)) {
        p->info.rts_version = pool_add(p, q->info.rts_version,
                                             (uint32_t)strlen(q->info.rts_version));
        p->seen |= PROF_SEEN_RTS;
        rc = p->info.rts_version ? 0 : -1;
    }
    if (rc != 0) {
        p->failed = 1;
        return -1;
    }
    if (q->seen & PROF_SEEN_INTERVAL) {
        p->info.interval_ns = q->info.interval_ns;
        p->seen |= PROF_SEEN_INTERVAL;
    }
    if (!p->info.has_wall_clock && q->info.has_wall_clock) {
        p->info.has_wall_clock = 1;
        p->info.wall_sec = q->info.wall_sec;
        p->info.wall_nsec = q->info.wall_nsec;
        p->info.wall_time_ns = q->info.wall_time_ns;
    }
    if (q->info.first_time < p->info.first_time)
        p->info.first_time = q->info.first_time;
    if (q->info.last_time > p->info.last_time)
        p->info.last_time = q->info.last_time;
    p->info.all_samples += q->info.all_samples;
    p->info.filtered_ticks += q->info.filtered_ticks;
    p->info.cut_samples += q->info.cut_samples;
    p->cap_creates += q->cap_creates;
    if (q->max_sample_cap > p->max_sample_cap)
        p->max_sample_cap = q->max_sample_cap;
    return 0;
}

/* ---- several logs ----------------------------------------------------- */

/* Logs of several runs (a fleet, a test suite) aggregate into one tree.
 * Their cost-centre ids differ between builds, so from the second log on
 * each 161 definition is matched by (module, label, source location)
 * against the cost centres already known, and the log's own ids are
 * translated through a map that each log starts afresh. The first log
 * keeps GHC's ids (so one log gives what it always gave); later logs'
 * new cost centres, and the ids their samples name without a definition
 * in that log (a placeholder per log), get fresh ids above every id seen. */
struct id_slot {
    uint32_t ghc, global;
    int used;
};

struct prof_runs {
    uint32_t num_logs;
    uint32_t next_id;           /* the next fresh id */
    uint32_t max_caps;          /* the earlier logs' runs' capabilities, the most */
    uint32_t min_caps;          /* ... the fewest (0: no earlier log) */
    int has_first_wall;         /* the first log's wall clock */
    uint64_t first_wall_sec;
    uint32_t runs_done;         /* the earlier logs' runs */
    uint64_t span_sum;          /* the earlier logs' time spans, summed */
    struct id_slot *map;        /* this log: GHC id -> id in the tree */
    size_t map_size, map_num;   /* power of two */
    uint32_t *names;            /* cost-centre index + 1, by (module,label,src); 0 empty */
    size_t names_size, names_num;
    uint32_t stack[EL_MAX_STACK];
};

static void runs_free(struct prof_runs *r)
{
    if (!r)
        return;
    free(r->map);
    free(r->names);
    free(r);
}

static int runs_translating(const prof_profile *p)
{
    return p->runs && p->runs->num_logs > 1;
}

static uint64_t name_hash(const char *module, const char *label, const char *src)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    const char *parts[3] = { module, label, src };
    for (int k = 0; k < 3; k++) {
        for (const char *c = parts[k]; c && *c; c++)
            h = (h ^ (uint8_t)*c) * 0x100000001b3ull;
        h = hash_mix64(h ^ (uint64_t)(k + 1));
    }
    return h;
}

static int same_name(const prof_cc *cc, const char *module, const char *label, const char *src)
{
    return strcmp(cc->module, module) == 0 && strcmp(cc->label, label) == 0 &&
           strcmp(cc->srcloc, src) == 0;
}

/* The index of the defined cost centre named so, or PROF_NONE. */
static uint32_t names_find(const prof_profile *p, const char *module, const char *label,
                           const char *src)
{
    const struct prof_runs *r = p->runs;
    if (!r->names_size)
        return PROF_NONE;
    for (size_t k = name_hash(module, label, src) & (r->names_size - 1);;
         k = (k + 1) & (r->names_size - 1)) {
        uint32_t i = r->names[k];
        if (!i)
            return PROF_NONE;
        if (same_name(&p->ccs[i - 1], module, label, src))
            return i - 1;
    }
}

static int names_add(prof_profile *p, uint32_t index)
{
    struct prof_runs *r = p->runs;
    if ((r->names_num + 1) * 2 > r->names_size) {
        size_t n = r->names_size ? r->names_size * 2 : 1024;
        uint32_t *t = calloc(n, sizeof *t);
        if (!t)
            return -1;
        uint32_t *old = r->names;
        size_t old_size = r->names_size;
        r->names = t;
        r->names_size = n;
        r->names_num = 0;
        for (size_t k = 0; k < old_size; k++)
            if (old[k])
                (void)names_add(p, old[k] - 1);     /* fits: no growth */
        free(old);
    }
    const prof_cc *cc = &p->ccs[index];
    size_t k = name_hash(cc->module, cc->label, cc->srcloc) & (r->names_size - 1);
    while (r->names[k])
        k = (k + 1) & (r->names_size - 1);
    r->names[k] = index + 1;
    r->names_num++;
    return 0;
}

static struct id_slot *map_slot(const struct prof_runs *r, uint32_t ghc)
{
    for (size_t k = hash_mix64(ghc) & (r->map_size - 1);; k = (k + 1) & (r->map_size - 1))
        if (!r->map[k].used || r->map[k].ghc == ghc)
            return &r->map[k];
}

static int map_put(struct prof_runs *r, uint32_t ghc, uint32_t global)
{
    if ((r->map_num + 1) * 2 > r->map_size) {
        size_t n = r->map_size ? r->map_size * 2 : 1024;
        struct id_slot *old = r->map;
        size_t old_size = r->map_size;
        if (!(r->map = calloc(n, sizeof *r->map))) {
            r->map = old;
            return -1;
        }
        r->map_size = n;
        for (size_t k = 0; k < old_size; k++)
            if (old[k].used)
                *map_slot(r, old[k].ghc) = old[k];
        free(old);
    }
    struct id_slot *s = map_slot(r, ghc);
    if (!s->used)
        r->map_num++;
    s->used = 1;
    s->ghc = ghc;
    s->global = global;
    return 0;
}

int prof_begin_log(prof_profile *p)
{
    if (p->failed)
        return -1;
    if (!p->runs && !(p->runs = calloc(1, sizeof *p->runs))) {
        p->failed = 1;
        return -1;
    }
    struct prof_runs *r = p->runs;
    if (r->num_logs++ == 0)
        return 0;           /* the first log: GHC's ids as they are */
    uint32_t lo, hi;
    run_caps(p, &lo, &hi);
    if (hi > r->max_caps)
        r->max_caps = hi;
    if (!r->min_caps || lo < r->min_caps)
        r->min_caps = lo;
    r->runs_done += p->runs_seen ? p->runs_seen : 1;
    p->runs_seen = 0;
    p->cap_creates = 0;
    p->max_sample_cap = 0;
    memset(p->capset_osproc, 0, sizeof p->capset_osproc);
    memset(p->capset_caps, 0, sizeof p->capset_caps);
    /* the facts of time are each log's own: its span adds up */
    r->span_sum += log_span(p);
    if (r->num_logs == 2 && p->info.has_wall_clock) {
        r->has_first_wall = 1;
        r->first_wall_sec = p->info.wall_sec;
    }
    p->info.first_time = UINT64_MAX;
    p->info.last_time = 0;
    p->info.has_wall_clock = 0;
    if (r->num_logs == 2) {
        /* fresh ids start above every id the first log used; its defined
         * cost centres are the names the next logs match */
        for (size_t i = 0; i < p->num_ccs; i++) {
            if (p->ccs[i].id >= r->next_id)
                r->next_id = p->ccs[i].id + 1;
            if (p->ccs[i].defined && names_find(p, p->ccs[i].module, p->ccs[i].label,
                                                p->ccs[i].srcloc) == PROF_NONE &&
                names_add(p, (uint32_t)i) != 0) {
                p->failed = 1;
                return -1;
            }
        }
        for (size_t i = 1; i < p->num_nodes; i++)
            if (p->nodes[i].cc >= r->next_id)
                r->next_id = p->nodes[i].cc + 1;
    }
    if (r->map)
        memset(r->map, 0, r->map_size * sizeof *r->map);
    r->map_num = 0;
    return 0;
}

static int runs_define(prof_profile *p, const el_event *ev)
{
    struct prof_runs *r = p->runs;
    el_event e = *ev;
    char *s[3];
    const el_str *f[3] = { &ev->u.cost_centre.module, &ev->u.cost_centre.label,
                           &ev->u.cost_centre.srcloc };
    for (int k = 0; k < 3; k++)
        s[k] = (char *)pool_add(p, f[k]->ptr, f[k]->len);
    if (!s[0] || !s[1] || !s[2])
        return -1;
    uint32_t i = names_find(p, s[0], s[1], s[2]);
    if (i != PROF_NONE)
        return map_put(r, ev->u.cost_centre.id, p->ccs[i].id);
    if (r->next_id == PROF_NONE)
        return -1;
    e.u.cost_centre.id = r->next_id++;
    if (define_cc(p, &e) != 0 || names_add(p, (uint32_t)(p->num_ccs - 1)) != 0)
        return -1;
    return map_put(r, ev->u.cost_centre.id, e.u.cost_centre.id);
}

static int runs_sample(prof_profile *p, const el_event *ev)
{
    struct prof_runs *r = p->runs;
    el_event e = *ev;
    for (unsigned j = 0; j < ev->u.prof_sample.depth; j++) {
        uint32_t id = ev->u.prof_sample.stack[j];
        struct id_slot *sl = r->map_size ? map_slot(r, id) : NULL;
        if (sl && sl->used) {
            r->stack[j] = sl->global;
            continue;
        }
        /* never defined in this log: a placeholder of its own */
        if (r->next_id == PROF_NONE || map_put(r, id, r->next_id) != 0)
            return -1;
        r->stack[j] = r->next_id++;
    }
    e.u.prof_sample.stack = r->stack;
    return add_sample(p, &e);
}

void prof_log_ids(const prof_profile *p, const uint32_t *ids, unsigned depth, uint32_t *out)
{
    const struct prof_runs *r = p->runs;
    for (unsigned j = 0; j < depth; j++) {
        const struct id_slot *sl = runs_translating(p) && r->map_size ? map_slot(r, ids[j]) : NULL;
        out[j] = sl && sl->used ? sl->global : ids[j];
    }
}

/* The current log's time span inside the selection's hull. */
static uint64_t log_span(const prof_profile *p)
{
    if (p->info.first_time > p->info.last_time)
        return 0;
    ev_span w = ev_select_hull(p->sel);
    uint64_t from = p->info.first_time > w.from_ns ? p->info.first_time : w.from_ns;
    uint64_t to = p->info.last_time < w.to_ns ? p->info.last_time : w.to_ns;
    return to > from ? to - from : 0;
}

/* A snapshot's facts of several logs: capabilities the most of any log,
 * the spans summed. */
static void runs_info(const prof_profile *p, prof_info *in)
{
    in->num_logs = p->runs && p->runs->num_logs ? p->runs->num_logs : 1;
    in->span_sum_ns = log_span(p);
    in->num_runs = p->runs_seen ? p->runs_seen : 1;
    in->has_first_wall = in->has_wall_clock;
    in->first_wall_sec = in->wall_sec;
    if (!p->runs)
        return;
    if (p->runs->num_logs > 1) {
        in->has_first_wall = p->runs->has_first_wall;
        in->first_wall_sec = p->runs->first_wall_sec;
    }
    in->span_sum_ns += p->runs->span_sum;
    in->num_runs += p->runs->runs_done;
    if (p->runs->max_caps > in->capabilities)
        in->capabilities = p->runs->max_caps;
    if (p->runs->min_caps && p->runs->min_caps < in->min_capabilities)
        in->min_capabilities = p->runs->min_caps;
}

/* ---- snapshot --------------------------------------------------------- */

/* The result of a snapshot: copies of the nodes, cost centres, strings and
 * facts, so that it outlives the profile and the profile goes on. */
struct prof_result {
    prof_filter filter;
    prof_node *nodes;
    size_t num_nodes;
    uint32_t *order;            /* the linked nodes in print order (prof_preorder) */
    size_t num_order;
    prof_cc *ccs;
    size_t num_ccs, cap_ccs;
    prof_info info;
    strpool strings;
    const char **argv_store;
    const char **run_cmds;
};

void prof_result_destroy(prof_result *r)
{
    if (!r)
        return;
    free(r->nodes);
    free(r->order);
    free(r->ccs);
    free(r->argv_store);
    free(r->run_cmds);
    tx_strpool_destroy(&r->strings);
    free(r);
}

/* Children are ordered by inherited ticks descending, then by label,
 * module and id of their cost centres. The names are compared once, in a
 * sort of the cost centres that gives each its rank (equal names and ids:
 * equal ranks), so that ordering children compares two integers. */
typedef struct kid {
    uint64_t inherited;
    uint32_t rank;
    uint32_t node;
} kid;

static int cmp_cc_names(const prof_cc *cx, const prof_cc *cy)
{
    int c = strcmp(cx->label, cy->label);
    if (c)
        return c;
    c = strcmp(cx->module, cy->module);
    if (c)
        return c;
    return cx->id < cy->id ? -1 : cx->id > cy->id;
}

typedef struct named {
    const prof_cc *cc;
    uint32_t index;
} named;

static int cmp_named(const void *a, const void *b)
{
    const named *x = a, *y = b;
    int c = cmp_cc_names(x->cc, y->cc);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* rank[i] of cost centre i in ccs[0..n): on entry 1 for the ones some
 * node names, 0 for the rest; on return the named ones' places in name
 * order (equal names, equal places; the others stay 0 and are never
 * compared): a log may define millions of cost centres and sample a few
 * (the hostile-ccs bench log: sorting all 10M names took most of its
 * 12 s). -1 when out of memory. */
static int rank_used(const prof_cc *ccs, size_t n, uint32_t *rank)
{
    size_t used = 0;
    for (size_t i = 0; i < n; i++)
        used += rank[i];
    named *by = malloc((used ? used : 1) * sizeof *by);
    if (!by)
        return -1;
    for (size_t i = 0, k = 0; i < n; i++)
        if (rank[i])
            by[k++] = (named){ &ccs[i], (uint32_t)i };
    qsort(by, used, sizeof *by, cmp_named);
    uint32_t r = 0;
    for (size_t i = 0; i < used; i++) {
        if (i > 0 && cmp_cc_names(by[i - 1].cc, by[i].cc) != 0)
            r++;
        rank[by[i].index] = r;
    }
    free(by);
    return 0;
}

/* keyed: inherited holds one key, ascending (see the snapshot's fill) */
static inline int kid_before(const kid *x, const kid *y, int keyed)
{
    if (keyed)
        return x->inherited < y->inherited;
    return x->inherited != y->inherited ? x->inherited > y->inherited : x->rank < y->rank;
}

/* Stable sort of a[0..n) with scratch tmp[0..n): insertion for short
 * runs, merging above. */
static void sort_kids(kid *a, kid *tmp, size_t n, int keyed)
{
    if (n <= 16) {
        for (size_t i = 1; i < n; i++) {
            kid x = a[i];
            size_t j = i;
            for (; j > 0 && kid_before(&x, &a[j - 1], keyed); j--)
                a[j] = a[j - 1];
            a[j] = x;
        }
        return;
    }
    size_t h = n / 2;
    sort_kids(a, tmp, h, keyed);
    sort_kids(a + h, tmp, n - h, keyed);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n)
        tmp[k++] = kid_before(&a[j], &a[i], keyed) ? a[j++] : a[i++];
    while (i < h)
        tmp[k++] = a[i++];
    while (j < n)
        tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

/* The children of parents [lo, hi) sorted and linked (the snapshot's
 * lists: kids, end; tmp: scratch for the longest list). */
typedef struct sort_part {
    prof_node *nodes;
    kid *kids, *tmp;
    const uint32_t *end;
    size_t lo, hi;
    int keyed;
} sort_part;

static void sort_range(const sort_part *sp)
{
    prof_node *nodes = sp->nodes;
    const uint32_t *end = sp->end;
    kid *kids = sp->kids;
    /* pf: the children whose nodes are fetched ahead, for the links (the
     * sort permutes a parent's children only) */
    size_t from = sp->lo ? end[sp->lo - 1] : 0, pf = from;
    size_t stop = sp->hi > sp->lo ? end[sp->hi - 1] : from;    /* this part's own */
    for (size_t i = sp->lo; i < sp->hi; from = end[i], i++) {
        size_t n = end[i] - from;
        kid *k = kids + from;
        if (n == 0) {
            nodes[i].first_child = PROF_NONE;
            continue;
        }
        for (; pf < stop && pf < end[i] + 16; pf++)
            TX_PREFETCH(&nodes[kids[pf].node]);
        sort_kids(k, sp->tmp, n, sp->keyed);
        nodes[i].first_child = k[0].node;
        for (size_t j = 0; j + 1 < n; j++)
            nodes[k[j].node].next_sibling = k[j + 1].node;
        nodes[k[n - 1].node].next_sibling = PROF_NONE;
    }
}

static void *sort_thread(void *arg)
{
    sort_range(arg);
    return NULL;
}

/* Whether a node of the snapshot leaves its parent's list (its inherited
 * ticks final): without --all, a built-in stack under MAIN left without
 * ticks; under focus/ignore, any stack left without ticks. */
static inline int leaves_tree(const prof_result *r, const prof_node *nd, int focused)
{
    return nd->inherited == 0 &&
           (focused || (nd->parent == 0 && !r->filter.all && r->ccs[nd->cc].builtin));
}

/* A cost centre appended to the result's table; NULL when out of memory. */
static prof_cc *result_cc(prof_result *r, uint32_t id, const char *label, const char *module,
                          const char *src)
{
    if (r->num_ccs == r->cap_ccs) {
        size_t cap = r->cap_ccs ? r->cap_ccs * 2 : 256;
        prof_cc *n = realloc(r->ccs, cap * sizeof *n);
        if (!n)
            return NULL;
        r->ccs = n;
        r->cap_ccs = cap;
    }
    prof_cc *cc = &r->ccs[r->num_ccs];
    memset(cc, 0, sizeof *cc);
    cc->id = id;
    cc->label = tx_strpool_add(&r->strings, label, (uint32_t)strlen(label));
    cc->module = tx_strpool_add(&r->strings, module, (uint32_t)strlen(module));
    cc->srcloc = tx_strpool_add(&r->strings, src, (uint32_t)strlen(src));
    if (!cc->label || !cc->module || !cc->srcloc)
        return NULL;
    r->num_ccs++;
    return cc;
}

static const char *copy_str(prof_result *r, const char *s)
{
    return s ? tx_strpool_add(&r->strings, s, (uint32_t)strlen(s)) : NULL;
}

/* The facts, with every string copied into the result. */
static int copy_info(prof_result *r, const prof_profile *p)
{
    r->info = p->info;
    r->info.program = copy_str(r, p->info.program);
    r->info.rts_version = copy_str(r, p->info.rts_version);
    if (!r->info.program || !r->info.rts_version)
        return -1;
    r->info.run_cmds = NULL;
    r->info.num_run_cmds = 0;
    if (p->num_run_cmds) {
        if (!(r->run_cmds = calloc(p->num_run_cmds, sizeof *r->run_cmds)))
            return -1;
        for (uint32_t i = 0; i < p->num_run_cmds; i++)
            if (!(r->run_cmds[i] = copy_str(r, p->run_cmds[i])))
                return -1;
        r->info.run_cmds = r->run_cmds;
        r->info.num_run_cmds = p->num_run_cmds;
    }
    uint32_t argc = p->info.argc;
    if (!p->argv_store)
        return 0;
    const char **v = calloc(argc ? 3 * (size_t)argc : 1, sizeof *v);
    if (!v)
        return -1;
    r->argv_store = v;
    for (uint32_t i = 0; i < 3 * argc; i++)
        if (p->argv_store[i] && !(v[i] = copy_str(r, p->argv_store[i])))
            return -1;
    r->info.argv = v;
    r->info.rts_args = v + argc;
    r->info.args = v + 2 * argc;
    if (argc) {
        const char *slash = strrchr(v[0], '/');
        r->info.program = slash ? slash + 1 : v[0];
    }
    return 0;
}

int prof_match_ccs(const prof_result *r, const char *pattern, uint8_t *match, uint8_t bit,
                   char *err, size_t errsize)
{
    regex_t re;
    int rc = regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB);
    if (rc != 0) {
        char msg[200];
        regerror(rc, &re, msg, sizeof msg);
        if (errsize)
            snprintf(err, errsize, "'%s': %s", pattern, msg);
        return rc == REG_ESPACE ? -2 : -1;
    }
    char *text = NULL;
    size_t cap = 0;
    int st = 0;
    for (size_t i = 0; i < r->num_ccs; i++) {
        const prof_cc *cc = &r->ccs[i];
        size_t lm = strlen(cc->module), ll = strlen(cc->label);
        if (lm + ll + 2 > cap) {
            cap = (lm + ll + 2) * 2;
            char *t = realloc(text, cap);
            if (!t) {
                st = -2;
                break;
            }
            text = t;
        }
        memcpy(text, cc->module, lm);
        text[lm] = '.';
        memcpy(text + lm + 1, cc->label, ll + 1);
        if (regexec(&re, text, 0, NULL, 0) == 0)
            match[i] |= bit;
    }
    if (st == -2 && errsize)
        snprintf(err, errsize, "out of memory");
    free(text);
    regfree(&re);
    return st;
}

/* --focus/--ignore: the ticks of a stack stay when a frame of its path
 * matches focus (if given) and none matches ignore; the others count as
 * filtered. Parents come before their children in the node table, so one
 * pass carries each path's state down. Returns 0 or -1 (memory; a bad
 * regex was refused by prof_filter_check, and keeps nothing here). */
static int apply_focus(prof_result *r)
{
    enum { FOCUS = 1, IGNORE = 2 };
    uint8_t *m = calloc(r->num_ccs ? r->num_ccs : 1, 1);
    uint8_t *st = malloc(r->num_nodes ? r->num_nodes : 1);
    char err[8];
    int rc = 0;

    if (!m || !st)
        rc = -1;
    if (rc == 0 && r->filter.focus &&
        prof_match_ccs(r, r->filter.focus, m, FOCUS, err, 0) == -2)
        rc = -1;
    if (rc == 0 && r->filter.ignore &&
        prof_match_ccs(r, r->filter.ignore, m, IGNORE, err, 0) == -2)
        rc = -1;
    for (size_t i = 0; rc == 0 && i < r->num_nodes; i++) {
        prof_node *nd = &r->nodes[i];
        st[i] = (uint8_t)((nd->parent == PROF_NONE ? 0 : st[nd->parent]) | m[nd->cc]);
        int keep = (!r->filter.focus || (st[i] & FOCUS)) && !(st[i] & IGNORE);
        if (!keep) {
            r->info.filtered_ticks += nd->ticks;
            nd->ticks = 0;
        }
    }
    free(m);
    free(st);
    return rc;
}

static prof_result *snapshot(prof_profile *p, int all, int take);

prof_result *prof_snapshot(const prof_profile *p)
{
    return p ? prof_snapshot_all(p, p->filter.all) : NULL;
}

prof_result *prof_snapshot_all(const prof_profile *p, int all)
{
    return snapshot((prof_profile *)p, all, 0);   /* take = 0: p is only read */
}

prof_result *prof_snapshot_take(prof_profile *p, int all)
{
    return snapshot(p, all, 1);
}

/* r->order: the nodes in print order, from the sorted child lists kids
 * (the children of node i at kids[end[i - 1] .. end[i]), of the root at
 * kids[0 .. end[0])) and sz, each node's subtree size (1 + its listed
 * children's: counted by the snapshot's pass up). Not a walk (a random
 * access per node, in big arrays): one pass down the lists in table
 * order, in which a parent comes before its children: a parent's first
 * child comes right after it in print order, each next child after the
 * subtree of the one before. sz[] then holds a node's place once its
 * parent has placed it; a node no list reaches from the root (in[] 0) is
 * never placed. The printers then go down this list in order and fetch
 * the nodes ahead. sz is the caller's, used up here. */
static int preorder(prof_result *r, const kid *kids, const uint32_t *end, uint32_t *sz)
{
    size_t nn = r->num_nodes;
    uint8_t *in = calloc(nn ? nn : 1, 1);

    r->order = malloc((nn ? nn : 1) * sizeof *r->order);
    if (!in || !r->order) {
        free(in);
        return -1;
    }
    tx_huge_hint(in, nn);
    tx_huge_hint(r->order, nn * sizeof *r->order);
    r->num_order = sz[0];
    sz[0] = 0;
    in[0] = 1;
    r->order[0] = 0;
    for (size_t i = 0; i < nn; i++) {
        if (!in[i])
            continue;
        uint32_t at = sz[i] + 1;
        for (uint32_t j = i ? end[i - 1] : 0; j < end[i]; j++) {
            uint32_t k = kids[j].node;
            if (j + 8 < end[i])
                TX_PREFETCH(&sz[kids[j + 8].node]);
            uint32_t size = sz[k];
            sz[k] = at;
            in[k] = 1;
            r->order[at] = k;
            at += size;
        }
    }
    free(in);
    return 0;
}

/* take: the last snapshot; the lookup tables go first and the nodes move
 * into the result instead of being copied, so the peak memory is the
 * tree's once, as without snapshots. */
static prof_result *snapshot(prof_profile *p, int all, int take)
{
    prof_result *r;

    if (p && !p->failed)
        sc_flush(p);    /* the ticks as they are: not a change to p */
    tx_htab undef = { 0 };      /* undefined ids met: id -> index into r->ccs */
    kid *kids = NULL;
    uint32_t *rank = NULL;
    uint32_t *end = NULL;       /* per parent: where its children end in kids */
    uint32_t *sz = NULL;        /* per node: its subtree's size, then its place */

    if (!p || p->failed || !(r = calloc(1, sizeof *r)))
        return NULL;
    if (take) {
        uncharge(p, p->num_slots * sizeof *p->slots);
        free(p->slots);
        p->slots = NULL;
        p->num_slots = 0;
        sc_drop(p);
        p->failed = 1;      /* no events after this */
    }
    r->filter = p->filter;
    r->filter.all = all;
    tx_strpool_init(&r->strings);
    if (take) {
        /* the cost centres and their strings move too (every string of
         * the profile is in its pool, which the result then owns) */
        r->strings = p->strings;
        tx_strpool_init(&p->strings);
        r->ccs = p->ccs;
        r->num_ccs = p->num_ccs;
        r->cap_ccs = p->cap_ccs;
        p->ccs = NULL;
        p->cap_ccs = 0;     /* num_ccs stays: the id table indexes r->ccs now */
    }
    /* the profile's cost centres: p->ccs, or r->ccs once taken */
#define PCCS (take ? (const prof_cc *)r->ccs : (const prof_cc *)p->ccs)
    if (copy_info(r, p) != 0)
        goto nomem;

    /* cost centres: the profile's, in its order (indices stay) */
    uint32_t main_index = PROF_NONE;
    for (size_t i = 0; i < p->num_ccs; i++) {
        prof_cc *cc;
        if (take) {
            cc = &r->ccs[i];
        } else {
            const prof_cc *src = &p->ccs[i];
            cc = result_cc(r, src->id, src->label, src->module, src->srcloc);
            if (!cc)
                goto nomem;
            cc->is_caf = src->is_caf;
            cc->builtin = src->builtin;
            cc->defined = src->defined;
        }
        if (strcmp(cc->label, "MAIN") == 0 && strcmp(cc->module, "MAIN") == 0)
            main_index = (uint32_t)i;
    }
    if (main_index == PROF_NONE) {
        prof_cc *cc = result_cc(r, 0, "MAIN", "MAIN", "<built-in>");
        if (!cc)
            goto nomem;
        cc->synthetic = cc->defined = 1;
        main_index = (uint32_t)(r->num_ccs - 1);
    }

    /* nodes: ids -> table indices; undefined ids get a placeholder */
    r->num_nodes = p->num_nodes;
    if (take) {
        r->nodes = p->nodes;
        p->nodes = NULL;
        p->num_nodes = p->cap_nodes = 0;
    } else {
        if (!(r->nodes = malloc(p->num_nodes * sizeof *r->nodes)))
            goto nomem;
        memcpy(r->nodes, p->nodes, p->num_nodes * sizeof *r->nodes);
    }
    size_t nn = r->num_nodes;
    int focused = r->filter.focus || r->filter.ignore;

    /* GHC's -p drops the built-in stacks MAIN/GC, MAIN/SYSTEM, ...: their
     * ticks go before the passes below add them up (the root's children,
     * their ids not yet table indices; the cut marker is none of them) */
    for (uint32_t c = r->nodes[0].first_child; c != PROF_NONE; c = r->nodes[c].next_sibling) {
        prof_node *nd = &r->nodes[c];
        if (c == p->cut_node || r->filter.all)
            continue;
        uint32_t k = cc_index(p, PCCS, nd->cc);
        if (k == TX_HTAB_NONE || !PCCS[k].builtin)
            continue;
        r->info.ignored_ticks += nd->ticks;
        nd->ticks = 0;
    }

    /* Few passes over the big node table, in table order (a parent
     * before its children). Down: ids -> indices, the cost centres some
     * node names (for their ranks), inherited = ticks and the total. Up:
     * inherited ticks into the parent; a node's own are then final, so
     * whether it stays a child (goes, below) is known there and its
     * parent's count of children taken. */
    uint64_t total = 0;
    if (!(rank = calloc(r->num_ccs + 2, sizeof *rank)))   /* + placeholders, cut */
        goto nomem;
    for (size_t i = 1; i < nn; i++) {
        prof_node *nd = &r->nodes[i];
        if ((uint32_t)i == p->cut_node)
            continue;
        uint32_t k = cc_index(p, PCCS, nd->cc);
        if (k == TX_HTAB_NONE) {
            k = htab_cc_index(&undef, r->ccs, nd->cc);
            if (k == TX_HTAB_NONE) {
                char label[48];
                snprintf(label, sizeof label, "<undefined cc %u>", nd->cc);
                prof_cc *cc = result_cc(r, nd->cc, label, "<unknown>", "<no 161 event: GHC #24148>");
                k = (uint32_t)(r->num_ccs - 1);
                if (!cc || tx_htab_insert(&undef, hash_mix64(nd->cc), k) != 0)
                    goto nomem;
                r->info.undefined_ccs++;
                uint32_t *nr = realloc(rank, (r->num_ccs + 2) * sizeof *rank);
                if (!nr)
                    goto nomem;
                rank = nr;
                rank[k] = rank[k + 1] = rank[k + 2] = 0;
            }
        }
        nd->cc = k;
        rank[k] = 1;
        nd->inherited = nd->ticks;
        total += nd->ticks;
    }
    tx_htab_free(&undef);
    r->nodes[0].cc = main_index;
    rank[main_index] = 1;
    r->nodes[0].inherited = r->nodes[0].ticks;
    total += r->nodes[0].ticks;
    if (p->cut_node != PROF_NONE) {
        prof_cc *cc = result_cc(r, 0, "<stack cut at 255 frames>", "<evprof>", "<root frames lost>");
        if (!cc)
            goto nomem;
        cc->synthetic = cc->defined = 1;
        prof_node *nd = &r->nodes[p->cut_node];
        nd->cc = (uint32_t)(r->num_ccs - 1);
        rank[nd->cc] = 1;
        nd->inherited = nd->ticks;
        total += nd->ticks;
    }

    if (focused) {
        /* focus/ignore zero ticks by the names: a pass of their own, and
         * the sums again */
        if (apply_focus(r) != 0)
            goto nomem;
        total = 0;
        for (size_t i = 0; i < nn; i++) {
            r->nodes[i].inherited = r->nodes[i].ticks;
            total += r->nodes[i].ticks;
        }
    }
    r->info.total_ticks = total;

    /* Children are listed afresh, in order: inherited ticks descending,
     * then label, module, id. Each node is its parent's child (new_node
     * links every node), except those that go: without --all, the
     * built-in stacks under MAIN left without ticks; under focus/ignore,
     * every stack left without ticks. The children of each parent are
     * gathered by a counting sort on the parent, one pass in table order
     * rather than a walk of every sibling list through a big table. */
    if (!(end = calloc(nn + 1, sizeof *end)) || !(sz = calloc(nn ? nn : 1, sizeof *sz)))
        goto nomem;
    tx_huge_hint(end, (nn + 1) * sizeof *end);
    tx_huge_hint(sz, nn * sizeof *sz);
    for (size_t i = nn; i-- > 1;) {
        prof_node *nd = &r->nodes[i];
        r->nodes[nd->parent].inherited += nd->inherited;
        int goes = leaves_tree(r, nd, focused);
        sz[i]++;            /* its listed children's are in: its subtree's size */
        if (!goes) {
            end[nd->parent + 1]++;
            sz[nd->parent] += sz[i];
        }
    }
    if (nn)
        sz[0]++;
    if (rank_used(r->ccs, r->num_ccs, rank) != 0)
        goto nomem;
    size_t max_kids = 0;
    for (size_t i = 0; i < nn; i++) {
        if (end[i + 1] > max_kids)
            max_kids = end[i + 1];
        end[i + 1] += end[i];
    }
    size_t num_kids = end[nn];
    if (!(kids = malloc((num_kids + 2 * max_kids + 1) * sizeof *kids)))   /* + 2 scratch */
        goto nomem;
    tx_huge_hint(kids, (num_kids + 2 * max_kids + 1) * sizeof *kids);
    /* Below 2^32 ticks in all (every log yet) the order is one number,
     * compared once: (2^32 - 1 - inherited) above the rank. */
    int keyed = total <= UINT32_MAX;
    for (size_t i = 1; i < nn; i++) {       /* end[p] moves to p's end */
        const prof_node *nd = &r->nodes[i];
        int goes = leaves_tree(r, nd, focused);
        if (goes)
            continue;
        kids[end[nd->parent]++] =
            keyed ? (kid){ (uint64_t)(UINT32_MAX - (uint32_t)nd->inherited) << 32 | rank[nd->cc],
                           0, (uint32_t)i }
                  : (kid){ nd->inherited, rank[nd->cc], (uint32_t)i };
    }
    /* Sorted and linked on two threads when the profile may use them and
     * the lists are long enough to pay for one: the parents cut where
     * half the children are (each parent's list and its children's links
     * are its own). */
    sort_part parts[2] = {
        { r->nodes, kids, kids + num_kids, end, 0, nn, keyed },
        { r->nodes, kids, kids + num_kids + max_kids, end, nn, nn, keyed },
    };
    pthread_t sorter;
    int sorting = 0;
    if (p->jobs > 1 && num_kids >= SORT_SPLIT_MIN) {
        size_t lo = 0, hi = nn;     /* the first parent whose list ends past half */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (end[mid] < num_kids / 2)
                lo = mid + 1;
            else
                hi = mid;
        }
        parts[0].hi = parts[1].lo = lo;
        sorting = pthread_create(&sorter, NULL, sort_thread, &parts[1]) == 0;
        if (!sorting)
            parts[0].hi = nn;
    }
    sort_range(&parts[0]);
    if (sorting)
        pthread_join(sorter, NULL);
    if (preorder(r, kids, end, sz) != 0)
        goto nomem;
    free(kids);
    free(rank);
    free(end);
    free(sz);
    kids = NULL;
    rank = NULL;
    end = NULL;
    sz = NULL;

    /* synthetic frames get ids above GHC's, so JSON ids stay unique */
    uint32_t max_id = 0;
    for (size_t i = 0; i < r->num_ccs; i++)
        if (!r->ccs[i].synthetic && r->ccs[i].id > max_id)
            max_id = r->ccs[i].id;
    for (size_t i = 0; i < r->num_ccs; i++)
        if (r->ccs[i].synthetic)
            r->ccs[i].id = ++max_id;

#undef PCCS
    run_caps(p, &r->info.min_capabilities, &r->info.capabilities);
    runs_info(p, &r->info);
    if (r->info.first_time == UINT64_MAX)
        r->info.first_time = 0;
    return r;

nomem:
    free(kids);
    free(rank);
    free(end);
    free(sz);
    tx_htab_free(&undef);
    prof_result_destroy(r);
    return NULL;
}

/* ---- totals per cost centre ------------------------------------------------ */

typedef struct totals_walk {
    const prof_result *r;
    prof_cc_total *t;
    uint32_t *on_path;          /* per cost centre: frames of it on the current path */
} totals_walk;

static int totals_enter(void *ctx, uint32_t n)
{
    totals_walk *w = ctx;
    const prof_node *nd = &w->r->nodes[n];
    prof_cc_total *t = &w->t[nd->cc];
    t->ticks += nd->ticks;
    /* inherited: once per stack, however often the cost centre recurs in it */
    if (w->on_path[nd->cc]++ == 0)
        t->inherited += nd->inherited;
    return 0;
}

static int totals_leave(void *ctx, uint32_t n)
{
    totals_walk *w = ctx;
    w->on_path[w->r->nodes[n].cc]--;
    return 0;
}

static int by_ticks(const void *a, const void *b)
{
    const prof_cc_total *x = a, *y = b;
    if (x->ticks != y->ticks)
        return x->ticks > y->ticks ? -1 : 1;
    if (x->inherited != y->inherited)
        return x->inherited > y->inherited ? -1 : 1;
    return (x->cc > y->cc) - (x->cc < y->cc);
}

prof_cc_total *prof_cc_totals(const prof_result *r, size_t *n)
{
    totals_walk w = { r, calloc(r->num_ccs ? r->num_ccs : 1, sizeof *w.t),
                      calloc(r->num_ccs ? r->num_ccs : 1, sizeof *w.on_path) };
    *n = 0;
    if (!w.t || !w.on_path) {
        free(w.t);
        free(w.on_path);
        return NULL;
    }
    for (size_t i = 0; i < r->num_ccs; i++)
        w.t[i].cc = (uint32_t)i;
    prof_walk(r, totals_enter, totals_leave, &w);
    free(w.on_path);
    size_t k = 0;
    for (size_t i = 0; i < r->num_ccs; i++)
        if (w.t[i].inherited)
            w.t[k++] = w.t[i];
    qsort(w.t, k, sizeof *w.t, by_ticks);
    *n = k;
    return w.t;
}

/* ---- analysis ops ------------------------------------------------------- */

static const uint16_t prof_types[] = {
    EL_PROF_SAMPLE_COST_CENTRE, EL_HEAP_PROF_COST_CENTRE, EL_PROF_BEGIN, EL_CAP_CREATE,
    EL_PROGRAM_ARGS, EL_RTS_IDENTIFIER, EL_WALL_CLOCK_TIME, EL_CAPSET_CREATE,
    EL_CAPSET_ASSIGN_CAP,
};

static int prof_op_event(void *self, const el_event *ev, const ev_stream *s)
{
    prof_profile *p = self;
    if (s->budget != p->mem.budget && s->budget)
        prof_set_budget(p, s->budget);
    return prof_add_event(p, ev) != 0;
}

static void prof_op_end(void *self, const ev_stream *s)
{
    ((prof_profile *)self)->sel = s->select;
    if (s->read.has_time_span)
        prof_set_time_span(self, s->read.first_time, s->read.last_time);
}

static void *prof_op_snapshot(void *self) { return prof_snapshot(self); }
static void prof_op_release(void *snap) { prof_result_destroy(snap); }
static void *prof_op_fork(void *self) { return prof_fork(self); }
static int prof_op_merge(void *self, void *part) { return prof_merge(self, part); }
static void prof_op_drop(void *part) { prof_destroy(part); }

static int prof_op_holds(const void *self, char *buf, size_t size)
{
    prof_counts c;
    prof_count(self, &c);
    snprintf(buf, size, "the time profile holds %llu cost centres, %llu distinct stacks, "
             "%llu tree nodes in %.1f MiB", (unsigned long long)c.ccs,
             (unsigned long long)c.stacks, (unsigned long long)c.nodes,
             (double)c.bytes / (1 << 20));
    /* without samples (one of several analyses, as in top): noise */
    return c.ccs || c.stacks || c.bytes >= (1u << 20);
}

const ev_analysis_ops prof_analysis_ops = {
    .name = "time profile",
    .types = prof_types,
    .num_types = sizeof prof_types / sizeof prof_types[0],
    .event = prof_op_event,
    .end = prof_op_end,
    .snapshot = prof_op_snapshot,
    .release = prof_op_release,
    .fork = prof_op_fork,
    .merge = prof_op_merge,
    .drop = prof_op_drop,
    .holds = prof_op_holds,
    .bounded_by = "report --max-depth N bounds the tree and --threshold PCT the report",
};

/* ---- accessors -------------------------------------------------------- */

int prof_failed(const prof_profile *p) { return p->failed; }

int prof_walk(const prof_result *p, prof_visit_fn enter, prof_visit_fn leave, void *ctx)
{
    /* down the print order, fetching nodes ahead; a node is left when
     * the next one is no deeper (the tree is at most EL_MAX_STACK + 2
     * deep: the root, the cut marker, 255 frames) */
    uint32_t path[EL_MAX_STACK + 3];
    size_t top = 0;
    for (size_t i = 0; i < p->num_order; i++) {
        if (i + 16 < p->num_order)
            TX_PREFETCH(&p->nodes[p->order[i + 16]]);
        uint32_t v = p->order[i], d = p->nodes[v].depth;
        while (top > d) {
            top--;
            if (leave && leave(ctx, path[top]) != 0)
                return -1;
        }
        if (d != top || top == sizeof path / sizeof *path)
            return -1;      /* never: depth is the parent's + 1 */
        if (enter(ctx, v) != 0)
            return -1;
        path[top++] = v;
    }
    while (top) {
        top--;
        if (leave && leave(ctx, path[top]) != 0)
            return -1;
    }
    return 0;
}

size_t prof_num_nodes(const prof_result *p) { return p->num_nodes; }
const uint32_t *prof_preorder(const prof_result *p, size_t *n)
{
    *n = p->num_order;
    return p->order;
}
const prof_node *prof_node_at(const prof_result *p, uint32_t i)
{
    return i < p->num_nodes ? &p->nodes[i] : NULL;
}
const prof_node *prof_nodes(const prof_result *p) { return p->nodes; }
size_t prof_num_ccs(const prof_result *p) { return p->num_ccs; }
const prof_cc *prof_cc_at(const prof_result *p, uint32_t i)
{
    return i < p->num_ccs ? &p->ccs[i] : NULL;
}
const prof_info *prof_get_info(const prof_result *p) { return &p->info; }
