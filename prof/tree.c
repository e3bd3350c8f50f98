/* The cost-centre-stack tree while a profile aggregates: nodes, the child
 * table, the stack cache and the walk of each sample down the tree (the
 * hot path of `report`: every function a sample meets is in this file,
 * so that they inline into prof_tree_add_sample).
 *
 * Nodes live in one array; a node's children are found through an
 * open-addressing table keyed by (parent node, cost-centre id). That costs
 * 12 bytes per slot instead of a hash handle per node (uthash's is 56
 * bytes), which is what keeps 1.7 million distinct stack nodes well under
 * 256 MB. Consecutive samples of a capability usually share the outer
 * part of their stack, so each capability's previous path is kept and
 * only the differing inner frames are looked up; below the first new node
 * every frame is new, and is created without a lookup.
 *
 * The child table and the stack cache are this file's own tables, not
 * util/htab.h: they are the hot path (a probe per frame of every sample
 * not in the cache, one cache probe per sample), measured on the bench
 * logs. The child slot holds the whole key (parent, cc) so that a probe
 * never visits the node, and a cache entry holds the stack's full 64-bit
 * hash and its arena offset; the general table's (hash, index) slot plus
 * an equality callback would add a visit to the caller's array per probe.
 */
#include "prof/internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline uint32_t path_pos(uint64_t path_hash)
{
    return (uint32_t)hash_mix64(path_hash);
}

/* A charge for the stack cache, which can do without: refused, it only
 * stops caching. */
static int charge_optional(prof_profile *p, size_t bytes)
{
    if (ev_account_try(&p->mem, bytes) != 0)
        return -1;
    p->sc_charged += bytes;
    return 0;
}

static void uncharge_sc(prof_profile *p, size_t bytes)
{
    prof_uncharge(p, bytes);
    p->sc_charged -= bytes;
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
            TX_PREFETCH(&s[(size_t)PROF_NODE_POS(&p->nodes[i + 16]) & (n - 1)]);
        if ((uint32_t)i == p->cut_node)
            continue;
        size_t k = (size_t)PROF_NODE_POS(nd) & (n - 1);
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
    if (prof_charge(p, n * sizeof(struct child_slot)) != 0)
        return -1;
    struct child_slot *s = tx_table_alloc(n, sizeof *s);

    if (!s) {
        prof_uncharge(p, n * sizeof *s);
        return -1;
    }
    put_slots(p, s, n, 1);
    free(p->slots);
    prof_uncharge(p, p->num_slots * sizeof *s);
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
        if (prof_charge(p, (cap - p->cap_nodes) * sizeof(prof_node)) != 0)
            return PROF_NONE;
        prof_node *n = realloc(p->nodes, cap * sizeof *n);
        if (!n) {
            prof_uncharge(p, (cap - p->cap_nodes) * sizeof *n);
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
    PROF_NODE_POS(nd) = 0;
    nd->depth = parent == PROF_NONE ? 0 : p->nodes[parent].depth + 1;
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
        PROF_NODE_POS(&p->nodes[i]) = pos;
    }
    return i;
}

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

/* The child of `parent` for cost-centre id `cc` (pos: path_pos of its
 * path), created if new (then *created is set). */
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

/* A stack that differs from its capability's previous one in at most
 * this many innermost frames takes the walk, not the cache (prof_tree_add_sample):
 * the walk fetches the slots of all its levels at once, so a few levels
 * cost about what the cache's probe and stored stack do, without the
 * hash of every frame and the copy of a stack that is often new.
 * Measured (report -j 1, 2026-11-27), 2 / 8 / 16 / every shared prefix:
 * hard 0.65 / 0.61 / 0.62 / 0.61 s; repeat 1.46-1.52 / 1.51 / 1.55 / 3.30 s
 * (deep pool stacks sharing long prefixes: many probes); synth1g 2.45 /
 * 2.46 s (2.88 s with none). */
#define NEAR_FRAMES 8u


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

void prof_sc_flush(prof_profile *p)
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
void prof_sc_drop(prof_profile *p)
{
    prof_sc_flush(p);
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

/* ---- samples ---------------------------------------------------------- */

int prof_tree_add_sample(prof_profile *p, const el_event *ev)
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

/* ---- merging a partial's tree ------------------------------------------ */

/* q's tree into p's: q's nodes in q's creation order (parents first), each
 * found or created under its parent's image. Nodes that are new to p are
 * so appended in the order q made them, which is the order of their first
 * sample in q's stretch of the log: after p's stretch, that is their first
 * sample in the whole log, the order one sequential read creates them in
 * (children lists, and so ties in a snapshot, follow it).
 *
 * Only the nodes p had
 * before are looked up in the child table (q's paths are distinct, so no
 * two of q's nodes meet the same parent and cost centre here, and a node
 * added here has only added children); the added nodes get their slots
 * when p next needs the table (slots_stale): never, when the merge is the
 * read's last and a snapshot takes the tree. */
int prof_tree_merge(prof_profile *p, const prof_profile *q)
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
            TX_PREFETCH(&p->slots[slot_of(p, (uint32_t)PROF_NODE_POS(&q->nodes[i + 16]))]);
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
                n = find_child(p, parent, qn->cc, (uint32_t)PROF_NODE_POS(qn), &empty);
            if (n == PROF_NONE) {
                if ((n = new_node(p, parent, qn->cc)) == PROF_NONE) {
                    free(img);
                    return -1;
                }
                PROF_NODE_POS(&p->nodes[n]) = PROF_NODE_POS(qn);
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

/* ---- life --------------------------------------------------------------- */

int prof_tree_init(prof_profile *p)
{
    p->cut_node = PROF_NONE;
    p->sc_cap = SC_MAX_BYTES;
    p->cap_paths = calloc(CAP_PATHS, sizeof *p->cap_paths);
    if (!p->cap_paths || grow_slots(p) != 0 || new_node(p, PROF_NONE, 0) != 0)
        return -1;
    return 0;
}

void prof_tree_drop_slots(prof_profile *p)
{
    prof_uncharge(p, p->num_slots * sizeof *p->slots);
    free(p->slots);
    p->slots = NULL;
    p->num_slots = 0;
}
